// Who a request acts as. Every surface (REST, MCP, component, dashboard) resolves one of these and
// passes it to lib/ functions, which scope every query by `veterinarianId`.
import type { Scope } from "./scopes";

export interface Identity {
  veterinarianId: string;
  kind: "human" | "machine";
  email: string | null;
  name: string;
  role: "vet" | "admin";
  scopes: Scope[];
  /** The OAuth client the credential was issued to, when there is one. */
  clientId: string | null;
  /** How the caller authenticated: an identity-provider JWT, an MCP OAuth token, or a dashboard session. */
  authMethod: "jwt" | "oauth" | "session";
  /** The MCP OAuth grant (connection) behind an MCP access token; what it creates ends with it. */
  grantId?: string;
}

/** RFC 6750 bearer-token errors; lib/http turns them into 401/403 with WWW-Authenticate. */
export class AuthError extends Error {
  override name = "AuthError";
  constructor(
    readonly error: "invalid_request" | "invalid_token" | "insufficient_scope",
    readonly description: string,
    readonly options: { requiredScopes?: readonly string[]; tokenPresent?: boolean } = {},
  ) {
    super(description);
  }

  get status(): number {
    return this.error === "insufficient_scope" ? 403 : this.error === "invalid_request" ? 400 : 401;
  }
}

/** The identity provider (its JWKS) could not be reached: fail closed, tell the caller to retry. */
export class IdentityProviderUnavailableError extends Error {
  override name = "IdentityProviderUnavailableError";
}
