// purge-expired-records: the housekeeping that runs as an Inngest cron function, and on the server's
// own timer where Inngest is not configured (runPurges), removes the same things: component sessions
// a day past their expiry (a recently expired one still answers 410, not 404) and metadata-document
// clients unused for 30 days with no live grant.
import { randomBytes } from "node:crypto";
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { componentSessions, oauthClients } from "@/db/schema";
import { sha256 } from "@/lib/auth/secrets";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { purgeExpiredRecords, runPurges } from "./purge-expired-records";

let handle: DatabaseHandle;
let vetId: string;

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3600 * 1000);

beforeAll(async () => {
  handle = await openTestDatabase();
  vetId = (await createVeterinarian(handle.db, { email: "purge@example.com", name: "Dr P" })).id;
});
afterAll(() => handle.close());

async function session(expiresAt: Date) {
  const idHash = sha256(randomBytes(32).toString("base64url"));
  await handle.db.insert(componentSessions).values({
    idHash,
    component: "diagnostics",
    veterinarianId: vetId,
    allowedOrigins: ["https://pims.example"],
    scopes: ["vetdx/read"],
    expiresAt,
  });
  return idHash;
}

async function staleDocumentClient() {
  const clientId = `https://${randomBytes(4).toString("hex")}.example/client.json`;
  const longAgo = hoursFromNow(-31 * 24);
  await handle.db.insert(oauthClients).values({
    clientId,
    tokenEndpointAuthMethod: "none",
    redirectUris: ["http://127.0.0.1:5555/cb"],
    grantTypes: ["authorization_code"],
    metadata: { client_id: clientId },
    source: "metadata_document",
    createdAt: longAgo,
    metadataFetchedAt: longAgo,
    metadataExpiresAt: longAgo,
  });
  return clientId;
}

const sessionExists = async (idHash: string) =>
  (await handle.db.select().from(componentSessions).where(eq(componentSessions.idHash, idHash))).length === 1;
const clientExists = async (clientId: string) =>
  (await handle.db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId))).length === 1;

async function expectPurged(run: () => Promise<unknown>) {
  const longExpired = await session(hoursFromNow(-25));
  const justExpired = await session(hoursFromNow(-1));
  const live = await session(hoursFromNow(1));
  const unused = await staleDocumentClient();
  await run();
  expect(await sessionExists(longExpired)).toBe(false);
  expect(await sessionExists(justExpired)).toBe(true);
  expect(await sessionExists(live)).toBe(true);
  expect(await clientExists(unused)).toBe(false);
}

describe("purge-expired-records", () => {
  it("runs every purge as its own step under Inngest, on a cron schedule", async () => {
    await expectPurged(async () => {
      const { result, error } = await new InngestTestEngine({ function: purgeExpiredRecords }).execute();
      expect(error).toBeUndefined();
      expect(result).toMatchObject({
        "purge-component-sessions": { componentSessions: 1 },
        "purge-oauth-records": { metadataDocumentClients: 1 },
      });
    });
  });

  it("runs the same purges on the server's timer when Inngest is not configured", async () => {
    await expectPurged(() => runPurges(handle.db));
  });
});
