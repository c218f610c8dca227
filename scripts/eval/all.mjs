#!/usr/bin/env node
// `npm run eval:all`: every published figure in docs/clinical-accuracy.md, one JSON line per set:
// the shared labelled notes and vignettes, the real-world set's dev and test parts and the
// labelled notes' dev and test parts (the test parts' aggregates only). Runs in-process; takes a few minutes.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const shared = new URL("../../../shared/data/eval/", import.meta.url).pathname;
const sets = [
  ["shared labelled notes", "e2e", `${shared}case-notes-dev.jsonl`],
  ["shared vignettes (end to end, as notes)", "e2e", `${shared}vignettes-dev.jsonl`],
  ["shared vignettes (ranker, structured)", "ddx", `${shared}vignettes-dev.jsonl`],
  ["real-world dev", "e2e", "scripts/eval/realworld/dev.jsonl"],
  ["real-world test (held out)", "e2e", "scripts/eval/realworld/test.jsonl"],
  ["labelled notes dev", "e2e", "scripts/eval/notes/dev.jsonl"],
  ["labelled notes test (held out)", "e2e", "scripts/eval/notes/test.jsonl"],
];
for (const [label, kind, file] of sets) {
  if (!existsSync(file)) continue;
  const script = kind === "e2e" ? "scripts/eval/e2e.ts" : "scripts/eval-ddx.ts";
  const run = spawnSync("npx", ["tsx", script, file], { encoding: "utf8", maxBuffer: 1 << 26 });
  const line = run.stdout.trim().split("\n").at(-1) ?? "";
  process.stdout.write(
    `${JSON.stringify({ set: label, ...(line.startsWith("{") ? JSON.parse(line) : { error: run.stderr.slice(-500) }) })}\n`,
  );
}
