// The two renderings of a case (objects for most surfaces, spliced JSON text for GET
// /v1/cases/{id}) must say the same thing for a case at every stage of the pipeline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases } from "@/db/schema";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { caseEtag, toCaseResource } from "./case-resource";
import { getCaseResourceJson, getCaseRow } from "./get-case";

let handle: DatabaseHandle;
let veterinarianId: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  veterinarianId = (await createVeterinarian(handle.db, { email: "render@vetdx.test", name: "Render Vet" }))
    .id;
});
afterAll(() => handle.close());

const completed = {
  status: "COMPLETED" as const,
  aiExtractedPatient: { species: "dog", breed: "Labrador Retriever", weight_kg: 28.5, name: null },
  suggestedSymptoms: [{ id: "vomiting", name: "Vomiting", status: "present", score: 0.93 }],
  rawAiResponse: { extractor: "local", text: 'quote " backslash \\ and emoji 🐕', nested: { empty: [] } },
  sanitizedSymptoms: ["vomiting", "lethargy"],
  patient: { species: "dog", age_years: 4, neutered: true, sex: "female", weight_kg: 28.5 },
  selectedSymptoms: [{ id: "vomiting" }],
  deSelectedSymptoms: [{ id: "diarrhoea" }],
  attachmentIds: ["a1"],
  selectedDiagnoses: [{ id: "gastritis", rank: 1 }],
  soapNotes: { subjective: "Line one\nline two\ttabbed", objective: "", assessment: "A", plan: "P" },
  version: 7,
};

const stages: Record<string, Partial<typeof cases.$inferInsert>> = {
  "a new case": { status: "PENDING" },
  "a case part way through": {
    status: "SANITIZING",
    aiExtractedPatient: completed.aiExtractedPatient,
  },
  "a completed case": completed,
  "a failed case": { status: "ERROR", error: { code: "model_timeout", message: "The model timed out" } },
  "an error left on a case that is no longer in ERROR": { status: "PENDING", error: { code: "old" } },
};

describe("case renderings", () => {
  for (const [stage, values] of Object.entries(stages)) {
    it(`agree for ${stage}`, async () => {
      const [inserted] = await handle.db
        .insert(cases)
        .values({ veterinarianId, notes: `Bella "the lab" — ünïcode\n${stage}`, ...values })
        .returning();
      const where = { caseId: inserted!.id, veterinarianId };
      const row = await getCaseRow(handle.db, where);
      const { body, etag } = await getCaseResourceJson(handle.db, where);
      expect(JSON.parse(body)).toEqual(toCaseResource(row));
      expect(Object.keys(JSON.parse(body))).toEqual(Object.keys(toCaseResource(row)));
      expect(etag).toBe(caseEtag(row));
    });
  }

  it("finds another vet's case as missing", async () => {
    const [inserted] = await handle.db.insert(cases).values({ veterinarianId, notes: "mine" }).returning();
    const other = (await createVeterinarian(handle.db, { email: "other@vetdx.test", name: "Other Vet" })).id;
    await expect(
      getCaseResourceJson(handle.db, { caseId: inserted!.id, veterinarianId: other }),
    ).rejects.toMatchObject({ kind: "not_found", status: 404 });
    await expect(
      getCaseResourceJson(handle.db, { caseId: "not-a-uuid", veterinarianId }),
    ).rejects.toMatchObject({ kind: "not_found", status: 404 });
  });
});
