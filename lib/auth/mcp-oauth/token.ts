// POST /token: the authorization_code grant (PKCE required) and the refresh_token grant (rotation
// with reuse detection). Tokens are opaque 256-bit random strings stored only as SHA-256, bound to
// the resource APP_URL/mcp. A replayed code or a reused refresh token revokes the whole grant.
import { timingSafeEqual } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Database, Transaction } from "@/db";
import { oauthAuthorizationCodes, oauthGrants, oauthTokens, veterinarians } from "@/db/schema";
import { isScope, parseScopeString } from "@/lib/auth/scopes";
import { randomToken, sha256 } from "@/lib/auth/secrets";
import { getEnv } from "@/lib/env";
import {
  checkRateLimit,
  FAILED_AUTHENTICATIONS,
  refundRateLimit,
  type RateLimitDecision,
} from "@/lib/http/rate-limit";
import { logger } from "@/lib/logger";
import { authenticateClient } from "./client-authentication";
import type { OAuthClientRow } from "./clients";
import { OAuthServerError } from "./errors";
import { canonicalResource, mcpOAuthUrls } from "./urls";

export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface McpTokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

export interface TokenRequest {
  authorization: string | null;
  form: URLSearchParams;
  clientIp: string;
  now?: Date;
}

const tooManyFailures = (rateLimit: RateLimitDecision) =>
  new OAuthServerError("invalid_request", "Too many failed client authentications; try again later", {
    status: 429,
    rateLimit,
  });

export async function exchangeToken(db: Database, request: TokenRequest): Promise<McpTokenResponse> {
  // The attempt counts before the client is authenticated, so parallel guesses cannot all get past
  // the budget; one that authenticates gives its point back.
  const attempt = await checkRateLimit(FAILED_AUTHENTICATIONS, request.clientIp);
  if (attempt.limited) throw tooManyFailures(attempt);
  let client: OAuthClientRow;
  try {
    client = await authenticateClient(db, request.authorization, request.form);
  } catch (error) {
    if (!(error instanceof OAuthServerError && error.error === "invalid_client"))
      await refundRateLimit(FAILED_AUTHENTICATIONS, request.clientIp);
    throw error;
  }
  await refundRateLimit(FAILED_AUTHENTICATIONS, request.clientIp);
  const resource = request.form.get("resource");
  if (resource !== null && !canonicalResource(resource)) {
    throw new OAuthServerError("invalid_target", "resource must be this server's MCP endpoint");
  }
  const grantType = request.form.get("grant_type");
  const now = request.now ?? new Date();
  if (grantType === "authorization_code") return exchangeAuthorizationCode(db, client, request.form, now);
  if (grantType === "refresh_token") return exchangeRefreshToken(db, client, request.form, now);
  if (!grantType) throw new OAuthServerError("invalid_request", "grant_type is required");
  throw new OAuthServerError("unsupported_grant_type", `grant_type ${grantType} is not supported`);
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** RFC 7636 4.6, compared in constant time. */
export function pkceMatches(method: "S256" | "plain", challenge: string, verifier: string): boolean {
  return sameText(method === "S256" ? sha256(verifier) : verifier, challenge);
}

/** Revokes a grant and every token it issued (code replay, refresh-token reuse). */
export async function revokeGrant(
  db: Database | Transaction,
  grantId: string,
  reason: string,
): Promise<void> {
  const now = new Date();
  await db
    .update(oauthGrants)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)));
  await db
    .update(oauthTokens)
    .set({ revokedAt: now })
    .where(and(eq(oauthTokens.grantId, grantId), isNull(oauthTokens.revokedAt)));
  logger.warn({ grantId, reason }, "MCP OAuth grant revoked");
}

async function loadActiveGrant(db: Database | Transaction, grantId: string) {
  const [grant] = await db
    .select({
      id: oauthGrants.id,
      clientId: oauthGrants.clientId,
      veterinarianId: oauthGrants.veterinarianId,
      scopes: oauthGrants.scopes,
      revokedAt: oauthGrants.revokedAt,
      disabledAt: veterinarians.disabledAt,
    })
    .from(oauthGrants)
    .innerJoin(veterinarians, eq(veterinarians.id, oauthGrants.veterinarianId))
    .where(eq(oauthGrants.id, grantId));
  if (!grant || grant.revokedAt)
    throw new OAuthServerError("invalid_grant", "This authorization has been revoked");
  if (grant.disabledAt) throw new OAuthServerError("invalid_grant", "The veterinarian account is disabled");
  return grant;
}

