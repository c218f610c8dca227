// GET /authorize: client and redirect URI problems shown locally (never redirected), other errors
// redirected with state and iss, and a valid request stored and sent on to the identity provider.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { oauthAuthorizationRequests } from "@/db/schema";
import { GET as authorize } from "@/app/authorize/route";
import { logger } from "@/lib/logger";
import { call } from "@/test/support";
import { startAuthorization } from "@/lib/auth/mcp-oauth/authorize";
import { fakeUpstream, pkcePair, registerTestClient } from "@/lib/auth/mcp-oauth/testing";

let handle: DatabaseHandle;
let publicClient: { client_id: string };
let confidentialClient: { client_id: string };
const { challenge } = pkcePair();

beforeAll(async () => {
  handle = await openTestDatabase();
  publicClient = await registerTestClient(handle.db, {
    redirect_uris: ["https://client.example/cb", "http://127.0.0.1/loopback"],
  });
  confidentialClient = await registerTestClient(handle.db, {
    redirect_uris: ["https://confidential.example/cb"],
    token_endpoint_auth_method: "client_secret_basic",
  });
});
afterAll(() => handle.close());

function params(overrides: Record<string, string | undefined> = {}) {
  const base: Record<string, string | undefined> = {
    response_type: "code",
    client_id: publicClient.client_id,
    redirect_uri: "https://client.example/cb",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "opaque-state",
    ...overrides,
  };
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(base)) if (value !== undefined) search.set(key, value);
  return search;
}

const get = (search: URLSearchParams) => call(authorize, `/authorize?${search}`);

async function expectLocalPage(response: Response, text: RegExp) {
  expect(response.status).toBe(400);
  expect(response.headers.get("location")).toBeNull();
  expect(response.headers.get("content-type")).toMatch(/text\/html/);
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(await response.text()).toMatch(text);
}

function expectRedirectError(response: Response, error: string, base = "https://client.example/cb") {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location") ?? "");
  expect(`${location.origin}${location.pathname}`).toBe(base);
  expect(location.searchParams.get("error")).toBe(error);
  expect(location.searchParams.get("error_description")).toBeTruthy();
  expect(location.searchParams.get("state")).toBe("opaque-state");
  expect(location.searchParams.get("iss")).toBe("http://vetdx.test");
}

describe("GET /authorize: problems with the client or redirect URI stay local", () => {
  it("shows a 400 page for an unknown client and a missing client_id", async () => {
    await expectLocalPage(await get(params({ client_id: "mcp_unknown" })), /Unknown app/);
    await expectLocalPage(await get(params({ client_id: undefined })), /client_id/);
  });

  it.each([
    ["a trailing slash", "https://client.example/cb/"],
    ["another path", "https://client.example/other"],
    ["another host", "https://evil.example/cb"],
    ["https downgraded to http", "http://client.example/cb"],
    ["an extra query", "https://client.example/cb?x=1"],
    ["a loopback URI on another path", "http://127.0.0.1:4000/other"],
  ])("shows a 400 page for a redirect_uri with %s", async (_name, redirectUri) => {
    await expectLocalPage(await get(params({ redirect_uri: redirectUri })), /Invalid redirect URI/);
  });

  it("shows a 400 page for a missing or repeated redirect_uri", async () => {
    await expectLocalPage(await get(params({ redirect_uri: undefined })), /redirect_uri/);
    const repeated = params();
    repeated.append("redirect_uri", "https://client.example/cb");
    await expectLocalPage(await get(repeated), /repeated/);
  });
});

