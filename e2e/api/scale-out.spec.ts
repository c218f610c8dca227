// Scale-out: two app instances on one PostgreSQL database and one Redis, behind a small HTTP load
// balancer written here (round-robin per request, or pinned per request for the assertions).
// Both instances have the balancer's URL as APP_URL, as in a real deployment, so tokens carry the
// same issuer and audience whichever instance issued them. Shows that a case created on one is
// polled and edited on the other, that M2M tokens, MCP OAuth grants and legacy /sse sessions work
// across instances, and that rate limits are shared.
//
// Needs DATABASE_URL (a local PostgreSQL; the spec creates and drops its own database on that
// server) and Redis at REDIS_URL (default redis://127.0.0.1:6379). Uses the already-built app
// (VETDX_NEXT_DIST_DIR, the same build the e2e web server uses).
// Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx playwright test e2e/api/scale-out.spec.ts
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { SignInPage } from "../pages/sign-in-page";
import { freePort } from "../../test/free-port";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
type Target = "a" | "b";

test.skip(!process.env.DATABASE_URL, "scale-out needs PostgreSQL: set DATABASE_URL");
test.describe.configure({ mode: "serial" });

interface Balancer {
  url: string;
  /** Optional routing rule; requests it leaves undecided go round-robin. */
  route: (req: http.IncomingMessage) => Target | undefined;
  served: { method: string; path: string; target: Target }[];
  close(): Promise<void>;
}

/**
 * A load balancer in front of both instances, per request (not per connection), no stickiness.
 * A request header `x-scale-target: a|b` pins one request (the header is not forwarded). It sets
 * X-Forwarded-For like a real proxy, keeping one the client sent (the instances run TRUST_PROXY=1).
 */
async function startBalancer(ports: Record<Target, number>): Promise<Balancer> {
  let turn = 0;
  const balancer: Balancer = {
    url: "",
    route: () => undefined,
    served: [],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const pinned = req.headers["x-scale-target"];
    const target: Target =
      pinned === "a" || pinned === "b" ? pinned : (balancer.route(req) ?? (turn++ % 2 === 0 ? "a" : "b"));
    balancer.served.push({ method: req.method ?? "GET", path: req.url ?? "/", target });
    const headers = { ...req.headers };
    delete headers["x-scale-target"];
    delete headers.connection;
    delete headers["keep-alive"];
    headers["x-forwarded-for"] = req.headers["x-forwarded-for"] ?? req.socket.remoteAddress ?? "";
    const upstream = http.request(
      { host: "127.0.0.1", port: ports[target], method: req.method, path: req.url, headers, agent: false },
      (answer) => {
        const responseHeaders: http.OutgoingHttpHeaders = { ...answer.headers, "x-served-by": target };
        delete responseHeaders.connection;
        delete responseHeaders["keep-alive"];
        res.writeHead(answer.statusCode ?? 502, responseHeaders);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as net.AddressInfo;
  balancer.url = `http://localhost:${port}`;
  balancer.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return balancer;
}

interface Instance {
  name: Target;
  port: number;
  dataDir: string;
  child: ChildProcess;
  stderr: string[];
}

function startInstance(name: Target, port: number, env: Record<string, string>): Instance {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `vetdx-e2e-scale-${name}-`));
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  return { name, port, dataDir, child, stderr };
}

async function waitReady(instance: Instance) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null)
      throw new Error(`instance ${instance.name} exited: ${instance.stderr.join("")}`);
    try {
      if ((await fetch(`http://127.0.0.1:${instance.port}/readyz`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`instance ${instance.name} not ready: ${instance.stderr.join("")}`);
}

let balancer: Balancer;
let instances: Instance[] = [];
let databaseName = "";
let client: { client_id: string; client_secret: string };
let vet: { email: string; password: string };

function serverUrlOf(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  databaseName = `vetdx_scale_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database ${databaseName}`);
  await admin.end();

  const ports = { a: await freePort(), b: await freePort() };
  balancer = await startBalancer(ports);
  const shared = {
    APP_URL: balancer.url,
    DATABASE_URL: serverUrlOf(process.env.DATABASE_URL!, databaseName),
    REDIS_URL,
    TRUST_PROXY: "1",
  };
  // Both start at once on an empty database: migrations and the catalogue load take advisory
  // locks, so one instance does them and the other waits. Only A creates the demo accounts.
  instances = [
    startInstance("a", ports.a, { ...shared, DEMO_SEED: "1" }),
    startInstance("b", ports.b, { ...shared, DEMO_SEED: "0" }),
  ];
  await Promise.all(instances.map(waitReady));
  const credentials = JSON.parse(
    readFileSync(path.join(instances[0]!.dataDir, "demo-credentials.json"), "utf8"),
  );
  client = credentials.client;
  vet = credentials.vet;
});

