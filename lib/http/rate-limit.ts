// Rate limiters (rate-limiter-flexible). In-process by default; issue 7 moves them to Redis when
// REDIS_URL is set so that every instance shares one budget.
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

const globalKey = Symbol.for("vetdx.rate-limiters");
type Holder = { [globalKey]?: Map<string, RateLimiterMemory> };

export interface LimiterSpec {
  name: string;
  points: number;
  durationSeconds: number;
  blockSeconds?: number;
}

/** Failed client or password authentications per client IP. */
export const FAILED_AUTHENTICATIONS: LimiterSpec = {
  name: "failed-auth",
  points: 20,
  durationSeconds: 300,
  blockSeconds: 300,
};

function limiter(spec: LimiterSpec): RateLimiterMemory {
  const holder = globalThis as Holder;
  holder[globalKey] ??= new Map();
  let instance = holder[globalKey].get(spec.name);
  if (!instance) {
    instance = new RateLimiterMemory({
      keyPrefix: spec.name,
      points: spec.points,
      duration: spec.durationSeconds,
      blockDuration: spec.blockSeconds ?? 0,
    });
    holder[globalKey].set(spec.name, instance);
  }
  return instance;
}

/** Seconds until `key` may try again, or 0 when it is within its budget (does not consume). */
export async function retryAfterSeconds(spec: LimiterSpec, key: string): Promise<number> {
  const state = await limiter(spec).get(key);
  if (!state || state.consumedPoints <= spec.points) return 0;
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}

/** Records one use; returns the seconds to wait when the budget is exhausted, else 0. */
export async function consume(spec: LimiterSpec, key: string): Promise<number> {
  try {
    await limiter(spec).consume(key);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw rejection;
  }
}

/** The caller's IP as server.ts determined it (socket address, or X-Forwarded-For behind a trusted proxy). */
export function clientIp(request: Request): string {
  return request.headers.get("x-vetdx-client-ip") ?? "unknown";
}
