// A Redis-backed rate limiter that does not ask Redis on every request. While a key is well inside
// its budget (at most half of it used, as last seen in Redis under STALE_MS ago) this process
// counts requests locally and adds them to Redis in the background every SYNC_MS; near the budget,
// with an older view, or for small budgets, every request is counted in Redis before it is
// answered, exactly as rate-limiter-flexible does on its own. A polling integration then costs a
// few Redis calls per second per key instead of one per request.
//
// The price is a bounded overshoot across instances: for up to STALE_MS an instance may admit
// requests the others have not seen yet, but only while the key had used less than half its
// budget, so the budget can be exceeded only by a client sending more than half of it within
// about a second to several instances at once — and then only once, since every request after
// that is counted exactly.
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { logger } from "@/lib/logger";

/** How often local counts are added to the shared store while requests keep coming. */
export const SYNC_MS = 250;
/** How old the shared count may be for a request to be admitted locally. */
export const STALE_MS = 1000;
/** Budgets below this are always counted exactly (sign-in and failed-authentication limits). */
export const LOCAL_MIN_POINTS = 100;
const LOCAL_SHARE = 0.5;
/** Keys remembered at most; forgetting one only means its next request is counted exactly. */
export const MAX_KEYS = 10_000;

interface KeyState {
  /** Points used in the shared store as of `syncedAt`, including this process's flushed ones. */
  consumed: number;
  /** Admitted here and not yet added to the shared store. */
  pending: number;
  resetAt: number;
  syncedAt: number;
}

export interface Consumed {
  limited: boolean;
  consumedPoints: number;
  msBeforeNext: number;
}

export class LocalFirstLimiter {
  private readonly keys = new Map<string, KeyState>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly store: RateLimiterAbstract,
    private readonly points: number,
  ) {}

  /** Counts one request for `key`. Rejects only when the store fails without a fallback. */
  async consume(key: string): Promise<Consumed> {
    const now = Date.now();
    const state = this.keys.get(key);
    if (
      state &&
      this.points >= LOCAL_MIN_POINTS &&
      now < state.resetAt &&
      now - state.syncedAt < STALE_MS &&
      state.consumed + state.pending + 1 <= this.points * LOCAL_SHARE
    ) {
      state.pending += 1;
      this.scheduleFlush();
      return {
        limited: false,
        consumedPoints: state.consumed + state.pending,
        msBeforeNext: state.resetAt - now,
      };
    }
    // Exact: count this request, and whatever is pending here, in the store before answering.
    const points = 1 + (state?.pending ?? 0);
    if (state) state.pending = 0;
    try {
      return this.record(key, await this.store.consume(key, points), now, false);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.record(key, rejection, now, true);
      throw rejection;
    }
  }

  /** Adds every pending count to the store now (tests, shutdown). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    this.flushing = this.flushPending().finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  private record(key: string, result: RateLimiterRes, now: number, limited: boolean): Consumed {
    const msBeforeNext = Math.max(0, result.msBeforeNext);
    const pending = this.keys.get(key)?.pending ?? 0;
    if (this.keys.size >= MAX_KEYS && !this.keys.has(key)) this.forgetIdleKeys(now);
    this.keys.set(key, {
      consumed: result.consumedPoints,
      pending,
      resetAt: now + msBeforeNext,
      syncedAt: now,
    });
    return { limited, consumedPoints: result.consumedPoints + pending, msBeforeNext };
  }

  /** Keys with nothing pending: expired ones first, then the oldest, down to 90 % of MAX_KEYS. */
  private forgetIdleKeys(now: number) {
    for (const [key, state] of this.keys)
      if (state.pending === 0 && now >= state.resetAt) this.keys.delete(key);
    for (const [key, state] of this.keys) {
      if (this.keys.size < MAX_KEYS * 0.9) break;
      if (state.pending === 0) this.keys.delete(key);
    }
  }

  /** How many keys this limiter remembers (tests). */
  get size(): number {
    return this.keys.size;
  }

  private scheduleFlush() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, SYNC_MS);
    this.timer.unref();
  }

  private async flushPending() {
    const now = Date.now();
    const work: Promise<void>[] = [];
    for (const [key, state] of this.keys) {
      if (state.pending === 0) {
        if (now >= state.resetAt) this.keys.delete(key);
        continue;
      }
      const points = state.pending;
      state.pending = 0;
      work.push(
        this.store.penalty(key, points).then(
          (result) => void this.record(key, result, Date.now(), false),
          (error: unknown) => {
            // Redis and its in-memory insurance both failed: keep the counts for the next try.
            const current = this.keys.get(key);
            if (current) current.pending += points;
            logger.warn({ err: error }, "rate limiter could not record requests; will retry");
          },
        ),
      );
    }
    await Promise.all(work);
  }
}
