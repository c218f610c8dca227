// SOAP notes from a case: the local writer states what the case records (patient, signs with
// significance, denied signs, working diagnosis, differentials and a workup for them) and marks
// what it lacks for the vet; the model path is validated and falls back to the local writer.
import { and, eq } from "drizzle-orm";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases, conditionSpecies, conditions, symptoms } from "@/db/schema";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { freeFormSoap } from "./free-form-soap";
import { generateSoapNotes, writeSoapNotes } from "./generate-soap-notes";
import { getSoapNotes } from "./get-soap-notes";

let handle: DatabaseHandle;
let vetA: string;
let vetB: string;
const ids: Record<string, number> = {};
let gastroenteritis: number;

beforeAll(async () => {
  handle = await openTestDatabase();
  vetA = (
    await createVeterinarian(handle.db, { email: "a@soap.test", name: "Dr A", password: "a-long-password-1" })
  ).id;
  vetB = (
    await createVeterinarian(handle.db, { email: "b@soap.test", name: "Dr B", password: "a-long-password-2" })
  ).id;
  for (const name of ["vomiting", "diarrhoea", "lethargy", "inappetence"]) {
    const [row] = await handle.db.select({ id: symptoms.id }).from(symptoms).where(eq(symptoms.name, name));
    ids[name] = row!.id;
  }
  const [dogCondition] = await handle.db
    .select({ id: conditions.id })
    .from(conditions)
    .innerJoin(conditionSpecies, eq(conditionSpecies.conditionId, conditions.id))
    .where(and(eq(conditions.name, "acute gastroenteritis"), eq(conditionSpecies.animalTypeId, 1)));
  gastroenteritis = dogCondition!.id;
});
afterAll(() => handle.close());

const NOTES =
  "Bella, 4yo FS Lab. Vomiting x3 since yesterday, lethargic. No diarrhoea. <img src=x onerror=alert(1)>";

async function bellaCase(overrides: Partial<typeof cases.$inferInsert> = {}) {
  const [row] = await handle.db
    .insert(cases)
    .values({
      veterinarianId: vetA,
      notes: NOTES,
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
          key_phrases: ["Vomiting x3 since yesterday"],
          status: "present",
        },
        {
          symptom: {
            id: ids.lethargy,
            symptom_name: "lethargy",
            category_name: "General and systemic",
            _distance: 0,
          },
          key_phrases: ["lethargic"],
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
      selectedDiagnoses: [
        { id: gastroenteritis, name: "acute gastroenteritis", selected_at: "2026-01-01T00:00:00.000Z" },
      ],
      ...overrides,
    })
    .returning();
  return row!;
}

function modelAnswering(text: string) {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: undefined },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 20, text: 20, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

