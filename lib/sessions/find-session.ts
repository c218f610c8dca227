// Resolves a session id from a component URL: the session (with its vet), "expired", or nothing.
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { componentSessions } from "@/db/schema";
import { sha256 } from "@/lib/auth/secrets";

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export type SessionLookup =
  | { state: "active"; session: typeof componentSessions.$inferSelect }
  | { state: "expired" }
  | { state: "unknown" };

export async function findComponentSession(db: Database, sessionId: string): Promise<SessionLookup> {
  if (!SESSION_ID.test(sessionId)) return { state: "unknown" };
  const [session] = await db
    .select()
    .from(componentSessions)
    .where(eq(componentSessions.idHash, sha256(sessionId)));
  if (!session) return { state: "unknown" };
  if (session.expiresAt.getTime() <= Date.now()) return { state: "expired" };
  return { state: "active", session };
}
