#!/usr/bin/env node
// Applies extension lines (`id|species|prevalence|reference URL`, one species per line) to the
// condition files: the species joins the condition, with its own prevalence tier, and the
// reference joins its source. Refuses a line whose species already has a condition of that name,
// or where one of the condition's names is another condition's name in that species.
//   node scripts/catalogue/species-gaps/apply-extend.mjs scripts/catalogue/species-gaps/*.tsv
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "db",
  "seed",
  "data",
  "conditions",
);
const files = new Map(readdirSync(dir).map((f) => [f, JSON.parse(readFileSync(join(dir, f), "utf8"))]));
const all = [...files.values()].flat();
const byId = new Map(all.map((c) => [c.id, c]));
const norm = (t) => t.trim().toLowerCase();
const TIERS = ["very_common", "common", "uncommon", "rare"];
const changed = new Set();
let applied = 0;
const refused = [];
for (const file of process.argv.slice(2)) {
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const [idText, species, tier, url] = line.split("|").map((s) => s.trim());
    const condition = byId.get(Number(idText));
    if (!condition || !species || !TIERS.includes(tier) || !url) {
      refused.push(`${line}: unknown id, species or tier`);
      continue;
    }
    if (condition.species.includes(species)) continue;
    const names = [condition.name, ...condition.synonyms].map(norm);
    const clash = all.find(
      (other) =>
        other !== condition &&
        other.species.includes(species) &&
        !other.retired &&
        [other.name, ...other.synonyms]
          .map(norm)
          .some(
            (n) =>
              n === norm(condition.name) ||
              names.includes(norm(other.name)) ||
              (n === norm(other.name) && names.includes(n)),
          ),
    );
    if (clash) {
      refused.push(`${line}: clashes with ${clash.id} ${clash.name}`);
      continue;
    }
    const before = condition.prevalence;
    const tiers =
      typeof before === "object"
        ? { ...before }
        : Object.fromEntries(condition.species.map((s) => [s, before]));
    condition.species.push(species);
    tiers[species] = tier;
    condition.prevalence = new Set(Object.values(tiers)).size === 1 ? tier : tiers;
    condition.source = `${condition.source}; ${species}: ${url}`;
    for (const [f, list] of files) if (list.includes(condition)) changed.add(f);
    applied++;
  }
}
for (const f of changed) {
  const list = files.get(f);
  writeFileSync(join(dir, f), `[\n${list.map((c) => `  ${JSON.stringify(c)}`).join(",\n")}\n]\n`);
}
console.log(JSON.stringify({ applied, refused: refused.length, files: [...changed] }));
for (const r of refused) console.log(`refused ${r}`);