async function exchangeAuthorizationCode(
  db: Database,
  client: OAuthClientRow,
  form: URLSearchParams,
  now: Date,
): Promise<McpTokenResponse> {
  const code = form.get("code");
  const redirectUri = form.get("redirect_uri");
  const verifier = form.get("code_verifier");
  if (!code) throw new OAuthServerError("invalid_request", "code is required");
  if (!redirectUri) throw new OAuthServerError("invalid_request", "redirect_uri is required");
  if (!verifier) throw new OAuthServerError("invalid_request", "code_verifier is required (PKCE)");
  if (!CODE_VERIFIER.test(verifier))
    throw new OAuthServerError("invalid_request", "code_verifier is malformed");
  if (!client.grantTypes.includes("authorization_code")) {
    throw new OAuthServerError("unauthorized_client", "This client may not use the authorization_code grant");
  }
  const codeHash = sha256(code);
  const [row] = await db
    .select()
    .from(oauthAuthorizationCodes)
    .where(eq(oauthAuthorizationCodes.codeHash, codeHash));
  if (!row) throw new OAuthServerError("invalid_grant", "The authorization code is not valid");
  const replayed = () =>
    new OAuthServerError(
      "invalid_grant",
      "The authorization code was already used; the tokens issued with it are revoked",
    );
  if (row.consumedAt) {
    await revokeGrant(db, row.grantId, "authorization code replayed");
    throw replayed();
  }
  if (row.clientId !== client.clientId) {
    throw new OAuthServerError("invalid_grant", "The authorization code was issued to another client");
  }
  if (row.expiresAt <= now) throw new OAuthServerError("invalid_grant", "The authorization code has expired");
  if (row.redirectUri !== redirectUri) {
    throw new OAuthServerError("invalid_grant", "redirect_uri does not match the authorization request");
  }
  if (!pkceMatches(row.codeChallengeMethod, row.codeChallenge, verifier)) {
    throw new OAuthServerError("invalid_grant", "code_verifier does not match the code_challenge");
  }
  const issued = await db.transaction(async (tx) => {
    const consumed = await tx
      .update(oauthAuthorizationCodes)
      .set({ consumedAt: now })
      .where(and(eq(oauthAuthorizationCodes.codeHash, codeHash), isNull(oauthAuthorizationCodes.consumedAt)))
      .returning({ grantId: oauthAuthorizationCodes.grantId });
    if (consumed.length === 0) return undefined;
    const grant = await loadActiveGrant(tx, row.grantId);
    return issueTokens(tx, client, grant, { accessScopes: grant.scopes, refreshScopes: grant.scopes }, now);
  });
  if (!issued) {
    // Another request consumed the code in the meantime: a concurrent replay.
    await revokeGrant(db, row.grantId, "authorization code replayed");
    throw replayed();
  }
  return issued;
}

async function exchangeRefreshToken(
  db: Database,
  client: OAuthClientRow,
  form: URLSearchParams,
  now: Date,
): Promise<McpTokenResponse> {
  const refreshToken = form.get("refresh_token");
  if (!refreshToken) throw new OAuthServerError("invalid_request", "refresh_token is required");
  if (!client.grantTypes.includes("refresh_token")) {
    throw new OAuthServerError("unauthorized_client", "This client may not use the refresh_token grant");
  }
  const tokenHash = sha256(refreshToken);
  const [row] = await db
    .select()
    .from(oauthTokens)
    .where(and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, "refresh")));
  if (!row) throw new OAuthServerError("invalid_grant", "The refresh token is not valid");
  if (row.clientId !== client.clientId) {
    throw new OAuthServerError("invalid_grant", "The refresh token was issued to another client");
  }
  const reused = () =>
    new OAuthServerError(
      "invalid_grant",
      "The refresh token was already used; the authorization is revoked, sign in again",
    );
  if (row.usedAt) {
    await revokeGrant(db, row.grantId, "refresh token reused");
    throw reused();
  }
  if (row.revokedAt) throw new OAuthServerError("invalid_grant", "The refresh token has been revoked");
  if (row.expiresAt <= now) throw new OAuthServerError("invalid_grant", "The refresh token has expired");
  const requested = parseScopeString(form.get("scope"));
  const outside = requested.filter((scope) => !row.scopes.includes(scope));
  if (outside.length) {
    throw new OAuthServerError("invalid_scope", `The refresh token does not cover: ${outside.join(" ")}`);
  }
  const issued = await db.transaction(async (tx) => {
    const used = await tx
      .update(oauthTokens)
      .set({ usedAt: now })
      .where(and(eq(oauthTokens.tokenHash, tokenHash), isNull(oauthTokens.usedAt)))
      .returning({ grantId: oauthTokens.grantId });
    if (used.length === 0) return undefined;
    const grant = await loadActiveGrant(tx, row.grantId);
    // RFC 6749 6: a narrower scope applies to the new access token; the refresh token keeps its own.
    const accessScopes = requested.length ? requested : row.scopes;
    return issueTokens(tx, client, grant, { accessScopes, refreshScopes: row.scopes }, now);
  });
  if (!issued) {
    await revokeGrant(db, row.grantId, "refresh token reused");
    throw reused();
  }
  return issued;
}

async function issueTokens(
  tx: Transaction,
  client: OAuthClientRow,
  grant: { id: string; veterinarianId: string },
  scopes: { accessScopes: string[]; refreshScopes: string[] },
  now: Date,
): Promise<McpTokenResponse> {
  const accessTtl = getEnv().MCP_ACCESS_TOKEN_TTL_SECONDS;
  const resource = mcpOAuthUrls().resource;
  const accessToken = `vdx_at_${randomToken(32)}`;
  const common = {
    grantId: grant.id,
    clientId: client.clientId,
    veterinarianId: grant.veterinarianId,
    resource,
    createdAt: now,
  };
  await tx.insert(oauthTokens).values({
    ...common,
    tokenHash: sha256(accessToken),
    kind: "access",
    scopes: scopes.accessScopes,
    expiresAt: new Date(now.getTime() + accessTtl * 1000),
  });
  let refreshToken: string | undefined;
  if (client.grantTypes.includes("refresh_token")) {
    refreshToken = `vdx_rt_${randomToken(32)}`;
    await tx.insert(oauthTokens).values({
      ...common,
      tokenHash: sha256(refreshToken),
      kind: "refresh",
      scopes: scopes.refreshScopes,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    });
  }
  logger.info({ clientId: client.clientId, grantId: grant.id }, "MCP OAuth tokens issued");
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: accessTtl,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    scope: scopes.accessScopes.filter(isScope).join(" "),
  };
}
