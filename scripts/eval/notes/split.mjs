#!/usr/bin/env node
// Builds the labelled-notes set's two parts from raw/: a note goes to the held-out test part when
// the first byte of sha256(id) is below 86 (about a third), as the real-world set does.
// Run after editing raw/: node scripts/eval/notes/split.mjs
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const notes = readdirSync(join(here, "raw"))
  .filter((f) => f.endsWith(".jsonl"))
  .sort()
  .flatMap((f) =>
    readFileSync(join(here, "raw", f), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l)),
  );
const ids = new Set();
for (const n of notes) {
  if (ids.has(n.id)) throw new Error(`duplicate id ${n.id}`);
  ids.add(n.id);
  if (!n.notes || !n.expected?.species) throw new Error(`${n.id}: incomplete`);
}
const isTest = (id) => createHash("sha256").update(id).digest()[0] < 86;
const dump = (list) => list.map((n) => JSON.stringify(n)).join("\n") + "\n";
const dev = notes.filter((n) => !isTest(n.id));
const test = notes.filter((n) => isTest(n.id));
writeFileSync(join(here, "dev.jsonl"), dump(dev));
writeFileSync(join(here, "test.jsonl"), dump(test));
console.log(JSON.stringify({ notes: notes.length, dev: dev.length, test: test.length }));
