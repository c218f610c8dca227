// Housekeeping for the authorization server's tables (inngest/functions/purge-expired-records.ts
// schedules it): expired requests, codes and tokens, grants with nothing left, dynamic registrations
// never used for 30 days, and metadata-document clients not used for 30 days with no live grant.
import { and, eq, isNull, lt, notExists, or, sql } from "drizzle-orm";
import type { Database } from "@/db";
import {
  oauthAuthorizationCodes,
  oauthAuthorizationRequests,
  oauthClients,
  oauthConsents,
  oauthGrants,
  oauthTokens,
} from "@/db/schema";

export const UNUSED_REGISTRATION_DAYS = 30;
/**
 * A metadata-document client is fetched again at every authorization once its copy is stale, so a
 * copy this old means no vet has connected it since; without a live grant nobody uses it either.
 */
export const UNUSED_METADATA_DOCUMENT_DAYS = 30;

export interface PurgeCounts {
  authorizationRequests: number;
  authorizationCodes: number;
  tokens: number;
  grants: number;
  clients: number;
  metadataDocumentClients: number;
}

export async function purgeExpiredOAuthRecords(db: Database, now = new Date()): Promise<PurgeCounts> {
  const requests = await db
    .delete(oauthAuthorizationRequests)
    .where(lt(oauthAuthorizationRequests.expiresAt, now))
    .returning({ id: oauthAuthorizationRequests.id });
  const codes = await db
    .delete(oauthAuthorizationCodes)
    .where(lt(oauthAuthorizationCodes.expiresAt, now))
    .returning({ codeHash: oauthAuthorizationCodes.codeHash });
  // Used refresh tokens stay until they expire, so that their reuse is still detected.
  const tokens = await db
    .delete(oauthTokens)
    .where(lt(oauthTokens.expiresAt, now))
    .returning({ tokenHash: oauthTokens.tokenHash });
  const oneDayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const grants = await db
    .delete(oauthGrants)
    .where(
      and(
        lt(oauthGrants.createdAt, oneDayAgo),
        notExists(
          db
            .select({ one: sql`1` })
            .from(oauthTokens)
            .where(eq(oauthTokens.grantId, oauthGrants.id)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(oauthAuthorizationCodes)
            .where(eq(oauthAuthorizationCodes.grantId, oauthGrants.id)),
        ),
      ),
    )
    .returning({ id: oauthGrants.id });
  const unusedSince = new Date(now.getTime() - UNUSED_REGISTRATION_DAYS * 24 * 3600 * 1000);
  const clients = await db
    .delete(oauthClients)
    .where(
      and(
        eq(oauthClients.source, "registration"),
        lt(oauthClients.createdAt, unusedSince),
        notExists(
          db
            .select({ one: sql`1` })
            .from(oauthGrants)
            .where(eq(oauthGrants.clientId, oauthClients.clientId)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(oauthConsents)
            .where(eq(oauthConsents.clientId, oauthClients.clientId)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(oauthAuthorizationRequests)
            .where(eq(oauthAuthorizationRequests.clientId, oauthClients.clientId)),
        ),
      ),
    )
    .returning({ clientId: oauthClients.clientId });
  // Its consents and revoked grants go with it (cascade); connecting again fetches it again and asks.
  const unusedDocumentSince = new Date(now.getTime() - UNUSED_METADATA_DOCUMENT_DAYS * 24 * 3600 * 1000);
  const documentClients = await db
    .delete(oauthClients)
    .where(
      and(
        eq(oauthClients.source, "metadata_document"),
        or(
          lt(oauthClients.metadataFetchedAt, unusedDocumentSince),
          and(isNull(oauthClients.metadataFetchedAt), lt(oauthClients.createdAt, unusedDocumentSince)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(oauthGrants)
            .where(and(eq(oauthGrants.clientId, oauthClients.clientId), isNull(oauthGrants.revokedAt))),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(oauthAuthorizationRequests)
            .where(eq(oauthAuthorizationRequests.clientId, oauthClients.clientId)),
        ),
      ),
    )
    .returning({ clientId: oauthClients.clientId });
  return {
    authorizationRequests: requests.length,
    authorizationCodes: codes.length,
    tokens: tokens.length,
    grants: grants.length,
    clients: clients.length,
    metadataDocumentClients: documentClients.length,
  };
}
