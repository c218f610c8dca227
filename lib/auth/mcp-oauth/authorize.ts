// GET /authorize: validates an authorization request (client and redirect URI first, shown locally
// when wrong; everything else reported to the client's redirect URI), stores it for ten minutes and
// sends the browser to the identity provider to sign in (spec 5.1 step 3).
import * as oidc from "openid-client";
import type { Database } from "@/db";
import { oauthAuthorizationRequests } from "@/db/schema";
import { isScope, parseScopeString, SCOPES, type Scope } from "@/lib/auth/scopes";
import { randomToken } from "@/lib/auth/secrets";
import { resolveAuthorizationClient } from "./clients";
import { AuthorizationPageError, AuthorizationRedirectError } from "./errors";
import { matchRedirectUri } from "./redirect-uris";
import type { DocumentFetcher } from "./safe-fetch";
import { getUpstreamIdentityProvider, type UpstreamIdentityProvider } from "./upstream";
import { canonicalResource } from "./urls";

export const AUTHORIZATION_REQUEST_TTL_SECONDS = 10 * 60;

/** Scopes some clients add by habit; we issue refresh tokens anyway, so they are ignored, not refused. */
const IGNORED_SCOPES = new Set(["offline_access"]);
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface AuthorizeOptions {
  clientIp: string;
  upstream?: UpstreamIdentityProvider;
  fetchDocument?: DocumentFetcher;
  now?: Date;
}

export async function startAuthorization(
  db: Database,
  params: URLSearchParams,
  options: AuthorizeOptions,
): Promise<{ location: string; requestId: string }> {
  const single = (name: string) => {
    const values = params.getAll(name);
    return values.length === 1 ? values[0] : undefined;
  };
  for (const name of ["client_id", "redirect_uri"]) {
    if (params.getAll(name).length > 1)
      throw new AuthorizationPageError("Invalid request", `${name} is repeated`);
  }
  const clientId = single("client_id");
  if (!clientId) throw new AuthorizationPageError("Invalid request", "The request has no client_id");
  const client = await resolveAuthorizationClient(db, clientId, options);
  const requestedRedirect = single("redirect_uri");
  if (!requestedRedirect)
    throw new AuthorizationPageError("Invalid request", "The request has no redirect_uri");
  if (!matchRedirectUri(requestedRedirect, client.redirectUris)) {
    throw new AuthorizationPageError(
      "Invalid redirect URI",
      "The redirect_uri is not one this app registered, so VetDx will not send anything there.",
    );
  }

  // From here on the redirect URI is trusted: errors go back to the client (RFC 6749 4.1.2.1).
  const state = single("state") ?? null;
  const fail = (error: AuthorizationRedirectError["error"], description: string) =>
    new AuthorizationRedirectError(error, description, { redirectUri: requestedRedirect, state });
  for (const name of new Set(params.keys())) {
    if (name !== "resource" && params.getAll(name).length > 1)
      throw fail("invalid_request", `${name} is repeated`);
  }
  const responseType = single("response_type");
  if (!responseType) throw fail("invalid_request", "response_type is required");
  if (responseType !== "code")
    throw fail("unsupported_response_type", "Only response_type=code is supported");
  if (!client.grantTypes.includes("authorization_code")) {
    throw fail("unauthorized_client", "This client is not registered for the authorization_code grant");
  }

  const codeChallenge = single("code_challenge");
  if (!codeChallenge) throw fail("invalid_request", "code_challenge is required (PKCE)");
  if (!CODE_CHALLENGE.test(codeChallenge)) throw fail("invalid_request", "code_challenge is malformed");
  // RFC 7636 defaults a missing method to plain; we refuse instead, so plain is only ever chosen
  // on purpose (and a client that meant S256 hears so now, not as invalid_grant at /token).
  const method = single("code_challenge_method");
  if (!method) throw fail("invalid_request", "code_challenge_method is required; use S256");
  if (method !== "S256" && method !== "plain") {
    throw fail("invalid_request", "code_challenge_method must be S256 or plain");
  }
  if (method === "plain" && client.tokenEndpointAuthMethod === "none") {
    throw fail("invalid_request", "Public clients must use code_challenge_method=S256");
  }

  const requested = parseScopeString(single("scope")).filter((scope) => !IGNORED_SCOPES.has(scope));
  const unknown = requested.filter((scope) => !isScope(scope));
  if (unknown.length) throw fail("invalid_scope", `Unknown scope: ${unknown.join(" ")}`);
  const scopes: Scope[] = requested.length ? (requested as Scope[]) : [...SCOPES];

  const resources = params.getAll("resource");
  for (const resource of resources) {
    if (!canonicalResource(resource)) {
      throw fail("invalid_target", "resource must be this server's MCP endpoint");
    }
  }

  const upstream = options.upstream ?? (await getUpstreamIdentityProvider(db));
  const requestId = randomToken(24);
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const now = options.now ?? new Date();
  await db.insert(oauthAuthorizationRequests).values({
    id: requestId,
    clientId: client.clientId,
    redirectUri: requestedRedirect,
    state,
    scopes,
    resource: resources[0] === undefined ? null : (canonicalResource(resources[0]) ?? null),
    codeChallenge,
    codeChallengeMethod: method,
    upstream: { nonce, codeVerifier },
    createdAt: now,
    expiresAt: new Date(now.getTime() + AUTHORIZATION_REQUEST_TTL_SECONDS * 1000),
  });
  const location = upstream.authorizationUrl({
    state: requestId,
    nonce,
    codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
  });
  return { location: location.toString(), requestId };
}
