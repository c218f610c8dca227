// Against the running server, as an integrator and an operator would use it: M2M token, bearer
// challenges, symptom search, and the admin CLI while the server holds the database.
import { spawnSync } from "node:child_process";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { e2eServer } from "../fixtures/server";

async function token(request: APIRequestContext, clientId: string, secret: string, scope?: string) {
  const response = await request.post("/idp/oauth2/token", {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}` },
    form: scope ? { grant_type: "client_credentials", scope } : { grant_type: "client_credentials" },
  });
  return response;
}

function admin(...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args, "--json"], {
    encoding: "utf8",
    env: { ...process.env, ...e2eServer.env, LOG_LEVEL: "silent" },
    timeout: 60_000,
  });
}

test("health and readiness", async ({ request }) => {
  expect((await request.get("/healthz")).status()).toBe(200);
  expect(await (await request.get("/readyz")).json()).toMatchObject({ status: "ready" });
});

test("the demo client gets a token that opens /v1/symptoms", async ({ request }) => {
  const { client } = e2eServer.demoCredentials();
  const response = await token(request, client.client_id, client.client_secret);
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body.expires_in).toBe(3600);
  const search = await request.get("/v1/symptoms?q=vomit", {
    headers: { authorization: `Bearer ${body.access_token}` },
  });
  const top = (await search.json()).data[0];
  expect(top).toMatchObject({ symptom_name: "vomiting", _distance: 0 });
});

test("missing and forged tokens get 401 with the RFC 6750 challenge", async ({ request }) => {
  const missing = await request.get("/v1/symptoms?q=vomit");
  expect(missing.status()).toBe(401);
  expect(missing.headers()["www-authenticate"]).toMatch(/^Bearer /);
  const forged = await request.get("/v1/symptoms?q=vomit", {
    headers: { authorization: "Bearer eyJhbGciOiJub25lIn0.e30." },
  });
  expect(forged.status()).toBe(401);
  expect(await forged.json()).toMatchObject({ error: "invalid_token" });
});

test("the admin CLI provisions and revokes clients while the server runs", async ({ request }) => {
  const created = admin("clients", "create", "--name", "E2E partner", "--scopes", "vetdx/read");
  expect(created.status, created.stderr).toBe(0);
  const client = JSON.parse(created.stdout);
  const issued = await token(request, client.client_id, client.client_secret);
  expect(issued.status()).toBe(200);
  const accessToken = (await issued.json()).access_token;
  const headers = { authorization: `Bearer ${accessToken}` };
  expect((await request.get("/v1/animal-types", { headers })).status()).toBe(200);

  const revoked = admin("clients", "revoke", client.client_id);
  expect(revoked.status, revoked.stderr).toBe(0);
  expect((await request.get("/v1/animal-types", { headers })).status()).toBe(401);
  expect((await token(request, client.client_id, client.client_secret)).status()).toBe(401);
});

test("bad bodies at the token endpoint are 4xx, never 5xx", async ({ request }) => {
  const json = await request.post("/idp/oauth2/token", { data: { grant_type: "client_credentials" } });
  expect(json.status()).toBe(400);
  const unauthenticated = await request.post("/idp/oauth2/token", {
    form: { grant_type: "client_credentials" },
  });
  expect(unauthenticated.status()).toBe(401);
});
