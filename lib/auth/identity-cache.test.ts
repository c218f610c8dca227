// The caches on the bearer-token path: rows load once per lifetime, failures are not kept, expired
// tokens are not served, and a NOTIFY from any connection (another instance, the admin CLI) makes
// this process forget at once.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import {
  cachedIdentityRows,
  cachedTokenClaims,
  followIdentityChanges,
  IDENTITY_CHANNEL,
  rememberTokenClaims,
} from "./identity-cache";

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

/** A thenable like a drizzle query builder: it runs again each time it is awaited. */
function countingQuery<T>(value: T) {
  const runs = { count: 0 };
  const query: PromiseLike<T> = {
    then: (resolve, reject) => {
      runs.count++;
      return Promise.resolve(value).then(resolve, reject);
    },
  };
  return { query, runs };
}

describe("identity cache", () => {
  it("runs a row query once however often it is read", async () => {
    const { query, runs } = countingQuery([{ id: 1 }]);
    const key = `client:${crypto.randomUUID()}`;
    for (let i = 0; i < 5; i++)
      expect(await cachedIdentityRows(handle.db, key, () => query)).toEqual([{ id: 1 }]);
    expect(runs.count).toBe(1);
  });

  it("does not keep a failed load", async () => {
    const key = `client:${crypto.randomUUID()}`;
    await expect(cachedIdentityRows(handle.db, key, () => Promise.reject(new Error("down")))).rejects.toThrow(
      "down",
    );
    expect(await cachedIdentityRows(handle.db, key, async () => "loaded")).toBe("loaded");
  });

  it("serves a verified token's claims until the token expires", () => {
    const now = Math.floor(Date.now() / 1000);
    rememberTokenClaims(handle.db, "live-token", { sub: "a", exp: now + 60 });
    rememberTokenClaims(handle.db, "expired-token", { sub: "b", exp: now - 1 });
    rememberTokenClaims(handle.db, "no-expiry", { sub: "c" });
    expect(cachedTokenClaims(handle.db, "live-token")).toMatchObject({ sub: "a" });
    expect(cachedTokenClaims(handle.db, "expired-token")).toBeUndefined();
    expect(cachedTokenClaims(handle.db, "no-expiry")).toBeUndefined();
  });

  it("forgets cached rows when any connection announces a change", async () => {
    const stop = await followIdentityChanges(handle);
    try {
      const key = `client:${crypto.randomUUID()}`;
      let loads = 0;
      const load = async () => ++loads;
      await cachedIdentityRows(handle.db, key, load);
      await cachedIdentityRows(handle.db, key, load);
      expect(loads).toBe(1);
      // What another instance or the admin CLI sends: no local forgetting, only the NOTIFY.
      await handle.db.execute(sql`select pg_notify(${IDENTITY_CHANNEL}, 'some-client')`);
      const until = Date.now() + 5000;
      while ((await cachedIdentityRows(handle.db, key, load)) === 1 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(loads).toBe(2);
    } finally {
      await stop();
    }
  });
});
