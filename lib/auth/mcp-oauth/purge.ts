// Housekeeping for the authorization server's tables (the lead schedules it): expired requests,
// codes and tokens, grants with nothing left, and dynamic registrations never used for 30 days.
import { and, eq, lt, notExists, sql } from "drizzle-orm";
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

export interface PurgeCounts {
  authorizationRequests: number;
  authorizationCodes: number;
  tokens: number;
  grants: number;
  clients: number;
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
  return {
    authorizationRequests: requests.length,
    authorizationCodes: codes.length,
    tokens: tokens.length,
    grants: grants.length,
    clients: clients.length,
  };
}
