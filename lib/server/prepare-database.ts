// Start-up work on the database: lock the embedded data directory, open, migrate, load the
// catalogue. Used by server.ts and by the admin CLI when no server holds the database.
import { acquireDataDirLock } from "@/db/data-dir-lock";
import { openDatabase, setDatabaseHandle, type DatabaseHandle } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { loadCatalogue, type LoadResult } from "@/db/seed/load-catalogue";
import type { Env } from "@/lib/env";

export interface PreparedDatabase {
  handle: DatabaseHandle;
  catalogue: LoadResult;
  release: () => void;
}

export async function prepareDatabase(env: Env, role: string): Promise<PreparedDatabase> {
  const release = env.DATABASE_URL ? () => {} : acquireDataDirLock(env.DATA_DIR, role);
  try {
    const handle = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      pgliteDataDir: `${env.DATA_DIR}/pglite`,
      poolSize: env.DATABASE_POOL_SIZE,
    });
    setDatabaseHandle(handle);
    await migrateDatabase(handle, env.DATABASE_URL);
    const catalogue = await loadCatalogue(handle.db);
    return { handle, catalogue, release };
  } catch (error) {
    release();
    throw error;
  }
}
