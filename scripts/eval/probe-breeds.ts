// `npx tsx scripts/eval/probe-breeds.ts [scripts/eval/breed-probes.txt]`: breeds written the way
// practice writes them (abbreviations, crosses, mixed breeds, colours that are not breeds), one per
// line as `expected catalogue breed (or null) | note`, run through the pipeline in-process; prints
// each miss and the count. Written for this purpose, not taken from any evaluation set.
import { readFileSync } from "node:fs";
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { openInProcessPipeline } from "./in-process";

const file = process.argv[2] ?? "scripts/eval/breed-probes.txt";
const catalogue = readCatalogueData();
const breedName = new Map<number, string>([
  ...catalogue.breeds.map((b): [number, string] => [b.id, b.name]),
  ...catalogue.breedAliases.authored_breeds.map((b): [number, string] => [b.id, b.name]),
]);
const probes = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.includes("|"))
  .map((line) => {
    const bar = line.indexOf("|");
    return { expected: line.slice(0, bar).trim(), note: line.slice(bar + 1).trim() };
  });
const { runNote, close } = await openInProcessPipeline("breed-probes");
let passed = 0;
for (const probe of probes) {
  const stored = await runNote(probe.note);
  const id = (stored.patient as { breed_id?: number | null }).breed_id;
  const got = id ? (breedName.get(id) ?? String(id)) : "null";
  if (got.toLowerCase() === probe.expected.toLowerCase()) passed++;
  else process.stdout.write(`miss: expected ${probe.expected}, got ${got} | ${probe.note}\n`);
}
process.stdout.write(`${JSON.stringify({ probes: probes.length, passed })}\n`);
await close();
