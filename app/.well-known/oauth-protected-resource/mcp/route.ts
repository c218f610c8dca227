// GET /.well-known/oauth-protected-resource/mcp — RFC 9728 metadata of the protected resource /mcp.
import { protectedResourceMetadata, publicMetadataResponse } from "@/lib/auth/mcp-oauth/metadata";
import { corsPreflightResponse } from "@/lib/auth/mcp-oauth/http";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return publicMetadataResponse(protectedResourceMetadata());
}

export function OPTIONS(): Response {
  return corsPreflightResponse(["GET"]);
}
