// The identity provider behind /authorize and /callback (the embedded one at /idp, or OIDC_ISSUER):
// discovered with openid-client, used as the first-party client "vetdx-mcp" (or OIDC_CLIENT_ID)
// with redirect URI exactly APP_URL/callback, PKCE S256, state and nonce. Injectable for tests.
import * as oidc from "openid-client";
import type { Database } from "@/db";
import { getFirstPartyClientSecrets, MCP_UPSTREAM_CLIENT_ID } from "@/lib/auth/idp/provider";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/logger";
import { AuthorizationPageError } from "./errors";
import { mcpOAuthUrls } from "./urls";

export const UPSTREAM_SCOPE = "openid email profile";
const DISCOVERY_CACHE_MS = 10 * 60_000;

export interface UpstreamClaims {
  sub: string;
  email?: string;
  name?: string;
}

/** What /authorize stored for the upstream exchange. */
export interface UpstreamChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface UpstreamIdentityProvider {
  authorizationUrl(input: { state: string; nonce: string; codeChallenge: string }): URL;
  /** Completes the code exchange for the callback URL (PKCE, state, nonce, issuer and ID token checks). */
  exchangeCode(callbackUrl: URL, checks: UpstreamChecks): Promise<UpstreamClaims>;
}

/** An UpstreamIdentityProvider for an openid-client Configuration (tests build one from static metadata). */
export function upstreamFromConfiguration(config: oidc.Configuration): UpstreamIdentityProvider {
  const redirectUri = mcpOAuthUrls().callback;
  return {
    authorizationUrl: ({ state, nonce, codeChallenge }) =>
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: UPSTREAM_SCOPE,
        code_challenge: codeChallenge,
        code_challenge_method: "S256",
        state,
        nonce,
      }),
    exchangeCode: async (callbackUrl, checks) => {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error("the identity provider returned no ID token");
      const result: UpstreamClaims = {
        sub: claims.sub,
        email: typeof claims.email === "string" ? claims.email : undefined,
        name: typeof claims.name === "string" ? claims.name : undefined,
      };
      // Some providers put email and name only in UserInfo; ask there when the ID token lacks them.
      if (!result.email || !result.name) {
        try {
          const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
          result.email ??= typeof info.email === "string" ? info.email : undefined;
          result.name ??= typeof info.name === "string" ? info.name : undefined;
        } catch (error) {
          logger.debug({ err: error }, "userinfo unavailable; using ID token claims only");
        }
      }
      return result;
    },
  };
}

const globalKey = Symbol.for("vetdx.mcp-oauth.upstream");
type Holder = { [globalKey]?: { key: string; at: number; value: Promise<UpstreamIdentityProvider> } };

/** The configured identity provider, discovered once and then cached for ten minutes. */
export function getUpstreamIdentityProvider(db: Database): Promise<UpstreamIdentityProvider> {
  const env = getEnv();
  const holder = globalThis as Holder;
  const cached = holder[globalKey];
  if (cached && cached.key === env.AUTH_URL && Date.now() - cached.at < DISCOVERY_CACHE_MS)
    return cached.value;
  const value = discoverUpstream(db).catch((error: unknown) => {
    if (holder[globalKey]?.value === value) delete holder[globalKey];
    logger.warn({ err: error, issuer: env.AUTH_URL }, "identity provider discovery failed");
    throw new AuthorizationPageError(
      "Sign-in is unavailable",
      "The identity provider cannot be reached right now. Try again in a minute.",
      503,
    );
  });
  holder[globalKey] = { key: env.AUTH_URL, at: Date.now(), value };
  return value;
}

async function discoverUpstream(db: Database): Promise<UpstreamIdentityProvider> {
  const env = getEnv();
  const clientId = env.embeddedIdentityProvider ? MCP_UPSTREAM_CLIENT_ID : env.OIDC_CLIENT_ID;
  const clientSecret = env.embeddedIdentityProvider
    ? (await getFirstPartyClientSecrets(db)).mcp
    : env.OIDC_CLIENT_SECRET;
  if (!clientId || !clientSecret) throw new Error("OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are required");
  const issuer = new URL(env.AUTH_URL);
  const config = await oidc.discovery(issuer, clientId, undefined, oidc.ClientSecretBasic(clientSecret), {
    // The embedded provider on http://localhost is plain HTTP; external providers must be https.
    execute: issuer.protocol === "http:" ? [oidc.allowInsecureRequests] : [],
    timeout: 10,
  });
  return upstreamFromConfiguration(config);
}
