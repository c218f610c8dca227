// `npx tsx scripts/eval/probe-status.ts [probes.json]`: assertion-status probes. Each probe is a
// short note and a sign it mentions, `[note, sign]` or `[note, sign, "present"]`. A two-element
// probe's sign must NOT be selected (denied, resolved, another animal's, the owner's guess,
// hypothetical); a probe marked "present" names a sign the note does report, in words that look
// like a negation or a past event ("no longer eating", "not improving", "no vomiting, but
// diarrhoea"), and it must be selected. Prints the probes that fail and counts. The probes were
// written for the extractor's general phrasing, not taken from any evaluation set.
import { readFileSync } from "node:fs";
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { openInProcessPipeline } from "./in-process";

const file = process.argv[2] ?? "scripts/eval/status-probes.json";
const signName = new Map(readCatalogueData().signs.map((s) => [s.id, s.name]));
const probes = JSON.parse(readFileSync(file, "utf8")) as ([string, string] | [string, string, "present"])[];
const { runNote, close } = await openInProcessPipeline("probe");
let wrong = 0;
let missed = 0;
for (const [note, sign, expected] of probes) {
  const stored = await runNote(note);
  const selected = (stored.selectedSymptoms as { id: number }[]).map((s) => signName.get(s.id));
  if (expected === "present") {
    if (selected.includes(sign)) continue;
    missed++;
    console.log(`missed "${sign}" in: ${note}`);
    continue;
  }
  if (!selected.includes(sign)) continue;
  wrong++;
  console.log(`selected "${sign}" in: ${note}`);
}
const present = probes.filter((p) => p[2] === "present").length;
console.log(
  JSON.stringify({
    probes: probes.length,
    passing: probes.length - wrong - missed,
    wrongly_selected: wrong,
    present_probes: present,
    present_missed: missed,
  }),
);
await close();
