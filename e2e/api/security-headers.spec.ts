// Security headers on every surface of the running server, signed out and signed in: dashboard
// pages, their redirects and 404s, REST answers and problems, OpenAPI, MCP and legacy SSE, OAuth
// metadata and the MCP authorization server, the identity provider's pages, JWKS and token
// endpoint, health checks, static files and Next.js assets, embed.js, the component page (unknown
// and live session) and its API. Every answer needs nosniff, a referrer policy, a CSP and a request
// id; every one but a live component page refuses all framing (CSP and X-Frame-Options); HTML gets
// the full page policy; nothing sends HSTS over plain http (its https side: security-headers.test.ts).
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { signInOverHttp } from "../fixtures/http-sign-in";
import { e2eServer } from "../fixtures/server";

const PARTNER = "https://pms.example";

interface Seen {
  label: string;
  status: number;
  headers: Record<string, string>;
}

function seen(label: string, response: APIResponse): Seen {
  return { label, status: response.status(), headers: response.headers() };
}

/** What is wrong with one answer's headers (empty when nothing is). */
function problemsOf({ headers }: Seen, frame: "none" | string = "none"): string[] {
  const problems: string[] = [];
  const csp = headers["content-security-policy"] ?? "";
  if (headers["x-content-type-options"] !== "nosniff") problems.push("X-Content-Type-Options is not nosniff");
  if (!["strict-origin-when-cross-origin", "no-referrer"].includes(headers["referrer-policy"] ?? ""))
    problems.push(`Referrer-Policy is ${headers["referrer-policy"]}`);
  if (!/^[\w.:-]{1,128}$/.test(headers["x-request-id"] ?? "")) problems.push("no X-Request-Id");
  if (headers["strict-transport-security"] !== undefined) problems.push("HSTS over plain http");
  if (!/(^|;)\s*default-src /.test(csp)) problems.push(`CSP without default-src: ${csp || "(none)"}`);
  if (!/(^|;)\s*base-uri /.test(csp)) problems.push(`CSP without base-uri: ${csp || "(none)"}`);
  if (/^text\/html\b/i.test(headers["content-type"] ?? "")) {
    if (!/default-src 'none'|object-src 'none'/.test(csp))
      problems.push("HTML may load plugins (object-src)");
    if (/script-src[^;]*(\*|https?:|data:)/.test(csp)) problems.push(`HTML scripts from anywhere: ${csp}`);
  } else if (!csp.includes("default-src 'none'")) {
    problems.push(`non-HTML answer with a page policy: ${csp}`);
  }
  if (frame === "none") {
    if (!csp.includes("frame-ancestors 'none'")) problems.push(`framable: CSP ${csp || "(none)"}`);
    if (headers["x-frame-options"] !== "DENY") problems.push(`X-Frame-Options ${headers["x-frame-options"]}`);
  } else {
    if (!csp.includes(`frame-ancestors ${frame}`)) problems.push(`frame-ancestors is not ${frame}: ${csp}`);
    // X-Frame-Options cannot name an origin: it would stop the partner from framing it.
    if (headers["x-frame-options"] !== undefined) problems.push("X-Frame-Options on a framable page");
  }
  return problems;
}

function expectHardened(answers: Seen[], frame: "none" | string = "none") {
  const failures = answers
    .map((answer) => ({ answer, problems: problemsOf(answer, frame) }))
    .filter(({ problems }) => problems.length)
    .map(({ answer, problems }) => `${answer.label} (${answer.status}): ${problems.join("; ")}`);
  expect(failures).toEqual([]);
}

async function m2mToken(request: APIRequestContext): Promise<string> {
  const { client } = e2eServer.demoCredentials();
  const response = await request.post("/idp/oauth2/token", {
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
    },
    form: { grant_type: "client_credentials" },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).access_token as string;
}

