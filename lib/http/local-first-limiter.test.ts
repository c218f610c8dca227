// The local-first limiter in front of a shared store: how often it asks the store, that nothing it
// admits is lost, and that two instances on one store still keep one budget.
import { RateLimiterMemory } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import { LOCAL_MIN_POINTS, LocalFirstLimiter, MAX_KEYS, SYNC_MS } from "./local-first-limiter";

/** A shared store (in memory here; Redis in production) that counts the calls made to it. */
function sharedStore(points: number, durationSeconds = 60) {
  const store = new RateLimiterMemory({ points, duration: durationSeconds });
  const calls = { consume: 0, penalty: 0 };
  const consume = store.consume.bind(store);
  const penalty = store.penalty.bind(store);
  store.consume = (key, n, options) => (calls.consume++, consume(key, n, options));
  store.penalty = (key, n, options) => (calls.penalty++, penalty(key, n, options));
  return { store, calls, used: async (key: string) => (await store.get(key))?.consumedPoints ?? 0 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("LocalFirstLimiter", () => {
  it("counts every request in the store when the budget is small", async () => {
    const points = LOCAL_MIN_POINTS - 1;
    const { store, calls } = sharedStore(points);
    const limiter = new LocalFirstLimiter(store, points);
    const results = [];
    for (let i = 0; i <= points; i++) results.push(await limiter.consume("k"));
    expect(calls.consume).toBe(points + 1);
    expect(results.filter((r) => r.limited)).toHaveLength(1);
    expect(results.at(-1)).toMatchObject({ limited: true });
  });

  it("asks the store rarely while a key is far from a large budget, and loses no count", async () => {
    const { store, calls, used } = sharedStore(10_000);
    const limiter = new LocalFirstLimiter(store, 10_000);
    for (let i = 0; i < 1000; i++) expect((await limiter.consume("k")).limited).toBe(false);
    expect(calls.consume).toBe(1);
    expect(await used("k")).toBe(1);
    await limiter.flush();
    expect(await used("k")).toBe(1000);
    expect(calls.penalty).toBe(1);
  });

  it("adds local counts to the store in the background", async () => {
    const { store, used } = sharedStore(10_000);
    const limiter = new LocalFirstLimiter(store, 10_000);
    for (let i = 0; i < 50; i++) await limiter.consume("k");
    await sleep(SYNC_MS * 2 + 50);
    expect(await used("k")).toBe(50);
  });

  it("reports what is left of the budget", async () => {
    const { store } = sharedStore(1000);
    const limiter = new LocalFirstLimiter(store, 1000);
    await limiter.consume("k");
    const third = (await limiter.consume("k"), await limiter.consume("k"));
    expect(third).toMatchObject({ limited: false, consumedPoints: 3 });
    expect(third.msBeforeNext).toBeGreaterThan(59_000);
  });

  it("keeps one budget for two instances on one store", async () => {
    const { store, used } = sharedStore(200);
    const a = new LocalFirstLimiter(store, 200);
    const b = new LocalFirstLimiter(store, 200);
    let admitted = 0;
    for (let i = 0; i < 300; i++) if (!(await (i % 2 ? b : a).consume("k")).limited) admitted++;
    expect(admitted).toBe(200);
    await Promise.all([a.flush(), b.flush()]);
    expect(await used("k")).toBeGreaterThanOrEqual(300);
  });

  it("counts exactly once a key has used half its budget", async () => {
    const { store, calls } = sharedStore(200);
    const limiter = new LocalFirstLimiter(store, 200);
    for (let i = 0; i < 100; i++) await limiter.consume("k");
    const before = calls.consume;
    for (let i = 0; i < 10; i++) await limiter.consume("k");
    expect(calls.consume - before).toBe(10);
  });

  it("starts a new window when the old one ends", async () => {
    const { store } = sharedStore(100, 1);
    const limiter = new LocalFirstLimiter(store, 100);
    const results = [];
    for (let i = 0; i < 101; i++) results.push(await limiter.consume("k"));
    expect(results.at(-1)?.limited).toBe(true);
    await sleep(1100);
    expect((await limiter.consume("k")).limited).toBe(false);
  });

  it("remembers a bounded number of keys however many callers there are", async () => {
    const { store } = sharedStore(1000);
    const limiter = new LocalFirstLimiter(store, 1000);
    for (let i = 0; i < MAX_KEYS + 500; i++) await limiter.consume(`203.0.113.${i}`);
    expect(limiter.size).toBeLessThanOrEqual(MAX_KEYS);
    // A forgotten key is simply counted exactly again.
    expect((await limiter.consume("203.0.113.0")).consumedPoints).toBe(2);
  });

  it("passes on a store failure instead of guessing", async () => {
    const { store } = sharedStore(1000);
    store.consume = () => Promise.reject(new Error("store down"));
    await expect(new LocalFirstLimiter(store, 1000).consume("k")).rejects.toThrow("store down");
  });
});
