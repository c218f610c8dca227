// Start-up work on the database: make the data directory owner-only and lock it, open, migrate,
// load the catalogue. Used by server.ts and by the admin CLI when no server holds the database.
import { acquireDataDirLock } from "@/db/data-dir-lock";
import { openDatabase, setDatabaseHandle, type DatabaseHandle } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { loadCatalogue, type LoadResult } from "@/db/seed/load-catalogue";
import type { Env } from "@/lib/env";
import { secureDataDirectory } from "./data-directory";

export interface PreparedDatabase {
  handle: DatabaseHandle;
  catalogue: LoadResult;
  release: () => void;
}

export async function prepareDatabase(env: Env, role: string): Promise<PreparedDatabase> {
  // With PostgreSQL, DATA_DIR may not exist (or be writable): it is only made safe where it is.
  secureDataDirectory(env.DATA_DIR, { create: !env.DATABASE_URL });
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
    // PGlite gives the files it creates mode 0666 whatever the umask; its directories follow the
    // umask (0700), so files it creates from now on are out of others' reach all the same.
    secureDataDirectory(env.DATA_DIR, { create: false });
    return { handle, catalogue, release };
  } catch (error) {
    release();
    throw error;
  }
}
