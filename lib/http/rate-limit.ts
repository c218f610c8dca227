// Rate limits (rate-limiter-flexible): named policies, each a budget of requests per window and
// per key (client IP, or the veterinarian a token acts as). Shared by every instance through Redis
// when REDIS_URL is set; in memory otherwise, and in memory as a fallback while Redis is down, so a
// limiter never fails a request. Limited answers carry Retry-After and the IETF RateLimit and
// RateLimit-Policy headers (draft-ietf-httpapi-ratelimit-headers).
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { getEnv, type RateLimitPolicyName } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { LocalFirstLimiter } from "./local-first-limiter";
import { rateLimitRedis } from "./rate-limit-store";

export interface LimiterSpec {
  name: string;
  points: number;
  durationSeconds: number;
  /** Once the budget is spent, refuse for this long (brute-force policies). */
  blockSeconds?: number;
}

/**
 * The request budgets, generous enough that no person or well-behaved integration meets them;
 * RATE_LIMITS overrides any of them ("api-token=5000/60,mcp-ip=3000/60").
 */
export const DEFAULT_POLICIES: Record<RateLimitPolicyName, { points: number; windowSeconds: number }> = {
  /** REST /v1 per caller (the veterinarian the token acts as: one per machine client, one per person). */
  "api-token": { points: 1200, windowSeconds: 60 },
  /** REST /v1 per client IP, before authentication (several integrations may share a NAT). */
  "api-ip": { points: 2400, windowSeconds: 60 },
  /** /mcp, /sse and /message per caller. */
  "mcp-token": { points: 600, windowSeconds: 60 },
  /** /mcp, /sse and /message per client IP. */
  "mcp-ip": { points: 1200, windowSeconds: 60 },
  /** The MCP authorization server (/register, /authorize, /token, /callback, /consent) per client IP. */
  "oauth-ip": { points: 120, windowSeconds: 60 },
  /** The embedded identity provider's pages and endpoints under /idp per client IP. */
  "idp-ip": { points: 300, windowSeconds: 60 },
  /** {auth_url}/oauth2/token per client IP (tokens last an hour; clients need few). */
  "idp-token-ip": { points: 300, windowSeconds: 60 },
  /** Sign-in form posts (identity provider login, dashboard /api/auth) per client IP. */
  "sign-in-ip": { points: 60, windowSeconds: 60 },
  /** The diagnostics component's API per session (sign search runs as the vet types). */
  "component-session": { points: 600, windowSeconds: 60 },
  /** SOAP notes from the component per session: each may be a model call. */
  "component-soap": { points: 10, windowSeconds: 60 },
  /** Component API calls naming an unknown, expired or ended session, per client IP (probing). */
  "component-probe-ip": { points: 60, windowSeconds: 60 },
};

/** A named policy with its configured budget. */
export function policy(name: RateLimitPolicyName): LimiterSpec {
  const budget = getEnv().RATE_LIMITS[name] ?? DEFAULT_POLICIES[name];
  return { name, points: budget.points, durationSeconds: budget.windowSeconds };
}

/** Failed client or password authentications per client IP. */
export const FAILED_AUTHENTICATIONS: LimiterSpec = {
  name: "failed-auth",
  points: 20,
  durationSeconds: 300,
  blockSeconds: 300,
};

/** Cases created per veterinarian per day (CASES_PER_VET_PER_DAY). */
export function caseQuota(): LimiterSpec {
  return { name: "case-quota", points: getEnv().CASES_PER_VET_PER_DAY, durationSeconds: 86_400 };
}

// One limiter per policy budget per process, on globalThis: server.ts and the Next.js bundles load
// this module separately but must count against the same limiters.
const globalKey = Symbol.for("vetdx.rate-limiters");
type Holder = { [globalKey]?: Map<string, RateLimiterAbstract | LocalFirstLimiter> };

function perProcess<T extends RateLimiterAbstract | LocalFirstLimiter>(id: string, build: () => T): T {
  const limiters = ((globalThis as Holder)[globalKey] ??= new Map());
  let instance = limiters.get(id) as T | undefined;
  if (!instance) {
    instance = build();
    limiters.set(id, instance);
  }
  return instance;
}

