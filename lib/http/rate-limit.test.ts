// The rate-limit module: named policies and their overrides, decisions and the IETF RateLimit
// headers, and 429 problem responses. The per-caller limit on REST is tested beside the routes
// (app/v1/rate-limit.test.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before lib/env reads it (hoisted above the imports).
vi.hoisted(() => vi.stubEnv("RATE_LIMITS", "api-token=5/60"));

import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { parseEnv } from "@/lib/env";
import { errorToResponse } from "@/lib/http/problem";
import {
  checkRateLimit,
  DEFAULT_POLICIES,
  peekRateLimit,
  policy,
  rateLimitHeaders,
  RateLimitedError,
  type LimiterSpec,
} from "@/lib/http/rate-limit";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const spec = (name: string, points = 3): LimiterSpec => ({ name, points, durationSeconds: 60 });

describe("policies", () => {
  it("have generous defaults, overridable with RATE_LIMITS", () => {
    expect(DEFAULT_POLICIES["api-token"]).toEqual({ points: 1200, windowSeconds: 60 });
    expect(policy("api-token")).toEqual({ name: "api-token", points: 5, durationSeconds: 60 });
    expect(policy("mcp-ip")).toEqual({ name: "mcp-ip", points: 1200, durationSeconds: 60 });
  });

  it("refuse a malformed or unknown override at start-up", () => {
    expect(parseEnv({ RATE_LIMITS: "api-ip=10/60, mcp-token=7/30" }).RATE_LIMITS).toEqual({
      "api-ip": { points: 10, windowSeconds: 60 },
      "mcp-token": { points: 7, windowSeconds: 30 },
    });
    expect(() => parseEnv({ RATE_LIMITS: "api-ip=lots" })).toThrow(/RATE_LIMITS/);
    expect(() => parseEnv({ RATE_LIMITS: "everything=10/60" })).toThrow(/RATE_LIMITS/);
    expect(() => parseEnv({ RATE_LIMITS: "api-ip=0/60" })).toThrow(/RATE_LIMITS/);
  });
});

describe("checkRateLimit", () => {
  it("counts down per key, then refuses until the window resets", async () => {
    const limits = spec(`test-${Date.now()}`);
    const first = await checkRateLimit(limits, "198.51.100.1");
    expect(first).toMatchObject({ limited: false, limit: 3, remaining: 2, windowSeconds: 60 });
    await checkRateLimit(limits, "198.51.100.1");
    expect(await checkRateLimit(limits, "198.51.100.1")).toMatchObject({ limited: false, remaining: 0 });
    const over = await checkRateLimit(limits, "198.51.100.1");
    expect(over.limited).toBe(true);
    expect(over.resetSeconds).toBeGreaterThan(0);
    expect(over.resetSeconds).toBeLessThanOrEqual(60);
    // Another key has its own budget.
    expect((await checkRateLimit(limits, "198.51.100.2")).limited).toBe(false);
  });

  it("peeks at a key's budget without counting, and reports a spent one as limited", async () => {
    const limits = spec(`peek-${Date.now()}`, 2);
    expect(await peekRateLimit(limits, "198.51.100.3")).toMatchObject({ limited: false, remaining: 2 });
    await checkRateLimit(limits, "198.51.100.3");
    await checkRateLimit(limits, "198.51.100.3");
    expect(await peekRateLimit(limits, "198.51.100.3")).toMatchObject({ limited: false, remaining: 0 });
    await checkRateLimit(limits, "198.51.100.3");
    const spent = await peekRateLimit(limits, "198.51.100.3");
    expect(spent).toMatchObject({ policy: limits.name, limited: true, limit: 2, remaining: 0 });
    expect(rateLimitHeaders(spent)["retry-after"]).toBe(String(spent.resetSeconds));
    expect((await peekRateLimit(limits, "198.51.100.3")).limited).toBe(true);
  });

  it("describes decisions with RateLimit-Policy, RateLimit and, when limited, Retry-After", () => {
    const allowed = {
      policy: "api-ip",
      limited: false,
      limit: 600,
      windowSeconds: 60,
      remaining: 599,
      resetSeconds: 60,
    };
    expect(rateLimitHeaders(allowed)).toEqual({
      "ratelimit-policy": '"api-ip";q=600;w=60',
      ratelimit: '"api-ip";r=599;t=60',
    });
    const limited = { ...allowed, policy: "sign-in-ip", limited: true, remaining: 0, resetSeconds: 42 };
    expect(rateLimitHeaders(allowed, limited)).toEqual({
      "ratelimit-policy": '"api-ip";q=600;w=60, "sign-in-ip";q=600;w=60',
      ratelimit: '"api-ip";r=599;t=60, "sign-in-ip";r=0;t=42',
      "retry-after": "42",
    });
  });

  it("turns RateLimitedError into a 429 problem with the headers", async () => {
    const decision = {
      policy: "case-quota",
      limited: true,
      limit: 1000,
      windowSeconds: 86400,
      remaining: 0,
      resetSeconds: 3600,
    };
    const response = errorToResponse(new RateLimitedError(decision, "Daily quota reached"));
    expect(response.status).toBe(429);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("retry-after")).toBe("3600");
    expect(response.headers.get("ratelimit-policy")).toBe('"case-quota";q=1000;w=86400');
    expect(response.headers.get("ratelimit")).toBe('"case-quota";r=0;t=3600');
    expect(await response.json()).toMatchObject({
      status: 429,
      title: "Too many requests",
      detail: "Daily quota reached",
    });
  });
});