/** The head of a streaming answer (SSE), without waiting for a body that never ends. */
async function streamHead(path: string, headers: Record<string, string>): Promise<Seen> {
  const abort = new AbortController();
  const response = await fetch(`${e2eServer.url}${path}`, { headers, signal: abort.signal });
  const seenHead = {
    label: `GET ${path} (stream)`,
    status: response.status,
    headers: Object.fromEntries(response.headers),
  };
  abort.abort();
  return seenHead;
}

test("every surface answers with the security headers, signed out", async ({ request }) => {
  const probes: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    data?: unknown;
    form?: Record<string, string>;
  }[] = [
    // The dashboard and other pages: home, sign-in, signed-out redirects, Next.js's own 404 and error answers.
    { path: "/" },
    { path: "/", headers: { rsc: "1" } },
    { method: "HEAD", path: "/" },
    { path: "/signin" },
    { path: "/signin?error=OAuthCallback&callbackUrl=https%3A%2F%2Fevil.example" },
    { path: "/cases" },
    { path: "/cases/new" },
    { path: "/cases/00000000-0000-4000-8000-000000000000" },
    { path: "/cases/live?ids=x" },
    { path: "/connections" },
    { path: "/operators" },
    { path: "/profile" },
    { path: "/no-such-page" },
    { method: "POST", path: "/no-such-page" },
    { path: "/%E0%A4%A" },
    // next-auth.
    { path: "/api/auth/csrf" },
    { path: "/api/auth/session" },
    { path: "/api/auth/providers" },
    { path: "/api/auth/signin?callbackUrl=https%3A%2F%2Fevil.example" },
    { method: "POST", path: "/api/auth/signin/vetdx", form: { csrfToken: "forged" } },
    { path: "/api/auth/error?error=Configuration" },
    // REST: 401, problems, preflight, OpenAPI.
    { path: "/v1/animal-types" },
    { path: "/v1/cases", headers: { authorization: "Bearer forged.token.value" } },
    { path: "/v1/no-such-resource" },
    {
      method: "OPTIONS",
      path: "/v1/cases",
      headers: { origin: PARTNER, "access-control-request-method": "POST" },
    },
    { path: "/v1/openapi.json" },
    // MCP and legacy SSE, unauthenticated.
    { path: "/mcp" },
    { method: "POST", path: "/mcp", data: { jsonrpc: "2.0", id: 1, method: "initialize" } },
    { path: "/sse" },
    { method: "POST", path: "/message?sessionId=nope", data: {} },
    // OAuth metadata and the MCP authorization server.
    { path: "/.well-known/oauth-authorization-server" },
    { path: "/.well-known/oauth-protected-resource" },
    { path: "/.well-known/oauth-protected-resource/mcp" },
    { path: "/.well-known/openid-configuration" },
    { path: "/register" },
    { method: "POST", path: "/register", data: { redirect_uris: ["javascript:alert(1)"] } },
    { path: "/authorize" },
    { path: "/authorize?client_id=nope&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2Fcb" },
    { path: "/callback?code=x&state=y" },
    { method: "POST", path: "/consent", form: { decision: "allow" } },
    { method: "POST", path: "/token", form: { grant_type: "authorization_code", code: "nope" } },
    // The identity provider.
    { path: "/idp/.well-known/openid-configuration" },
    { path: "/idp/jwks" },
    { path: "/idp/auth?client_id=nope" },
    { path: "/idp/interaction/does-not-exist" },
    { path: "/idp/no-such-endpoint" },
    { method: "POST", path: "/idp/oauth2/token", form: { grant_type: "client_credentials" } },
    // Health, static files, the embed script, the component page of an unknown session.
    { path: "/healthz" },
    { path: "/readyz" },
    { path: "/embed.js" },
    { path: "/favicon.svg" },
    { path: "/vetdx.css" },
    { path: "/components/diagnostics/cs_does_not_exist" },
    { path: "/components/diagnostics/cs_does_not_exist/api/case" },
  ];
  const answers: Seen[] = [];
  for (const probe of probes) {
    const method = probe.method ?? "GET";
    const response = await request.fetch(probe.path, {
      method,
      headers: probe.headers,
      data: probe.data,
      form: probe.form,
      maxRedirects: 0,
    });
    answers.push(seen(`${method} ${probe.path}`, response));
  }
  // One Next.js build asset, whichever the home page links.
  const home = await (await request.get("/")).text();
  const asset = /\/_next\/static\/[^"']+\.js/.exec(home)?.[0];
  expect(asset, "a /_next/static script on the home page").toBeTruthy();
  answers.push(seen(`GET ${asset}`, await request.get(asset!)));

  // Nothing above may be a server error: those are checked by hardening.spec.ts, not skipped here.
  expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.label)).toEqual([]);
  expectHardened(answers);
  // The echoed id is the caller's when well formed.
  const traced = await request.get("/v1/openapi.json", {
    headers: { "x-request-id": "trace-every-route.1" },
  });
  expect(traced.headers()["x-request-id"]).toBe("trace-every-route.1");
});

