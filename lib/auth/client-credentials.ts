// The client-credentials grant of the token issuer ({auth_url}/oauth2/token, spec 4.4 and 2.7):
// HTTP Basic client authentication, optional space-separated scope, optional RFC 8707 `resource`,
// a signed JWT whose `sub` is the client id, valid 3600 seconds.
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { Database } from "@/db";
import { findMachineClient } from "@/lib/machine-clients/machine-clients";
import { mcpOAuthUrls } from "./mcp-oauth/urls";
import { parseScopeString } from "./scopes";
import { secretMatches } from "./secrets";
import { currentSigningKey, getSigningKeys, SIGNING_ALGORITHM } from "./signing-keys";

export const M2M_TOKEN_LIFETIME_SECONDS = 3600;

/** An RFC 6749 section 5.2 error. */
export class OAuthError extends Error {
  override name = "OAuthError";
  constructor(
    readonly error:
      | "invalid_request"
      | "invalid_client"
      | "invalid_grant"
      | "unauthorized_client"
      | "unsupported_grant_type"
      | "invalid_scope"
      | "invalid_target",
    readonly description: string,
    readonly status = error === "invalid_client" ? 401 : 400,
  ) {
    super(description);
  }
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

export interface ClientCredentialsRequest {
  clientId: string;
  clientSecret: string;
  grantType: string | null;
  scope: string | null;
  /** RFC 8707: the REST API (the audience below) or the MCP endpoint; null for both. */
  resource: string | null;
}

/**
 * The token's `aud`: the one resource asked for, or, without `resource`, both the REST API and
 * /mcp, because spec 5.2 has a machine client send the token of spec 4.4 (which names no resource)
 * to /mcp with the same credentials it uses for REST.
 */
function tokenAudience(resource: string | null, apiAudience: string): string | string[] {
  const mcpResource = mcpOAuthUrls().resource;
  if (resource === null) return [apiAudience, mcpResource];
  const trimmed = resource.replace(/\/+$/, "");
  const match = [apiAudience, mcpResource].find((known) => known === resource || known === trimmed);
  if (!match) throw new OAuthError("invalid_target", `resource must be ${apiAudience} or ${mcpResource}`);
  return match;
}

export async function issueClientCredentialsToken(
  db: Database,
  request: ClientCredentialsRequest,
  options: { issuer: string; audience: string },
): Promise<TokenResponse> {
  const client = await findMachineClient(db, request.clientId);
  // Same answer for an unknown client, a wrong secret and a revoked client: nothing to probe.
  if (!client || client.revokedAt || !secretMatches(request.clientSecret, client.secretHash)) {
    throw new OAuthError("invalid_client", "Client authentication failed");
  }
  if (request.grantType !== "client_credentials") {
    throw new OAuthError(
      request.grantType ? "unsupported_grant_type" : "invalid_request",
      request.grantType
        ? `grant_type ${request.grantType} is not supported here; use client_credentials`
        : "grant_type is required",
    );
  }
  const requested = parseScopeString(request.scope);
  const unknown = requested.filter((scope) => !client.scopes.includes(scope));
  if (unknown.length) {
    throw new OAuthError("invalid_scope", `The client is not allowed the scope ${unknown.join(" ")}`);
  }
  const scopes = requested.length ? requested : client.scopes;
  const audience = tokenAudience(request.resource, options.audience);
  const { key, kid } = await currentSigningKey(await getSigningKeys(db));
  const accessToken = await new SignJWT({
    client_id: client.clientId,
    scope: scopes.join(" "),
    token_use: "access",
  })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: "at+jwt" })
    .setIssuer(options.issuer)
    .setSubject(client.clientId)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${M2M_TOKEN_LIFETIME_SECONDS}s`)
    .setJti(randomUUID())
    .sign(key);
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: M2M_TOKEN_LIFETIME_SECONDS,
    scope: scopes.join(" "),
  };
}
