// Per-IP limits at the edge, as server.ts applies them: which surface a request belongs to, and
// the 429 each surface answers (problem+json, OAuth JSON, or text) with Retry-After and RateLimit.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before lib/env reads it (hoisted above the imports).
vi.hoisted(() =>
  vi.stubEnv("RATE_LIMITS", "api-ip=3/60,idp-token-ip=2/60,sign-in-ip=2/60,oauth-ip=2/60,mcp-ip=2/60"),
);

import { limitByClientIp, surfaceOf } from "./surface-rate-limits";

let base = "";
let server: http.Server;
beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const ip = String(req.headers["x-test-ip"] ?? "192.0.2.10");
    if (await limitByClientIp(req.method ?? "GET", url.pathname, ip, res)) return;
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("surfaceOf", () => {
  it.each([
    ["GET", "/v1/cases", ["api-ip"]],
    ["POST", "/mcp", ["mcp-ip"]],
    ["GET", "/sse", ["mcp-ip"]],
    ["POST", "/message", ["mcp-ip"]],
    ["POST", "/register", ["oauth-ip"]],
    ["GET", "/authorize", ["oauth-ip"]],
    ["POST", "/token", ["oauth-ip"]],
    ["POST", "/idp/oauth2/token", ["idp-token-ip"]],
    ["POST", "/idp/interaction/abc123/login", ["idp-ip", "sign-in-ip"]],
    ["GET", "/idp/auth", ["idp-ip"]],
    ["POST", "/api/auth/signin/vetdx", ["sign-in-ip"]],
  ])("%s %s counts against %o", (method, path, policies) => {
    expect(surfaceOf(method, path)?.policies).toEqual(policies);
  });

  it.each([
    ["GET", "/"],
    ["GET", "/_next/static/chunks/app.js"],
    ["GET", "/api/auth/session"],
    ["GET", "/components/diagnostics/abc"],
    ["GET", "/v1x"],
  ])("leaves %s %s alone", (method, path) => {
    expect(surfaceOf(method, path)).toBeUndefined();
  });
});

describe("limitByClientIp", () => {
  it("answers REST bursts with a 429 problem, Retry-After and RateLimit headers", async () => {
    const statuses = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await fetch(`${base}/v1/symptoms`);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("ratelimit-policy")).toBe('"api-ip";q=3;w=60');
    expect(last!.headers.get("ratelimit")).toMatch(/^"api-ip";r=0;t=\d+$/);
    expect(last!.headers.get("content-type")).toBe("application/problem+json");
    expect(await last!.json()).toMatchObject({ status: 429, title: "Too many requests" });
    // Another address is not affected.
    expect((await fetch(`${base}/v1/symptoms`, { headers: { "x-test-ip": "192.0.2.11" } })).status).toBe(200);
  });

  it("answers the token endpoint in OAuth's JSON error format", async () => {
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) last = await fetch(`${base}/idp/oauth2/token`, { method: "POST" });
    expect(last!.status).toBe(429);
    expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(last!.headers.get("ratelimit-policy")).toBe('"idp-token-ip";q=2;w=60');
    expect(last!.headers.get("ratelimit")).toMatch(/^"idp-token-ip";r=0;t=\d+$/);
    expect(await last!.json()).toMatchObject({ error: "temporarily_unavailable" });
  });

  it("limits sign-in posts per address", async () => {
    const responses = [];
    for (let i = 0; i < 3; i++)
      responses.push(await fetch(`${base}/idp/interaction/u1/login`, { method: "POST" }));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 429]);
    const refused = responses[2]!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-policy")).toBe('"sign-in-ip";q=2;w=60');
    expect(refused.headers.get("ratelimit")).toMatch(/^"sign-in-ip";r=0;t=\d+$/);
  });
});
