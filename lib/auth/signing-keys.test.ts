// The identity provider's signing keys are loaded once per database; a load that failed because the
// database was briefly unreachable is not remembered, so the next call loads them again.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { appSecrets } from "@/db/schema";
import { getSigningKeys } from "./signing-keys";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

/** The test database, except that its first query fails as a refused connection does. */
function databaseDownForOneQuery(db: Database): Database {
  let down = true;
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "select" || !down) return typeof value === "function" ? value.bind(target) : value;
      down = false;
      return () => {
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
      };
    },
  });
}

describe("getSigningKeys", () => {
  it("retries after a failed first load and then keeps the loaded keys", async () => {
    const db = databaseDownForOneQuery(handle.db);
    await expect(getSigningKeys(db)).rejects.toThrow("ECONNREFUSED");

    const keys = await getSigningKeys(db);
    expect(keys.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", kid: expect.any(String) });
    const [stored] = await handle.db
      .select({ value: appSecrets.value })
      .from(appSecrets)
      .where(eq(appSecrets.name, "idp_signing_keys"));
    expect(stored?.value).toEqual(keys);
    expect(await getSigningKeys(db)).toBe(keys);
  });
});
