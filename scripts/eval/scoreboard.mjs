#!/usr/bin/env node
// `node scripts/eval/scoreboard.mjs docs/clinical-accuracy/v1.jsonl docs/clinical-accuracy/v2.jsonl …`:
// Markdown tables of `npm run eval:all` outputs side by side, one column per version, for
// docs/clinical-accuracy.md.
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const versions = process.argv.slice(2).map((file) => ({
  name: basename(file, ".jsonl"),
  sets: new Map(
    readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .map((row) => [row.set, row]),
  ),
}));
const setNames = [...new Set(versions.flatMap((v) => [...v.sets.keys()]))];
const fmt = (x) =>
  x === undefined || x === null
    ? "—"
    : typeof x === "number"
      ? String(Math.round(x * 1000) / 1000)
      : String(x);
const ranked = (r) => (r.ranking ? r.ranking.with_gold > 0 : r.top1 !== undefined);
const gate = (test, get) => (r) => (test(r) ? get(r) : undefined);
const rank = (get) => gate(ranked, get);
const rows = [
  ["cases", (r) => r.cases ?? r.vignettes],
  ["top-1", rank((r) => r.ranking?.top1 ?? r.top1)],
  ["top-3", rank((r) => r.ranking?.top3 ?? r.top3)],
  ["top-10", rank((r) => r.ranking?.top10 ?? r.top10)],
  ["MRR", rank((r) => r.ranking?.mrr ?? r.mrr)],
  ["gold in catalogue (for the species)", rank((r) => r.ranking?.gold_in_catalogue)],
  ["cases without a list", rank((r) => r.ranking?.no_list)],
  ["low-evidence answers", rank((r) => r.ranking?.low_evidence)],
  ["ECE of the top score", rank((r) => r.calibration?.ece)],
  ["Brier of the top score", rank((r) => r.calibration?.brier)],
  ["species", (r) => r.extraction?.species],
  ["breed", (r) => r.extraction?.breed],
  ["name", (r) => r.extraction?.name],
  ["sex", (r) => r.extraction?.sex],
  ["neutered", (r) => r.extraction?.neutered],
  ["weight", (r) => r.extraction?.weight],
  ["sign precision", (r) => r.extraction?.signs?.precision],
  ["sign recall", (r) => r.extraction?.signs?.recall],
  ["sign F1", (r) => r.extraction?.signs?.f1],
  [
    "finding F1",
    gate(
      (r) => (r.extraction?.findings?.tp ?? 0) + (r.extraction?.findings?.fn ?? 0) > 0,
      (r) => r.extraction?.findings?.f1,
    ),
  ],
  ["denied signs selected", (r) => r.extraction?.denied_selected],
  ["ms per case p95 (in-process, with the database)", (r) => r.timing_ms?.p95],
];
for (const set of setNames) {
  process.stdout.write(
    `\n#### ${set}\n\n| measure | ${versions.map((v) => v.name).join(" | ")} |\n|---|${versions.map(() => "---:").join("|")}|\n`,
  );
  for (const [label, get] of rows) {
    const values = versions.map((v) => {
      const row = v.sets.get(set);
      return row ? fmt(get(row)) : "—";
    });
    if (values.every((x) => x === "—")) continue;
    process.stdout.write(`| ${label} | ${values.join(" | ")} |\n`);
  }
}
