// Fault: an external identity provider (OIDC_ISSUER) whose discovery and JWKS cannot be reached.
// A tiny local provider serves both; while it is down /v1 fails closed with 503 and a clear
// message (never 200, never a 500), and it works again as soon as the provider is back.
import http from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const issuerPort = vi.hoisted(() => {
  const port = 31_000 + (process.pid % 20_000);
  // eslint-disable-next-line no-restricted-properties -- test configuration before lib/env reads it
  process.env.OIDC_ISSUER = `http://127.0.0.1:${port}`;
  // eslint-disable-next-line no-restricted-properties -- test configuration before lib/env reads it
  process.env.OIDC_CLIENT_ID = "vetdx-test";
  // eslint-disable-next-line no-restricted-properties -- test configuration before lib/env reads it
  process.env.OIDC_CLIENT_SECRET = "test-secret";
  return port;
});

import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { call } from "@/test/support";
import { GET as animalTypes } from "@/app/v1/animal-types/route";

const issuer = `http://127.0.0.1:${issuerPort}`;
let handle: DatabaseHandle;
let privateKey: CryptoKey;
let publicJwk: JWK;
let provider: http.Server | undefined;

async function startProvider() {
  provider = http.createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration")
      return res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    if (req.url === "/jwks") return res.end(JSON.stringify({ keys: [publicJwk] }));
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

async function personToken() {
  return new SignJWT({ scope: "vetdx/read", email: "jwks.fault@example.test", name: "Dr Fault" })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(issuer)
    .setAudience("http://vetdx.test")
    .setSubject("person-1")
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(privateKey);
}

beforeAll(async () => {
  handle = await openTestDatabase();
  const pair = await generateKeyPair("RS256", { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
});
afterAll(async () => {
  await stopProvider();
  await handle.close();
});

describe("external identity provider unreachable", () => {
  it("fails closed with 503 and a clear message, then recovers when the provider is back", async () => {
    const token = await personToken();

    const down = await call(animalTypes, "/v1/animal-types", { token });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
    const body = await down.json();
    expect(body.detail).toBe("The identity provider cannot be reached; try again shortly");
    expect(JSON.stringify(body)).not.toMatch(/fetch failed|ECONNREFUSED|127\.0\.0\.1/);

    await startProvider();
    const up = await call(animalTypes, "/v1/animal-types", { token });
    expect(up.status).toBe(200);

    // Keys already fetched stay usable while the provider is away again (jose caches the JWKS).
    await stopProvider();
    expect((await call(animalTypes, "/v1/animal-types", { token })).status).toBe(200);
    // A forged token still fails: the cache never turns an outage into acceptance.
    const forged = `${token.slice(0, -6)}AAAAAA`;
    expect((await call(animalTypes, "/v1/animal-types", { token: forged })).status).toBe(401);
  });
});