test.afterAll(async () => {
  for (const instance of instances) instance.child.kill("SIGTERM");
  await Promise.all(
    instances.map(
      (instance) =>
        new Promise((resolve) => {
          if (instance.child.exitCode !== null) return resolve(undefined);
          const force = setTimeout(() => instance.child.kill("SIGKILL"), 12_000);
          instance.child.once("exit", () => {
            clearTimeout(force);
            resolve(undefined);
          });
        }),
    ),
  );
  for (const instance of instances) rmSync(instance.dataDir, { recursive: true, force: true });
  await balancer?.close();
  if (databaseName) {
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }
});

/** A request through the balancer, pinned to one instance. */
function via(target: Target, pathname: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("x-scale-target", target);
  return fetch(`${balancer.url}${pathname}`, { ...init, headers });
}

async function m2mToken(target: Target): Promise<string> {
  const response = await via(target, "/idp/oauth2/token", {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("x-served-by")).toBe(target);
  return ((await response.json()) as { access_token: string }).access_token;
}

test("both instances serve the same deployment", async () => {
  for (const instance of instances) {
    const ready = await fetch(`http://127.0.0.1:${instance.port}/readyz`);
    expect(await ready.json()).toMatchObject({ status: "ready", database: "postgres" });
  }
  // One issuer for both: discovery through either instance names the balancer's URL.
  for (const target of ["a", "b"] as const) {
    const metadata = await (await via(target, "/.well-known/oauth-authorization-server")).json();
    expect(metadata.issuer).toBe(balancer.url);
  }
});

test("a case created on one instance is polled and edited on the other", async () => {
  const token = await m2mToken("a");
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const created = await via("a", "/v1/cases", {
    method: "POST",
    headers,
    body: JSON.stringify({
      notes:
        "Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, lethargic. No diarrhoea.",
    }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };

  let polled: { status: string } = { status: "PENDING" };
  let etag = "";
  for (let attempt = 0; attempt < 60 && !["COMPLETED", "ERROR"].includes(polled.status); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const response = await via("b", `/v1/cases/${id}`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-served-by")).toBe("b");
    polled = await response.json();
    etag = response.headers.get("etag") ?? "";
  }
  expect(polled.status).toBe("COMPLETED");
  expect(etag).not.toBe("");

  // Conditional GET on A with B's ETag: the version lives in the database, not in a process.
  const unchanged = await via("a", `/v1/cases/${id}`, { headers: { ...headers, "if-none-match": etag } });
  expect(unchanged.status).toBe(304);

  const edited = await via("b", `/v1/cases/${id}`, {
    method: "PATCH",
    headers: { ...headers, "if-match": etag },
    body: JSON.stringify({ patient: { name: "Bella B", weight_kg: 29 } }),
  });
  expect(edited.status).toBe(200);
  const seenOnA = await via("a", `/v1/cases/${id}`, { headers });
  expect(await seenOnA.json()).toMatchObject({ patient: { name: "Bella B", weight_kg: 29 } });
  expect(seenOnA.headers.get("etag")).not.toBe(etag);

  // The stale ETag is refused on A too: optimistic concurrency holds across instances.
  const stale = await via("a", `/v1/cases/${id}`, {
    method: "PATCH",
    headers: { ...headers, "if-match": etag },
    body: JSON.stringify({ patient: { name: "Lost update" } }),
  });
  expect(stale.status).toBe(412);
});

test("an M2M token issued by one instance is accepted by the other, on REST and /mcp", async () => {
  for (const [issuer, verifier] of [
    ["a", "b"],
    ["b", "a"],
  ] as const) {
    const token = await m2mToken(issuer);
    const cases = await via(verifier, "/v1/symptoms?q=vomiting&limit=1", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(cases.status).toBe(200);
    const mcp = await via(verifier, "/mcp", {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "whoami", arguments: {} },
      }),
    });
    expect(mcp.status).toBe(200);
    expect(await mcp.text()).toMatch(/\\?"kind\\?":\\?"machine/);
  }
});

test("a client revoked through the admin CLI is refused at once on both instances", async () => {
  // The admin CLI on PostgreSQL writes to the database directly; both instances have already cached
  // the client's identity, and learn of the revocation through NOTIFY.
  const admin = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args, "--json"], {
      encoding: "utf8",
      env: {
        ...process.env,
        DATABASE_URL: serverUrlOf(process.env.DATABASE_URL!, databaseName),
        DATA_DIR: instances[0]!.dataDir,
        APP_URL: balancer.url,
        LOG_LEVEL: "silent",
      },
      timeout: 60_000,
    });
  const created = admin("clients", "create", "--name", "Scale partner", "--scopes", "vetdx/read");
  expect(created.status, created.stderr).toBe(0);
  const partner = JSON.parse(created.stdout) as { client_id: string; client_secret: string };
  const issued = await via("a", "/idp/oauth2/token", {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${partner.client_id}:${partner.client_secret}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  expect(issued.status).toBe(200);
  const headers = {
    authorization: `Bearer ${((await issued.json()) as { access_token: string }).access_token}`,
  };
  for (const target of ["a", "b"] as const) {
    expect((await via(target, "/v1/animal-types", { headers })).status).toBe(200);
  }

  const revoked = admin("clients", "revoke", partner.client_id);
  expect(revoked.status, revoked.stderr).toBe(0);
  for (const target of ["a", "b"] as const) {
    // "At once": well inside the 10 s a cached identity would otherwise live.
    await expect
      .poll(async () => (await via(target, "/v1/animal-types", { headers })).status, { timeout: 1000 })
      .toBe(401);
  }
});

test("an MCP OAuth session authorised through both instances works on each", async ({ page }) => {
  test.setTimeout(120_000);
  // The client's loopback redirect receiver (RFC 8252).
  const codes: URL[] = [];
  const receiver = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    res.writeHead(200, { "content-type": "text/html" }).end("<h1>Connected</h1>");
    if (url.pathname === "/cb") codes.push(url);
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const redirectUri = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/cb`;
  try {
    const registered = await via("a", "/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Scale-out MCP client",
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };

    // The whole browser flow goes round-robin, one request to A, the next to B: /authorize,
    // the identity provider's sign-in interaction, /callback, consent, every asset.
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${balancer.url}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      state: "scale-1",
      scope: "vetdx/read vetdx/tools",
      resource: `${balancer.url}/mcp`,
    }).toString();
    const before = balancer.served.length;
    await page.goto(authorize.toString());
    const signIn = new SignInPage(page);
    await signIn.expectShown();
    await signIn.signIn(vet.email, vet.password);
    await expect(page.getByRole("heading", { name: "Allow access?" })).toBeVisible();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect.poll(() => codes.length).toBe(1);
    const flow = balancer.served.slice(before);
    expect(new Set(flow.map((request) => request.target))).toEqual(new Set(["a", "b"]));
    const callback = codes[0]!;
    expect(callback.searchParams.get("state")).toBe("scale-1");

    const exchanged = await via("b", "/token", {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: clientId,
        code: callback.searchParams.get("code") ?? "",
        code_verifier: verifier,
        redirect_uri: redirectUri,
        resource: `${balancer.url}/mcp`,
      }),
    });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };

    // The access token from B works on A and on B.
    for (const target of ["a", "b"] as const) {
      balancer.route = () => target;
      const mcp = new Client({ name: `scale-oauth-${target}`, version: "1.0.0" });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${balancer.url}/mcp`), {
          authProvider: { token: async () => tokens.access_token },
        }),
      );
      const who = (await mcp.callTool({ name: "whoami", arguments: {} })) as {
        structuredContent?: Record<string, unknown>;
      };
      expect(who.structuredContent).toMatchObject({ kind: "human", auth_method: "oauth", email: vet.email });
      await mcp.close();
    }
    balancer.route = () => undefined;

    // Refresh on A; replaying the old refresh token on B is detected and revokes the grant.
    const refreshed = await via("a", "/token", {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: clientId,
        refresh_token: tokens.refresh_token,
      }),
    });
    expect(refreshed.status).toBe(200);
    const rotated = (await refreshed.json()) as { access_token: string; refresh_token: string };
    const replayed = await via("b", "/token", {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: clientId,
        refresh_token: tokens.refresh_token,
      }),
    });
    expect(replayed.status).toBe(400);
    const revoked = await via("a", "/mcp", {
      method: "POST",
      headers: {
        authorization: `Bearer ${rotated.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(revoked.status).toBe(401);
  } finally {
    balancer.route = () => undefined;
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test("legacy /sse: the stream on one instance, messages posted to the other (Redis)", async () => {
  const token = await m2mToken("a");
  for (const [streamOn, postTo] of [
    ["a", "b"],
    ["b", "a"],
  ] as const) {
    balancer.route = (req) => ((req.url ?? "").startsWith("/message") ? postTo : streamOn);
    const before = balancer.served.length;
    const mcp = new Client({ name: `scale-sse-${streamOn}`, version: "1.0.0" });
    await mcp.connect(
      new SSEClientTransport(new URL(`${balancer.url}/sse`), { authProvider: { token: async () => token } }),
    );
    expect((await mcp.listTools()).tools).toHaveLength(20);
    const found = (await mcp.callTool({
      name: "search_symptoms",
      arguments: { q: "vomiting", limit: 1 },
    })) as {
      isError?: boolean;
      structuredContent?: { data?: unknown[] };
    };
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent?.data).toHaveLength(1);
    await mcp.close();
    const served = balancer.served.slice(before);
    expect(served.filter((r) => r.path.startsWith("/sse")).every((r) => r.target === streamOn)).toBe(true);
    const posts = served.filter((r) => r.path.startsWith("/message"));
    expect(posts.length).toBeGreaterThanOrEqual(3);
    expect(posts.every((r) => r.target === postTo)).toBe(true);
  }
  balancer.route = () => undefined;

  // The other instance still refuses what the holder would refuse: unknown sessions, other vets.
  const stream = await via("a", "/sse", { headers: { authorization: `Bearer ${token}` } });
  const reader = stream.body!.getReader();
  let first = "";
  while (!first.includes("\n\n")) first += new TextDecoder().decode((await reader.read()).value);
  const endpoint = /data: (\/message\?sessionId=[0-9a-f-]+)/.exec(first)?.[1];
  expect(endpoint).toBeTruthy();
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const jsonHeaders = { "content-type": "application/json" };
  const unknown = await via("b", `/message?sessionId=${crypto.randomUUID()}`, {
    method: "POST",
    headers: { ...jsonHeaders, authorization: `Bearer ${token}` },
    body: ping,
  });
  expect(unknown.status).toBe(404);
  const anonymous = await via("b", endpoint!, { method: "POST", headers: jsonHeaders, body: ping });
  expect(anonymous.status).toBe(401);
  const accepted = await via("b", endpoint!, {
    method: "POST",
    headers: { ...jsonHeaders, authorization: `Bearer ${token}` },
    body: ping,
  });
  expect(accepted.status).toBe(202);
  let answer = "";
  while (!answer.includes('"id":1')) answer += new TextDecoder().decode((await reader.read()).value);
  expect(answer).toContain('"result":{}');
  await reader.cancel();
});

// Depends on the Redis-backed limiter (lib/http/rate-limit.ts with REDIS_URL). With per-process
// limiters each instance would allow the whole budget, so alternating instances doubles it.
test("rate limits are shared: failed client authentications count on both instances", async () => {
  // Its own client address (the instances trust the balancer's X-Forwarded-For), so that the
  // block this test provokes cannot affect other tests.
  const address = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
  const attempt = (target: Target) =>
    via(target, "/idp/oauth2/token", {
      method: "POST",
      headers: {
        "x-forwarded-for": address,
        authorization: `Basic ${Buffer.from(`${client.client_id}:wrong-secret`).toString("base64")}`,
      },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
  // The budget is 20 failed authentications per address (FAILED_AUTHENTICATIONS); alternating
  // A, B, A, B… the first 429 must come at the 21st attempt, not the 41st.
  let firstLimited = 0;
  for (let n = 1; n <= 44 && !firstLimited; n += 1) {
    const response = await attempt(n % 2 ? "a" : "b");
    if (response.status === 429) {
      firstLimited = n;
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    } else expect(response.status).toBe(401);
  }
  expect(firstLimited).toBeGreaterThan(0);
  expect(firstLimited).toBeLessThanOrEqual(21);
  for (const target of ["a", "b"] as const) expect((await attempt(target)).status).toBe(429);
});
