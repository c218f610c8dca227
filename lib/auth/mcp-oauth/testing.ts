// Test helpers for the MCP authorization server: a stand-in identity provider (real openid-client
// URL building, faked code exchange), a veterinarian, a registered client, and the whole browser
// leg (authorize → callback → consent) driven through the real lib functions.
import { createHash, randomBytes } from "node:crypto";
import * as oidc from "openid-client";
import type { Database } from "@/db";
import { veterinarians } from "@/db/schema";
import { startAuthorization } from "./authorize";
import { completeUpstreamSignIn } from "./callback";
import { consentCookieValue, decideConsent } from "./consent";
import { registerClient } from "./register-client";
import {
  upstreamFromConfiguration,
  type UpstreamChecks,
  type UpstreamClaims,
  type UpstreamIdentityProvider,
} from "./upstream";

export const TEST_IDP = "https://idp.vetdx.test";

export interface FakeUpstream extends UpstreamIdentityProvider {
  exchanges: { callbackUrl: URL; checks: UpstreamChecks }[];
}

/** Builds upstream authorization URLs with openid-client; the code exchange answers `claims`. */
export function fakeUpstream(claims: () => UpstreamClaims | Promise<UpstreamClaims>): FakeUpstream {
  const config = new oidc.Configuration(
    { issuer: TEST_IDP, authorization_endpoint: `${TEST_IDP}/auth`, token_endpoint: `${TEST_IDP}/token` },
    "vetdx-mcp",
    "upstream-secret",
  );
  const real = upstreamFromConfiguration(config);
  const exchanges: FakeUpstream["exchanges"] = [];
  return {
    exchanges,
    authorizationUrl: real.authorizationUrl,
    exchangeCode: async (callbackUrl, checks) => {
      exchanges.push({ callbackUrl, checks });
      if (callbackUrl.searchParams.get("state") !== checks.state) throw new Error("state mismatch");
      return claims();
    },
  };
}

export async function createTestVet(
  db: Database,
  email = `vet-${randomBytes(4).toString("hex")}@clinic.test`,
) {
  const [vet] = await db.insert(veterinarians).values({ kind: "human", email, name: "Dr Test" }).returning();
  if (!vet) throw new Error("vet not created");
  return vet;
}

export async function registerTestClient(
  db: Database,
  metadata: Record<string, unknown> = {},
  ip = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
) {
  return registerClient(
    db,
    {
      redirect_uris: ["http://127.0.0.1:5555/cb"],
      token_endpoint_auth_method: "none",
      client_name: "Test MCP client",
      ...metadata,
    },
    { clientIp: ip },
  );
}

export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Runs /authorize, /callback and (when shown) the consent screen with Allow; returns the redirect. */
export async function authorizeWithConsent(
  db: Database,
  input: {
    clientId: string;
    vetId: string;
    redirectUri?: string;
    challenge: string;
    method?: "S256" | "plain";
    scope?: string;
    decision?: "allow" | "deny";
    /** The consent page's access choice; its default (what the client asked for) when left out. */
    access?: "read" | "read_write";
  },
): Promise<URL> {
  const params = new URLSearchParams({
    response_type: "code",
    client_id: input.clientId,
    redirect_uri: input.redirectUri ?? "http://127.0.0.1:5555/cb",
    code_challenge: input.challenge,
    code_challenge_method: input.method ?? "S256",
    state: "client-state-1",
  });
  if (input.scope) params.set("scope", input.scope);
  const upstream = fakeUpstream(() => ({ sub: input.vetId }));
  const { requestId } = await startAuthorization(db, params, { clientIp: "192.0.2.10", upstream });
  const outcome = await completeUpstreamSignIn(
    db,
    new URLSearchParams({ code: "upstream-code", state: requestId, iss: TEST_IDP }),
    { upstream },
  );
  if (outcome.kind === "redirect") return new URL(outcome.location);
  const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(outcome.html)?.[1] ?? "";
  const cookie = outcome.cookie.split(";")[0] ?? "";
  const location = await decideConsent(db, {
    requestId,
    csrfToken,
    cookieToken: consentCookieValue(cookie, requestId),
    decision: input.decision ?? "allow",
    access: input.access ?? /name="access" value="([a-z_]+)" checked/.exec(outcome.html)?.[1],
  });
  return new URL(location);
}
