// Per-IP rate limits at the edge (server.ts), before any authentication or body parsing, for every
// surface: REST /v1, the MCP transports, the MCP authorization server, the identity provider and
// its token endpoint, and the sign-in posts. Per-caller limits come later, once the token is known
// (lib/http/with-auth.ts, app/mcp, app/sse, app/message).
import type { ServerResponse } from "node:http";
import type { RateLimitPolicyName } from "@/lib/env";
import { PROBLEM_TYPE_BASE } from "./problem";
import { checkRateLimit, policy, rateLimitHeaders, type RateLimitDecision } from "./rate-limit";

type Format = "problem" | "oauth" | "text";

interface Surface {
  policies: RateLimitPolicyName[];
  format: Format;
}

const OAUTH_JSON = new Set(["/register", "/token"]);
const OAUTH_BROWSER = new Set(["/authorize", "/callback", "/consent"]);

/** The policies a request counts against, or undefined for unlimited paths (pages, assets, health). */
export function surfaceOf(method: string, pathname: string): Surface | undefined {
  if (pathname === "/v1" || pathname.startsWith("/v1/")) return { policies: ["api-ip"], format: "problem" };
  if (pathname === "/mcp" || pathname.startsWith("/mcp/") || pathname === "/sse" || pathname === "/message")
    return { policies: ["mcp-ip"], format: "problem" };
  if (OAUTH_JSON.has(pathname)) return { policies: ["oauth-ip"], format: "oauth" };
  if (OAUTH_BROWSER.has(pathname)) return { policies: ["oauth-ip"], format: "text" };
  if (pathname === "/idp/oauth2/token") return { policies: ["idp-token-ip"], format: "oauth" };
  if (method === "POST" && /^\/idp\/interaction\/[^/]+\/login$/.test(pathname))
    return { policies: ["idp-ip", "sign-in-ip"], format: "text" };
  if (pathname === "/idp" || pathname.startsWith("/idp/")) return { policies: ["idp-ip"], format: "text" };
  if (method === "POST" && pathname.startsWith("/api/auth/"))
    return { policies: ["sign-in-ip"], format: "problem" };
  return undefined;
}

function limitedBody(format: Format, seconds: number): { contentType: string; body: string } {
  const detail = `Too many requests from this address; try again in ${seconds} s`;
  if (format === "oauth") {
    return {
      contentType: "application/json",
      body: JSON.stringify({ error: "temporarily_unavailable", error_description: detail }),
    };
  }
  if (format === "text") return { contentType: "text/plain; charset=utf-8", body: `${detail}\n` };
  return {
    contentType: "application/problem+json",
    body: JSON.stringify({
      type: `${PROBLEM_TYPE_BASE}rate-limited`,
      title: "Too many requests",
      status: 429,
      detail,
    }),
  };
}

/** Counts the request against its surface's per-IP policies; answers 429 and returns true when over. */
export async function limitByClientIp(
  method: string,
  pathname: string,
  ip: string,
  res: ServerResponse,
): Promise<boolean> {
  const surface = surfaceOf(method, pathname);
  if (!surface) return false;
  const decisions: RateLimitDecision[] = [];
  for (const name of surface.policies) decisions.push(await checkRateLimit(policy(name), ip));
  const limited = decisions.filter((decision) => decision.limited);
  if (!limited.length) return false;
  const headers = rateLimitHeaders(...limited);
  const { contentType, body } = limitedBody(surface.format, Number(headers["retry-after"]));
  res.writeHead(429, {
    ...headers,
    "content-type": contentType,
    "cache-control": "no-store",
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "retry-after, ratelimit, ratelimit-policy",
  });
  res.end(body);
  return true;
}
