// purgeExpiredOAuthRecords: removes what has expired and unused old registrations, keeps the rest.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { oauthClients, oauthTokens } from "@/db/schema";
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
