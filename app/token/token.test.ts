// POST /token: code exchange with PKCE, replay and reuse detection that revoke the grant, refresh
// rotation, client authentication per registered method, and RFC 6749 error responses.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { oauthAuthorizationCodes, oauthGrants, oauthTokens } from "@/db/schema";
import { POST as tokenRoute } from "@/app/token/route";
import { sha256 } from "@/lib/auth/secrets";
import { basic, call } from "@/test/support";
import {
  authorizeWithConsent,
  createTestVet,
  pkcePair,
  registerTestClient,
} from "@/lib/auth/mcp-oauth/testing";
import { verifyMcpAccessToken } from "@/lib/auth/mcp-oauth/verify-access-token";

let handle: DatabaseHandle;
let vetId: string;
let publicClient: { client_id: string };
let confidential: { client_id: string; client_secret?: string };
let postClient: { client_id: string; client_secret?: string };

beforeAll(async () => {
  handle = await openTestDatabase();
  vetId = (await createTestVet(handle.db)).id;
  publicClient = await registerTestClient(handle.db);
  confidential = await registerTestClient(handle.db, { token_endpoint_auth_method: "client_secret_basic" });
  postClient = await registerTestClient(handle.db, { token_endpoint_auth_method: "client_secret_post" });
});
afterAll(() => handle.close());

function token(fields: Record<string, string>, init: { authorization?: string; ip?: string } = {}) {
  return call(tokenRoute, "/token", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(init.authorization ? { authorization: init.authorization } : {}),
    },
    body: new URLSearchParams(fields),
    ip: init.ip,
  });
}

async function codeFor(clientId: string, options: { method?: "S256" | "plain"; scope?: string } = {}) {
  const pkce = pkcePair();
  const location = await authorizeWithConsent(handle.db, {
    clientId,
    vetId,
    challenge: options.method === "plain" ? pkce.verifier : pkce.challenge,
    method: options.method,
    scope: options.scope,
  });
  return { code: location.searchParams.get("code")!, verifier: pkce.verifier };
}

const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
  token({
    grant_type: "authorization_code",
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: "http://127.0.0.1:5555/cb",
    ...extra,
  });

async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("pragma")).toBe("no-cache");
  const body = await response.json();
  expect(body).toMatchObject({ error, error_description: expect.any(String) });
  return body;
}

describe("authorization_code", () => {
  it("exchanges a code with an S256 verifier for opaque tokens stored only as hashes", async () => {
    const { code, verifier } = await codeFor(publicClient.client_id, { scope: "vetdx/read vetdx/tools" });
    const response = await exchange(publicClient.client_id, code, verifier, {
      resource: "http://vetdx.test/mcp",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("pragma")).toBe("no-cache");
    const body = await response.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^vdx_at_/),
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^vdx_rt_/),
      scope: "vetdx/read vetdx/tools",
    });
    const [access] = await handle.db
      .select()
      .from(oauthTokens)
      .where(eq(oauthTokens.tokenHash, sha256(body.access_token)));
    expect(access).toMatchObject({
      kind: "access",
      resource: "http://vetdx.test/mcp",
      veterinarianId: vetId,
    });
    const all = await handle.db.select().from(oauthTokens);
    expect(JSON.stringify(all)).not.toContain(body.access_token);
    expect(JSON.stringify(all)).not.toContain(body.refresh_token);
    const identity = await verifyMcpAccessToken(handle.db, body.access_token);
    expect(identity).toMatchObject({
      veterinarianId: vetId,
      authMethod: "oauth",
      scopes: ["vetdx/read", "vetdx/tools"],
    });
  });

  it("refuses a wrong verifier, a wrong redirect_uri and a missing verifier without using the code up", async () => {
    const { code, verifier } = await codeFor(publicClient.client_id);
    await expectError(
      await exchange(publicClient.client_id, code, pkcePair().verifier),
      400,
      "invalid_grant",
    );
    await expectError(
      await exchange(publicClient.client_id, code, verifier, { redirect_uri: "http://127.0.0.1:5556/cb" }),
      400,
      "invalid_grant",
    );
    await expectError(
      await token({
        grant_type: "authorization_code",
        client_id: publicClient.client_id,
        code,
        redirect_uri: "http://127.0.0.1:5555/cb",
      }),
      400,
      "invalid_request",
    );
    expect((await exchange(publicClient.client_id, code, verifier)).status).toBe(200);
  });

  it("treats a replayed code as theft: invalid_grant and every token of its grant revoked", async () => {
    const { code, verifier } = await codeFor(publicClient.client_id);
    const first = await (await exchange(publicClient.client_id, code, verifier)).json();
    await expectError(await exchange(publicClient.client_id, code, verifier), 400, "invalid_grant");
    await expect(verifyMcpAccessToken(handle.db, first.access_token)).rejects.toThrow(/revoked/);
    await expectError(
      await token({
        grant_type: "refresh_token",
        client_id: publicClient.client_id,
        refresh_token: first.refresh_token,
      }),
      400,
      "invalid_grant",
    );
    const [row] = await handle.db
      .select()
      .from(oauthAuthorizationCodes)
      .where(eq(oauthAuthorizationCodes.codeHash, sha256(code)));
    const [grant] = await handle.db.select().from(oauthGrants).where(eq(oauthGrants.id, row!.grantId));
    expect(grant?.revokedReason).toBe("authorization code replayed");
  });

  it("refuses an expired code and another client's code", async () => {
    const expired = await codeFor(publicClient.client_id);
    await handle.db
      .update(oauthAuthorizationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthAuthorizationCodes.codeHash, sha256(expired.code)));
    const body = await expectError(
      await exchange(publicClient.client_id, expired.code, expired.verifier),
      400,
      "invalid_grant",
    );
    expect(body.error_description).toMatch(/expired/);

    const theirs = await codeFor(publicClient.client_id);
    const other = await registerTestClient(handle.db);
    const stolen = await expectError(
      await exchange(other.client_id, theirs.code, theirs.verifier),
      400,
      "invalid_grant",
    );
    expect(stolen.error_description).toMatch(/another client/);
  });

  it("lets a confidential client use plain PKCE with HTTP Basic", async () => {
    const { code, verifier } = await codeFor(confidential.client_id, { method: "plain" });
    const response = await token(
      {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: "http://127.0.0.1:5555/cb",
      },
      { authorization: basic(confidential.client_id, confidential.client_secret!) },
    );
    expect(response.status).toBe(200);
  });

  it("refuses an unknown resource with invalid_target", async () => {
    const { code, verifier } = await codeFor(publicClient.client_id);
    await expectError(
      await exchange(publicClient.client_id, code, verifier, { resource: "https://other.example/mcp" }),
      400,
      "invalid_target",
    );
  });
});

