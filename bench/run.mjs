#!/usr/bin/env node
// `npm run bench`: runs every benchmark in bench/ and prints one JSON object per benchmark.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
for (const file of readdirSync(here)
  .filter((f) => f.endsWith(".ts"))
  .sort()) {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(here, file), ...process.argv.slice(2)],
    {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, LOG_LEVEL: "silent" },
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
