// Demo accounts: created on the first start only, their credentials handed out (and written to a
// file only the owner can read) that once and never again.
import { mkdtempSync, rmSync, statSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { demoCredentialsPath, ensureDemoAccounts } from "./ensure-demo-accounts";

let handle: DatabaseHandle;
let dataDir: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "vetdx-demo-"));
});
afterAll(async () => {
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("ensureDemoAccounts", () => {
  it("creates the accounts once and returns their credentials only then", async () => {
    const options = { dataDir, appUrl: "http://localhost:3000" };
    const first = await ensureDemoAccounts(handle.db, options);
    expect(first?.vet.password).toBeTruthy();
    expect(first?.client.client_secret).toBeTruthy();
    expect(statSync(demoCredentialsPath(dataDir)).mode & 0o777).toBe(0o600);

    expect(await ensureDemoAccounts(handle.db, options)).toBeUndefined();
    // Deleting the file does not bring them back: the database has its veterinarian.
    unlinkSync(demoCredentialsPath(dataDir));
    expect(await ensureDemoAccounts(handle.db, options)).toBeUndefined();
  });
});
