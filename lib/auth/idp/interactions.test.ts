// The sign-in interaction's brute-force limits: every attempt counts before the password is checked,
// per address and per address and account, so an attacker is throttled while the owner's correct
// password from another address still gets in. The provider is a stand-in that only supplies the
// pending interaction and records a finished sign-in; rate limiting and the page are the real ones.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { handleInteraction } from "./interactions";

const UID = "interaction-1";
const PASSWORD = "correct horse battery staple";
const pendingSignIn = {
  interactionDetails: async () => ({
    uid: UID,
    params: { client_id: "vetdx-dashboard" },
    prompt: { name: "login" },
  }),
  Client: { find: async () => undefined },
  interactionFinished: async (
    _req: http.IncomingMessage,
    res: http.ServerResponse,
    result: { login?: { accountId: string } },
  ) => {
    res.writeHead(303, { location: `/idp/auth/${UID}` });
    res.end(result.login?.accountId ?? "");
  },
} as unknown as Provider;

let handle: DatabaseHandle;
let server: http.Server;
let base = "";
let vet: { id: string; email: string };
beforeAll(async () => {
  handle = await openTestDatabase();
  vet = await createVeterinarian(handle.db, {
    email: "owner@clinic.test",
    name: "Dr Owner",
    password: PASSWORD,
  });
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

const signIn = (email: string, password: string, address = "198.51.100.90") =>
  fetch(`${base}/idp/interaction/${UID}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-vetdx-client-ip": address },
    body: new URLSearchParams({ email, password }),
    redirect: "manual",
  });

describe("sign-in attempts", () => {
  it("answers 429 with Retry-After and RateLimit headers once an address's failures for one account are spent", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      statuses.push((await signIn("nobody@clinic.test", "wrong-password")).status);
    }
    expect(statuses).toEqual(Array(5).fill(401));

    const refused = await signIn("nobody@clinic.test", "wrong-password");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-policy")).toBe('"login-ip-account";q=5;w=900');
    expect(refused.headers.get("ratelimit")).toMatch(/^"login-ip-account";r=0;t=\d+$/);
    expect(await refused.text()).toContain("Too many failed attempts");
  });

  it("throttles the address guessing a vet's password, never the vet's correct password from elsewhere", async () => {
    const attacker = "203.0.113.66";
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      statuses.push((await signIn(vet.email, `guess-${attempt}`, attacker)).status);
    }
    expect(statuses.at(-1)).toBe(429);

    const owner = await signIn(vet.email, PASSWORD, "192.0.2.77");
    expect(owner.status).toBe(303);
    expect(await owner.text()).toBe(vet.id);
    // Five failures per address and account, then that address waits.
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    // The attacker's address stays throttled, even with the right password.
    expect((await signIn(vet.email, PASSWORD, attacker)).status).toBe(429);
  });

  it("counts attempts before checking passwords: of 40 parallel guesses from one address at most 20 are evaluated", async () => {
    // 39 wrong guesses at different accounts and, last, the right password: evaluated, it would sign in.
    const guesses = [
      ...Array.from({ length: 39 }, (_, index) => [`someone-${index}@clinic.test`, "wrong-password"]),
      [vet.email, PASSWORD],
    ];
    const statuses = await Promise.all(
      guesses.map(async ([email, password]) => (await signIn(email!, password!, "203.0.113.67")).status),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
  });

  it("does not count successful sign-ins against the address", async () => {
    for (let attempt = 0; attempt < 25; attempt += 1) {
      expect((await signIn(vet.email, PASSWORD, "192.0.2.78")).status).toBe(303);
    }
  });
});
