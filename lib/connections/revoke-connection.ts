// Revokes an AI client's access for one vet: every live grant of the vet to that client is revoked
// with its codes and tokens (verifyMcpAccessToken refuses them at once), and the consent is
// forgotten so that connecting again asks the vet again.
import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/db";
import { oauthConsents, oauthGrants } from "@/db/schema";
import { revokeGrant } from "@/lib/auth/mcp-oauth/token";
import { notFound } from "@/lib/errors";

export const REVOKED_BY_VETERINARIAN = "revoked_by_veterinarian";

export async function revokeConnection(
  db: Database,
  where: { veterinarianId: string; clientId: string },
): Promise<{ revokedGrants: number }> {
  return db.transaction(async (tx) => {
    const grants = await tx
      .select({ id: oauthGrants.id })
      .from(oauthGrants)
      .where(
        and(
          eq(oauthGrants.veterinarianId, where.veterinarianId),
          eq(oauthGrants.clientId, where.clientId),
          isNull(oauthGrants.revokedAt),
        ),
      );
    for (const grant of grants) await revokeGrant(tx, grant.id, REVOKED_BY_VETERINARIAN);
    const consents = await tx
      .delete(oauthConsents)
      .where(
        and(
          eq(oauthConsents.veterinarianId, where.veterinarianId),
          eq(oauthConsents.clientId, where.clientId),
        ),
      )
      .returning({ clientId: oauthConsents.clientId });
    if (grants.length === 0 && consents.length === 0) throw notFound(`Connection ${where.clientId}`);
    return { revokedGrants: grants.length };
  });
}
