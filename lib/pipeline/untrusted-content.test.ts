// Notes whose content cannot all be trusted: other languages, no clinical content, the longest
// accepted notes, every sign in the catalogue, contradictions, units without numbers, impossible
// values. Each case completes with what can be trusted, flags what cannot, and still ranks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases } from "@/db/schema";
import { loadLexicon } from "@/lib/ai/lexicon";
import { localExtractor } from "@/lib/ai/local/local-extractor";
import { getCaseRow } from "@/lib/cases/get-case";
import { MAX_NOTES_LENGTH } from "@/lib/cases/schemas";
import { differentialsForCase } from "@/lib/diagnosis/case-differentials";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { runCase } from "./run-case";

let handle: DatabaseHandle;
let vetId: string;
let everySign: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  vetId = (await createVeterinarian(handle.db, { email: "untrusted@example.com", name: "Dr U" })).id;
  const lexicon = await loadLexicon(handle.db);
  everySign = `Dog 5y. ${lexicon.symptoms.map((s) => s.name).join(", ")}.`.slice(0, MAX_NOTES_LENGTH);
});
afterAll(() => handle.close());

async function process(notes: string) {
  const [row] = await handle.db.insert(cases).values({ veterinarianId: vetId, notes }).returning();
  await runCase({ db: handle.db, extractor: localExtractor, sleep: async () => {} }, row!.id);
  const stored = await getCaseRow(handle.db, { caseId: row!.id, veterinarianId: vetId });
  const ranked = await differentialsForCase(handle.db, { caseId: row!.id, veterinarianId: vetId });
  return { stored, ranked };
}

describe("notes whose content cannot all be trusted", () => {
  const paragraph =
    "Bella 4yo FS Lab, 30 kg. V+ x3 since yesterday, D+ with blood, lethargic. O/E: HR 140, T 39.6, abdo pain. PCV 55%, TP 80 g/L. ";
  it.each([
    ["another language", "Chien de 5 ans, vomissements depuis trois jours, très abattu, ne mange plus."],
    ["no clinical content", "Please call the owner back about the invoice. Thanks!"],
    [
      "the longest accepted notes",
      paragraph.repeat(Math.ceil(MAX_NOTES_LENGTH / paragraph.length)).slice(0, MAX_NOTES_LENGTH),
    ],
    ["a contradiction", "Cat 3y. Vomiting; no vomiting."],
    ["units without numbers", "Dog. Glucose mmol/L, PCV %, weight kg."],
  ])("completes with %s", async (_label, notes) => {
    const { stored, ranked } = await process(notes);
    expect(stored.status).toBe("COMPLETED");
    expect(Array.isArray(ranked.data)).toBe(true);
  });

  it("completes with every sign in the catalogue, ranking with what it can", async () => {
    const { stored, ranked } = await process(everySign);
    expect(stored.status).toBe("COMPLETED");
    expect(ranked.data.length).toBeGreaterThan(0);
    expect(ranked.data.every((d) => Number.isFinite(d.score))).toBe(true);
  });

  it("flags impossible values and does not use them", async () => {
    const { stored } = await process("Dog 6y, weight 4,000 kg, PCV 300 %. Vomiting.");
    expect(stored.status).toBe("COMPLETED");
    const raw = stored.rawAiResponse as { flags?: { text: string; reason: string }[] };
    expect(raw.flags?.map((f) => f.text)).toEqual(["PCV 300 %", "4000 kg"]);
    expect((stored.patient as { weight_kg: number | null }).weight_kg).toBeNull();
    const names = (stored.sanitizedSymptoms as { symptom_name: string }[]).map((s) => s.symptom_name);
    expect(names).not.toContain("erythrocytosis");
  });

  it("marks a note with no clinical content as low-evidence", async () => {
    const { ranked } = await process("Dog. Please call the owner back about the invoice.");
    expect(ranked.evidence_level).toBe("low");
  });
});
