// {auth_url}/oauth2/token: spec 4.4 and 2.7, RFC 6749 errors, brute-force limiting.
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { machineClients } from "@/db/schema";
import {
  createMachineClient,
  revokeMachineClient,
  rotateMachineClientSecret,
} from "@/lib/machine-clients/machine-clients";
import { basic, call, requestToken } from "@/test/support";
import { POST } from "./route";

let handle: DatabaseHandle;
let client: Awaited<ReturnType<typeof createMachineClient>>;

beforeAll(async () => {
  handle = await openTestDatabase();
  client = await createMachineClient(handle.db, {
    name: "Clinic PIMS",
    scopes: ["vetdx/read", "vetdx/write"],
  });
});
afterAll(() => handle.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

/** A 429 of the failed-authentication limiter (20 per 5 minutes, then blocked for 5 minutes). */
function expectFailedAuthenticationLimit(response: Response | undefined) {
  expect(response?.status).toBe(429);
  expect(Number(response?.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(response?.headers.get("ratelimit-policy")).toBe('"failed-auth";q=20;w=300');
  expect(response?.headers.get("ratelimit")).toMatch(/^"failed-auth";r=0;t=\d+$/);
}

describe("client credentials", () => {
  it("issues a signed JWT with sub = client id, expires_in 3600 and all allowed scopes by default", async () => {
    const response = await requestToken(client.clientId, client.clientSecret);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "vetdx/read vetdx/write" });
    const claims = decodeJwt(body.access_token);
    expect(claims.sub).toBe(client.clientId);
    expect(claims.iss).toBe("http://vetdx.test/idp");
    // No `resource`: one token for REST and /mcp, as spec 5.2 uses it.
    expect(claims.aud).toEqual(["http://vetdx.test", "http://vetdx.test/mcp"]);
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(decodeProtectedHeader(body.access_token)).toMatchObject({ alg: "RS256", typ: "at+jwt" });
  });

  it("narrows to the requested scopes and refuses scopes the client is not allowed", async () => {
    const narrowed = await (await requestToken(client.clientId, client.clientSecret, "vetdx/read")).json();
    expect(narrowed.scope).toBe("vetdx/read");
    const refused = await requestToken(client.clientId, client.clientSecret, "vetdx/read vetdx/tools");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_scope" });
  });

  it("accepts client_secret_post as well as HTTP Basic", async () => {
    const response = await call(POST, "/idp/oauth2/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ["a wrong secret", () => basic(client.clientId, "wrong")],
    ["an unknown client", () => basic("m2m_unknown", "whatever")],
    ["a malformed header", () => "Basic !!!"],
  ])("answers 401 invalid_client with a Basic challenge for %s", async (_name, header) => {
    const response = await call(POST, "/idp/oauth2/token", {
      method: "POST",
      headers: { authorization: header(), "content-type": "application/x-www-form-urlencoded" },
      body: form({ grant_type: "client_credentials" }),
      ip: "198.51.100.7",
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
  });

  it.each([
    ["a missing grant_type", {}, "invalid_request"],
    ["another grant type", { grant_type: "password" }, "unsupported_grant_type"],
  ])("answers 400 for %s", async (_name, fields, error) => {
    const response = await call(POST, "/idp/oauth2/token", {
      method: "POST",
      headers: {
        authorization: basic(client.clientId, client.clientSecret),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: form(fields as Record<string, string>),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error });
  });

  it("rejects JSON bodies, oversized bodies and repeated parameters without issuing a token", async () => {
    const auth = basic(client.clientId, client.clientSecret);
    const asJson = await call(POST, "/idp/oauth2/token", {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials" }),
    });
    expect(asJson.status).toBe(400);
    const huge = await call(POST, "/idp/oauth2/token", {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=client_credentials&scope=${"x".repeat(20_000)}`,
    });
    expect(huge.status).toBe(400);
    const repeated = await call(POST, "/idp/oauth2/token", {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&grant_type=client_credentials",
    });
    expect(repeated.status).toBe(400);
  });

  it("stops accepting a rotated secret and a revoked client", async () => {
    const other = await createMachineClient(handle.db, { name: "Rotating", scopes: ["vetdx/read"] });
    const rotated = await rotateMachineClientSecret(handle.db, other.clientId);
    expect((await requestToken(other.clientId, other.clientSecret)).status).toBe(401);
    expect((await requestToken(other.clientId, rotated.clientSecret)).status).toBe(200);
    await revokeMachineClient(handle.db, other.clientId);
    expect((await requestToken(other.clientId, rotated.clientSecret)).status).toBe(401);
  });

  it("stores only a hash of the secret", async () => {
    const [row] = await handle.db
      .select()
      .from(machineClients)
      .where(eq(machineClients.clientId, client.clientId));
    expect(row?.secretHash).not.toContain(client.clientSecret);
    expect(JSON.stringify(row)).not.toContain(client.clientSecret);
  });

  it("answers 429 with Retry-After and RateLimit headers after repeated failed client authentications from one address", async () => {
    let last: Response | undefined;
    for (let attempt = 0; attempt < 25; attempt += 1) {
      last = await requestToken(client.clientId, "wrong", undefined, "203.0.113.99");
      if (last.status === 429) break;
    }
    expectFailedAuthenticationLimit(last);
    // Even the right secret waits until the block expires; other addresses are unaffected.
    expectFailedAuthenticationLimit(
      await requestToken(client.clientId, client.clientSecret, undefined, "203.0.113.99"),
    );
    expect(
      (await requestToken(client.clientId, client.clientSecret, undefined, "203.0.113.100")).status,
    ).toBe(200);
  });

  it("counts failed client authentications before checking them: of 40 parallel guesses at most 20 are evaluated", async () => {
    // 39 wrong secrets and, last, the right one: evaluated, it would confirm the guess with a token.
    const secrets = [...Array<string>(39).fill("wrong"), client.clientSecret];
    const statuses = await Promise.all(
      secrets.map(
        async (secret) => (await requestToken(client.clientId, secret, undefined, "203.0.113.140")).status,
      ),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
  });

  it("does not count successful client authentications against the failed-authentication budget", async () => {
    for (let attempt = 0; attempt < 25; attempt += 1) {
      expect(
        (await requestToken(client.clientId, client.clientSecret, undefined, "203.0.113.141")).status,
      ).toBe(200);
    }
  });
});
