// The id rule both evaluation sets are split by: an entry goes to the held-out test part when the
// first byte of sha256(id) is below 86 (about a third), else to dev. The rule depends on the id
// alone, so adding batches never moves an entry between parts.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const isTest = (id) => createHash("sha256").update(id).digest()[0] < 86;

/** Every entry of the `*.jsonl` batches in `dir/raw`, in file order, checked for unique ids and by `check`. */
export function readBatches(dir, check) {
  const entries = readdirSync(join(dir, "raw"))
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, "raw", f), "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l)),
    );
  const ids = new Set();
  for (const entry of entries) {
    if (ids.has(entry.id)) throw new Error(`duplicate id ${entry.id}`);
    ids.add(entry.id);
    if (!check(entry)) throw new Error(`${entry.id}: incomplete`);
  }
  return entries;
}

/** Writes `dir/dev.jsonl` and `dir/test.jsonl`; returns the two parts. */
export function writeParts(dir, entries) {
  const dev = entries.filter((e) => !isTest(e.id));
  const test = entries.filter((e) => isTest(e.id));
  const dump = (list) => list.map((e) => JSON.stringify(e)).join("\n") + "\n";
  writeFileSync(join(dir, "dev.jsonl"), dump(dev));
  writeFileSync(join(dir, "test.jsonl"), dump(test));
  return { dev, test };
}