describe("refresh_token", () => {
  it("rotates: each use returns a new refresh token; narrower scope applies to the access token", async () => {
    const { code, verifier } = await codeFor(publicClient.client_id, { scope: "vetdx/read vetdx/tools" });
    const first = await (await exchange(publicClient.client_id, code, verifier)).json();
    const second = await token({
      grant_type: "refresh_token",
      client_id: publicClient.client_id,
      refresh_token: first.refresh_token,
      scope: "vetdx/read",
    });
    expect(second.status).toBe(200);
    const rotated = await second.json();
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    expect(rotated.access_token).not.toBe(first.access_token);
    expect(rotated.scope).toBe("vetdx/read");
    const third = await token({
      grant_type: "refresh_token",
      client_id: publicClient.client_id,
      refresh_token: rotated.refresh_token,
    });
    expect((await third.json()).scope).toBe("vetdx/read vetdx/tools");
    await expectError(
      await token({
        grant_type: "refresh_token",
        client_id: publicClient.client_id,
        refresh_token: rotated.refresh_token,
        scope: "vetdx/write",
      }),
      400,
      "invalid_grant",
    );
  });

  it("refuses a scope wider than the refresh token's", async () => {
    const { code, verifier } = await codeFor(publicClient.client_id, { scope: "vetdx/read" });
    const first = await (await exchange(publicClient.client_id, code, verifier)).json();
    await expectError(
      await token({
        grant_type: "refresh_token",
        client_id: publicClient.client_id,
        refresh_token: first.refresh_token,
        scope: "vetdx/read vetdx/write",
      }),
      400,
      "invalid_scope",
    );
  });

  it("treats reuse of a rotated refresh token as theft and revokes the whole grant", async () => {
    const { code, verifier } = await codeFor(publicClient.client_id);
    const first = await (await exchange(publicClient.client_id, code, verifier)).json();
    const second = await (
      await token({
        grant_type: "refresh_token",
        client_id: publicClient.client_id,
        refresh_token: first.refresh_token,
      })
    ).json();
    await verifyMcpAccessToken(handle.db, second.access_token);
    const reuse = await expectError(
      await token({
        grant_type: "refresh_token",
        client_id: publicClient.client_id,
        refresh_token: first.refresh_token,
      }),
      400,
      "invalid_grant",
    );
    expect(reuse.error_description).toMatch(/already used/);
    await expect(verifyMcpAccessToken(handle.db, second.access_token)).rejects.toThrow(/revoked/);
    await expectError(
      await token({
        grant_type: "refresh_token",
        client_id: publicClient.client_id,
        refresh_token: second.refresh_token,
      }),
      400,
      "invalid_grant",
    );
  });
});

