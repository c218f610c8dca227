// The end of a successful authorization: a grant (vet × client × scopes) and a single-use code,
// stored only as its SHA-256, bound to the client, redirect URI and PKCE challenge, valid 5 minutes.
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { oauthAuthorizationCodes, oauthAuthorizationRequests, oauthGrants } from "@/db/schema";
import { randomToken, sha256 } from "@/lib/auth/secrets";
import { AuthorizationPageError } from "./errors";
import { authorizationResponseUrl } from "./http";
import { mcpOAuthUrls } from "./urls";

export const AUTHORIZATION_CODE_TTL_SECONDS = 5 * 60;

export type AuthorizationRequestRow = typeof oauthAuthorizationRequests.$inferSelect;

/**
 * Consumes the authorization request (each is answered once), creates the grant and code, and
 * returns the client redirect carrying code, state and iss.
 */
export async function issueAuthorizationCode(
  db: Database,
  request: AuthorizationRequestRow,
  veterinarianId: string,
  now = new Date(),
  /** What the vet granted: the request's scopes, or fewer (read only on the consent page). */
  scopes: readonly string[] = request.scopes,
): Promise<string> {
  const code = randomToken(32);
  await db.transaction(async (tx) => {
    const consumed = await tx
      .delete(oauthAuthorizationRequests)
      .where(eq(oauthAuthorizationRequests.id, request.id))
      .returning({ id: oauthAuthorizationRequests.id });
    if (consumed.length === 0) {
      throw new AuthorizationPageError(
        "Already answered",
        "This authorization request has already been answered.",
      );
    }
    const [grant] = await tx
      .insert(oauthGrants)
      .values({
        clientId: request.clientId,
        veterinarianId,
        scopes: [...scopes],
        resource: mcpOAuthUrls().resource,
      })
      .returning({ id: oauthGrants.id });
    if (!grant) throw new Error("grant was not created");
    await tx.insert(oauthAuthorizationCodes).values({
      codeHash: sha256(code),
      grantId: grant.id,
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_SECONDS * 1000),
    });
  });
  return authorizationResponseUrl(request.redirectUri, { code, state: request.state ?? undefined });
}
