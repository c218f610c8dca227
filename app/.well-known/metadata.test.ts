// Discovery: RFC 8414 metadata exactly as spec 4.5 plus the MCP additions, and RFC 9728 metadata.
import { describe, expect, it } from "vitest";
import { GET as authorizationServer } from "@/app/.well-known/oauth-authorization-server/route";
import { GET as protectedResourceRoot } from "@/app/.well-known/oauth-protected-resource/route";
import { GET as protectedResourceMcp } from "@/app/.well-known/oauth-protected-resource/mcp/route";
import { SCOPES } from "@/lib/auth/scopes";

describe("GET /.well-known/oauth-authorization-server", () => {
  it("answers the spec 4.5 fields plus scopes, iss support and metadata documents, publicly cacheable", async () => {
    const response = authorizationServer();
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    expect(await response.json()).toEqual({
      issuer: "http://vetdx.test",
      authorization_endpoint: "http://vetdx.test/authorize",
      token_endpoint: "http://vetdx.test/token",
      registration_endpoint: "http://vetdx.test/register",
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      code_challenge_methods_supported: ["plain", "S256"],
      scopes_supported: [...SCOPES],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });
});

describe("RFC 9728 protected resource metadata", () => {
  it.each([
    ["/.well-known/oauth-protected-resource", protectedResourceRoot],
    ["/.well-known/oauth-protected-resource/mcp", protectedResourceMcp],
  ])("%s describes /mcp and names this authorization server", async (_path, handler) => {
    const response = handler();
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({
      resource: "http://vetdx.test/mcp",
      authorization_servers: ["http://vetdx.test"],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ["header"],
      resource_name: "VetDx",
    });
  });
});
