// The embedded OpenID provider (oidc-provider, mounted at /idp by server.ts). Vets sign in here;
// the dashboard and the MCP authorization server are its two first-party clients. Replaced by any
// external OIDC provider when OIDC_ISSUER is set.
import { eq, and } from "drizzle-orm";
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import type { Database } from "@/db";
import { veterinarians } from "@/db/schema";
import type { Env } from "@/lib/env";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";
import { getOrCreateSecret } from "@/lib/auth/app-secrets";
import { randomToken } from "@/lib/auth/secrets";
import { SCOPES } from "@/lib/auth/scopes";
import { getSigningKeys } from "@/lib/auth/signing-keys";
import { createAdapterClass } from "./adapter";
import { renderIdentityProviderPage } from "./pages";

export const DASHBOARD_CLIENT_ID = "vetdx-dashboard";
export const MCP_UPSTREAM_CLIENT_ID = "vetdx-mcp";
const FIRST_PARTY_CLIENTS = new Set([DASHBOARD_CLIENT_ID, MCP_UPSTREAM_CLIENT_ID]);

export interface FirstPartyClientSecrets {
  dashboard: string;
  mcp: string;
}

/** Secrets of the first-party clients, generated once; the dashboard and /callback read them too. */
export function getFirstPartyClientSecrets(db: Database): Promise<FirstPartyClientSecrets> {
  return getOrCreateSecret(db, "idp_client_secrets", () => ({
    dashboard: randomToken(32),
    mcp: randomToken(32),
  }));
}

export function interactionPath(uid: string): string {
  return `/idp/interaction/${uid}`;
}

export async function createIdentityProvider(db: Database, env: Env): Promise<Provider> {
  const [signingKeys, clientSecrets, cookieKeys] = await Promise.all([
    getSigningKeys(db),
    getFirstPartyClientSecrets(db),
    getOrCreateSecret(db, "idp_cookie_keys", () => [randomToken(32), randomToken(32)]),
  ]);
  const apiResource = env.APP_URL;

  const configuration: Configuration = {
    adapter: createAdapterClass(db),
    clients: [
      {
        client_id: DASHBOARD_CLIENT_ID,
        client_name: "VetDx dashboard",
        client_secret: clientSecrets.dashboard,
        redirect_uris: [`${env.APP_URL}/api/auth/callback/vetdx`],
        post_logout_redirect_uris: [`${env.APP_URL}/`],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        client_id: MCP_UPSTREAM_CLIENT_ID,
        client_name: "VetDx for AI assistants",
        client_secret: clientSecrets.mcp,
        redirect_uris: [`${env.APP_URL}/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: signingKeys as Configuration["jwks"],
    cookies: { keys: cookieKeys, long: { signed: true }, short: { signed: true } },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    scopes: ["openid", "offline_access", "email", "profile"],
    responseTypes: ["code"],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.body = renderIdentityProviderPage({
            title: "Sign out",
            body: `<p>Sign out of VetDx on this browser?</p>${form}<div class="actions"><button class="button" form="op.logoutForm" name="logout" value="yes">Sign out</button></div>`,
          });
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.body = renderIdentityProviderPage({
            title: "Signed out",
            body: "<p>You are signed out of VetDx.</p>",
          });
        },
      },
      // Users may ask for a JWT access token for the REST API (resource = APP_URL).
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator.replace(/\/$/, "") !== apiResource) throw new errors.InvalidTarget();
          return {
            scope: SCOPES.join(" "),
            audience: apiResource,
            accessTokenTTL: 3600,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
    findAccount: async (_ctx, id) => {
      const [vet] = await db
        .select()
        .from(veterinarians)
        .where(and(eq(veterinarians.id, id), eq(veterinarians.kind, "human")))
        .catch(() => []);
      if (!vet || vet.disabledAt) return undefined;
      return {
        accountId: vet.id,
        claims: () => ({ sub: vet.id, email: vet.email ?? undefined, email_verified: true, name: vet.name }),
      };
    },
    // First-party clients are part of VetDx: signing in is consent; no separate prompt.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId || session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      if (!FIRST_PARTY_CLIENTS.has(client.clientId)) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid offline_access email profile");
      grant.addOIDCClaims(["sub", "email", "email_verified", "name"]);
      grant.addResourceScope(apiResource, SCOPES.join(" "));
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: 14 * 24 * 3600,
    },
    renderError: (ctx, out) => {
      ctx.type = "html";
      ctx.body = renderIdentityProviderPage({
        title: "Sign-in problem",
        body: `<p>${escapeHtml(out.error_description ?? out.error)}</p><p class="muted">Start again from the app you were signing in to.</p>`,
      });
    },
  };

  const provider = new Provider(`${env.APP_URL}/idp`, configuration);
  provider.proxy = Boolean(env.TRUST_PROXY);
  // The address server.ts stamped (lib/http/client-address.ts), not koa's reading of
  // X-Forwarded-For, whose left-most entry the client chooses.
  provider.proxyIpHeader = CLIENT_ADDRESS_HEADER;
  provider.maxIpsCount = 1;
  return provider;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