describe("GET /authorize: other errors go back to the client", () => {
  it("refuses a missing code_challenge", async () => {
    expectRedirectError(await get(params({ code_challenge: undefined })), "invalid_request");
  });

  it("refuses plain PKCE for a public client, and a challenge without its method", async () => {
    expectRedirectError(await get(params({ code_challenge_method: "plain" })), "invalid_request");
    expectRedirectError(await get(params({ code_challenge_method: undefined })), "invalid_request");
  });

  it("refuses a confidential client's challenge without code_challenge_method instead of assuming plain", async () => {
    const response = await get(
      params({
        client_id: confidentialClient.client_id,
        redirect_uri: "https://confidential.example/cb",
        code_challenge_method: undefined,
      }),
    );
    expectRedirectError(response, "invalid_request", "https://confidential.example/cb");
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.searchParams.get("error_description")).toMatch(/code_challenge_method/);
  });

  it("refuses an unknown challenge method, a wrong response_type and an unknown scope", async () => {
    expectRedirectError(await get(params({ code_challenge_method: "S512" })), "invalid_request");
    expectRedirectError(await get(params({ response_type: "token" })), "unsupported_response_type");
    expectRedirectError(await get(params({ scope: "vetdx/read admin" })), "invalid_scope");
  });

  it("refuses a resource other than this server's MCP endpoint with invalid_target", async () => {
    expectRedirectError(await get(params({ resource: "https://other.example/mcp" })), "invalid_target");
    expectRedirectError(await get(params({ resource: "http://vetdx.test/v1" })), "invalid_target");
  });

  it("accepts a loopback redirect URI on another port (RFC 8252 7.3) and redirects errors there", async () => {
    const response = await get(
      params({ redirect_uri: "http://127.0.0.1:49200/loopback", code_challenge: undefined }),
    );
    expectRedirectError(response, "invalid_request", "http://127.0.0.1:49200/loopback");
  });
});

describe("GET /authorize with a metadata document client_id the server cannot fetch", () => {
  it.each([
    ["a name that does not resolve", "https://does-not-exist.invalid/meta.json", /ENOTFOUND|does-not-exist/],
    ["a name that resolves to loopback", "https://localhost/meta.json", /non-public/],
    ["a private address literal", "https://10.0.0.7/meta.json", /non-public/],
  ])("answers a generic page for %s and logs the reason", async (_name, clientId, detail) => {
    const warn = vi.spyOn(logger, "warn");
    try {
      const response = await get(params({ client_id: clientId, redirect_uri: "https://client.example/cb" }));
      const page = await response.text();
      expect(response.status).toBe(400);
      expect(page).toMatch(/could not be fetched/);
      expect(page).not.toMatch(/ENOTFOUND|EAI_AGAIN|non-public|resolve|10\.0\.0\.7|127\.0\.0\.1/);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({
          clientId,
          err: expect.objectContaining({ message: expect.stringMatching(detail) }),
        }),
        expect.any(String),
      );
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a valid authorization request", () => {
  it("is stored for ten minutes and sent to the identity provider with its own PKCE, state and nonce", async () => {
    const now = new Date();
    const { location, requestId } = await startAuthorization(
      handle.db,
      params({ scope: "vetdx/read vetdx/tools offline_access", resource: "http://vetdx.test/mcp" }),
      { clientIp: "192.0.2.20", upstream: fakeUpstream(() => ({ sub: "x" })), now },
    );
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe("https://idp.vetdx.test/auth");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: "vetdx-mcp",
      response_type: "code",
      redirect_uri: "http://vetdx.test/callback",
      scope: "openid email profile",
      code_challenge_method: "S256",
      state: requestId,
      nonce: expect.any(String),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(url.searchParams.get("code_challenge")).not.toBe(challenge);
    const [row] = await handle.db
      .select()
      .from(oauthAuthorizationRequests)
      .where(eq(oauthAuthorizationRequests.id, requestId));
    expect(row).toMatchObject({
      clientId: publicClient.client_id,
      redirectUri: "https://client.example/cb",
      state: "opaque-state",
      scopes: ["vetdx/read", "vetdx/tools"],
      resource: "http://vetdx.test/mcp",
      codeChallenge: challenge,
      codeChallengeMethod: "S256",
      veterinarianId: null,
    });
    expect(row!.expiresAt.getTime() - now.getTime()).toBe(600_000);
    expect((row!.upstream as { nonce: string }).nonce).toBe(url.searchParams.get("nonce"));
  });

  it("asks for every scope when none is given, and lets a confidential client use plain PKCE", async () => {
    const { requestId } = await startAuthorization(
      handle.db,
      params({
        client_id: confidentialClient.client_id,
        redirect_uri: "https://confidential.example/cb",
        code_challenge_method: "plain",
        resource: "http://vetdx.test",
      }),
      { clientIp: "192.0.2.20", upstream: fakeUpstream(() => ({ sub: "x" })) },
    );
    const [row] = await handle.db
      .select()
      .from(oauthAuthorizationRequests)
      .where(eq(oauthAuthorizationRequests.id, requestId));
    expect(row?.scopes).toHaveLength(5);
    expect(row?.codeChallengeMethod).toBe("plain");
    expect(row?.resource).toBe("http://vetdx.test/mcp");
  });
});
