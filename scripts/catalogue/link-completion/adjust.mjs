// Changes the weight of (or removes, with weight 0) links this work added, after a measured
// regression traced to them. Lines: id|sign:weight;sign:weight  (weight 0 removes the link).
// Run under: flock db/seed/data/.lock node <this> <file>
import fs from "node:fs";
import path from "node:path";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const condDir = path.join(root, "db/seed/data/conditions");
const edits = new Map();
for (const l of fs.readFileSync(process.argv[2], "utf8").split("\n")) {
  if (!l.includes("|") || l.startsWith("#")) continue;
  const [id, list] = l.split("|");
  edits.set(
    Number(id),
    list
      .split(";")
      .filter(Boolean)
      .map((x) => {
        const i = x.lastIndexOf(":");
        return [x.slice(0, i).trim(), Number(x.slice(i + 1))];
      }),
  );
}
let n = 0;
for (const f of fs.readdirSync(condDir).filter((f) => f.endsWith(".json"))) {
  const file = path.join(condDir, f);
  const arr = JSON.parse(fs.readFileSync(file, "utf8"));
  let changed = false;
  for (const c of arr) {
    const e = edits.get(c.id);
    if (!e) continue;
    for (const [sign, w] of e) {
      const i = c.signs.findIndex((s) => s.sign === sign);
      if (i < 0) {
        console.log(`${c.id}: no link ${sign}`);
        continue;
      }
      if (w === 0) c.signs.splice(i, 1);
      else c.signs[i].weight = w;
      n++;
      changed = true;
    }
  }
  if (changed) fs.writeFileSync(file, "[\n" + arr.map((c) => "  " + JSON.stringify(c)).join(",\n") + "\n]\n");
}
console.log("links adjusted", n);
