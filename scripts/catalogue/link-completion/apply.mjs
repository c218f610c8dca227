// Adds sign links to existing conditions from a text file of lines
//   id|sign:weight;sign:weight;...|reference URL
// Keeps existing links and weights, skips unknown signs and signs whose species restriction
// excludes every species of the condition, caps at 20 links, appends the URL to `source`.
// --strict: "other" on a sign does not admit it to a condition that names a real species, so a
// mammal sign that lists "other" cannot reach a bird or reptile condition.
// Re-reads each condition file and rewrites only `signs`/`source` of the listed ids, one
// compact object per line. Run under: flock db/seed/data/.lock node <this> [--strict] <additions.txt>
import fs from "node:fs";
import path from "node:path";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const dataDir = path.join(root, "db/seed/data");
const signs = new Map(
  JSON.parse(fs.readFileSync(path.join(dataDir, "clinical-signs.json"), "utf8")).map((s) => [s.name, s]),
);
const adds = new Map();
const strict = process.argv.includes("--strict");
const file = process.argv.slice(2).find((a) => !a.startsWith("--"));
for (const line of fs.readFileSync(file, "utf8").split("\n")) {
  const t = line.trim();
  if (!t || t.startsWith("#")) continue;
  const [id, list, url] = t.split("|").map((x) => x.trim());
  const links = list
    .split(";")
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => {
      const i = x.lastIndexOf(":");
      return { sign: x.slice(0, i).trim(), weight: Number(x.slice(i + 1)) };
    });
  adds.set(Number(id), { links, url });
}
const condDir = path.join(dataDir, "conditions");
let touched = 0,
  added = 0;
const warn = [];
for (const f of fs.readdirSync(condDir).filter((f) => f.endsWith(".json"))) {
  const file = path.join(condDir, f);
  const arr = JSON.parse(fs.readFileSync(file, "utf8"));
  let changed = false;
  for (const c of arr) {
    const a = adds.get(c.id);
    if (!a) continue;
    adds.delete(c.id);
    const have = new Set(c.signs.map((s) => s.sign));
    let n = 0;
    for (const l of a.links) {
      const s = signs.get(l.sign);
      if (!s) {
        warn.push(`${c.id} ${c.name}: unknown sign "${l.sign}"`);
        continue;
      }
      if (!(l.weight > 0 && l.weight < 1)) {
        warn.push(`${c.id}: bad weight ${l.sign}`);
        continue;
      }
      const real = strict ? c.species.filter((k) => k !== "other") : [];
      if (s.species && !(real.length ? real : c.species).some((k) => s.species.includes(k))) {
        warn.push(`${c.id} ${c.name}: "${l.sign}" not for ${c.species}`);
        continue;
      }
      if (have.has(l.sign)) continue;
      if (c.signs.length >= 20) {
        warn.push(`${c.id}: cap reached at ${l.sign}`);
        break;
      }
      c.signs.push({ sign: l.sign, weight: l.weight });
      have.add(l.sign);
      n++;
    }
    if (n) {
      added += n;
      touched++;
      changed = true;
      if (!a.url && c.source.includes("link list completed to the textbook presentation")) continue;
      if (a.url && !c.source.includes(a.url))
        c.source = `${c.source}; link list completed to the textbook presentation (clinical signs and first-line lab/imaging findings) per ${a.url}`;
      else if (!a.url) {
        if (!/https?:/.test(c.source)) warn.push(`${c.id} ${c.name}: no URL in source`);
        c.source = `${c.source}; link list completed to the textbook presentation (clinical signs and first-line lab/imaging findings) per the references above`;
      }
    }
  }
  if (changed) fs.writeFileSync(file, "[\n" + arr.map((c) => "  " + JSON.stringify(c)).join(",\n") + "\n]\n");
}
for (const id of adds.keys()) warn.push(`id ${id} not found`);
console.log(`conditions touched ${touched}, links added ${added}`);
if (warn.length) console.log(warn.join("\n"));
