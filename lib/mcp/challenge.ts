// Responses for refused MCP requests: the OAuth challenge pointing at the protected resource
// metadata (RFC 9728), or a DNS-rebinding refusal.
import { AuthError } from "@/lib/auth/identity";
import { mcpChallengeHeader } from "@/lib/auth/mcp-oauth/verify-access-token";
import { errorToResponse } from "@/lib/http/problem";

export function mcpErrorResponse(error: unknown): Response {
  if (!(error instanceof AuthError)) return errorToResponse(error);
  return Response.json(
    { error: error.error, error_description: error.description },
    {
      status: error.status,
      headers: {
        "www-authenticate": mcpChallengeHeader(error.error === "invalid_request" ? undefined : error),
        "cache-control": "no-store",
      },
    },
  );
}

export function originRefused(message: string): Response {
  return Response.json({ error: "forbidden", error_description: message }, { status: 403 });
}
