#!/usr/bin/env node
// Cluster mode: WEB_CONCURRENCY=N node scripts/cluster.mjs runs N VetDx server processes (node:cluster)
// that share one port, so one machine uses all its cores. PostgreSQL only (DATABASE_URL): PGlite
// allows one process per data directory. Needs a built app (`npm start` once, or `next build`).
// The first worker starts alone (migrations, catalogue, demo accounts); the others start once it
// listens. A worker that dies is replaced; SIGTERM/SIGINT stop every worker gracefully.
import cluster from "node:cluster";
import os from "node:os";
import { root, SERVER_EXEC_ARGV, SERVER_SCRIPT } from "./server-process.mjs";

const requested = process.env.WEB_CONCURRENCY ?? "";
const workers = requested === "auto" || requested === "" ? os.availableParallelism() : Number(requested);

if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
  process.stderr.write(`WEB_CONCURRENCY must be a number of workers (1-64) or "auto", not "${requested}"\n`);
  process.exit(1);
}
if (workers > 1 && !process.env.DATABASE_URL) {
  process.stderr.write(
    "Cluster mode needs PostgreSQL (DATABASE_URL): the embedded PGlite database allows one process.\n",
  );
  process.exit(1);
}

cluster.setupPrimary({ exec: SERVER_SCRIPT, execArgv: SERVER_EXEC_ARGV, cwd: root });
const env = { NODE_ENV: process.env.NODE_ENV ?? "production", NEXT_TELEMETRY_DISABLED: "1" };

let stopping = false;
let listened = false;
const fork = () => cluster.fork(env);

fork().once("listening", () => {
  listened = true;
  for (let i = 1; i < workers; i += 1) fork();
});
cluster.on("exit", (worker, code, signal) => {
  if (stopping) {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    return;
  }
  process.stderr.write(`VetDx worker ${worker.process.pid} exited (${signal ?? code})\n`);
  if (!listened) {
    // The first worker failed to start (configuration, database): report it, do not loop.
    process.exit(code || 1);
  }
  process.stderr.write("starting a replacement worker\n");
  fork();
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopping = true;
    const alive = Object.values(cluster.workers ?? {});
    if (alive.length === 0) process.exit(0);
    for (const worker of alive) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), 15_000).unref();
  });
}
