// Housekeeping for component sessions: a session is deleted a day after it expired. Until then its
// id still answers 410 ("expired, open it again") rather than 404, for a tab left open overnight.
import { lt } from "drizzle-orm";
import type { Database } from "@/db";
import { componentSessions } from "@/db/schema";

export const EXPIRED_SESSION_RETENTION_HOURS = 24;

export async function purgeExpiredComponentSessions(
  db: Database,
  now = new Date(),
): Promise<{ componentSessions: number }> {
  const before = new Date(now.getTime() - EXPIRED_SESSION_RETENTION_HOURS * 3600 * 1000);
  const deleted = await db
    .delete(componentSessions)
    .where(lt(componentSessions.expiresAt, before))
    .returning({ idHash: componentSessions.idHash });
  return { componentSessions: deleted.length };
}
