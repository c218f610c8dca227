// Test databases: each call returns a fresh, migrated and seeded database copied from the run's
// template (see test/global-setup.ts), installed as the process-wide database for route handlers.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { openDatabase, setDatabaseHandle, type DatabaseHandle } from "./index";

export async function openTestDatabase(): Promise<DatabaseHandle> {
  const config = inject("testDatabase");
  let handle: DatabaseHandle;
  if (config.kind === "pglite") {
    handle = await openDatabase({
      pgliteDataDir: "memory://",
      pgliteLoadDataDir: new Blob([readFileSync(config.dumpFile)]),
    });
  } else {
    const name = `${config.template}_${randomBytes(4).toString("hex")}`;
    const admin = postgres(config.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${config.template}`);
    const url = new URL(config.url);
    url.pathname = `/${name}`;
    const opened = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
    handle = {
      ...opened,
      close: async () => {
        await opened.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  setDatabaseHandle(handle);
  return handle;
}
