// Applies the generated migrations (db/migrations) at start. On PostgreSQL an advisory lock keeps
// several instances starting at once from migrating concurrently.
import { fileURLToPath } from "node:url";
import type { DatabaseHandle } from "./index";

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
const MIGRATION_LOCK_KEY = 7_240_301;

export async function migrateDatabase(handle: DatabaseHandle, databaseUrl?: string): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, { migrationsFolder });
    return;
  }
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = postgres(databaseUrl ?? "", { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrate(drizzle(client), { migrationsFolder });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
