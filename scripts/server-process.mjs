// How a VetDx server process is started, shared by `npm start`, cluster mode and the benchmarks.
// --max-semi-space-size: a larger young generation lets the many short-lived objects of each
// request (rows, Request/Response objects, JSON) die young instead of being copied and promoted;
// measured in bench/rest.ts (docs/performance.md). NODE_OPTIONS can still override it.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER_EXEC_ARGV = ["--max-semi-space-size=32", "--import", "tsx"];
export const SERVER_SCRIPT = path.join(root, "server.ts");
export const CLUSTER_SCRIPT = path.join(root, "scripts", "cluster.mjs");

/** The command line (after `node`) that runs the server: cluster mode when WEB_CONCURRENCY asks for it. */
export function serverCommand(env = process.env) {
  const workers = env.WEB_CONCURRENCY;
  if (workers && workers !== "1") return [CLUSTER_SCRIPT];
  return [...SERVER_EXEC_ARGV, SERVER_SCRIPT];
}
