// Responses for refused MCP requests: the OAuth challenge pointing at the protected resource
// metadata (RFC 9728), a DNS-rebinding refusal, a body too large, or the caller's rate limit.
import { AuthError, type Identity } from "@/lib/auth/identity";
import { mcpChallengeHeader } from "@/lib/auth/mcp-oauth/verify-access-token";
import { errorToResponse, problemResponse } from "@/lib/http/problem";
import { checkRateLimit, policy, RateLimitedError, type RateLimitDecision } from "@/lib/http/rate-limit";
import type { BodyTooLargeError } from "@/lib/http/read-body";

/** Counts an MCP request against its caller's budget; throws RateLimitedError (429) when spent. */
export async function mcpRateLimit(identity: Identity): Promise<RateLimitDecision> {
  const limit = await checkRateLimit(policy("mcp-token"), identity.veterinarianId);
  if (limit.limited) throw new RateLimitedError(limit, "Too many MCP requests for this client; slow down");
  return limit;
}

export function tooLarge(error: BodyTooLargeError): Response {
  return problemResponse(413, "payload_too_large", `The message exceeds ${error.maxBytes} bytes`);
}

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
