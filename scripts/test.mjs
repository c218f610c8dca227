#!/usr/bin/env node
// `npm test`: the whole suite. Vitest on PGlite; again on PostgreSQL when DATABASE_URL is set;
// then Playwright in Chromium against `npm start` (on a fresh PostgreSQL database when
// DATABASE_URL is set, else on PGlite in a temporary DATA_DIR).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const databaseUrl = env.DATABASE_URL;

function run(label, command, args, extraEnv = {}) {
  console.log(`\n== ${label} ==`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  if (result.status !== 0) {
    console.error(`\n${label} failed`);
    process.exit(result.status ?? 1);
  }
}

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
// CI runs `npm test` twice (PGlite, then PostgreSQL); its second run sets TEST_SKIP_PGLITE_UNIT=1
// so the PGlite unit run is not repeated.
if (env.TEST_SKIP_PGLITE_UNIT !== "1")
  run("unit and integration tests (PGlite)", npx, ["vitest", "run"], { DATABASE_URL: "" });
if (databaseUrl) run("integration tests (PostgreSQL)", npx, ["vitest", "run"], { DATABASE_URL: databaseUrl });

const chromium = env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(
    `Chromium not found at ${chromium}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}

let e2eDatabaseUrl = "";
if (databaseUrl) {
  // A database of its own, so the e2e server starts from nothing like a fresh deployment.
  const name = `vetdx_e2e_${process.pid}`;
  const url = new URL(databaseUrl);
  spawnSync("psql", [databaseUrl, "-qc", `drop database if exists ${name}`], { stdio: "inherit" });
  const created = spawnSync("psql", [databaseUrl, "-qc", `create database ${name}`], { stdio: "inherit" });
  if (created.status !== 0) process.exit(1);
  url.pathname = `/${name}`;
  e2eDatabaseUrl = url.toString();
  process.on("exit", () =>
    spawnSync("psql", [databaseUrl, "-qc", `drop database if exists ${name} with (force)`]),
  );
}
run(`end-to-end tests in Chromium (${databaseUrl ? "PostgreSQL" : "PGlite"})`, npx, ["playwright", "test"], {
  DATABASE_URL: e2eDatabaseUrl,
  CHROMIUM_PATH: chromium,
});
