// `npx tsx scripts/eval/try-note.ts "note text" [more notes…]`: one note at a time through the
// pipeline in-process (fresh in-memory PGlite with the shipped catalogue), printing the patient,
// the selected signs and findings, and the top ten differentials with their evidence. For
// looking at how a change reads a note, not for measuring (use eval:e2e for that).
import { differentialsForCase } from "@/lib/diagnosis/case-differentials";
import { readCatalogueData } from "@/db/seed/load-catalogue";
import { openInProcessPipeline } from "./in-process";

const signName = new Map(readCatalogueData().signs.map((s) => [s.id, s.name]));

const notes = process.argv.slice(2);
const { db, veterinarianId, runNote, close } = await openInProcessPipeline("try");
for (const note of notes) {
  const stored = await runNote(note);
  console.log(`\n# ${note}`);
  console.log("patient:", JSON.stringify(stored.patient));
  console.log(
    "selected:",
    (stored.selectedSymptoms as { id: number; name?: string; symptom_name?: string }[])
      .map((s) => s.symptom_name ?? s.name ?? signName.get(s.id) ?? s.id)
      .join(", "),
  );
  if (stored.status !== "COMPLETED") continue;
  const answer = await differentialsForCase(db, { caseId: stored.id, veterinarianId }, { limit: 10 });
  const meta = answer as { evidence_level?: string; note?: string };
  console.log("evidence:", meta.evidence_level, meta.note ?? "");
  answer.data.forEach((d, i) =>
    console.log(
      `${i + 1}. ${d.name} ${d.score.toFixed(3)}  + ${d.evidence.supporting.map((s) => s.symptom_name).join(", ")}${
        d.evidence.findings?.length ? ` | ${d.evidence.findings.map((s) => s.symptom_name).join(", ")}` : ""
      }${d.evidence.against.length ? `  - ${d.evidence.against.map((s) => s.symptom_name).join(", ")}` : ""}`,
    ),
  );
}
await close();
