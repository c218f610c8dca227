// The /mcp side of the authorization server: opaque access tokens looked up by their SHA-256, and
// the RFC 6750 / RFC 9728 challenge that points clients at the protected resource metadata.
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { oauthGrants, oauthTokens, veterinarians } from "@/db/schema";
import { AuthError, type Identity } from "@/lib/auth/identity";
import { isScope } from "@/lib/auth/scopes";
import { sha256 } from "@/lib/auth/secrets";
import { mcpOAuthUrls } from "./urls";

/** Resolves an opaque MCP access token to the veterinarian it acts for, or throws AuthError invalid_token. */
export async function verifyMcpAccessToken(db: Database, token: string, now = new Date()): Promise<Identity> {
  const [row] = await db
    .select({
      kind: oauthTokens.kind,
      grantId: oauthTokens.grantId,
      clientId: oauthTokens.clientId,
      scopes: oauthTokens.scopes,
      resource: oauthTokens.resource,
      expiresAt: oauthTokens.expiresAt,
      revokedAt: oauthTokens.revokedAt,
      grantRevokedAt: oauthGrants.revokedAt,
      vetId: veterinarians.id,
      vetKind: veterinarians.kind,
      email: veterinarians.email,
      name: veterinarians.name,
      role: veterinarians.role,
      disabledAt: veterinarians.disabledAt,
    })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .innerJoin(veterinarians, eq(veterinarians.id, oauthTokens.veterinarianId))
    .where(eq(oauthTokens.tokenHash, sha256(token)));
  if (!row) throw new AuthError("invalid_token", "The access token is not recognised");
  if (row.kind !== "access")
    throw new AuthError("invalid_token", "A refresh token cannot be used as an access token");
  if (row.revokedAt) throw new AuthError("invalid_token", "The access token has been revoked");
  if (row.grantRevokedAt)
    throw new AuthError("invalid_token", "The authorization behind this access token has been revoked");
  if (row.expiresAt <= now) throw new AuthError("invalid_token", "The access token has expired");
  if (row.resource !== mcpOAuthUrls().resource) {
    throw new AuthError("invalid_token", "The access token was not issued for this resource");
  }
  if (row.disabledAt || row.vetKind !== "human") {
    throw new AuthError("invalid_token", "The veterinarian account of this access token is disabled");
  }
  return {
    veterinarianId: row.vetId,
    kind: "human",
    email: row.email,
    name: row.name,
    role: row.role,
    scopes: row.scopes.filter(isScope),
    clientId: row.clientId,
    authMethod: "oauth",
    grantId: row.grantId,
  };
}

const quote = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

/**
 * The WWW-Authenticate value for /mcp: `Bearer realm="vetdx", resource_metadata="…"` (RFC 9728 5.1),
 * plus `error`/`error_description` (and `scope` for insufficient_scope) when a token was presented
 * and refused. A description string stands for invalid_token.
 */
export function mcpChallengeHeader(problem?: AuthError | string): string {
  const parts = [`realm="vetdx"`, `resource_metadata=${quote(mcpOAuthUrls().resourceMetadata)}`];
  const error = typeof problem === "string" ? new AuthError("invalid_token", problem) : problem;
  // RFC 6750 3.1: a request without credentials gets the bare challenge.
  if (error && !(error.error === "invalid_token" && error.options.tokenPresent === false)) {
    parts.push(`error=${quote(error.error)}`, `error_description=${quote(error.description)}`);
    if (error.options.requiredScopes?.length)
      parts.push(`scope=${quote(error.options.requiredScopes.join(" "))}`);
  }
  return `Bearer ${parts.join(", ")}`;
}
