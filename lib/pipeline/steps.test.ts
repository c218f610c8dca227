// The pipeline's steps: the spec's status progression, idempotent steps, failures ending in ERROR,
// and runs that keep dying being abandoned. (The inline runner's own tests, resuming cases a crash
// left behind among them, are in inngest/inline-runner.test.ts.)
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases } from "@/db/schema";
import { loadLexicon, type Lexicon } from "@/lib/ai/lexicon";
import type { Extraction, Extractor } from "@/lib/ai/types";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { runCase } from "./run-case";
import { claimRun, completeStep, extractStep, MAX_RUNS, sanitizeStep, startStep } from "./steps";

let handle: DatabaseHandle;
let lexicon: Lexicon;
let vetId: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  lexicon = await loadLexicon(handle.db);
  vetId = (await createVeterinarian(handle.db, { email: "pipeline@example.com", name: "Dr P" })).id;
});
afterAll(() => handle.close());

const idOf = (name: string) => lexicon.symptoms.find((s) => s.name === name)!.id;

/** A scripted extractor: the pipeline's mechanics are under test here, not clinical reading. */
function scripted(make: () => Extraction | Promise<Extraction>): Extractor {
  return { name: "scripted", extract: async () => make() };
}

const extraction = (): Extraction => ({
  extractor: "scripted",
  patient: {
    animalTypeId: 1,
    breed: "Labrador Retriever",
    breedId: 200800,
    name: "Bella",
    sex: "female",
    neutered: true,
    weight: { value: 62.8, unit: "lb" },
    ageYears: 4,
  },
  symptoms: [
    {
      symptomId: idOf("vomiting"),
      keyPhrases: ["Vomiting x3"],
      distance: 0,
      status: "present",
      significant: true,
    },
    {
      symptomId: idOf("diarrhoea"),
      keyPhrases: ["No diarrhoea"],
      distance: 0,
      status: "absent",
      significant: false,
    },
  ],
});

async function newCase(notes = "Bella, 4yo FS Lab, 62.8 lb. Vomiting x3. No diarrhoea.") {
  const [row] = await handle.db.insert(cases).values({ veterinarianId: vetId, notes }).returning();
  return row!.id;
}

async function read(caseId: string) {
  const [row] = await handle.db.select().from(cases).where(eq(cases.id, caseId));
  return row!;
}

const noSleep = async () => {};