describe("client authentication", () => {
  it("answers 401 invalid_client with a Basic challenge for a wrong secret", async () => {
    const response = await token(
      { grant_type: "refresh_token", refresh_token: "x" },
      { authorization: basic(confidential.client_id, "wrong"), ip: "198.51.100.1" },
    );
    await expectError(response, 401, "invalid_client");
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm="vetdx"/);
  });

  it("answers 401 invalid_client for an unknown client, so the client registers again", async () => {
    const response = await token(
      { grant_type: "authorization_code", client_id: "mcp_gone", code: "x" },
      { ip: "198.51.100.2" },
    );
    await expectError(response, 401, "invalid_client");
  });

  it("refuses a secret from a public client and a missing or mismatched method for confidential ones", async () => {
    const ip = "198.51.100.3";
    const publicWithSecret = await token(
      {
        grant_type: "refresh_token",
        refresh_token: "x",
        client_id: publicClient.client_id,
        client_secret: "s",
      },
      { ip },
    );
    expect((await expectError(publicWithSecret, 401, "invalid_client")).error_description).toMatch(/public/);
    await expectError(
      await token(
        { grant_type: "refresh_token", refresh_token: "x", client_id: confidential.client_id },
        { ip },
      ),
      401,
      "invalid_client",
    );
    await expectError(
      await token(
        {
          grant_type: "refresh_token",
          refresh_token: "x",
          client_id: confidential.client_id,
          client_secret: confidential.client_secret!,
        },
        { ip },
      ),
      401,
      "invalid_client",
    );
    // client_secret_post works for the client registered with it.
    const post = await token(
      {
        grant_type: "refresh_token",
        refresh_token: "unknown",
        client_id: postClient.client_id,
        client_secret: postClient.client_secret!,
      },
      { ip },
    );
    await expectError(post, 400, "invalid_grant");
  });

  it("answers 400 for a missing or unsupported grant type and for non-form bodies", async () => {
    await expectError(await token({ client_id: publicClient.client_id }), 400, "invalid_request");
    await expectError(
      await token({ client_id: publicClient.client_id, grant_type: "password" }),
      400,
      "unsupported_grant_type",
    );
    const json = await call(tokenRoute, "/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code" }),
    });
    await expectError(json, 400, "invalid_request");
  });

  it("blocks an address after repeated failed client authentications with 429, Retry-After and RateLimit", async () => {
    const expectBlocked = (response: Response | undefined) => {
      expect(response?.status).toBe(429);
      expect(Number(response?.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(response?.headers.get("ratelimit-policy")).toBe('"failed-auth";q=20;w=300');
      expect(response?.headers.get("ratelimit")).toMatch(/^"failed-auth";r=0;t=\d+$/);
      expect(response?.headers.get("access-control-expose-headers")).toContain("ratelimit-policy");
    };
    let last: Response | undefined;
    for (let attempt = 0; attempt < 25; attempt += 1) {
      last = await token(
        { grant_type: "refresh_token", refresh_token: "x" },
        { authorization: basic(confidential.client_id, "wrong"), ip: "203.0.113.200" },
      );
      if (last.status === 429) break;
    }
    expectBlocked(last);
    // While blocked, the address is refused before its credentials are even checked.
    expectBlocked(
      await token(
        { grant_type: "refresh_token", refresh_token: "x" },
        { authorization: basic(confidential.client_id, confidential.client_secret!), ip: "203.0.113.200" },
      ),
    );
  });

  it("counts failed client authentications before checking them: of 40 parallel guesses at most 20 are evaluated", async () => {
    // 39 wrong secrets and, last, the right one: evaluated, it would get past client authentication.
    const secrets = [...Array<string>(39).fill("wrong"), confidential.client_secret!];
    const statuses = await Promise.all(
      secrets.map(
        async (secret) =>
          (
            await token(
              { grant_type: "refresh_token", refresh_token: "x" },
              { authorization: basic(confidential.client_id, secret), ip: "203.0.113.240" },
            )
          ).status,
      ),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
  });

  it("does not count authenticated clients against the failed-authentication budget", async () => {
    for (let attempt = 0; attempt < 25; attempt += 1) {
      const answer = await token(
        { grant_type: "refresh_token", refresh_token: "unknown" },
        { authorization: basic(confidential.client_id, confidential.client_secret!), ip: "203.0.113.241" },
      );
      await expectError(answer, 400, "invalid_grant");
    }
  });
});
