// Discovery documents: RFC 8414 authorization server metadata (exactly spec 4.5 plus what the MCP
// authorization spec needs) and RFC 9728 protected resource metadata for /mcp.
import { SCOPES } from "@/lib/auth/scopes";
import { corsHeaders } from "./http";
import { mcpOAuthUrls } from "./urls";

const PUBLIC_CACHE_HEADERS = { "cache-control": "public, max-age=300" };

export function authorizationServerMetadata(urls = mcpOAuthUrls()) {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorizationEndpoint,
    token_endpoint: urls.tokenEndpoint,
    registration_endpoint: urls.registrationEndpoint,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    // Spec 4.5 lists plain; only confidential clients may use it (public clients must use S256).
    code_challenge_methods_supported: ["plain", "S256"],
    scopes_supported: [...SCOPES],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  };
}

export function protectedResourceMetadata(urls = mcpOAuthUrls()) {
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "VetDx",
  };
}

export function publicMetadataResponse(document: object): Response {
  return Response.json(document, { headers: { ...PUBLIC_CACHE_HEADERS, ...corsHeaders() } });
}
