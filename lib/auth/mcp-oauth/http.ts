// Small HTTP pieces shared by the authorization server's endpoints: caching and CORS headers,
// and building authorization responses (always with RFC 9207 `iss`).
import { mcpOAuthUrls } from "./urls";

export const NO_STORE_HEADERS = { "cache-control": "no-store", pragma: "no-cache" } as const;

/**
 * Discovery, registration and the token endpoint are called from browser-based MCP clients (e.g.
 * MCP Inspector) on other origins. None of them uses cookies, so `*` without credentials is safe.
 */
export function corsHeaders(): Record<string, string> {
  return {
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "www-authenticate, retry-after, ratelimit, ratelimit-policy",
  };
}

export function corsPreflightResponse(methods: readonly string[]): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(),
      "access-control-allow-methods": [...methods, "OPTIONS"].join(", "),
      "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
      "access-control-max-age": "600",
    },
  });
}

/** The client's redirect URI with the response parameters (and `iss`) added to its query. */
export function authorizationResponseUrl(
  redirectUri: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  url.searchParams.set("iss", mcpOAuthUrls().issuer);
  return url.toString();
}

export function redirectResponse(
  location: string,
  status: 302 | 303 = 302,
  headers: HeadersInit = {},
): Response {
  const response = new Response(null, { status, headers: { location, ...NO_STORE_HEADERS } });
  for (const [name, value] of new Headers(headers)) response.headers.append(name, value);
  return response;
}