test("every surface answers with the security headers, signed in and with a token", async ({ request }) => {
  // The whole dashboard sign-in, every hop of it: next-auth, the identity provider's authorization,
  // its login page and post, the callback.
  const { vet } = e2eServer.demoCredentials();
  const signedIn = await signInOverHttp(e2eServer.url, { credentials: vet, callbackUrl: "/cases" });
  expect(signedIn.last.status()).toBe(200);
  const answers = signedIn.responses.map((response) => seen(`sign-in ${response.url()}`, response));
  expect(answers.some((answer) => answer.label.includes("/idp/interaction/"))).toBe(true);

  const token = await m2mToken(request);
  const bearer = { authorization: `Bearer ${token}` };
  const created = await request.post("/v1/cases", {
    headers: bearer,
    data: { notes: "Max, 7y German Shepherd, 38 kg, acute hindlimb lameness." },
  });
  expect(created.status()).toBe(201);
  const caseId = (await created.json()).id as string;

  for (const path of [
    "/",
    "/cases",
    "/cases/new",
    `/cases/${caseId}`,
    `/cases/live?ids=${caseId}`,
    "/connections",
    "/profile",
    "/operators",
    "/signin",
    "/api/auth/session",
  ]) {
    answers.push(seen(`signed in GET ${path}`, await signedIn.context.get(path)));
  }
  for (const path of [
    "/v1/animal-types",
    "/v1/cases",
    `/v1/cases/${caseId}`,
    "/v1/cases/not-a-uuid",
    "/v1/symptoms?q=vomit",
  ]) {
    answers.push(seen(`bearer GET ${path}`, await request.get(path, { headers: bearer })));
  }
  answers.push(
    seen(
      "bearer POST /v1/cases (truncated JSON)",
      await request.post("/v1/cases", {
        headers: { ...bearer, "content-type": "application/json" },
        data: '{"notes": ',
      }),
    ),
  );
  answers.push(
    seen(
      "bearer POST /mcp initialize",
      await request.post("/mcp", {
        headers: { ...bearer, accept: "application/json, text/event-stream" },
        data: {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "headers", version: "1" },
          },
        },
      }),
    ),
  );
  const sse = await streamHead("/sse", { ...bearer, accept: "text/event-stream" });
  expect(sse.status).toBe(200);
  answers.push(sse);

  // A live component session for a partner's page, and its API.
  const session = await request.post("/v1/sessions", {
    headers: bearer,
    data: { component: "diagnostics", case_id: caseId, parent_origin: PARTNER },
  });
  expect(session.status()).toBe(201);
  const { url, session_id: sessionId } = (await session.json()) as { url: string; session_id: string };
  answers.push(
    seen("GET component API case", await request.get(`/components/diagnostics/${sessionId}/api/case`)),
  );
  await signedIn.context.dispose();

  expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.label)).toEqual([]);
  expectHardened(answers);

  // The component page itself: only the partner may frame it, and it leaks its URL to nobody.
  const component = seen("GET component page", await request.get(url));
  expect(component.status).toBe(200);
  expectHardened([component], PARTNER);
  expect(component.headers["referrer-policy"]).toBe("no-referrer");
});
