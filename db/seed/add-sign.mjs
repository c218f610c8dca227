#!/usr/bin/env node
// Appends clinical signs to data/clinical-signs.json with the next free ids, refusing any
// phrase that already belongs to another sign. Input on stdin: one sign object or an array
// of them, without ids. Run under a lock when several authors edit at once:
//   flock db/seed/data/.lock node db/seed/add-sign.mjs < new-signs.json
import { readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const file = join(dirname(fileURLToPath(import.meta.url)), "data", "clinical-signs.json");
const normalise = (text) => text.trim().toLowerCase().replace(/\s+/g, " ");
const signs = JSON.parse(readFileSync(file, "utf8"));
const input = JSON.parse(readFileSync(0, "utf8"));
const additions = Array.isArray(input) ? input : [input];

const owner = new Map();
for (const sign of signs)
  for (const phrase of [sign.name, ...sign.synonyms]) owner.set(normalise(phrase), sign.name);

let nextId = Math.max(0, ...signs.map((s) => s.id)) + 1;
const refused = [];
for (const addition of additions) {
  const clashes = [addition.name, ...(addition.synonyms ?? [])].filter((p) => owner.has(normalise(p)));
  if (clashes.length) {
    refused.push(
      `${addition.name}: ${clashes.map((p) => `"${p}" belongs to "${owner.get(normalise(p))}"`).join(", ")}`,
    );
    continue;
  }
  const sign = {
    id: nextId++,
    name: addition.name,
    category: addition.category,
    synonyms: addition.synonyms ?? [],
    species: addition.species ?? null,
    source: addition.source,
  };
  signs.push(sign);
  for (const phrase of [sign.name, ...sign.synonyms]) owner.set(normalise(phrase), sign.name);
  console.log(`added ${sign.id} ${sign.name}`);
}
writeFileSync(file, `[\n${signs.map((s) => "  " + JSON.stringify(s)).join(",\n")}\n]\n`);
if (refused.length) {
  console.error(
    `refused (phrase already used; link the existing sign or drop the synonym):\n- ${refused.join("\n- ")}`,
  );
  process.exit(1);
}