describe("steps", () => {
  it("move a case through the spec's statuses in order, one transition each", async () => {
    const caseId = await newCase();
    const extractor = scripted(extraction);
    expect(await startStep(handle.db, caseId)).toBe("done");
    expect((await read(caseId)).status).toBe("PROCESSING");

    expect(await extractStep(handle.db, caseId, extractor)).toBe("done");
    const extracted = await read(caseId);
    expect(extracted.status).toBe("INITIAL_AI_PROCESSING_DONE");
    expect(extracted.aiExtractedPatient).toEqual({
      animal_type_id: "1",
      breed: "Labrador Retriever",
      name: "Bella",
      gender: "female",
      weight: "28.49",
      neutered: true,
    });
    expect(extracted.suggestedSymptoms).toContainEqual({
      symptom: { id: idOf("vomiting"), symptom_name: "vomiting", category_name: "Digestive", _distance: 0 },
      key_phrases: ["Vomiting x3"],
      status: "present",
    });
    expect(extracted.rawAiResponse).toMatchObject({
      animal: expect.any(Object),
      symptoms: expect.any(Array),
    });
    expect(extracted.patient).toBeNull();

    expect(await sanitizeStep(handle.db, caseId)).toBe("done");
    const sanitizing = await read(caseId);
    expect(sanitizing.status).toBe("SANITIZING");
    expect((sanitizing.sanitizedSymptoms as { id: number }[]).map((s) => s.id)).toEqual([idOf("vomiting")]);

    expect(await completeStep(handle.db, caseId)).toBe("done");
    const completed = await read(caseId);
    expect(completed.status).toBe("COMPLETED");
    expect(completed.patient).toMatchObject({
      animal_type_id: 1,
      breed_id: 200800,
      name: "Bella",
      weight_kg: 28.49,
      neutered: true,
    });
    expect(completed.selectedSymptoms).toEqual([{ id: idOf("vomiting"), significant: true }]);
    expect(completed.deSelectedSymptoms).toEqual([]);
    expect(completed.version).toBe(5);
  });

  it("add findings measured in the notes to any extractor's output, and flag impossible values", async () => {
    const caseId = await newCase("Bella, 4yo FS Lab. Vomiting x3. PCV 18%, K 7.4 mmol/L, TP 300 g/L.");
    await runCase({ db: handle.db, extractor: scripted(extraction), sleep: noSleep }, caseId);
    const done = await read(caseId);
    const names = (done.sanitizedSymptoms as { symptom_name: string }[]).map((s) => s.symptom_name);
    expect(names).toEqual(expect.arrayContaining(["vomiting", "anaemia", "hyperkalaemia"]));
    expect((done.rawAiResponse as { flags?: { text: string }[] }).flags?.map((f) => f.text)).toEqual([
      "TP 300 g/L",
    ]);
  });

  it("do nothing when run again (retries and replays are harmless)", async () => {
    const caseId = await newCase();
    let calls = 0;
    const extractor = scripted(() => {
      calls += 1;
      return extraction();
    });
    await runCase({ db: handle.db, extractor, sleep: noSleep }, caseId);
    const before = await read(caseId);
    expect(await startStep(handle.db, caseId)).toBe("skipped");
    expect(await extractStep(handle.db, caseId, extractor)).toBe("skipped");
    expect(await sanitizeStep(handle.db, caseId)).toBe("skipped");
    expect(await completeStep(handle.db, caseId)).toBe("skipped");
    expect(calls).toBe(1);
    expect((await read(caseId)).version).toBe(before.version);
  });

  it("end in ERROR with {code, message, step} when the extractor keeps failing", async () => {
    const caseId = await newCase();
    let attempts = 0;
    const failing = scripted(() => {
      attempts += 1;
      throw new Error("connection reset by model provider at 10.0.0.1");
    });
    await runCase({ db: handle.db, extractor: failing, sleep: noSleep }, caseId);
    const row = await read(caseId);
    expect(attempts).toBe(3);
    expect(row.status).toBe("ERROR");
    expect(row.error).toEqual({
      code: "extraction_failed",
      message: "The extractor failed to read the notes",
      step: "extract",
    });
    expect(JSON.stringify(row.error)).not.toContain("10.0.0.1");
  });

  it("end in ERROR with a timeout reason when the extractor hangs", async () => {
    const caseId = await newCase();
    const hanging = scripted(() => new Promise<Extraction>(() => {}));
    await runCase({ db: handle.db, extractor: hanging, sleep: noSleep }, caseId);
    expect((await read(caseId)).error).toMatchObject({ code: "extraction_timeout", step: "extract" });
  });

  it("stop quietly when the case is deleted mid-run", async () => {
    const caseId = await newCase();
    const deleting = scripted(async () => {
      await handle.db.delete(cases).where(eq(cases.id, caseId));
      return extraction();
    });
    await runCase({ db: handle.db, extractor: deleting, sleep: noSleep }, caseId);
    expect(await handle.db.select().from(cases).where(eq(cases.id, caseId))).toEqual([]);
  });

  it("abandon a case whose runs keep dying", async () => {
    const caseId = await newCase();
    for (let run = 0; run < MAX_RUNS; run += 1) expect(await claimRun(handle.db, caseId)).toBe("done");
    expect(await claimRun(handle.db, caseId)).toBe("skipped");
    expect((await read(caseId)).error).toMatchObject({ code: "abandoned", step: "start" });
  });
});
