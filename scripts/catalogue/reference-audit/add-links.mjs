#!/usr/bin/env node
// usage: flock db/seed/data/.lock node scripts/catalogue/reference-audit/add-links.mjs <condition-id> '<json array of {"sign": name, "weight": w}>'
// Adds links to one condition in db/seed/data/conditions/*.json (never removes or changes existing
// links). Refuses unknown sign names, duplicates, weights outside 0.05-0.95, signs restricted to
// other species, and more than 20 links in total.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
const data = fileURLToPath(new URL("../../../db/seed/data/", import.meta.url));
const dir = `${data}conditions/`;
const [idArg, json] = process.argv.slice(2);
const id = Number(idArg);
const additions = JSON.parse(json);
const signs = JSON.parse(readFileSync(`${data}clinical-signs.json`, "utf8"));
const byName = new Map(signs.map((s) => [s.name, s]));
for (const f of readdirSync(dir)) {
  const text = readFileSync(dir + f, "utf8");
  const lines = text.split("\n");
  const k = lines.findIndex((l) => l.trimStart().startsWith(`{"id":${id},`));
  if (k === -1) continue;
  const line = lines[k];
  const trail = line.trimEnd().endsWith(",") ? "," : "";
  const lead = line.slice(0, line.length - line.trimStart().length);
  const c = JSON.parse(line.trim().replace(/,$/, ""));
  const have = new Set(c.signs.map((s) => s.sign));
  const added = [];
  for (const a of additions) {
    const s = byName.get(a.sign);
    if (!s) {
      console.log(`REFUSED unknown sign "${a.sign}"`);
      continue;
    }
    if (have.has(a.sign)) {
      console.log(`skip "${a.sign}": already linked`);
      continue;
    }
    if (!(a.weight >= 0.05 && a.weight <= 0.95)) {
      console.log(`REFUSED "${a.sign}": weight ${a.weight}`);
      continue;
    }
    if (s.species && !c.species.some((sp) => s.species.includes(sp))) {
      console.log(`REFUSED "${a.sign}": restricted to ${s.species}`);
      continue;
    }
    if (c.signs.length >= 20) {
      console.log(`REFUSED "${a.sign}": condition already has 20 links`);
      continue;
    }
    c.signs.push({ sign: a.sign, weight: Math.round(a.weight * 100) / 100 });
    have.add(a.sign);
    added.push(a.sign);
  }
  lines[k] = lead + JSON.stringify(c) + trail;
  writeFileSync(dir + f, lines.join("\n"));
  console.log(
    `${c.name} (${id}, ${f}): added ${added.length}: ${added.join(", ")}; now ${c.signs.length} links`,
  );
  process.exit(0);
}
console.log(`no condition ${id}`);
process.exit(1);
