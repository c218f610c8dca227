// `npx tsx scripts/eval/probe-species.ts [scripts/eval/species-probes.txt]`: signalments written
// the way practice writes them (breed only, shorthand, sex words, exotic names), one per line as
// `expected species key | note`, run through the pipeline in-process; prints each miss and the
// count. Written for this purpose, not taken from any evaluation set.
import { readFileSync } from "node:fs";
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { openInProcessPipeline } from "./in-process";

const file = process.argv[2] ?? "scripts/eval/species-probes.txt";
const keyById = new Map(readCatalogueData().animalTypes.map((t) => [t.id, t.key]));
const probes = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.includes("|"))
  .map((line) => {
    const bar = line.indexOf("|");
    return { expected: line.slice(0, bar).trim(), note: line.slice(bar + 1).trim() };
  });
const { runNote, close } = await openInProcessPipeline("species-probes");
let passed = 0;
for (const probe of probes) {
  const stored = await runNote(probe.note);
  const id = (stored.patient as { animal_type_id?: number | null }).animal_type_id;
  const got = id ? (keyById.get(id) ?? null) : null;
  if (got === probe.expected) passed++;
  else process.stdout.write(`miss: expected ${probe.expected}, got ${got} | ${probe.note}\n`);
}
process.stdout.write(`${JSON.stringify({ probes: probes.length, passed })}\n`);
await close();
