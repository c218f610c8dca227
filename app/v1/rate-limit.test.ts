// The per-caller limit on REST (withAuth): RateLimit headers on normal answers, 429 with
// Retry-After once a token's budget is spent, and one budget per client.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before lib/env reads it (hoisted above the imports).
vi.hoisted(() => vi.stubEnv("RATE_LIMITS", "api-token=5/60"));

import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { call, machineToken } from "@/test/support";
import { GET as animalTypes } from "@/app/v1/animal-types/route";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

describe("REST per-caller limit (withAuth)", () => {
  it("sends RateLimit headers on normal answers and 429 with Retry-After once the budget is spent", async () => {
    const { token } = await machineToken(handle.db);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      last = await call(animalTypes, "/v1/animal-types", { token });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get("ratelimit-policy")).toBe('"api-token";q=5;w=60');
        expect(last.headers.get("ratelimit")).toBe('"api-token";r=4;t=60');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("ratelimit-policy")).toBe('"api-token";q=5;w=60');
    expect(last!.headers.get("ratelimit")).toMatch(/^"api-token";r=0;t=\d+$/);
    expect(await last!.json()).toMatchObject({ status: 429, type: expect.stringContaining("rate-limited") });
  });

  it("keeps separate budgets for separate clients", async () => {
    const { token } = await machineToken(handle.db, undefined, "Another client");
    expect((await call(animalTypes, "/v1/animal-types", { token })).status).toBe(200);
  });
});
