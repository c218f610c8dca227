// Resolves a session id from a component URL: the live session, "expired", "revoked", or nothing.
// A session lives only while what created it does: its vet is not disabled, its machine client or
// MCP connection (grant) is not revoked, and it may still read. This is read from the database on
// every call (one indexed query), so a revocation ends the session at once on every instance.
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { componentSessions, machineClients, oauthGrants, veterinarians } from "@/db/schema";
import { isScope, type Scope } from "@/lib/auth/scopes";
import { sha256 } from "@/lib/auth/secrets";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** Reading the case or the catalogue: a session that may do neither can do nothing. */
const ANY_READ: readonly Scope[] = [
  ...new Set([...OPERATION_SCOPES["GET /v1/cases/{id}"], ...OPERATION_SCOPES["GET /v1/symptoms"]]),
];

export type ActiveComponentSession = typeof componentSessions.$inferSelect & {
  /** What the session may do now: its creator's scopes, narrowed to its client's current ones. */
  scopes: Scope[];
};

export type SessionLookup =
  | { state: "active"; session: ActiveComponentSession }
  | { state: "expired" }
  | { state: "revoked" }
  | { state: "unknown" };

export async function findComponentSession(db: Database, sessionId: string): Promise<SessionLookup> {
  if (!SESSION_ID.test(sessionId)) return { state: "unknown" };
  const [row] = await db
    .select({
      session: componentSessions,
      vetDisabledAt: veterinarians.disabledAt,
      clientRevokedAt: machineClients.revokedAt,
      clientScopes: machineClients.scopes,
      grantRevokedAt: oauthGrants.revokedAt,
    })
    .from(componentSessions)
    .innerJoin(veterinarians, eq(veterinarians.id, componentSessions.veterinarianId))
    .leftJoin(machineClients, eq(machineClients.clientId, componentSessions.machineClientId))
    .leftJoin(oauthGrants, eq(oauthGrants.id, componentSessions.grantId))
    .where(eq(componentSessions.idHash, sha256(sessionId)));
  if (!row) return { state: "unknown" };
  const { session } = row;
  if (session.expiresAt.getTime() <= Date.now()) return { state: "expired" };
  // A client narrowed since takes effect at once, as it does for the client's tokens.
  const scopes = session.scopes.filter(
    (scope): scope is Scope => isScope(scope) && (row.clientScopes?.includes(scope) ?? true),
  );
  if (
    row.vetDisabledAt ||
    row.clientRevokedAt ||
    row.grantRevokedAt ||
    !scopes.some((scope) => ANY_READ.includes(scope))
  )
    return { state: "revoked" };
  return { state: "active", session: { ...session, scopes } };
}
