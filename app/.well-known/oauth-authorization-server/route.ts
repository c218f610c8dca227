// GET /.well-known/oauth-authorization-server — RFC 8414 metadata of the MCP authorization server (spec 4.5).
import { authorizationServerMetadata, publicMetadataResponse } from "@/lib/auth/mcp-oauth/metadata";
import { corsPreflightResponse } from "@/lib/auth/mcp-oauth/http";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return publicMetadataResponse(authorizationServerMetadata());
}

export function OPTIONS(): Response {
  return corsPreflightResponse(["GET"]);
}
