// The sign-in interaction's brute-force limit: after ten failed passwords for one account, further
// attempts get the form again with 429, Retry-After and the RateLimit headers. The provider is a
// stand-in that only supplies the pending interaction; rate limiting and the page are the real ones.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { handleInteraction } from "./interactions";

const UID = "interaction-1";
const pendingSignIn = {
  interactionDetails: async () => ({
    uid: UID,
    params: { client_id: "vetdx-dashboard" },
    prompt: { name: "login" },
  }),
  Client: { find: async () => undefined },
} as unknown as Provider;

let handle: DatabaseHandle;
let server: http.Server;
let base = "";
beforeAll(async () => {
  handle = await openTestDatabase();
  server = http.createServer(async (req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://x");
    if (!(await handleInteraction(pendingSignIn, handle.db, req, res, pathname))) res.end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await handle.close();
});

const signIn = (email: string, password: string) =>
  fetch(`${base}/idp/interaction/${UID}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-vetdx-client-ip": "198.51.100.90" },
    body: new URLSearchParams({ email, password }),
  });

describe("sign-in attempts", () => {
  it("answers 429 with Retry-After and RateLimit headers once an account's failures are spent", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      statuses.push((await signIn("nobody@clinic.test", "wrong-password")).status);
    }
    expect(statuses).toEqual(Array(11).fill(401));

    const refused = await signIn("nobody@clinic.test", "wrong-password");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-policy")).toBe('"login-account";q=10;w=900');
    expect(refused.headers.get("ratelimit")).toMatch(/^"login-account";r=0;t=\d+$/);
    expect(await refused.text()).toContain("Too many failed attempts");
  });
});
