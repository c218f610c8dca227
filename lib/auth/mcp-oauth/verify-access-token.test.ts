// verifyMcpAccessToken: valid, expired, revoked, wrong resource, unknown; and the /mcp challenge.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { oauthTokens, veterinarians } from "@/db/schema";
import { AuthError } from "@/lib/auth/identity";
import { sha256 } from "@/lib/auth/secrets";
import { exchangeToken } from "./token";
import { authorizeWithConsent, createTestVet, pkcePair, registerTestClient } from "./testing";
import { mcpChallengeHeader, verifyMcpAccessToken } from "./verify-access-token";

let handle: DatabaseHandle;
let vet: Awaited<ReturnType<typeof createTestVet>>;
let clientId: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  vet = await createTestVet(handle.db, "verify@clinic.test");
  clientId = (await registerTestClient(handle.db)).client_id;
});
afterAll(() => handle.close());

async function issue(scope = "vetdx/read vetdx/write") {
  const pkce = pkcePair();
  const location = await authorizeWithConsent(handle.db, {
    clientId,
    vetId: vet.id,
    challenge: pkce.challenge,
    scope,
  });
  return exchangeToken(handle.db, {
    authorization: null,
    clientIp: "192.0.2.40",
    form: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: clientId,
      code: location.searchParams.get("code")!,
      code_verifier: pkce.verifier,
      redirect_uri: "http://127.0.0.1:5555/cb",
    }),
  });
}

const setToken = (token: string, values: Partial<typeof oauthTokens.$inferInsert>) =>
  handle.db
    .update(oauthTokens)
    .set(values)
    .where(eq(oauthTokens.tokenHash, sha256(token)));

async function expectInvalid(token: string, description: RegExp) {
  const error = await verifyMcpAccessToken(handle.db, token).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AuthError);
  expect(error).toMatchObject({ error: "invalid_token", description: expect.stringMatching(description) });
}

describe("verifyMcpAccessToken", () => {
  it("returns the vet's human identity with the client and the grant's scopes", async () => {
    const { access_token } = await issue();
    expect(await verifyMcpAccessToken(handle.db, access_token)).toEqual({
      veterinarianId: vet.id,
      kind: "human",
      email: "verify@clinic.test",
      name: "Dr Test",
      role: "vet",
      scopes: ["vetdx/read", "vetdx/write"],
      clientId,
      authMethod: "oauth",
      grantId: expect.any(String),
    });
  });

  it("refuses unknown, expired, revoked, wrong-resource and refresh tokens with precise descriptions", async () => {
    await expectInvalid("vdx_at_unknown", /not recognised/);
    const expired = await issue();
    await setToken(expired.access_token, { expiresAt: new Date(Date.now() - 1000) });
    await expectInvalid(expired.access_token, /expired/);
    const revoked = await issue();
    await setToken(revoked.access_token, { revokedAt: new Date() });
    await expectInvalid(revoked.access_token, /revoked/);
    const elsewhere = await issue();
    await setToken(elsewhere.access_token, { resource: "https://other.example/mcp" });
    await expectInvalid(elsewhere.access_token, /not issued for this resource/);
    await expectInvalid(elsewhere.refresh_token!, /refresh token/);
  });

  it("refuses tokens of a disabled veterinarian", async () => {
    const { access_token } = await issue();
    await handle.db.update(veterinarians).set({ disabledAt: new Date() }).where(eq(veterinarians.id, vet.id));
    await expectInvalid(access_token, /disabled/);
    await handle.db.update(veterinarians).set({ disabledAt: null }).where(eq(veterinarians.id, vet.id));
  });
});

describe("mcpChallengeHeader", () => {
  it("points at the protected resource metadata, with error details only when a token was refused", () => {
    expect(mcpChallengeHeader()).toBe(
      'Bearer realm="vetdx", resource_metadata="http://vetdx.test/.well-known/oauth-protected-resource/mcp"',
    );
    expect(mcpChallengeHeader("The access token has expired")).toBe(
      'Bearer realm="vetdx", resource_metadata="http://vetdx.test/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="The access token has expired"',
    );
    expect(
      mcpChallengeHeader(new AuthError("invalid_token", "Missing bearer token", { tokenPresent: false })),
    ).not.toContain("error=");
    expect(
      mcpChallengeHeader(
        new AuthError("insufficient_scope", "Needs tools", { requiredScopes: ["vetdx/tools"] }),
      ),
    ).toContain('error="insufficient_scope", error_description="Needs tools", scope="vetdx/tools"');
  });
});
