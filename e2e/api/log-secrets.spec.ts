// Logs against a real server at LOG_LEVEL=debug: every credential a client sends (bearer tokens,
// client secrets in Basic auth and in the form body, passwords, cookies, authorization codes) goes
// through REST, MCP (Streamable HTTP and legacy SSE), both token endpoints and the dashboard
// sign-in, with every kind of refusal (401, 400, 404, 429). Then its output must contain none of
// them, every line must be JSON, and every line about an HTTP request must carry its request id.
import { randomBytes } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import { signInOverHttp } from "../fixtures/http-sign-in";
import { startOwnServer, type OwnServer } from "../fixtures/own-server";

let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  // A budget of 3 on the MCP authorization server makes a 429 cheap.
  server = await startOwnServer({ LOG_LEVEL: "debug", RATE_LIMITS: "oauth-ip=3/60" });
});
test.afterAll(() => server?.stop());

/** A recognisable value nobody else would log by chance. */
const probe = (label: string) => `${label}-${randomBytes(12).toString("hex")}`;

test("no credential reaches the logs, and every request's log line carries its request id", async () => {
  const { client, vet } = server.demoCredentials();
  const url = (path: string) => `${server.url}${path}`;
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
  const probeCookie = probe("cookie-value");
  const wrongSecret = probe("wrong-client-secret");
  const wrongPassword = probe("wrong-password");
  const forgedToken = probe("forged-bearer");
  const asSecret = probe("as-client-secret");
  const refreshProbe = probe("refresh-token");
  const verifierProbe = probe("code-verifier");
  const secrets: Record<string, string> = {
    "demo client secret": client.client_secret,
    "vet password": vet.password,
    "probe cookie": probeCookie,
    "wrong client secret": wrongSecret,
    "wrong password": wrongPassword,
    "forged bearer token": forgedToken,
    "client secret at /token": asSecret,
    "refresh token at /token": refreshProbe,
    "code verifier at /token": verifierProbe,
  };
  const statuses = new Set<number>();
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set(
      "cookie",
      `vetdx_probe=${probeCookie}${headers.has("cookie") ? `; ${headers.get("cookie")}` : ""}`,
    );
    const response = await fetch(url(path), { ...init, headers });
    statuses.add(response.status);
    await response.arrayBuffer();
    return response;
  };

  // Client credentials at the identity provider's token endpoint: HTTP Basic, the form body, a wrong secret.
  const tokenFrom = async (init: RequestInit) => {
    const response = await fetch(url("/idp/oauth2/token"), { method: "POST", ...init });
    statuses.add(response.status);
    return { status: response.status, body: (await response.json()) as { access_token?: string } };
  };
  const viaBasic = await tokenFrom({
    headers: {
      authorization: basic(client.client_id, client.client_secret),
      cookie: `vetdx_probe=${probeCookie}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  expect(viaBasic.status).toBe(200);
  const viaForm = await tokenFrom({
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
    }),
  });
  expect(viaForm.status).toBe(200);
  const refused = await tokenFrom({
    headers: { authorization: basic(client.client_id, wrongSecret) },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  expect(refused.status).toBe(401);
  const token = viaBasic.body.access_token!;
  secrets["access token (Basic)"] = token;
  secrets["access token (form)"] = viaForm.body.access_token!;
  // A JWT's signature alone is as good as the token to someone holding the rest of it.
  secrets["access token signature"] = token.split(".")[2]!;

  // REST: success, a request id of our own, a truncated body (400), an unknown case (404), a forged
  // token (401), and a token in the query string where a proxy log would catch it.
  const bearer = { authorization: `Bearer ${token}` };
  expect(
    (await send("/v1/animal-types", { headers: { ...bearer, "x-request-id": "log-probe.0001" } })).status,
  ).toBe(200);
  const created = await fetch(url("/v1/cases"), {
    method: "POST",
    headers: { ...bearer, "content-type": "application/json" },
    body: JSON.stringify({ notes: "Bella, 4yo Labrador, vomiting since yesterday, lethargic." }),
  });
  expect(created.status).toBe(201);
  const truncated = await send("/v1/cases", {
    method: "POST",
    headers: { ...bearer, "content-type": "application/json" },
    body: '{"notes": ',
  });
  expect(truncated.status).toBe(400);
  expect((await send("/v1/cases/00000000-0000-4000-8000-000000000000", { headers: bearer })).status).toBe(
    404,
  );
  expect((await send("/v1/cases", { headers: { authorization: `Bearer ${forgedToken}` } })).status).toBe(401);
  expect((await send(`/v1/cases?access_token=${token}`)).status).toBe(401);

  // MCP with the bearer token, and a token in the URL (refused).
  const mcp = new Client({ name: "vetdx-log-probe", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(url("/mcp")), { authProvider: { token: async () => token } }),
  );
  const whoami = (await mcp.callTool({ name: "whoami", arguments: {} })) as { isError?: boolean };
  expect(whoami.isError).toBeFalsy();
  await mcp.close();
  expect((await send(`/mcp?access_token=${token}`, { method: "POST" })).status).toBe(400);
  // The legacy SSE transport: open a stream, read its endpoint event, hang up.
  const hangUp = new AbortController();
  const stream = await fetch(url("/sse"), {
    headers: { ...bearer, accept: "text/event-stream" },
    signal: hangUp.signal,
  });
  expect(stream.status).toBe(200);
  await stream.body!.getReader().read();
  hangUp.abort();

  // The MCP authorization server's token endpoint with secrets in the form, until it answers 429.
  const asStatuses: number[] = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const response = await send("/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: "mcp-client-that-does-not-exist",
        client_secret: asSecret,
        refresh_token: refreshProbe,
        code_verifier: verifierProbe,
      }),
    });
    asStatuses.push(response.status);
  }
  expect(asStatuses).toContain(429);

  // The dashboard: a wrong password, then a real sign-in; its cookies and code are secrets too.
  const failed = await signInOverHttp(server.url, {
    credentials: { email: vet.email, password: wrongPassword },
  });
  expect(failed.last.status()).toBe(401);
  statuses.add(failed.last.status());
  await failed.context.dispose();
  const signedIn = await signInOverHttp(server.url, { credentials: vet, callbackUrl: "/cases" });
  expect(signedIn.last.status()).toBe(200);
  const code = signedIn.hops.map((hop) => hop.searchParams.get("code")).find(Boolean);
  expect(code).toBeTruthy();
  secrets["authorization code"] = code!;
  for (const cookie of (await signedIn.context.storageState()).cookies) {
    // oidc-provider's interaction cookie holds the interaction id, which is in the URL by design;
    // it is worthless without its signature cookie, which is checked like the others.
    if (cookie.name === "_interaction" || cookie.name === "_interaction_resume") continue;
    if (cookie.name === "next-auth.callback-url") continue; // a URL, not a credential
    secrets[`cookie ${cookie.name}`] = cookie.value;
  }
  expect(Object.keys(secrets)).toContain("cookie next-auth.session-token");
  const cases = await signedIn.context.get("/cases");
  expect(cases.status()).toBe(200);
  await signedIn.context.dispose();
  expect([...statuses]).toEqual(expect.arrayContaining([200, 400, 401, 404, 429]));

  // Let the last request lines reach the pipe.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const output = server.outputSinceReady();
  const leaked = Object.entries(secrets)
    .filter(([, value]) => value.length >= 8 && output.includes(value))
    .map(([name]) => name);
  expect(leaked, "credentials found in the server output").toEqual([]);

  const lines = output.split("\n").filter((line) => line.trim());
  const notJson = lines.filter((line) => {
    try {
      return typeof JSON.parse(line) !== "object";
    } catch {
      return true;
    }
  });
  expect(notJson, "log lines that are not JSON").toEqual([]);
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const requestLines = entries.filter(
    (entry) => entry.event === "request" || "method" in entry || "path" in entry,
  );
  expect(requestLines.length).toBeGreaterThan(30);
  expect(requestLines.filter((entry) => typeof entry.request_id !== "string")).toEqual([]);
  for (const status of [200, 400, 401, 404, 429])
    expect(
      requestLines.some((entry) => entry.status === status),
      `a request line with ${status}`,
    ).toBe(true);
  expect(entries).toContainEqual(
    expect.objectContaining({ request_id: "log-probe.0001", path: "/v1/animal-types", status: 200 }),
  );
  // Lines written while handling a request (not only the summary line) carry its id too.
  expect(
    entries.filter((entry) => entry.event === "login_failed" || entry.event === "login_succeeded"),
  ).toEqual(expect.arrayContaining([expect.objectContaining({ request_id: expect.any(String) })]));
  expect(
    entries.filter(
      (entry) => (entry.event === "login_failed" || entry.event === "login_succeeded") && !entry.request_id,
    ),
  ).toEqual([]);
});
