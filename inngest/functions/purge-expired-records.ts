// purge-expired-records: the housekeeping of every table that only grows otherwise (identity-provider
// payloads, the MCP authorization server's records and metadata-document clients, component
// sessions). Under Inngest a cron function runs each purge as its own step; without Inngest the
// server runs the same list on a timer (server.ts calls runPurges). Every purge is idempotent, so
// several instances running it at once do no harm.
import { getDb, type Database } from "@/db";
import { purgeExpiredIdentityProviderPayloads } from "@/lib/auth/idp/adapter";
import { purgeExpiredOAuthRecords } from "@/lib/auth/mcp-oauth/purge";
import { logger } from "@/lib/logger";
import { purgeExpiredComponentSessions } from "@/lib/sessions/purge-sessions";
import { inngest } from "../client";

export const PURGE_INTERVAL_MINUTES = 15;

const PURGES = [
  {
    id: "purge-identity-provider-payloads",
    run: async (db: Database) => {
      await purgeExpiredIdentityProviderPayloads(db);
      return {};
    },
  },
  { id: "purge-oauth-records", run: (db: Database) => purgeExpiredOAuthRecords(db) },
  { id: "purge-component-sessions", run: (db: Database) => purgeExpiredComponentSessions(db) },
] as const;

export const purgeExpiredRecords = inngest.createFunction(
  {
    id: "purge-expired-records",
    name: "Purge expired records",
    triggers: [{ cron: `*/${PURGE_INTERVAL_MINUTES} * * * *` }],
    // One run at a time: a slow purge is not overtaken by the next tick.
    concurrency: { limit: 1 },
  },
  async ({ step }) => {
    const counts: Record<string, unknown> = {};
    for (const purge of PURGES)
      counts[purge.id] = await step.run(purge.id, async () => purge.run(await getDb()));
    return counts;
  },
);

/** The same purges without Inngest; one failing does not stop the others. */
export async function runPurges(db: Database): Promise<void> {
  for (const purge of PURGES) {
    try {
      const counts = await purge.run(db);
      logger.debug({ purge: purge.id, ...counts }, "purged expired records");
    } catch (error) {
      logger.warn({ err: error, purge: purge.id }, "purge failed");
    }
  }
}
