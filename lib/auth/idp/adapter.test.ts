// The embedded provider's storage: sessions, interactions, codes and tokens are kept under the
// SHA-256 of their id, like the MCP authorization server's, so a copy of the table holds no usable
// session cookie, code or token. Driven through the real provider over HTTP, as server.ts mounts it.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { identityProviderPayloads } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { basic } from "@/test/support";
import { handleInteraction } from "./interactions";
import { createIdentityProvider, DASHBOARD_CLIENT_ID, getFirstPartyClientSecrets } from "./provider";

const REDIRECT_URI = "http://vetdx.test/api/auth/callback/vetdx";
const PASSWORD = "correct horse battery staple";

let handle: DatabaseHandle;
let server: http.Server;
let base = "";
let email = "";
const cookies = new Map<string, string>();

beforeAll(async () => {
  handle = await openTestDatabase();
  const provider = await createIdentityProvider(handle.db, getEnv());
  const callback = provider.callback();
  server = http.createServer(async (req, res) => {
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    if (await handleInteraction(provider, handle.db, req, res, pathname)) return;
    Object.assign(req, { originalUrl: req.url });
    req.url = req.url!.slice("/idp".length) || "/";
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  email = `adapter-${randomBytes(4).toString("hex")}@clinic.test`;
  await createVeterinarian(handle.db, { email, name: "Dr Adapter", password: PASSWORD });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await handle.close();
});

/** A request to the provider with the browser's cookies; absolute issuer URLs are sent here too. */
async function browse(target: string, init: RequestInit = {}): Promise<Response> {
  const url = new URL(target, base);
  const headers = new Headers(init.headers);
  headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
  headers.set("x-vetdx-client-ip", "198.51.100.61");
  const response = await fetch(`${base}${url.pathname}${url.search}`, {
    ...init,
    headers,
    redirect: "manual",
  });
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const [name = "", value = ""] = pair.split("=");
    if (/expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
    else cookies.set(name, value);
  }
  return response;
}

const location = (response: Response) => response.headers.get("location") ?? "";

function authorizationUrl(verifier: string) {
  return `/idp/auth?${new URLSearchParams({
    client_id: DASHBOARD_CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "openid email profile",
    state: "st",
    nonce: "n",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  })}`;
}

async function redeem(code: string, verifier: string): Promise<Response> {
  const secret = (await getFirstPartyClientSecrets(handle.db)).dashboard;
  return browse("/idp/token", {
    method: "POST",
    headers: {
      authorization: basic(DASHBOARD_CLIENT_ID, secret),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  });
}

const userinfo = (accessToken: string) =>
  browse("/idp/me", { headers: { authorization: `Bearer ${accessToken}` } });

describe("the embedded identity provider's storage", () => {
  it("keeps no raw session id, interaction id, code or token, and still finds every one of them", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const started = await browse(authorizationUrl(verifier));
    expect(started.status).toBe(303);
    const interactionUid = /\/idp\/interaction\/([^/?]+)$/.exec(location(started))?.[1] ?? "";
    expect(interactionUid).not.toBe("");
    expect((await browse(location(started))).status).toBe(200);
    const signedIn = await browse(`/idp/interaction/${interactionUid}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: PASSWORD }),
    });
    expect(signedIn.status).toBe(303);
    const duringSignIn = await handle.db.select().from(identityProviderPayloads);
    const resumed = await browse(location(signedIn));
    expect(resumed.status).toBe(303);
    const code = new URL(location(resumed)).searchParams.get("code") ?? "";
    expect(code).not.toBe("");
    const sessionId = cookies.get("_session") ?? "";
    expect(sessionId).not.toBe("");

    const tokens = await redeem(code, verifier);
    expect(tokens.status).toBe(200);
    const { access_token: accessToken } = (await tokens.json()) as { access_token: string };

    const rows = [...duringSignIn, ...(await handle.db.select().from(identityProviderPayloads))];
    expect(new Set(rows.map((row) => row.model))).toEqual(
      new Set(["Interaction", "Session", "AuthorizationCode", "Grant", "AccessToken"]),
    );
    const secrets = [sessionId, interactionUid, code, accessToken];
    for (const row of rows) {
      for (const key of [row.id, row.uid, row.grantId, row.userCode]) {
        if (key !== null) expect(secrets).not.toContain(key);
      }
      const stored = JSON.stringify(row.payload);
      for (const secret of [sessionId, code, accessToken]) expect(stored).not.toContain(secret);
      expect(row.payload).not.toHaveProperty("jti");
    }
    expect(rows.map((row) => row.id)).toEqual(
      expect.arrayContaining([code, accessToken, sessionId].map(storageKeyOf)),
    );

    // Lookups: the access token (and, through it, its session by uid), the session cookie (a second
    // authorization signs in silently), and the code (consumed: its replay revokes the grant).
    expect(await (await userinfo(accessToken)).json()).toMatchObject({ email });
    const again = await browse(authorizationUrl(verifier));
    expect(again.status).toBe(303);
    expect(new URL(location(again)).searchParams.get("code")).toBeTruthy();
    const replay = await redeem(code, verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    expect((await userinfo(accessToken)).status).toBe(401);
  });
});

/** The key a value is stored under: its SHA-256, base64url (lib/auth/secrets.ts). */
function storageKeyOf(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}
