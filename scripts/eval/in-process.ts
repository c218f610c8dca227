// The pipeline in-process for the evaluation scripts: a fresh in-memory PGlite with the shipped
// catalogue and one veterinarian, and a note run through the pipeline's steps as the server runs
// them (the local extractor, no waits).
import { openDatabase } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { loadCatalogue, readCatalogueData } from "@/db/seed/load-catalogue";
import { cases, veterinarians } from "@/db/schema";
import { localExtractor } from "@/lib/ai/local/local-extractor";
import { getCaseRow } from "@/lib/cases/get-case";
import { runCase } from "@/lib/pipeline/run-case";

export async function openInProcessPipeline(name: string, catalogue = readCatalogueData()) {
  const handle = await openDatabase({ pgliteDataDir: "memory://" });
  await migrateDatabase(handle);
  await loadCatalogue(handle.db, catalogue);
  const db = handle.db;
  const [vet] = await db
    .insert(veterinarians)
    .values({ kind: "human", email: `${name}@vetdx.invalid`, name })
    .returning();
  const veterinarianId = vet!.id;
  /** Creates a case from the notes, runs the pipeline and returns the stored case. */
  async function runNote(notes: string) {
    const [row] = await db.insert(cases).values({ veterinarianId, notes }).returning({ id: cases.id });
    await runCase({ db, extractor: localExtractor, sleep: async () => {} }, row!.id);
    return getCaseRow(db, { caseId: row!.id, veterinarianId });
  }
  return { db, veterinarianId, runNote, close: () => handle.close() };
}