describe("generateSoapNotes with the local writer", () => {
  it("writes the four sections from the case and stores them", async () => {
    const row = await bellaCase();
    const notes = await generateSoapNotes(
      handle.db,
      { caseId: row.id, veterinarianId: vetA },
      { model: null },
    );
    expect(notes.generator).toBe("local-soap-v1");
    expect(notes.generated_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    expect(notes.subjective).toContain(
      "Bella, a 4-year-old neutered female Labrador Retriever dog, presented with vomiting and lethargy.",
    );
    expect(notes.subjective).toContain("“Vomiting x3 since yesterday”");
    expect(notes.subjective).toContain("The notes record no diarrhoea (“No diarrhoea”)");
    expect(notes.objective).toContain("Weight: 28.5 kg");
    expect(notes.objective).toMatch(/Digestive: vomiting\*/);
    expect(notes.objective).toContain("lethargy");
    expect(notes.objective).toContain("not recorded in structured form [Vet to confirm]");
    expect(notes.assessment).toContain("Working diagnosis: acute gastroenteritis (selected by the vet).");
    expect(notes.assessment).toMatch(/1\. .+ \(\d+%\): supported by/);
    expect(notes.assessment).toContain("Significant findings: vomiting.");
    expect(notes.plan).toContain(
      "Diagnostics to confirm or rule out the working diagnosis and leading differentials [Vet to confirm]:",
    );
    expect(notes.plan).toMatch(/- acute gastroenteritis[ ,]/);
    expect(notes.plan).toMatch(/\(digestive\): .*abdominal radiographs/);
    expect(notes.plan).toContain("Discuss with owner");
    expect(notes.text).toMatch(
      /^S: Subjective\n[\s\S]+\n\nO: Objective\n[\s\S]+\n\nA: Assessment\n[\s\S]+\n\nP: Plan\n/,
    );

    const [stored] = await handle.db.select().from(cases).where(eq(cases.id, row.id));
    expect(stored!.soapNotes).toEqual(notes);
    expect(stored!.version).toBe(row.version + 1);
    expect(await getSoapNotes(handle.db, { caseId: row.id, veterinarianId: vetA })).toEqual(notes);
  });

  it("never invents what the case lacks: it says so and asks the vet", async () => {
    const row = await bellaCase({
      notes: "Coughing dog.",
      patient: {
        animal_type_id: null,
        breed_id: null,
        name: null,
        gender_id: null,
        weight_kg: null,
        neutered: null,
      },
      rawAiResponse: null,
      suggestedSymptoms: [],
      selectedSymptoms: [],
      selectedDiagnoses: [],
    });
    const notes = await generateSoapNotes(
      handle.db,
      { caseId: row.id, veterinarianId: vetA },
      { model: null },
    );
    expect(notes.subjective).toContain(
      "Patient details are not recorded on the case. No presenting signs are selected on the case [Vet to confirm].",
    );
    expect(notes.objective).toContain("Species: not recorded [Vet to confirm]");
    expect(notes.objective).toContain("Weight: not recorded [Vet to confirm]");
    expect(notes.assessment).toContain("Working diagnosis: not yet selected [Vet to confirm].");
    expect(notes.assessment).toContain("the patient's species is not recorded");
    expect(notes.text).not.toMatch(/\d+(\.\d+)? kg/);
    expect(notes.text).not.toContain("Bella");
  });

  it("answers 404 for another vet's case, 409 while processing, and 404 before any notes exist", async () => {
    const row = await bellaCase();
    await expect(
      generateSoapNotes(handle.db, { caseId: row.id, veterinarianId: vetB }, { model: null }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(getSoapNotes(handle.db, { caseId: row.id, veterinarianId: vetA })).rejects.toMatchObject({
      status: 404,
    });
    const pending = await bellaCase({ status: "PROCESSING" });
    await expect(
      generateSoapNotes(handle.db, { caseId: pending.id, veterinarianId: vetA }, { model: null }),
    ).rejects.toMatchObject({ status: 409 });
  });
});

describe("generateSoapNotes with a model", () => {
  const sections = {
    subjective: "Bella presented with vomiting and lethargy.",
    objective: "Weight 28.5 kg. Vomiting (significant), lethargy. Examination findings [Vet to confirm].",
    assessment: "Working diagnosis: acute gastroenteritis.",
    plan: "Haematology and biochemistry; discuss with owner.",
  };

  it("uses the model's validated sections and names it as the generator", async () => {
    const row = await bellaCase();
    const model = modelAnswering(JSON.stringify(sections));
    const notes = await generateSoapNotes(
      handle.db,
      { caseId: row.id, veterinarianId: vetA },
      { model: { model, name: "mock:soap" } },
    );
    expect(notes).toMatchObject({ ...sections, generator: "mock:soap" });
    expect(notes.text).toContain("S: Subjective\nBella presented with vomiting and lethargy.");
    // The case goes to the model as delimited data: notes, patient, signs and differentials.
    const prompt = JSON.stringify(model.doGenerateCalls[0]?.prompt);
    expect(prompt).toContain("<notes>");
    expect(prompt).toContain("Labrador Retriever");
    expect(prompt).toContain("acute gastroenteritis");
  });

  it("falls back to the local writer when the model's output does not match the schema", async () => {
    const row = await bellaCase();
    const model = modelAnswering(JSON.stringify({ subjective: "only one section" }));
    const notes = await generateSoapNotes(
      handle.db,
      { caseId: row.id, veterinarianId: vetA },
      { model: { model, name: "mock:soap" } },
    );
    expect(notes.generator).toBe("local-soap-v1 (fallback: mock:soap failed)");
    expect(notes.subjective).toContain("Bella, a 4-year-old");
  });

  it("falls back to the local writer when the model does not answer in AI_TIMEOUT_SECONDS", async () => {
    const row = await bellaCase();
    const slow = new MockLanguageModelV4({
      doGenerate: ({ abortSignal }) =>
        new Promise((_, reject) =>
          abortSignal?.addEventListener("abort", () => reject(new Error("aborted"))),
        ),
    });
    const notes = await generateSoapNotes(
      handle.db,
      { caseId: row.id, veterinarianId: vetA },
      { model: { model: slow, name: "mock:slow" } },
    );
    expect(notes.generator).toBe("local-soap-v1 (fallback: mock:slow timed out)");
  });
});

describe("free-form SOAP notes", () => {
  it("writes from the vet's selection without a case", async () => {
    const input = await freeFormSoap(handle.db, {
      animal_type_id: 1,
      gender_id: 1,
      neutered: false,
      signs: [
        { id: ids.vomiting!, significant: true },
        { id: ids.diarrhoea!, significant: false },
      ],
    });
    const notes = await writeSoapNotes(handle.db, input, { model: null });
    expect(notes.subjective).toContain("An entire male dog, presented with vomiting and diarrhoea.");
    expect(notes.assessment).toMatch(/1\. .+ \(\d+%\)/);
  });
});
