// The daily case quota per veterinarian (CASES_PER_VET_PER_DAY): over it, POST /v1/cases answers
// 429 problem+json with Retry-After and RateLimit headers; other vets keep their own quota.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before lib/env reads it (hoisted above the imports).
vi.hoisted(() => vi.stubEnv("CASES_PER_VET_PER_DAY", "2"));

import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { inlineRunner } from "@/inngest/runner";
import { call, machineToken } from "@/test/support";
import { POST as createCase } from "./route";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(async () => {
  await inlineRunner().idle();
  await handle.close();
});

const create = (token: string) =>
  call(createCase, "/v1/cases", {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ notes: "Dog, 4 years, vomiting since yesterday." }),
  });

describe("case quota", () => {
  it("refuses cases over the daily quota with 429 and Retry-After", async () => {
    const { token } = await machineToken(handle.db, undefined, "Busy clinic");
    expect((await create(token)).status).toBe(201);
    expect((await create(token)).status).toBe(201);
    const refused = await create(token);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(86_400);
    expect(refused.headers.get("ratelimit-policy")).toBe('"case-quota";q=2;w=86400');
    expect(refused.headers.get("ratelimit")).toMatch(/^"case-quota";r=0;t=\d+$/);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({
      status: 429,
      detail: expect.stringContaining("daily quota"),
    });

    const other = await machineToken(handle.db, undefined, "Quiet clinic");
    expect((await create(other.token)).status).toBe(201);
  });
});
