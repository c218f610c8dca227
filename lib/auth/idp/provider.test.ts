// The embedded identity provider sees the same client address as the rest of VetDx: behind
// TRUST_PROXY=1 the X-Forwarded-For entry the proxy appended, not one the client wrote before it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { parseEnv } from "@/lib/env";
import { stampClientAddress } from "@/lib/http/client-address";
import { createIdentityProvider } from "./provider";

let handle: DatabaseHandle;
let server: http.Server;
let base = "";
const seen: string[] = [];

beforeAll(async () => {
  handle = await openTestDatabase();
  const env = parseEnv({ TRUST_PROXY: "1", APP_URL: "http://127.0.0.1" });
  const provider = await createIdentityProvider(handle.db, env);
  provider.use(async (ctx, next) => {
    seen.push(ctx.ip);
    await next();
  });
  const callback = provider.callback();
  // As server.ts mounts it: the address stamped first, then the provider under /idp.
  server = http.createServer((req, res) => {
    stampClientAddress(req, env);
    Object.assign(req, { originalUrl: req.url });
    req.url = req.url!.slice("/idp".length) || "/";
    void callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await handle.close();
});

describe("identity provider behind a trusted proxy", () => {
  it("takes the client address the proxy appended", async () => {
    const response = await fetch(`${base}/idp/.well-known/openid-configuration`, {
      headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.9" },
    });
    expect(response.status).toBe(200);
    expect(seen.at(-1)).toBe("203.0.113.9");
  });
});
