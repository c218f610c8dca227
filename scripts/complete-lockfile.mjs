#!/usr/bin/env node
// Completes package-lock.json with the platform-specific optional packages that this machine's
// registry mirror does not serve (e.g. @next/swc-darwin-arm64: 404 here). Without them `npm ci`
// refuses the lock as "not in sync". Each added entry names its os/cpu/libc, so npm skips it on
// any other platform and never downloads it. Run after `npm install` changes the lock:
//   node scripts/complete-lockfile.mjs
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));

function platformOf(name) {
  const os = [
    "darwin",
    "win32",
    "linux",
    "freebsd",
    "android",
    "openharmony",
    "netbsd",
    "openbsd",
    "sunos",
    "aix",
  ].find((o) => name.includes(`-${o}-`) || name.endsWith(`-${o}`));
  const cpuMatch = /-(arm64|x64|ia32|arm|ppc64|riscv64|s390x|loong64|mips64el|wasm32)(?=-|$)/.exec(name);
  const libc = /-gnu(eabihf)?$|-gnu-/.test(name)
    ? "glibc"
    : /-musl(eabihf)?$|-musl-/.test(name)
      ? "musl"
      : undefined;
  return { os, cpu: cpuMatch?.[1] ?? (name.includes("-arm-") ? "arm" : undefined), libc };
}

// Every optionalDependency of every locked package whose entry is missing.
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const parentDir = path === "" ? "" : `${path}/`;
    const candidates = [`${parentDir}node_modules/${name}`, `node_modules/${name}`];
    if (candidates.some((candidate) => lock.packages[candidate])) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os && !cpu) continue; // not a platform binary: a real resolution problem, leave it to npm
    lock.packages[`node_modules/${name}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {}),
      ...(os ? { os: [os] } : {}),
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform-specific optional entries`);
const check = spawnSync("npm", ["ci", "--dry-run", "--ignore-scripts"], { encoding: "utf8" });
console.log(check.status === 0 ? "npm ci accepts the lock" : `npm ci still refuses:\n${check.stderr}`);
process.exit(check.status ?? 1);
