// For conditions whose link completion note says "per the references above" but whose source
// had no URL, replace that phrase with the reference URL given. Lines: id|url
import fs from "node:fs";
import path from "node:path";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const condDir = path.join(root, "db/seed/data/conditions");
const urls = new Map(
  fs
    .readFileSync(process.argv[2], "utf8")
    .split("\n")
    .filter((l) => l.includes("|"))
    .map((l) => {
      const [id, u] = l.split("|");
      return [Number(id), u.trim()];
    }),
);
for (const f of fs.readdirSync(condDir).filter((f) => f.endsWith(".json"))) {
  const file = path.join(condDir, f);
  const arr = JSON.parse(fs.readFileSync(file, "utf8"));
  let changed = false;
  for (const c of arr) {
    const u = urls.get(c.id);
    if (!u) continue;
    const s = c.source.replace(
      "first-line lab/imaging findings) per the references above",
      `first-line lab/imaging findings) per ${u}`,
    );
    if (s !== c.source) {
      c.source = s;
      changed = true;
      urls.delete(c.id);
    }
  }
  if (changed) fs.writeFileSync(file, "[\n" + arr.map((c) => "  " + JSON.stringify(c)).join(",\n") + "\n]\n");
}
if (urls.size) console.log("not set:", [...urls.keys()].join(" "));
