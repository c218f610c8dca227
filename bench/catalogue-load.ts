// The catalogue load on a fresh database, as the server does it on its first start: migrations,
// reading the seed files, then loadCatalogue. PGlite in memory by default; with DATABASE_URL a
// throw-away database on that server (created and dropped here). Prints one JSON object.
// Run: node --import tsx bench/catalogue-load.ts (also part of npm run bench).
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { openDatabase } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { loadCatalogue, readCatalogueData } from "@/db/seed/load-catalogue";

async function main() {
  const url = process.env.DATABASE_URL;
  let databaseUrl: string | undefined;
  let admin: ReturnType<typeof postgres> | undefined;
  let name = "";
  if (url) {
    name = `vetdx_bench_load_${randomBytes(4).toString("hex")}`;
    admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const parsed = new URL(url);
    parsed.pathname = `/${name}`;
    databaseUrl = parsed.toString();
  }
  try {
    const t0 = performance.now();
    const handle = await openDatabase({ databaseUrl, pgliteDataDir: "memory://" });
    const t1 = performance.now();
    await migrateDatabase(handle, databaseUrl);
    const t2 = performance.now();
    const data = readCatalogueData();
    const t3 = performance.now();
    const result = await loadCatalogue(handle.db, data);
    const t4 = performance.now();
    const again = await loadCatalogue(handle.db, data);
    const t5 = performance.now();
    await handle.close();
    const ms = (x: number) => Math.round(x);
    process.stdout.write(
      `${JSON.stringify({
        benchmark: "catalogue-load",
        database: handle.kind,
        open_ms: ms(t1 - t0),
        migrate_ms: ms(t2 - t1),
        read_ms: ms(t3 - t2),
        load_ms: ms(t4 - t3),
        total_ms: ms(t4 - t1),
        unchanged_reload_ms: ms(t5 - t4),
        loaded: result.loaded && !again.loaded,
        counts: result.counts,
      })}\n`,
    );
  } finally {
    if (admin) {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

void main();
