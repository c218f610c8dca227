// GET /callback: the identity provider sends the vet back here (spec 5.1 step 4). Completes the
// upstream code exchange, maps the person to a veterinarian, then either issues the code straight
// away (consent already given) or shows the consent screen. Problems are shown as local pages.
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Database } from "@/db";
import { oauthAuthorizationRequests } from "@/db/schema";
import { resolveHumanVeterinarian } from "@/lib/auth/human-veterinarian";
import { logger } from "@/lib/logger";
import { findClient } from "./clients";
import { buildConsentScreen, hasConsent, type ConsentScreen } from "./consent";
import { AuthorizationPageError } from "./errors";
import { authorizationResponseUrl } from "./http";
import { issueAuthorizationCode } from "./issue-authorization-code";
import { getUpstreamIdentityProvider, type UpstreamIdentityProvider } from "./upstream";
import { mcpOAuthUrls } from "./urls";

export type CallbackOutcome = { kind: "redirect"; location: string } | ({ kind: "consent" } & ConsentScreen);

const expired = () =>
  new AuthorizationPageError(
    "This sign-in has expired",
    "This sign-in link has expired or was already used. Go back to your app and connect again.",
  );

export async function completeUpstreamSignIn(
  db: Database,
  params: URLSearchParams,
  options: { upstream?: UpstreamIdentityProvider; now?: Date } = {},
): Promise<CallbackOutcome> {
  const now = options.now ?? new Date();
  const state = params.get("state");
  if (!state)
    throw new AuthorizationPageError("Invalid request", "The identity provider's answer has no state.");
  const [request] = await db
    .select()
    .from(oauthAuthorizationRequests)
    .where(and(eq(oauthAuthorizationRequests.id, state), gt(oauthAuthorizationRequests.expiresAt, now)));
  if (!request || request.veterinarianId) throw expired();

  const upstreamError = params.get("error");
  if (upstreamError) {
    await db.delete(oauthAuthorizationRequests).where(eq(oauthAuthorizationRequests.id, request.id));
    // The person cancelled at the identity provider: that is a denial the client should hear about.
    if (upstreamError === "access_denied") {
      return {
        kind: "redirect",
        location: authorizationResponseUrl(request.redirectUri, {
          error: "access_denied",
          error_description: "The sign-in was cancelled",
          state: request.state ?? undefined,
        }),
      };
    }
    // Anyone can put text in this query (a phishing message on a VetDx page): log it, show none of it.
    logger.warn(
      { error: upstreamError, error_description: params.get("error_description") },
      "the identity provider answered /callback with an error",
    );
    throw new AuthorizationPageError(
      "Sign-in failed",
      "The identity provider could not complete the sign-in. Go back to your app and connect again.",
    );
  }

  const { nonce, codeVerifier } = request.upstream as { nonce: string; codeVerifier: string };
  const upstream = options.upstream ?? (await getUpstreamIdentityProvider(db));
  let claims;
  try {
    claims = await upstream.exchangeCode(new URL(`${mcpOAuthUrls().callback}?${params}`), {
      state: request.id,
      nonce,
      codeVerifier,
    });
  } catch (error) {
    logger.warn({ err: error }, "upstream code exchange failed");
    throw new AuthorizationPageError(
      "Sign-in failed",
      "Signing in at the identity provider could not be completed. Go back to your app and connect again.",
    );
  }
  const vet = await resolveHumanVeterinarian(db, claims);
  if (!vet) {
    throw new AuthorizationPageError(
      "No VetDx account",
      "Your sign-in worked, but there is no active VetDx veterinarian account for it. Ask your VetDx administrator.",
      403,
    );
  }
  // Bind the request to this vet once: a second callback with the same state finds it taken.
  const [claimed] = await db
    .update(oauthAuthorizationRequests)
    .set({ veterinarianId: vet.id, upstream: {} })
    .where(
      and(eq(oauthAuthorizationRequests.id, request.id), isNull(oauthAuthorizationRequests.veterinarianId)),
    )
    .returning();
  const client = claimed && (await findClient(db, claimed.clientId));
  if (!claimed || !client) throw expired();

  if (await hasConsent(db, vet.id, client.clientId, claimed.scopes)) {
    return { kind: "redirect", location: await issueAuthorizationCode(db, claimed, vet.id, now) };
  }
  return { kind: "consent", ...(await buildConsentScreen(db, claimed, client, vet)) };
}
