// Route-handler wrappers: `withAuth` authenticates the bearer token, checks scopes, counts the
// request against the caller's rate limit (RateLimit headers on every answer) and hands the
// handler a typed identity; `withErrors` only maps errors. Both turn any error into a response.
import "server-only";
import { getDb, type Database } from "@/db";
import { getEnv } from "@/lib/env";
import {
  resolveTokenIdentity,
  tokenVerifierConfig,
  verifyAccessToken,
  type ProtectedResource,
  type TokenVerifierConfig,
} from "@/lib/auth/access-token";
import { AuthError, type Identity } from "@/lib/auth/identity";
import { cachedTokenClaims, rememberTokenClaims } from "@/lib/auth/identity-cache";
import type { Scope } from "@/lib/auth/scopes";
import { errorToResponse } from "./problem";
import { checkRateLimit, policy, rateLimitHeaders, RateLimitedError, withHeaders } from "./rate-limit";

type RouteContext<P> = { params: Promise<P> };

const verifierConfigs = new WeakMap<Database, Record<ProtectedResource, TokenVerifierConfig>>();

function verifierFor(db: Database, resource: ProtectedResource): TokenVerifierConfig {
  let configs = verifierConfigs.get(db);
  if (!configs) {
    configs = {
      api: tokenVerifierConfig(db, getEnv(), "api"),
      mcp: tokenVerifierConfig(db, getEnv(), "mcp"),
    };
    verifierConfigs.set(db, configs);
  }
  return configs[resource];
}

/** Reads `Authorization: Bearer <token>`; RFC 6750 section 2.1 is the only accepted form. */
export function bearerToken(request: Request): string {
  const header = request.headers.get("authorization");
  if (!header) throw new AuthError("invalid_token", "Missing bearer token", { tokenPresent: false });
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match?.[1]) {
    if (!/^Bearer\b/i.test(header)) {
      throw new AuthError("invalid_token", "Use the Bearer authorization scheme", { tokenPresent: false });
    }
    throw new AuthError("invalid_token", "The bearer token is malformed", { tokenPresent: true });
  }
  return match[1];
}

export async function authenticateRequest(
  request: Request,
  db: Database,
  resource: ProtectedResource = "api",
): Promise<Identity> {
  const config = verifierFor(db, resource);
  const token = bearerToken(request);
  // Cached per resource: a token verified for the API has not been verified for /mcp.
  const cacheKey = `${resource} ${token}`;
  let claims = cachedTokenClaims(db, cacheKey);
  if (!claims) {
    claims = await verifyAccessToken(config, token);
    rememberTokenClaims(db, cacheKey, claims);
  }
  return resolveTokenIdentity(db, config, claims);
}

export function requireAnyScope(identity: Identity, anyScope: readonly Scope[]): void {
  if (anyScope.length && !anyScope.some((scope) => identity.scopes.includes(scope))) {
    throw new AuthError("insufficient_scope", `This request needs the scope ${anyScope.join(" or ")}`, {
      requiredScopes: anyScope,
    });
  }
}

export interface AuthedHandlerArgs<P> {
  request: Request;
  identity: Identity;
  params: P;
  db: Database;
}

export function withAuth<P = Record<string, never>>(
  options: { anyScope: readonly Scope[] },
  handler: (args: AuthedHandlerArgs<P>) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const db = await getDb();
      const identity = await authenticateRequest(request, db);
      requireAnyScope(identity, options.anyScope);
      // One budget per veterinarian the token acts as: new tokens for the same client share it.
      const limit = await checkRateLimit(policy("api-token"), identity.veterinarianId);
      if (limit.limited) throw new RateLimitedError(limit, "Too many requests for this client; slow down");
      const response = await handler({ request, identity, params: await context.params, db });
      return withHeaders(response, rateLimitHeaders(limit));
    } catch (error) {
      return errorToResponse(error);
    }
  };
}

export function withErrors<P = Record<string, never>>(
  handler: (args: { request: Request; params: P; db: Database }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      return await handler({ request, params: await context.params, db: await getDb() });
    } catch (error) {
      return errorToResponse(error);
    }
  };
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  return Response.json(body, { ...init, headers: { "cache-control": "no-store", ...init.headers } });
}