/** A limiter for `spec`: Redis-backed with an in-memory insurance limiter, or in memory only. */
export function buildLimiter(spec: LimiterSpec, redisUrl: string | undefined): RateLimiterAbstract {
  const options = {
    keyPrefix: `vetdx:rl:${spec.name}`,
    points: spec.points,
    duration: spec.durationSeconds,
    blockDuration: spec.blockSeconds ?? 0,
  };
  const memory = new RateLimiterMemory(options);
  if (!redisUrl) return memory;
  return new RateLimiterRedis({
    ...options,
    storeClient: rateLimitRedis(redisUrl),
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

function limiter(spec: LimiterSpec): RateLimiterAbstract {
  const id = `${spec.name}:${spec.points}:${spec.durationSeconds}:${spec.blockSeconds ?? 0}`;
  return perProcess(id, () => buildLimiter(spec, getEnv().REDIS_URL));
}

/** Counts one request with a given limiter (tests use their own). */
export async function checkWith(
  instance: RateLimiterAbstract,
  spec: LimiterSpec,
  key: string,
): Promise<RateLimitDecision> {
  try {
    return decisionFrom(spec, await instance.consume(key), false);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return decisionFrom(spec, rejection, true);
    return allowedOnFailure(spec, rejection);
  }
}

/** The decision for a key that has used none of its budget. */
function fullBudget(spec: LimiterSpec): RateLimitDecision {
  return {
    policy: spec.name,
    limited: false,
    limit: spec.points,
    windowSeconds: spec.durationSeconds,
    remaining: spec.points,
    resetSeconds: spec.durationSeconds,
  };
}

/** A limiter that cannot count (its store and the in-memory insurance failed) lets requests through. */
function allowedOnFailure(spec: LimiterSpec, error: unknown): RateLimitDecision {
  logger.error({ err: error, policy: spec.name }, "rate limiter failed; request allowed");
  return fullBudget(spec);
}

export interface RateLimitDecision {
  policy: string;
  limited: boolean;
  /** The policy's quota and window. */
  limit: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the window resets (or the block ends). */
  resetSeconds: number;
}

function decisionFrom(spec: LimiterSpec, state: RateLimiterRes, limited: boolean): RateLimitDecision {
  return {
    policy: spec.name,
    limited,
    limit: spec.points,
    windowSeconds: spec.durationSeconds,
    remaining: limited ? 0 : Math.max(0, state.remainingPoints),
    resetSeconds: Math.max(limited ? 1 : 0, Math.ceil(state.msBeforeNext / 1000)),
  };
}

/** With Redis, the shared limiter for `spec` behind a local counter (lib/http/local-first-limiter.ts). */
function localFirst(spec: LimiterSpec): LocalFirstLimiter | undefined {
  if (!getEnv().REDIS_URL || spec.blockSeconds) return undefined;
  const id = `local-first:${spec.name}:${spec.points}:${spec.durationSeconds}`;
  return perProcess(id, () => new LocalFirstLimiter(limiter(spec), spec.points));
}

/** Counts one request against `spec` for `key`. Never throws: a broken store lets the request through. */
export async function checkRateLimit(spec: LimiterSpec, key: string): Promise<RateLimitDecision> {
  const shared = localFirst(spec);
  if (!shared) return checkWith(limiter(spec), spec, key);
  try {
    const { limited, consumedPoints, msBeforeNext } = await shared.consume(key);
    return {
      policy: spec.name,
      limited,
      limit: spec.points,
      windowSeconds: spec.durationSeconds,
      remaining: limited ? 0 : Math.max(0, spec.points - consumedPoints),
      resetSeconds: Math.max(limited ? 1 : 0, Math.ceil(msBeforeNext / 1000)),
    };
  } catch (error) {
    return allowedOnFailure(spec, error);
  }
}

const policyName = (name: string) => `"${name.replace(/[^a-z0-9-]/gi, "")}"`;

/** `RateLimit-Policy` and `RateLimit` (and `Retry-After` when limited) for one or more decisions. */
export function rateLimitHeaders(...decisions: RateLimitDecision[]): Record<string, string> {
  const headers: Record<string, string> = {
    "ratelimit-policy": decisions
      .map((d) => `${policyName(d.policy)};q=${d.limit};w=${d.windowSeconds}`)
      .join(", "),
    ratelimit: decisions
      .map((d) => `${policyName(d.policy)};r=${d.remaining};t=${d.resetSeconds}`)
      .join(", "),
  };
  const wait = Math.max(0, ...decisions.filter((d) => d.limited).map((d) => d.resetSeconds));
  if (wait > 0) headers["retry-after"] = String(wait);
  return headers;
}

/** Thrown by domain code when a budget is spent; lib/http/problem.ts answers 429 with the headers. */
export class RateLimitedError extends AppError {
  constructor(
    readonly decision: RateLimitDecision,
    message = "Too many requests; try again later",
  ) {
    super("rate_limited", message, { retryAfterSeconds: decision.resetSeconds });
  }
}

/** Sets headers on a response, copying it first when its headers are immutable (redirects, fetches). */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

/** Seconds until `key` may try again, or 0 when it is within its budget (does not consume). */
export async function retryAfterSeconds(spec: LimiterSpec, key: string): Promise<number> {
  try {
    const state = await limiter(spec).get(key);
    if (!state || state.consumedPoints <= spec.points) return 0;
    return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  } catch (error) {
    logger.error({ err: error, policy: spec.name }, "rate limiter failed; request allowed");
    return 0;
  }
}

/**
 * The decision for `key` without counting a request: limited once its budget is spent (or while it
 * is blocked), so a refusal can carry the RateLimit headers. Never throws, like checkRateLimit.
 */
export async function peekRateLimit(spec: LimiterSpec, key: string): Promise<RateLimitDecision> {
  try {
    const state = await limiter(spec).get(key);
    return state ? decisionFrom(spec, state, state.consumedPoints > spec.points) : fullBudget(spec);
  } catch (error) {
    return allowedOnFailure(spec, error);
  }
}

/**
 * Gives back a point that checkRateLimit counted for an attempt that turned out not to fail.
 * Brute-force limits count every attempt before checking it (so parallel guesses cannot all slip
 * past the budget) and refund the ones that succeed. Never throws, like checkRateLimit.
 */
export async function refundRateLimit(spec: LimiterSpec, key: string): Promise<void> {
  try {
    await limiter(spec).reward(key, 1);
  } catch (error) {
    logger.error({ err: error, policy: spec.name }, "rate limiter failed to refund a point");
  }
}

/** Forgets what `key` has used of `spec` (consecutive failures, after a success). Never throws. */
export async function resetRateLimit(spec: LimiterSpec, key: string): Promise<void> {
  try {
    await limiter(spec).delete(key);
  } catch (error) {
    logger.error({ err: error, policy: spec.name }, "rate limiter failed to reset a key");
  }
}

/** The caller's IP as server.ts determined it (socket address, or X-Forwarded-For behind a trusted proxy). */
export function clientIp(request: Request): string {
  return request.headers.get("x-vetdx-client-ip") ?? "unknown";
}
