// Fuzzing the OAuth endpoints (issue 7.4): the M2M token endpoint {auth_url}/oauth2/token, and
// the MCP authorization server's /register, /authorize, /callback, /consent, /token and
// /.well-known metadata. Properties: no 5xx; errors are RFC 6749/7591 JSON or local HTML pages
// that escape what they show; no access token is issued (none in the response, no new row in
// oauth_tokens) without a valid code and its PKCE verifier, or a valid refresh token, for the
// right client; no M2M token without the client's own secret; no authorization code without the
// vet's consent (CSRF token and cookie); /authorize never redirects to an unregistered URI.
import { count } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { oauthAuthorizationCodes, oauthTokens } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { createMachineClient } from "@/lib/machine-clients/machine-clients";
import { startAuthorization } from "@/lib/auth/mcp-oauth/authorize";
import { completeUpstreamSignIn } from "@/lib/auth/mcp-oauth/callback";
import {
  authorizeWithConsent,
  createTestVet,
  fakeUpstream,
  pkcePair,
  registerTestClient,
  TEST_IDP,
} from "@/lib/auth/mcp-oauth/testing";
import { basic, call, type RouteHandler } from "@/test/support";
import { POST as m2mToken } from "@/app/idp/oauth2/token/route";
import { POST as mcpToken } from "@/app/token/route";
import { POST as register } from "@/app/register/route";
import { GET as authorize } from "@/app/authorize/route";
import { GET as callback } from "@/app/callback/route";
import { POST as consent } from "@/app/consent/route";
import * as asMetadata from "@/app/.well-known/oauth-authorization-server/route";
import * as prMetadata from "@/app/.well-known/oauth-protected-resource/route";
import * as prMcpMetadata from "@/app/.well-known/oauth-protected-resource/mcp/route";
import {
  capture,
  contentType,
  describeRequest,
  expectNoServerError,
  FUZZ_SEED,
  headerSafe,
  hostileString,
  InputCounter,
  isOAuthError,
  isProblem,
  jsonBodyText,
  nearValidObject,
  queryString,
  type Captured,
} from "./arbitraries";

// Per-IP budgets high enough that generated inputs reach the endpoints instead of the limiter
// (each input also comes from its own address, so the failed-authentication lockout stays out).
// Before lib/env reads it (hoisted above the imports).
vi.hoisted(() => vi.stubEnv("RATE_LIMITS", "oauth-ip=1000000/60,idp-token-ip=1000000/60"));

const counter = new InputCounter();
const REDIRECT = "http://127.0.0.1:5555/cb";
const CONFIDENTIAL_REDIRECT = "https://claude.example/api/mcp/auth_callback";
const XSS = "<script>alert(1)</script>";

let handle: DatabaseHandle;
let m2m: { clientId: string; clientSecret: string; scopes: string[] };
let otherM2m: { clientId: string; clientSecret: string };
let vetId: string;
let publicClient: { client_id: string };
let confidential: { client_id: string; client_secret?: string };
let upstreamSub = "";
let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

beforeAll(async () => {
  handle = await openTestDatabase();
  // /authorize and /callback reach the identity provider through this cache: put a stand-in there
  // (real authorization URLs, faked code exchange answering the current `upstreamSub`).
  const holder = globalThis as Record<symbol, unknown>;
  holder[Symbol.for("vetdx.mcp-oauth.upstream")] = {
    key: getEnv().AUTH_URL,
    at: Date.now() + 3_600_000,
    value: Promise.resolve(fakeUpstream(() => ({ sub: upstreamSub }))),
  };
  m2m = await createMachineClient(handle.db, { name: "Clinic PIMS", scopes: ["vetdx/read", "vetdx/write"] });
  otherM2m = await createMachineClient(handle.db, { name: "Other PIMS", scopes: ["vetdx/read"] });
  vetId = (await createTestVet(handle.db)).id;
  upstreamSub = vetId;
  publicClient = await registerTestClient(handle.db, { client_name: `Fuzz client ${XSS}` });
  confidential = await registerTestClient(handle.db, {
    token_endpoint_auth_method: "client_secret_basic",
    redirect_uris: [CONFIDENTIAL_REDIRECT],
  });
}, 120_000);

