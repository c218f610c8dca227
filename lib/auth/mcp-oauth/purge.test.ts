// purgeExpiredOAuthRecords: removes what has expired, unused old registrations and metadata-document
// clients, and keeps the rest.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { oauthClients, oauthGrants, oauthTokens } from "@/db/schema";
import { sha256 } from "@/lib/auth/secrets";
import { exchangeToken } from "./token";
import { purgeExpiredOAuthRecords } from "./purge";
import { authorizeWithConsent, createTestVet, pkcePair, registerTestClient } from "./testing";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

describe("purgeExpiredOAuthRecords", () => {
  it("deletes expired tokens and unused old registrations, and keeps live ones", async () => {
    const vet = await createTestVet(handle.db);
    const used = await registerTestClient(handle.db);
    const unused = await registerTestClient(handle.db);
    await handle.db
      .update(oauthClients)
      .set({ createdAt: new Date(Date.now() - 31 * 24 * 3600 * 1000) })
      .where(eq(oauthClients.clientId, unused.client_id));
    const pkce = pkcePair();
    const location = await authorizeWithConsent(handle.db, {
      clientId: used.client_id,
      vetId: vet.id,
      challenge: pkce.challenge,
    });
    const tokens = await exchangeToken(handle.db, {
      authorization: null,
      clientIp: "192.0.2.50",
      form: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: used.client_id,
        code: location.searchParams.get("code")!,
        code_verifier: pkce.verifier,
        redirect_uri: "http://127.0.0.1:5555/cb",
      }),
    });
    await handle.db
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.tokenHash, sha256(tokens.access_token)));

    const counts = await purgeExpiredOAuthRecords(handle.db);
    expect(counts).toMatchObject({ tokens: 1, clients: 1 });
    const remaining = await handle.db.select().from(oauthTokens);
    expect(remaining.map((row) => row.tokenHash)).toEqual([sha256(tokens.refresh_token!)]);
    expect(
      await handle.db.select().from(oauthClients).where(eq(oauthClients.clientId, used.client_id)),
    ).toHaveLength(1);
    expect(
      await handle.db.select().from(oauthClients).where(eq(oauthClients.clientId, unused.client_id)),
    ).toHaveLength(0);
  });
});

describe("purgeExpiredOAuthRecords and metadata-document clients", () => {
  const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);

  async function documentClient(name: string, fetchedDaysAgo: number) {
    const clientId = `https://${name}.example/oauth/client.json`;
    await handle.db.insert(oauthClients).values({
      clientId,
      tokenEndpointAuthMethod: "none",
      clientName: name,
      redirectUris: ["http://127.0.0.1:5555/cb"],
      grantTypes: ["authorization_code", "refresh_token"],
      metadata: { client_id: clientId },
      source: "metadata_document",
      createdAt: daysAgo(fetchedDaysAgo),
      metadataFetchedAt: daysAgo(fetchedDaysAgo),
      metadataExpiresAt: daysAgo(fetchedDaysAgo - 1),
    });
    return clientId;
  }

  const exists = async (clientId: string) =>
    (await handle.db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId))).length === 1;

  it("deletes those not used for 30 days that have no live grant, and keeps the rest", async () => {
    const vet = await createTestVet(handle.db);
    const stale = await documentClient("stale", 31);
    const staleRevoked = await documentClient("stale-revoked", 40);
    const staleButConnected = await documentClient("stale-connected", 45);
    const recent = await documentClient("recent", 2);
    await handle.db.insert(oauthGrants).values([
      { clientId: staleRevoked, veterinarianId: vet.id, scopes: ["vetdx/read"], revokedAt: daysAgo(35) },
      { clientId: staleButConnected, veterinarianId: vet.id, scopes: ["vetdx/read"] },
    ]);

    const counts = await purgeExpiredOAuthRecords(handle.db);
    expect(counts.metadataDocumentClients).toBe(2);
    expect(await exists(stale)).toBe(false);
    expect(await exists(staleRevoked)).toBe(false);
    expect(await exists(staleButConnected)).toBe(true);
    expect(await exists(recent)).toBe(true);
  });
});
