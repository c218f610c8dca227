// Builds one migrated, seeded database per test run; each test file starts from a copy of it
// (db/testing.ts). PGlite: a data-directory dump. PostgreSQL: a template database.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { openDatabase } from "../db/index";
import { migrateDatabase } from "../db/migrate";
import { loadCatalogue } from "../db/seed/load-catalogue";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: { kind: "pglite"; dumpFile: string } | { kind: "postgres"; url: string; template: string };
  }
}

export async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `vetdx_test_template_${process.pid}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${template}`);
    await admin.unsafe(`create database ${template}`);
    const templateUrl = withDatabase(url, template);
    const handle = await openDatabase({ databaseUrl: templateUrl, poolSize: 2 });
    await migrateDatabase(handle, templateUrl);
    await loadCatalogue(handle.db);
    await handle.close();
    project.provide("testDatabase", { kind: "postgres", url, template });
    return async () => {
      const leftovers = await admin<
        { datname: string }[]
      >`select datname from pg_database where datname like ${`vetdx_test_%_${process.pid}%`}`;
      for (const { datname } of leftovers)
        await admin.unsafe(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }
  const directory = mkdtempSync(path.join(os.tmpdir(), "vetdx-test-"));
  const handle = await openDatabase({ pgliteDataDir: "memory://" });
  await migrateDatabase(handle);
  await loadCatalogue(handle.db);
  if (!handle.dumpDataDir) throw new Error("PGlite handle cannot dump its data directory");
  const dump = await handle.dumpDataDir();
  const dumpFile = path.join(directory, "template.tar");
  writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide("testDatabase", { kind: "pglite", dumpFile });
  return () => rmSync(directory, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