afterAll(async () => {
  console.log(counter.summary("test/fuzz/oauth.fuzz.test.ts"));
  await handle?.close();
});

interface FormRequest {
  path: string;
  method?: string;
  query?: string;
  fields?: [string, string][];
  rawBody?: string;
  contentType?: string;
  authorization?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

async function send(handler: RouteHandler, request: FormRequest): Promise<Captured> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.contentType !== undefined) headers["content-type"] = request.contentType;
  if (request.authorization !== undefined) headers.authorization = request.authorization;
  if (request.cookie !== undefined) headers.cookie = request.cookie;
  const method = request.method ?? "POST";
  const body =
    method === "GET" || method === "OPTIONS"
      ? undefined
      : (request.rawBody ?? new URLSearchParams(request.fields ?? []).toString());
  return capture(
    await call(handler, `${request.path}${request.query ? `?${request.query}` : ""}`, {
      method,
      headers,
      body,
      ip: nextIp(),
    }),
  );
}

/** Local HTML pages must not echo injected markup unescaped. */
function expectEscapedHtml(response: Captured, label: string) {
  if ((response.headers.get("content-type") ?? "").startsWith("text/html")) {
    expect(response.text.includes(XSS), `unescaped markup in the page for ${label}`).toBe(false);
    expect(/<img src=x onerror/i.test(response.text), `unescaped markup in the page for ${label}`).toBe(
      false,
    );
  }
}

async function check(group: string, handler: RouteHandler, request: FormRequest) {
  counter.hit(group);
  const response = await send(handler, request);
  counter.outcome(group, response.status);
  const label = describeRequest(request);
  expectNoServerError(response, JSON.stringify(request));
  expectEscapedHtml(response, label);
  expect(({} as Record<string, unknown>).polluted, "Object.prototype polluted").toBeUndefined();
  return { response, label };
}

const tokenRows = async () => (await handle.db.select({ n: count() }).from(oauthTokens))[0]!.n;
const codeRows = async () => (await handle.db.select({ n: count() }).from(oauthAuthorizationCodes))[0]!.n;

/** Generated form fields: each of `fields` absent, one of its choices, or hostile; stray and repeated keys. */
function formFields(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<[string, string][]> {
  const entries = Object.entries(fields).map(([key, value]) =>
    fc
      .option(fc.oneof({ weight: 6, arbitrary: value }, { weight: 1, arbitrary: hostileString }), { freq: 8 })
      .map((v): [string, string][] => (v === null ? [] : [[key, v]])),
  );
  return fc
    .tuple(
      fc.tuple(...entries),
      fc.option(
        fc.array(
          fc.tuple(
            hostileString.map((s) => s.slice(0, 40)),
            hostileString,
          ),
          { maxLength: 2 },
        ),
        { freq: 6 },
      ),
      fc.boolean(),
      fc.nat(5),
    )
    .map(([parts, extra, duplicate, which]) => {
      const list = parts.flat();
      if (extra) list.push(...extra);
      if (duplicate && list.length) list.push(list[which % list.length]!);
      return list;
    });
}

const RUNS = {
  m2m: 250,
  token: 300,
  register: 150,
  authorize: 200,
  callback: 120,
  consent: 150,
  metadata: 60,
};
const params = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns, endOnFailure: false });

const mutate = (value: string) =>
  fc.constantFrom(
    `${value}x`,
    value.slice(0, -1),
    value.toUpperCase(),
    ` ${value}`,
    `${value}\t`,
    value.replace(/.$/, "A"),
  );
/** One of `choices`, each as often as its weight. */
function weighted<T extends string>(...choices: [T, number][]): fc.Arbitrary<T> {
  return fc.oneof(...choices.map(([value, weight]) => ({ weight, arbitrary: fc.constant(value) })));
}
const single = (list: [string, string][], key: string) => {
  const values = list.filter(([k]) => k === key);
  return values.length === 1 ? values[0]![1] : undefined;
};
const repeated = (list: [string, string][]) => new Set(list.map(([k]) => k)).size !== list.length;

