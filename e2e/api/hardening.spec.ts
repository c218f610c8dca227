// Hardening against the running server: security headers on real pages and API answers, request
// ids, no internals in error answers, and a burst on a REST endpoint running into its rate limit.
import { spawnSync } from "node:child_process";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { e2eServer } from "../fixtures/server";

async function tokenFor(request: APIRequestContext, clientId: string, secret: string) {
  const response = await request.post("/idp/oauth2/token", {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}` },
    form: { grant_type: "client_credentials" },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).access_token as string;
}

/** A machine client of its own, so the burst spends no other test's budget. */
function createClient(name: string): { client_id: string; client_secret: string } {
  const created = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/admin.ts",
      "clients",
      "create",
      "--name",
      name,
      "--scopes",
      "vetdx/read vetdx/write",
      "--json",
    ],
    { encoding: "utf8", env: { ...process.env, ...e2eServer.env, LOG_LEVEL: "silent" }, timeout: 60_000 },
  );
  expect(created.status, created.stderr).toBe(0);
  return JSON.parse(created.stdout);
}

const LEAKS = /at [\w$.<>]+ \(|node_modules|\.next\/server|stack|ECONN|DrizzleQueryError|Failed query/i;

test("HTML pages get the CSP, framing, sniffing and referrer rules", async ({ request }) => {
  const page = await request.get("/signin");
  expect(page.status()).toBe(200);
  const headers = page.headers();
  expect(headers["content-security-policy"]).toContain("default-src 'self'");
  expect(headers["content-security-policy"]).toContain("script-src 'self' 'unsafe-inline'");
  expect(headers["content-security-policy"]).toContain("object-src 'none'");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  // APP_URL is http here: no HSTS.
  expect(headers["strict-transport-security"]).toBeUndefined();
});

test("component pages keep their own framing policy and no-referrer", async ({ request }) => {
  const page = await request.get("/components/diagnostics/cs_does_not_exist");
  expect(page.status()).toBe(404);
  expect(page.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(page.headers()["content-security-policy"]).toContain("object-src 'none'");
  expect(page.headers()["referrer-policy"]).toBe("no-referrer");
  expect(page.headers()["x-content-type-options"]).toBe("nosniff");
});

test("API answers carry security headers and the request id", async ({ request }) => {
  const echoed = await request.get("/v1/animal-types", { headers: { "x-request-id": "e2e-trace.0001" } });
  expect(echoed.status()).toBe(401);
  expect(echoed.headers()["x-request-id"]).toBe("e2e-trace.0001");
  expect(echoed.headers()["x-content-type-options"]).toBe("nosniff");
  expect(echoed.headers()["x-frame-options"]).toBe("DENY");
  expect(echoed.headers()["content-security-policy"]).toContain("default-src 'none'");
  const replaced = await request.get("/healthz", { headers: { "x-request-id": "bad id <script>" } });
  expect(replaced.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
});

test("errors leak no stack traces or internal messages", async ({ request }) => {
  const { client } = e2eServer.demoCredentials();
  const token = await tokenFor(request, client.client_id, client.client_secret);
  const truncated = await request.post("/v1/cases", {
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    data: '{"notes": ',
  });
  expect(truncated.status()).toBe(400);
  expect(await truncated.text()).not.toMatch(LEAKS);
  for (const [method, path] of [
    ["POST", "/signin"],
    ["DELETE", "/v1/cases"],
    ["GET", "/%E0%A4%A"],
    ["POST", "/no-such-page"],
    ["GET", "/v1/cases/not-a-uuid"],
  ] as const) {
    const response = await request.fetch(path, { method, headers: { authorization: `Bearer ${token}` } });
    expect(response.status(), `${method} ${path}`).toBeLessThan(500);
    expect(await response.text(), `${method} ${path}`).not.toMatch(LEAKS);
  }
});

test("a burst on a REST endpoint is answered with 429, Retry-After and RateLimit headers", async ({
  request,
}) => {
  const client = createClient("E2E burst");
  const token = await tokenFor(request, client.client_id, client.client_secret);
  const headers = { authorization: `Bearer ${token}` };
  const first = await request.get("/v1/animal-types", { headers });
  expect(first.status()).toBe(200);
  const policy = first.headers()["ratelimit-policy"] ?? "";
  expect(policy).toMatch(/^"api-token";q=\d+;w=\d+$/);
  expect(first.headers()["ratelimit"]).toMatch(/^"api-token";r=\d+;t=\d+$/);
  const quota = Number(/q=(\d+)/.exec(policy)?.[1]);

  let limited: Awaited<ReturnType<APIRequestContext["get"]>> | undefined;
  for (let sent = 1; sent <= quota + 50 && !limited; sent += 50) {
    const batch = await Promise.all(
      Array.from({ length: 50 }, () => request.get("/v1/animal-types", { headers })),
    );
    limited = batch.find((response) => response.status() === 429);
  }
  expect(limited, `no 429 after ${quota + 50} requests`).toBeDefined();
  expect(Number(limited!.headers()["retry-after"])).toBeGreaterThan(0);
  expect(limited!.headers()["ratelimit-policy"]).toBe(policy);
  expect(limited!.headers()["ratelimit"]).toMatch(/^"api-token";r=0;t=\d+$/);
  expect(limited!.headers()["content-type"]).toBe("application/problem+json");
  expect(await limited!.json()).toMatchObject({ status: 429 });
});
