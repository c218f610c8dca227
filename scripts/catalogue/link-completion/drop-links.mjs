// One-off removal of links measured to double-count (see birds-reptiles-fix-*.txt). Run under flock db/seed/data/.lock.
// usage: node drop.mjs <tree> id:sign[,id:sign...] — remove one link from a condition
import fs from "node:fs";
const [tree, spec] = process.argv.slice(2);
const want = spec.split(",").map((s) => {
  const i = s.indexOf(":");
  return [Number(s.slice(0, i)), s.slice(i + 1)];
});
const d = tree + "/db/seed/data/conditions/";
for (const f of fs.readdirSync(d).filter((f) => f.endsWith(".json"))) {
  const arr = JSON.parse(fs.readFileSync(d + f, "utf8"));
  let ch = false;
  for (const c of arr)
    for (const [id, s] of want)
      if (c.id === id) {
        const n = c.signs.length;
        c.signs = c.signs.filter((x) => x.sign !== s);
        if (c.signs.length !== n) {
          ch = true;
          console.log("dropped", id, s);
        }
      }
  if (ch) fs.writeFileSync(d + f, "[\n" + arr.map((c) => "  " + JSON.stringify(c)).join(",\n") + "\n]\n");
}
