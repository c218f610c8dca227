// Case changes, for whoever follows them (MCP resource subscriptions). A change is announced inside
// the transaction that makes it, as a PostgreSQL NOTIFY: it is sent when the change commits, and
// reaches every server process (this one included) that follows the channel, so a case moved on by
// the pipeline on one instance reaches a subscriber whose stream another instance holds.
import { sql } from "drizzle-orm";
import { getDatabaseHandle, type Database, type Transaction } from "@/db";
import { logger } from "@/lib/logger";

export const CASE_UPDATES_CHANNEL = "vetdx_case_updated";

type Listener = (caseId: string) => void;
interface Followers {
  listeners: Set<Listener>;
  following?: Promise<unknown>;
}

// One set per process, shared with the Next.js bundles through globalThis.
const globalKey = Symbol.for("vetdx.case-update-followers");
function followers(): Followers {
  const holder = globalThis as { [globalKey]?: Followers };
  holder[globalKey] ??= { listeners: new Set() };
  return holder[globalKey];
}

/** Announces a change to the case; call it inside the transaction that changes it. */
export async function announceCaseUpdate(db: Database | Transaction, caseId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${CASE_UPDATES_CHANNEL}, ${caseId})`);
}

/**
 * Calls `listener` with the id of each case that changes from now on, on any instance; returns a
 * function that stops. The process starts listening on the first call.
 */
export function onCaseUpdate(listener: Listener): () => void {
  const state = followers();
  state.listeners.add(listener);
  state.following ??= getDatabaseHandle()
    .then((handle) =>
      handle.listen(CASE_UPDATES_CHANNEL, (caseId) => {
        for (const follower of state.listeners) follower(caseId);
      }),
    )
    .catch((error: unknown) => {
      logger.error({ err: error }, "cannot follow case updates; resource subscribers hear nothing");
      state.following = undefined;
    });
  return () => state.listeners.delete(listener);
}

/** Resolves once this process listens for case updates (tests wait for it before changing a case). */
export async function followingCaseUpdates(): Promise<void> {
  await followers().following;
}
