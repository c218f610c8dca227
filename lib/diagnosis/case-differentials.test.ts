// Differentials for a case: the ranker's input comes from the case (patient, age from the
// extraction, selected signs present, rejected and denied signs absent), scoped to the case's vet.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases, symptoms } from "@/db/schema";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { differentialsForCase, differentialsInputForCase } from "./case-differentials";

let handle: DatabaseHandle;
let vetA: string;
let vetB: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  handle = await openTestDatabase();
  vetA = (
    await createVeterinarian(handle.db, { email: "a@ddx.test", name: "Dr A", password: "a-long-password-1" })
  ).id;
  vetB = (
    await createVeterinarian(handle.db, { email: "b@ddx.test", name: "Dr B", password: "a-long-password-2" })
  ).id;
  for (const name of ["vomiting", "diarrhoea", "lethargy", "inappetence", "coughing"]) {
    const [row] = await handle.db.select({ id: symptoms.id }).from(symptoms).where(eq(symptoms.name, name));
    ids[name] = row!.id;
  }
});
afterAll(() => handle.close());

async function completedCase(overrides: Partial<typeof cases.$inferInsert> = {}) {
  const [row] = await handle.db
    .insert(cases)
    .values({
      veterinarianId: vetA,
      notes: "Bella, 4yo FS Lab. Vomiting x3, lethargic. No diarrhoea.",
      status: "COMPLETED",
      patient: {
        animal_type_id: 1,
        breed_id: 200800,
        name: "Bella",
        gender_id: 2,
        weight_kg: 28.5,
        neutered: true,
      },
      rawAiResponse: { extractor: "test", animal: { animal_type_id: 1, age_years: 4 }, symptoms: [] },
      suggestedSymptoms: [
        {
          symptom: { id: ids.vomiting, symptom_name: "vomiting", category_name: "Digestive", _distance: 0 },
          key_phrases: ["Vomiting x3"],
          status: "present",
        },
        {
          symptom: { id: ids.diarrhoea, symptom_name: "diarrhoea", category_name: "Digestive", _distance: 0 },
          key_phrases: ["No diarrhoea"],
          status: "absent",
        },
      ],
      selectedSymptoms: [
        { id: ids.vomiting, significant: true },
        { id: ids.lethargy, significant: false },
      ],
      deSelectedSymptoms: [{ id: ids.coughing }],
      ...overrides,
    })
    .returning();
  return row!;
}

describe("differentialsInputForCase", () => {
  it("reads signalment, age, present and absent signs, and the notes beyond the signs read from them", async () => {
    const row = await completedCase();
    expect(differentialsInputForCase(row)).toEqual({
      animal_type_id: 1,
      breed_id: 200800,
      gender_id: 2,
      neutered: true,
      age_years: 4,
      present_symptom_ids: [ids.vomiting, ids.lethargy],
      absent_symptom_ids: [ids.coughing, ids.diarrhoea],
      context: null,
      // The phrases read as signs are counted through the signs; the rest is matched as words.
      notes: "Bella, 4yo FS Lab.  , lethargic.  .",
    });
  });

  it("never counts a selected sign as absent", async () => {
    const row = await completedCase({ deSelectedSymptoms: [{ id: ids.vomiting }] });
    expect(differentialsInputForCase(row).absent_symptom_ids).not.toContain(ids.vomiting);
  });

  it("refuses a case without a species, telling the vet to set it", async () => {
    const row = await completedCase({
      patient: {
        animal_type_id: null,
        breed_id: null,
        name: null,
        gender_id: null,
        weight_kg: null,
        neutered: null,
      },
    });
    expect(() => differentialsInputForCase(row)).toThrow(/species/);
    expect(() => differentialsInputForCase(row)).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe("differentialsForCase", () => {
  it("ranks the case's species' conditions with evidence, best first", async () => {
    const row = await completedCase();
    const { data } = await differentialsForCase(
      handle.db,
      { caseId: row.id, veterinarianId: vetA },
      { limit: 5 },
    );
    expect(data).toHaveLength(5);
    for (const d of data) {
      expect(d).toEqual({
        id: expect.any(Number),
        name: expect.any(String),
        score: expect.any(Number),
        evidence: { supporting: expect.any(Array), findings: expect.any(Array), against: expect.any(Array) },
      });
    }
    expect(data.map((d) => d.score)).toEqual([...data.map((d) => d.score)].sort((a, b) => b - a));
    expect(data[0]!.evidence.supporting.map((s) => s.symptom_name)).toContain("vomiting");
  });

  it("ranks a case whose notes named no species across the plausible species, and says so", async () => {
    const row = await completedCase({
      patient: {
        animal_type_id: null,
        breed_id: null,
        name: null,
        gender_id: null,
        weight_kg: null,
        neutered: null,
      },
    });
    const answer = await differentialsForCase(
      handle.db,
      { caseId: row.id, veterinarianId: vetA },
      { limit: 10 },
    );
    expect(answer.species).toEqual({ animal_type_id: null, inferred: true });
    expect(answer.note).toMatch(/no species/);
    expect(answer.data).toHaveLength(10);
    expect(answer.data.every((d) => typeof d.animal_type_id === "number")).toBe(true);
    // Common patients first: the list is led by the commonest species' conditions.
    expect([1, 2]).toContain(answer.data[0]!.animal_type_id);
  });

  it("marks a case with too little evidence as low-evidence instead of a confident list", async () => {
    const row = await completedCase({ selectedSymptoms: [{ id: ids.lethargy, significant: false }] });
    const answer = await differentialsForCase(handle.db, { caseId: row.id, veterinarianId: vetA });
    expect(answer.evidence_level).toBe("low");
    expect(answer.note).toMatch(/Too little is known/);
    expect(answer.data[0]!.score).toBeLessThan(0.5);
  });

  it("answers 404 for another vet's case", async () => {
    const row = await completedCase();
    await expect(
      differentialsForCase(handle.db, { caseId: row.id, veterinarianId: vetB }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
