// `npx tsx scripts/eval/try-note.ts "note text" [more notes…]`: one note at a time through the
// pipeline in-process (fresh in-memory PGlite with the shipped catalogue), printing the patient,
// the selected signs and findings, and the top ten differentials with their evidence. For
// looking at how a change reads a note, not for measuring (use eval:e2e for that).
import { openDatabase } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { loadCatalogue } from "@/db/seed/load-catalogue";
import { cases, veterinarians } from "@/db/schema";
import { localExtractor } from "@/lib/ai/local/local-extractor";
import { runCase } from "@/lib/pipeline/run-case";
import { getCaseRow } from "@/lib/cases/get-case";
import { differentialsForCase } from "@/lib/diagnosis/case-differentials";

const notes = process.argv.slice(2);
const handle = await openDatabase({ pgliteDataDir: "memory://" });
await migrateDatabase(handle);
await loadCatalogue(handle.db);
const db = handle.db;
const [vet] = await db
  .insert(veterinarians)
  .values({ kind: "human", email: "try@vetdx.invalid", name: "Try" })
  .returning();
for (const note of notes) {
  const [row] = await db
    .insert(cases)
    .values({ veterinarianId: vet!.id, notes: note })
    .returning({ id: cases.id });
  await runCase({ db, extractor: localExtractor, sleep: async () => {} }, row!.id);
  const stored = await getCaseRow(db, { caseId: row!.id, veterinarianId: vet!.id });
  console.log(`\n# ${note}`);
  console.log("patient:", JSON.stringify(stored.patient));
  console.log(
    "selected:",
    (stored.selectedSymptoms as { id: number; name?: string; symptom_name?: string }[])
      .map((s) => s.symptom_name ?? s.name ?? s.id)
      .join(", "),
  );
  if (stored.status !== "COMPLETED") continue;
  const answer = await differentialsForCase(db, { caseId: row!.id, veterinarianId: vet!.id }, { limit: 10 });
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
await handle.close();
