// Where the MCP authorization server lives: issuer {mcp_url} = APP_URL, its endpoints, and the one
// protected resource its tokens are for (APP_URL/mcp).
import { getEnv } from "@/lib/env";

export interface McpOAuthUrls {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string;
  callback: string;
  /** The RFC 8707 resource every token is bound to. */
  resource: string;
  resourceMetadata: string;
}

export function mcpOAuthUrls(appUrl = getEnv().APP_URL): McpOAuthUrls {
  return {
    issuer: appUrl,
    authorizationEndpoint: `${appUrl}/authorize`,
    tokenEndpoint: `${appUrl}/token`,
    registrationEndpoint: `${appUrl}/register`,
    callback: `${appUrl}/callback`,
    resource: `${appUrl}/mcp`,
    resourceMetadata: `${appUrl}/.well-known/oauth-protected-resource/mcp`,
  };
}

/**
 * RFC 8707 `resource` values we accept: the MCP endpoint (what the MCP spec tells clients to send)
 * and the bare origin (what some clients derive from the server URL), each with or without a
 * trailing slash. Tokens are always bound to APP_URL/mcp. Returns undefined for anything else.
 */
export function canonicalResource(value: string, urls = mcpOAuthUrls()): string | undefined {
  const trimmed = value.replace(/\/+$/, "");
  return trimmed === urls.resource || trimmed === urls.issuer ? urls.resource : undefined;
}
