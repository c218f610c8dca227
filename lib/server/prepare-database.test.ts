// DATA_DIR holds the embedded database, and in it the identity provider's signing keys: whatever
// was there before, after start-up nobody but the server's user can read any of it, and what the
// server writes there later stays out of others' reach.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { parseEnv } from "@/lib/env";
import { prepareDatabase, type PreparedDatabase } from "./prepare-database";

let parent: string;
let dataDir: string;
let prepared: PreparedDatabase;

/** Every path under `directory` whose mode lets its group or others in, with that mode. */
function openToOthers(directory: string): string[] {
  const found: string[] = [];
  const visit = (current: string) => {
    const stat = lstatSync(current);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) found.push(`${path.relative(parent, current)} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const entry of readdirSync(current)) visit(path.join(current, entry));
  };
  visit(directory);
  return found;
}

beforeAll(async () => {
  process.umask(0o022); // a usual shell's
  parent = mkdtempSync(path.join(os.tmpdir(), "vetdx-data-mode-"));
  dataDir = path.join(parent, "data");
  // A data directory an operator created beforehand, readable by everyone, with a file in it.
  mkdirSync(dataDir, { mode: 0o755 });
  chmodSync(dataDir, 0o755);
  writeFileSync(path.join(dataDir, "notes.txt"), "left here by the operator", { mode: 0o644 });
  chmodSync(path.join(dataDir, "notes.txt"), 0o644);
  prepared = await prepareDatabase(parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }), "test");
}, 120_000);

afterAll(async () => {
  await prepared?.handle.close();
  prepared?.release();
  rmSync(parent, { recursive: true, force: true });
});

describe("prepareDatabase on an embedded database", () => {
  it("leaves DATA_DIR and everything in it owner-only, the database's files included", async () => {
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.join(dataDir, "pglite")).length).toBeGreaterThan(0);
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it("keeps what the database writes afterwards out of others' reach", async () => {
    await prepared.handle.db.execute(sql`create table written_later as select generate_series(1, 5000) as n`);
    await prepared.handle.db.execute(sql`checkpoint`);
    // PGlite creates its files 0666 whatever the umask; every directory they sit in is owner-only.
    const directoriesOpenToOthers = openToOthers(dataDir).filter((entry) =>
      lstatSync(path.join(parent, entry.split(" ")[0]!)).isDirectory(),
    );
    expect(directoriesOpenToOthers).toEqual([]);
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
  });
});
