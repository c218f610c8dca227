// Fault: an external identity provider (OIDC_ISSUER) whose discovery and JWKS cannot be reached or
// answer 500. A tiny local provider serves both; while it is down /v1 fails closed with 503 and a
// clear message (never 200, never a 500, never a 401 blaming the token), and it works again as soon
// as the provider is back. A key id the healthy provider does not publish stays a 401.
import http from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

const issuerPort = vi.hoisted(() => {
  const port = 31_000 + (process.pid % 20_000);
  // Before lib/env reads them (hoisted above the imports).
  vi.stubEnv("OIDC_ISSUER", `http://127.0.0.1:${port}`);
  vi.stubEnv("OIDC_CLIENT_ID", "vetdx-test");
  vi.stubEnv("OIDC_CLIENT_SECRET", "test-secret");
  return port;
});

import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { call } from "@/test/support";
import { GET as animalTypes } from "@/app/v1/animal-types/route";

const issuer = `http://127.0.0.1:${issuerPort}`;
let handle: DatabaseHandle;
let provider: http.Server | undefined;
/** What the provider answers: its endpoints' status codes and the keys its JWKS publishes. */
const serving = { discoveryStatus: 200, jwksStatus: 200, keys: [] as JWK[] };

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}
let k1: SigningKey;

async function signingKey(kid: string): Promise<SigningKey> {
  const pair = await generateKeyPair("RS256", { extractable: true });
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: "RS256", use: "sig" };
  return { kid, privateKey: pair.privateKey, publicJwk };
}

async function startProvider(answers: Partial<typeof serving> = {}) {
  await stopProvider();
  Object.assign(serving, { discoveryStatus: 200, jwksStatus: 200, keys: [k1.publicJwk] }, answers);
  provider = http.createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration") {
      res.statusCode = serving.discoveryStatus;
      return res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    }
    if (req.url === "/jwks") {
      res.statusCode = serving.jwksStatus;
      return res.end(serving.jwksStatus === 200 ? JSON.stringify({ keys: serving.keys }) : "{}");
    }
    res.statusCode = 404;
    res.end("{}");
  });
  await new Promise<void>((resolve) => provider!.listen(issuerPort, "127.0.0.1", resolve));
}

async function stopProvider() {
  const closing = provider;
  provider = undefined;
  closing?.closeAllConnections();
  if (closing) await new Promise((resolve) => closing.close(resolve));
}

async function personToken(key: SigningKey = k1) {
  return new SignJWT({ scope: "vetdx/read", email: "jwks.fault@example.test", name: "Dr Fault" })
    .setProtectedHeader({ alg: "RS256", kid: key.kid })
    .setIssuer(issuer)
    .setAudience("http://vetdx.test")
    .setSubject("person-1")
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(key.privateKey);
}

async function expectUnavailable(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("5");
  expect((await response.json()).detail).toBe("The identity provider cannot be reached; try again shortly");
}

const get = (token: string) => call(animalTypes, "/v1/animal-types", { token });

beforeAll(async () => {
  handle = await openTestDatabase();
  k1 = await signingKey("k1");
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await stopProvider();
  await handle.close();
});

describe("external identity provider unreachable", () => {
  it("fails closed with 503 while discovery is refused or answers 500", async () => {
    const token = await personToken();

    const down = await get(token);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    const body = await down.json();
    expect(body.detail).toBe("The identity provider cannot be reached; try again shortly");
    expect(JSON.stringify(body)).not.toMatch(/fetch failed|ECONNREFUSED|127\.0\.0\.1/);

    await startProvider({ discoveryStatus: 500 });
    await expectUnavailable(await get(token));
  });

  it("fails closed with 503 while the JWKS answers 500, then recovers when it answers again", async () => {
    Object.assign(serving, { discoveryStatus: 200, jwksStatus: 500 });
    const token = await personToken();
    await expectUnavailable(await get(token));

    serving.jwksStatus = 200;
    expect((await get(token)).status).toBe(200);

    // Keys already fetched stay usable while the provider is away again (jose caches the JWKS).
    await stopProvider();
    expect((await get(token)).status).toBe(200);
    // A forged token still fails: the cache never turns an outage into acceptance.
    const forged = `${token.slice(0, -6)}AAAAAA`;
    expect((await get(forged)).status).toBe(401);
  });

  it("answers 503 for a new key id while the JWKS answers 500, and 401 for a key the healthy provider lacks", async () => {
    // jose refetches the JWKS for an unknown key id only after its 30 s cooldown: move its clock on.
    const realNow = Date.now.bind(Date);
    let offsetMs = 31_000;
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + offsetMs);
    const k2 = await signingKey("k2");
    const rotated = await personToken(k2);

    await startProvider({ jwksStatus: 500 });
    await expectUnavailable(await get(rotated));
    expect((await get(await personToken())).status).toBe(200);

    serving.jwksStatus = 200;
    serving.keys = [k1.publicJwk, k2.publicJwk];
    expect((await get(rotated)).status).toBe(200);

    const unknown = await personToken(await signingKey("k3"));
    const withinCooldown = await get(unknown);
    expect(withinCooldown.status).toBe(401);
    expect(await withinCooldown.json()).toMatchObject({ error: "invalid_token" });
    offsetMs += 31_000;
    const refetched = await get(unknown);
    expect(refetched.status).toBe(401);
    expect(refetched.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });
});
