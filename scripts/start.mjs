#!/usr/bin/env node
// `npm start`: builds the Next.js app when the sources changed since the last build, then runs the
// server. The build is skipped when .next/vetdx-build-hash matches the sources' content hash.
import { spawnSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serverCommand } from "./server-process.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const inputs = [
  "app",
  "lib",
  "db/schema",
  "inngest",
  "public",
  "server.ts",
  "next.config.ts",
  "tsconfig.json",
  "tsconfig.build.json",
  "package-lock.json",
];
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function hashInputs() {
  const hash = createHash("sha256");
  const visit = (relative) => {
    const absolute = path.join(root, relative);
    if (!existsSync(absolute)) return;
    if (statSync(absolute).isDirectory()) {
      for (const entry of readdirSync(absolute).sort()) visit(path.join(relative, entry));
    } else {
      hash.update(relative).update(readFileSync(absolute));
    }
  };
  inputs.forEach(visit);
  // The benchmark's build (bench/rest.ts) compiles routes other builds leave out (next.config.ts).
  hash.update(`bench-routes=${process.env.VETDX_BENCH_ROUTES === "1"}`);
  return hash.digest("hex");
}

// VETDX_NEXT_DIST_DIR (read by next.config.ts too) lets parallel builds use their own directory.
const distDir = path.join(root, process.env.VETDX_NEXT_DIST_DIR ?? ".next");
const stamp = path.join(distDir, "vetdx-build-hash");
const sourceHash = hashInputs();
const built =
  existsSync(path.join(distDir, "BUILD_ID")) &&
  existsSync(stamp) &&
  readFileSync(stamp, "utf8") === sourceHash;
if (!built || process.argv.includes("--rebuild")) {
  console.log("Building VetDx (first start or sources changed)…");
  const build = spawnSync(
    process.execPath,
    [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...env, NODE_ENV: "production" },
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stamp, sourceHash);
}
// bench/rest.ts builds with this script, then starts its servers itself.
if (process.argv.includes("--build-only")) process.exit(0);

// One server process, or WEB_CONCURRENCY workers (scripts/cluster.mjs) sharing the port.
const server = spawn(process.execPath, serverCommand(), {
  cwd: root,
  stdio: "inherit",
  env: { ...env, NODE_ENV: env.NODE_ENV ?? "production" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
