// Who an /mcp request acts as: an M2M (or user) JWT from the identity provider (spec 5.2) whose
// audience includes {APP_URL}/mcp, or an opaque access token from this server's own authorization
// server (spec 5.1). Tokens are accepted only in the Authorization header.
import "server-only";
import type { Database } from "@/db";
import { AuthError, type Identity } from "@/lib/auth/identity";
import { verifyMcpAccessToken } from "@/lib/auth/mcp-oauth/verify-access-token";
import { authenticateRequest, bearerToken } from "@/lib/http/with-auth";

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export async function authenticateMcpRequest(request: Request, db: Database): Promise<Identity> {
  if (new URL(request.url).searchParams.has("access_token")) {
    throw new AuthError(
      "invalid_request",
      "Send the access token in the Authorization header, not in the URL",
    );
  }
  const token = bearerToken(request);
  if (JWT_SHAPE.test(token)) return authenticateRequest(request, db, "mcp");
  return verifyMcpAccessToken(db, token);
}