/** A registered redirect URI, where loopback http URIs may use any port (RFC 8252 section 7.3). */
function sameRedirect(actual: URL, registered: URL): boolean {
  const loopback =
    registered.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(registered.hostname);
  return (
    actual.protocol === registered.protocol &&
    actual.hostname === registered.hostname &&
    (loopback || actual.port === registered.port) &&
    actual.pathname === registered.pathname
  );
}

describe("OAuth fuzzing", () => {
  it(`M2M {auth_url}/oauth2/token issues nothing for wrong credentials: ${RUNS.m2m} inputs`, async () => {
    const clientId = fc.oneof(
      { weight: 5, arbitrary: fc.constant(m2m.clientId) },
      fc.constant(otherM2m.clientId),
      mutate(m2m.clientId),
      hostileString,
    );
    const secret = fc.oneof(
      { weight: 3, arbitrary: fc.constant(m2m.clientSecret) },
      fc.constant(otherM2m.clientSecret),
      mutate(m2m.clientSecret),
      hostileString,
    );
    let issued = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("basic", "post", "both", "none", "raw-basic"),
        clientId,
        secret,
        formFields({
          grant_type: fc.constantFrom(
            "client_credentials",
            "client_credentials",
            "authorization_code",
            "password",
            "refresh_token",
          ),
          scope: fc.constantFrom(
            "vetdx/read",
            "vetdx/read vetdx/write",
            "vetdx/tools",
            "vetdx/read  vetdx/read",
            "openid",
            "",
          ),
        }),
        contentType("application/x-www-form-urlencoded"),
        fc.option(
          fc.oneof(
            hostileString,
            fc
              .integer({ min: 8_100, max: 8_300 })
              .map((n) => `grant_type=client_credentials&x=${"a".repeat(n)}`),
          ),
          { freq: 10 },
        ),
        async (mode, id, clientSecret, fields, type, raw) => {
          const form = [...fields];
          let authorization: string | undefined;
          if (mode === "basic" || mode === "both") authorization = basic(id, clientSecret);
          if (mode === "raw-basic") authorization = headerSafe(`Basic ${id}:${clientSecret}`);
          if (mode === "post" || mode === "both")
            form.push(["client_id", id], ["client_secret", clientSecret]);
          const request: FormRequest = {
            path: "/idp/oauth2/token",
            fields: form,
            rawBody: raw ?? undefined,
            contentType: type,
            authorization,
          };
          const { response, label } = await check("m2m", m2mToken, request);
          const body = response.json as Record<string, unknown> | undefined;
          if (response.status === 200) {
            issued += 1;
            // Only a client's own id with its own secret, by exactly one method, gets a token.
            const pair = [m2m, otherM2m].find((c) => c.clientId === id);
            expect(pair, `token for an unknown client id: ${label}`).toBeDefined();
            expect(clientSecret, `token for a wrong secret: ${label}`).toBe(pair!.clientSecret);
            // A raw body replaces the form, so "both" sent only HTTP Basic then.
            expect(raw === null ? ["basic", "post"] : ["basic", "both"]).toContain(mode);
            const sent = raw === null ? form : [...new URLSearchParams(raw)];
            expect(single(sent, "grant_type"), label).toBe("client_credentials");
            expect(body?.access_token).toEqual(expect.any(String));
            const allowed = id === m2m.clientId ? m2m.scopes : ["vetdx/read"];
            const scopes = String(body?.scope).split(" ");
            expect(
              scopes.every((s) => allowed.includes(s)),
              `scope beyond the client's: ${label}`,
            ).toBe(true);
          } else {
            expect(body?.access_token, label).toBeUndefined();
            expect(
              isOAuthError(response) || isProblem(response),
              `undocumented error for ${label}: ${response.text.slice(0, 300)}`,
            ).toBe(true);
          }
          // A fully valid request is not refused (the property above is not vacuous).
          const clean =
            (mode === "basic" || mode === "post") &&
            id === m2m.clientId &&
            clientSecret === m2m.clientSecret &&
            raw === null &&
            type === "application/x-www-form-urlencoded" &&
            !repeated(form) &&
            form.every(
              ([k, v]) =>
                (k === "grant_type" && v === "client_credentials") ||
                (k === "scope" && ["vetdx/read", "vetdx/read vetdx/write", ""].includes(v)) ||
                k === "client_id" ||
                k === "client_secret",
            );
          if (clean && single(form, "grant_type") === "client_credentials")
            expect(response.status, label).toBe(200);
        },
      ),
      params(RUNS.m2m),
    );
    expect(issued).toBeGreaterThan(0);
  });

  it(`MCP /token issues no token without a valid code and verifier or refresh token: ${RUNS.token} inputs`, async () => {
    const used = await (async () => {
      const pkce = pkcePair();
      const location = await authorizeWithConsent(handle.db, {
        clientId: publicClient.client_id,
        vetId,
        challenge: pkce.challenge,
      });
      const code = location.searchParams.get("code")!;
      const exchanged = await send(mcpToken, {
        path: "/token",
        contentType: "application/x-www-form-urlencoded",
        fields: [
          ["grant_type", "authorization_code"],
          ["client_id", publicClient.client_id],
          ["code", code],
          ["code_verifier", pkce.verifier],
          ["redirect_uri", REDIRECT],
        ],
      });
      expect(exchanged.status).toBe(200);
      return {
        code,
        verifier: pkce.verifier,
        refresh: (exchanged.json as { refresh_token: string }).refresh_token,
      };
    })();
    let liveRefresh = used.refresh;
    let issued = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat(3).map((n) => n > 0),
        weighted(["code", 5], ["refresh", 3], ["other", 1]),
        weighted(["fresh", 8], ["mutated", 1], ["used", 1], ["hostile", 1], ["absent", 1]),
        weighted(
          ["right", 8],
          ["other", 1],
          ["mutated", 1],
          ["hostile", 1],
          ["absent", 1],
          ["plain-challenge", 1],
        ),
        weighted(
          ["public", 8],
          ["confidential-no-secret", 1],
          ["confidential-wrong-secret", 1],
          ["unknown", 1],
          ["absent", 1],
        ),
        weighted(["registered", 8], ["near", 1], ["evil", 1], ["absent", 1]),
        weighted(["live", 6], ["used", 1], ["hostile", 1], ["absent", 1]),
        fc.option(
          fc.constantFrom(
            "http://vetdx.test/mcp",
            "http://vetdx.test/mcp/",
            "https://evil.example/mcp",
            "http://vetdx.test",
          ),
          { freq: 4 },
        ),
        fc.option(fc.constantFrom("vetdx/read", "vetdx/read vetdx/write", "vetdx/admin", ""), { freq: 4 }),
        fc.option(hostileString, { freq: 6 }),
        contentType("application/x-www-form-urlencoded"),
        async (
          mint,
          grant,
          codeChoice,
          verifierChoice,
          clientChoice,
          redirectChoice,
          refreshChoice,
          resource,
          scope,
          junk,
          type,
        ) => {
          let fresh: { code: string; verifier: string; challenge: string } | undefined;
          if (mint) {
            const pkce = pkcePair();
            const location = await authorizeWithConsent(handle.db, {
              clientId: publicClient.client_id,
              vetId,
              challenge: pkce.challenge,
            });
            fresh = {
              code: location.searchParams.get("code")!,
              verifier: pkce.verifier,
              challenge: pkce.challenge,
            };
          }
          const code = {
            fresh: fresh?.code ?? used.code,
            mutated: `${fresh?.code ?? used.code}x`,
            used: used.code,
            hostile: junk ?? "' OR 1=1 --",
            absent: undefined,
          }[codeChoice];
          const verifier = {
            right: fresh?.verifier ?? used.verifier,
            other: pkcePair().verifier,
            mutated: (fresh?.verifier ?? used.verifier).replace(/.$/, (c) => (c === "A" ? "B" : "A")),
            hostile: junk ?? "x".repeat(43),
            absent: undefined,
            "plain-challenge": fresh?.challenge ?? "x".repeat(43),
          }[verifierChoice];
          const refresh = {
            live: liveRefresh,
            used: used.refresh,
            hostile: junk ?? "vdx_rt_",
            absent: undefined,
          }[refreshChoice];
          const redirect = {
            registered: REDIRECT,
            near: `${REDIRECT}/`,
            evil: "https://evil.example/cb",
            absent: undefined,
          }[redirectChoice];
          const fields: [string, string | undefined][] = [
            [
              "grant_type",
              grant === "code"
                ? "authorization_code"
                : grant === "refresh"
                  ? "refresh_token"
                  : (junk ?? "client_credentials"),
            ],
            ["code", code],
            ["code_verifier", verifier],
            ["redirect_uri", redirect],
            ["refresh_token", grant === "refresh" ? refresh : undefined],
            ["resource", resource ?? undefined],
            ["scope", scope ?? undefined],
          ];
          let authorization: string | undefined;
          if (clientChoice === "public") fields.push(["client_id", publicClient.client_id]);
          if (clientChoice === "confidential-no-secret") fields.push(["client_id", confidential.client_id]);
          if (clientChoice === "confidential-wrong-secret")
            authorization = basic(confidential.client_id, `${confidential.client_secret}x`);
          if (clientChoice === "unknown") fields.push(["client_id", junk ?? "unknown-client"]);
          const form = fields.filter((f): f is [string, string] => f[1] !== undefined);
          const before = await tokenRows();
          const { response, label } = await check("token", mcpToken, {
            path: "/token",
            fields: form,
            contentType: type,
            authorization,
          });
          const after = await tokenRows();
          const body = response.json as Record<string, unknown> | undefined;
          const gotToken = typeof body?.access_token === "string";
          expect(after > before, `rows ${before}→${after} but status ${response.status}: ${label}`).toBe(
            response.status === 200 && gotToken,
          );
          if (response.status === 200) {
            issued += 1;
            expect(clientChoice, label).toBe("public");
            if (grant === "code") {
              expect(fresh, `token for an old code: ${label}`).toBeDefined();
              expect(code, label).toBe(fresh!.code);
              expect(verifier, `token without the PKCE verifier: ${label}`).toBe(fresh!.verifier);
              expect(redirect, label).toBe(REDIRECT);
            } else {
              expect(grant, label).toBe("refresh");
              expect(refresh, `token for a spent refresh token: ${label}`).toBe(liveRefresh);
              liveRefresh = body?.refresh_token as string;
            }
          } else {
            expect(gotToken, label).toBe(false);
            expect(
              isOAuthError(response),
              `undocumented error for ${label}: ${response.text.slice(0, 300)}`,
            ).toBe(true);
          }
          const clean =
            grant === "code" &&
            fresh &&
            codeChoice === "fresh" &&
            verifierChoice === "right" &&
            clientChoice === "public" &&
            redirectChoice === "registered" &&
            (resource === null || resource === "http://vetdx.test/mcp") &&
            type === "application/x-www-form-urlencoded";
          if (clean) expect(response.status, `a valid exchange was refused: ${label}`).toBe(200);
        },
      ),
      params(RUNS.token),
    );
    expect(issued).toBeGreaterThan(0);
  }, 120_000);

  it(`/register: ${RUNS.register} inputs`, async () => {
    const uri = fc.oneof(
      fc.constantFrom(
        REDIRECT,
        "http://localhost/cb",
        "https://app.example/cb",
        "http://evil.example/cb",
        "javascript:alert(1)",
        "https://app.example/cb#frag",
        "data:text/html,x",
        "custom.scheme:/cb",
        "https://*.example/cb",
      ),
      fc.webUrl(),
      hostileString,
    );
    const metadata = nearValidObject({
      redirect_uris: fc.array(uri, { maxLength: 4 }),
      token_endpoint_auth_method: fc.constantFrom(
        "none",
        "client_secret_basic",
        "client_secret_post",
        "private_key_jwt",
      ),
      grant_types: fc.array(
        fc.constantFrom("authorization_code", "refresh_token", "client_credentials", "implicit"),
        { maxLength: 3 },
      ),
      response_types: fc.array(fc.constantFrom("code", "token"), { maxLength: 2 }),
      client_name: fc.oneof(hostileString, fc.constant(XSS)),
      client_uri: uri,
      logo_uri: uri,
      scope: fc.constantFrom("vetdx/read", "vetdx/read vetdx/tools", "admin", ""),
      software_id: hostileString,
    });
    await fc.assert(
      fc.asyncProperty(jsonBodyText(metadata), contentType("application/json"), async (body, type) => {
        const { response, label } = await check("register", register, {
          path: "/register",
          rawBody: body,
          contentType: type,
        });
        const json = response.json as Record<string, unknown> | undefined;
        if (response.status === 201) {
          expect(json?.client_id, label).toEqual(expect.any(String));
          if (json?.token_endpoint_auth_method === "none") expect(json?.client_secret, label).toBeUndefined();
        } else {
          expect(
            isOAuthError(response) || isProblem(response),
            `undocumented error for ${label}: ${response.text.slice(0, 300)}`,
          ).toBe(true);
        }
      }),
      params(RUNS.register),
    );
  });

  it(`/authorize never redirects to an unregistered URI: ${RUNS.authorize} inputs`, async () => {
    const clients: Record<string, string[]> = {
      [publicClient.client_id]: [REDIRECT],
      [confidential.client_id]: [CONFIDENTIAL_REDIRECT],
    };
    const valid = {
      client_id: fc.constantFrom(
        publicClient.client_id,
        publicClient.client_id,
        confidential.client_id,
        "unknown",
        "https://127.0.0.1/client.json",
        "https://169.254.169.254/latest",
        "https://[::1]/c",
        "http://vetdx.test/c.json",
      ),
      redirect_uri: fc.constantFrom(
        REDIRECT,
        REDIRECT,
        CONFIDENTIAL_REDIRECT,
        `${REDIRECT}?x=1`,
        "http://127.0.0.1:5556/cb",
        "https://evil.example/cb",
        "http://127.0.0.1:5555/cb/../evil",
        `${REDIRECT}#x`,
      ),
      response_type: fc.constantFrom("code", "code", "token", "code id_token"),
      code_challenge: fc.constantFrom(pkcePair().challenge, "short", "x".repeat(129), "*".repeat(43)),
      code_challenge_method: fc.constantFrom("S256", "S256", "plain", "s256", "none"),
      state: fc.oneof(fc.constant("st-1"), fc.constant(XSS), hostileString),
      scope: fc.constantFrom("vetdx/read", "vetdx/read offline_access", "vetdx/admin", "openid", ""),
      resource: fc.constantFrom("http://vetdx.test/mcp", "https://evil.example/mcp"),
    };
    await fc.assert(
      fc.asyncProperty(formFields(valid), async (fields) => {
        const query = new URLSearchParams(fields).toString();
        const { response, label } = await check("authorize", authorize, {
          path: "/authorize",
          method: "GET",
          query,
        });
        if (response.status >= 300 && response.status < 400) {
          const location = new URL(response.headers.get("location")!);
          const registered = clients[single(fields, "client_id") ?? ""] ?? [];
          const toClient = registered.some((uri) => sameRedirect(location, new URL(uri)));
          expect(location.origin === TEST_IDP || toClient, `redirect to ${location} for ${label}`).toBe(true);
        } else {
          expect(response.headers.get("content-type") ?? "", label).toMatch(/^text\/html/);
          expect(response.status, label).toBeGreaterThanOrEqual(400);
        }
      }),
      params(RUNS.authorize),
    );
  });

  /** A fresh authorization request for a new vet (no consent yet), waiting for /callback. */
  async function pendingRequest() {
    const vet = await createTestVet(handle.db);
    const upstream = fakeUpstream(() => ({ sub: vet.id }));
    const { requestId } = await startAuthorization(
      handle.db,
      new URLSearchParams({
        response_type: "code",
        client_id: publicClient.client_id,
        redirect_uri: REDIRECT,
        code_challenge: pkcePair().challenge,
        code_challenge_method: "S256",
        state: XSS,
      }),
      { clientIp: nextIp(), upstream },
    );
    return { requestId, vetId: vet.id };
  }

  it(`/callback: ${RUNS.callback} inputs`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        formFields({
          state: fc.constantFrom("PENDING", "PENDING", "PENDING-x"),
          code: fc.constantFrom("upstream-code", ""),
          iss: fc.constantFrom(TEST_IDP, "https://evil.example", ""),
          error: fc.constantFrom("access_denied", "server_error", XSS),
          error_description: fc.constant(XSS),
          session_state: hostileString,
        }),
        async (mint, fields) => {
          const pending = mint ? await pendingRequest() : undefined;
          upstreamSub = pending?.vetId ?? vetId;
          const filled = fields.map(([k, v]): [string, string] => [
            k,
            v.replace("PENDING", pending?.requestId ?? "none"),
          ]);
          const query = new URLSearchParams(filled).toString();
          const { response, label } = await check("callback", callback, {
            path: "/callback",
            method: "GET",
            query,
          });
          upstreamSub = vetId;
          expect(response.headers.get("content-type") ?? "", label).toMatch(/^text\/html/);
          const refresh = response.headers.get("refresh");
          if (refresh) expect(refresh.replace(/^0;url=/, "").startsWith(`${REDIRECT}?`), label).toBe(true);
        },
      ),
      params(RUNS.callback),
    );
  });

  it(`/consent issues no code without the vet's CSRF token and cookie: ${RUNS.consent} inputs`, async () => {
    let issued = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("right", "right", "wrong", "hostile", "absent"),
        fc.constantFrom("right", "right", "wrong", "other-request", "absent"),
        fc.constantFrom("right", "wrong", "absent"),
        fc.constantFrom("allow", "allow", "deny", "Allow", "", XSS),
        contentType("application/x-www-form-urlencoded"),
        fc.option(hostileString, { freq: 4 }),
        fc.constantFrom("offered", "offered", "offered", "offered", "offered", "bogus", "absent"),
        async (requestChoice, csrfChoice, cookieChoice, decision, type, junk, accessChoice) => {
          const pending = await pendingRequest();
          upstreamSub = pending.vetId;
          const outcome = await completeUpstreamSignIn(
            handle.db,
            new URLSearchParams({ code: "upstream-code", state: pending.requestId, iss: TEST_IDP }),
          );
          upstreamSub = vetId;
          expect(outcome.kind).toBe("consent");
          const html = outcome.kind === "consent" ? outcome.html : "";
          const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? "";
          const requestId = {
            right: pending.requestId,
            wrong: `${pending.requestId}x`,
            hostile: junk ?? XSS,
            absent: undefined,
          }[requestChoice];
          const csrfToken = {
            right: csrf,
            // One character off (a token already ending in A would otherwise be "wrong" and right).
            wrong: `${csrf.slice(0, -1)}${csrf.endsWith("A") ? "B" : "A"}`,
            "other-request": "0".repeat(csrf.length),
            absent: undefined,
          }[csrfChoice];
          const cookieValue = { right: csrf, wrong: `${csrf}x`, absent: undefined }[cookieChoice];
          // The access level the page offers and checks first (read only or read and write).
          const offered = /name="access" value="([^"]+)" checked/.exec(html)?.[1] ?? "";
          const access = { offered, bogus: "admin", absent: undefined }[accessChoice];
          const form = [
            ["request_id", requestId],
            ["csrf_token", csrfToken],
            ["decision", decision],
            ["access", access],
          ].filter((f): f is [string, string] => f[1] !== undefined);
          const before = await codeRows();
          const { response, label } = await check("consent", consent, {
            path: "/consent",
            fields: form,
            contentType: type,
            cookie:
              cookieValue === undefined ? undefined : `vetdx_consent_${pending.requestId}=${cookieValue}`,
          });
          const after = await codeRows();
          const location = response.headers.get("location");
          if (after > before) {
            issued += 1;
            expect(
              [requestChoice, csrfChoice, cookieChoice, decision, accessChoice],
              `code issued for ${label}`,
            ).toEqual(["right", "right", "right", "allow", "offered"]);
            expect(location?.startsWith(`${REDIRECT}?`), label).toBe(true);
          }
          if (location)
            expect(location.startsWith(`${REDIRECT}?`), `consent redirect to ${location}: ${label}`).toBe(
              true,
            );
          else expect(response.headers.get("content-type") ?? "", label).toMatch(/^text\/html/);
          const clean =
            requestChoice === "right" &&
            csrfChoice === "right" &&
            cookieChoice === "right" &&
            decision === "allow" &&
            accessChoice === "offered" &&
            type === "application/x-www-form-urlencoded";
          if (clean) expect(after, `valid consent refused: ${label}`).toBe(before + 1);
        },
      ),
      params(RUNS.consent),
    );
    expect(issued).toBeGreaterThan(0);
  }, 120_000);

  // Regression: U+0000 reaching PostgreSQL was a 500 (NUL is now refused at the edges). Minimal inputs.
  const form = { "content-type": "application/x-www-form-urlencoded" };
  it.each([
    [
      "M2M token, client_id a%00 (client_secret_post)",
      () =>
        call(m2mToken, "/idp/oauth2/token", {
          method: "POST",
          headers: form,
          body: "grant_type=client_credentials&client_id=a%00&client_secret=b",
          ip: nextIp(),
        }),
    ],
    [
      "M2M token, HTTP Basic with client id a\\u0000b",
      () =>
        call(m2mToken, "/idp/oauth2/token", {
          method: "POST",
          headers: { ...form, authorization: basic("a\u0000b", "s") },
          body: "grant_type=client_credentials",
          ip: nextIp(),
        }),
    ],
    [
      "/token client_id=a%00",
      () =>
        call(mcpToken, "/token", {
          method: "POST",
          headers: form,
          body: `grant_type=authorization_code&client_id=a%00&code=x&code_verifier=${"a".repeat(43)}&redirect_uri=x`,
          ip: nextIp(),
        }),
    ],
    [
      '/register {"client_name":"a\\u0000b"}',
      () =>
        call(register, "/register", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            redirect_uris: [REDIRECT],
            token_endpoint_auth_method: "none",
            client_name: "a\u0000b",
          }),
          ip: nextIp(),
        }),
    ],
    ["/authorize?client_id=a%00b", () => call(authorize, "/authorize?client_id=a%00b", { ip: nextIp() })],
    [
      "/authorize with a valid request and state=a%00b",
      () =>
        call(
          authorize,
          `/authorize?${new URLSearchParams({ client_id: publicClient.client_id, redirect_uri: REDIRECT, response_type: "code", code_challenge: pkcePair().challenge, code_challenge_method: "S256", state: "a\u0000b" })}`,
          { ip: nextIp() },
        ),
    ],
    ["/callback?state=a%00b", () => call(callback, "/callback?state=a%00b&code=x", { ip: nextIp() })],
    [
      "/consent request_id=a%00b",
      () =>
        call(consent, "/consent", {
          method: "POST",
          headers: form,
          body: "request_id=a%00b&csrf_token=x&decision=allow",
          ip: nextIp(),
        }),
    ],
  ])("NUL: %s is not a 5xx", async (_name, request) => {
    expect((await request()).status).toBeLessThan(500);
  });

  it(`/.well-known metadata: ${RUNS.metadata} inputs`, async () => {
    const routes: Record<string, Record<string, RouteHandler>> = {
      "/.well-known/oauth-authorization-server": asMetadata as unknown as Record<string, RouteHandler>,
      "/.well-known/oauth-protected-resource": prMetadata as unknown as Record<string, RouteHandler>,
      "/.well-known/oauth-protected-resource/mcp": prMcpMetadata as unknown as Record<string, RouteHandler>,
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(routes)),
        fc.constantFrom("GET", "OPTIONS"),
        queryString([]),
        fc.dictionary(
          fc.constantFrom(
            "origin",
            "accept",
            "authorization",
            "x-forwarded-host",
            "access-control-request-method",
          ),
          hostileString.map(headerSafe),
          { maxKeys: 3 },
        ),
        async (path, method, query, headers) => {
          const { response, label } = await check("metadata", routes[path]![method]!, {
            path,
            method,
            query,
            headers,
          });
          expect(response.status, label).toBe(method === "GET" ? 200 : 204);
          if (method === "GET") expect(response.json, label).toMatchObject({});
        },
      ),
      params(RUNS.metadata),
    );
  });
});
