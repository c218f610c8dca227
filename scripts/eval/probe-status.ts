// `npx tsx scripts/eval/probe-status.ts [probes.json]`: assertion-status probes. Each probe is a
// short note and a sign it mentions that must NOT be selected (denied, resolved, another animal's,
// the owner's guess, hypothetical). Prints the probes that fail and a count. The probes were
// written for the extractor's general phrasing, not taken from any evaluation set.
import { readFileSync } from "node:fs";
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { openInProcessPipeline } from "./in-process";

const file = process.argv[2] ?? "scripts/eval/status-probes.json";
const signName = new Map(readCatalogueData().signs.map((s) => [s.id, s.name]));
const probes = JSON.parse(readFileSync(file, "utf8")) as [string, string][];
const { runNote, close } = await openInProcessPipeline("probe");
let wrong = 0;
for (const [note, sign] of probes) {
  const stored = await runNote(note);
  const selected = (stored.selectedSymptoms as { id: number }[]).map((s) => signName.get(s.id));
  if (!selected.includes(sign)) continue;
  wrong++;
  console.log(`selected "${sign}" in: ${note}`);
}
console.log(JSON.stringify({ probes: probes.length, wrongly_selected: wrong }));
await close();
