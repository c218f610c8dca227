#!/usr/bin/env node
// Regenerates data/breeds.json from the Vertebrate Breed Ontology (CC-BY 4.0) simplified export:
//   node db/seed/build-breeds.mjs ../shared/data/reference/derived/vbo_breeds_simplified.csv
// Keeps active breeds of the species in data/animal-types.json; the id is the VBO number.
import { readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const dataDir = join(dirname(fileURLToPath(import.meta.url)), "data");
const source = process.argv[2];
if (!source) {
  console.error("usage: node db/seed/build-breeds.mjs <vbo_breeds_simplified.csv>");
  process.exit(2);
}

function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else if (ch !== "\r") field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

const [header, ...records] = parseCsv(readFileSync(source, "utf8"));
const column = Object.fromEntries(header.map((name, index) => [name, index]));
const animalTypes = JSON.parse(readFileSync(join(dataDir, "animal-types.json"), "utf8"));
const speciesByVboLabel = new Map(animalTypes.flatMap((t) => t.vbo_species.map((label) => [label, t.key])));
const MIXED_PARENTS = new Set(["VBO:0200902", "VBO:0100262"]);

const breeds = [];
for (const record of records) {
  const get = (name) => record[column[name]] ?? "";
  if (get("obsolete") === "true") continue;
  const species = speciesByVboLabel.get(get("species"));
  if (!species) continue;
  const vboId = get("vbo_id");
  const name = get("breed_name").trim();
  if (!name) continue;
  const synonyms = [
    ...new Set(
      get("synonyms")
        .split("|")
        .map((s) => s.trim())
        .filter((s) => s && s !== name),
    ),
  ];
  const parents = get("parents").split(";");
  const mixed = parents.some((p) => MIXED_PARENTS.has(p)) || /\b(cross ?breed|mixed breed)\b/i.test(name);
  breeds.push({
    id: Number(vboId.replace("VBO:", "")),
    species,
    name,
    synonyms,
    mixed,
    vbo_id: vboId,
    recognised: get("recognition_status").includes("VBO:0300002"),
  });
}
breeds.sort((a, b) => a.id - b.id);
writeFileSync(
  join(dataDir, "breeds.json"),
  `[\n${breeds.map((b) => "  " + JSON.stringify(b)).join(",\n")}\n]\n`,
);
const counts = breeds.reduce((acc, b) => ({ ...acc, [b.species]: (acc[b.species] ?? 0) + 1 }), {});
console.log(JSON.stringify({ breeds: breeds.length, per_species: counts }));
