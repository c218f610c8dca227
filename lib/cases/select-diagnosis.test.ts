// Choosing the working diagnosis: one condition of the patient's species replaces any earlier one;
// another species' condition, an unknown one, a case without a species, a case still processing and
// another vet's case are refused with nothing changed.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases, conditionSpecies, conditions } from "@/db/schema";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { toCaseResource } from "./case-resource";
import { selectDiagnosis } from "./select-diagnosis";

let handle: DatabaseHandle;
let vetA: string;
let vetB: string;
let parvo: number;
let fip: number;
let gastroenteritis: number;

beforeAll(async () => {
  handle = await openTestDatabase();
  vetA = (
    await createVeterinarian(handle.db, { email: "a@dx.test", name: "Dr A", password: "a-long-password-1" })
  ).id;
  vetB = (
    await createVeterinarian(handle.db, { email: "b@dx.test", name: "Dr B", password: "a-long-password-2" })
  ).id;
  const idOf = async (name: string) =>
    (await handle.db.select({ id: conditions.id }).from(conditions).where(eq(conditions.name, name)))[0]!.id;
  parvo = await idOf("canine parvovirus enteritis");
  fip = await idOf("feline infectious peritonitis");
  const [dogGastroenteritis] = await handle.db
    .select({ id: conditions.id })
    .from(conditions)
    .innerJoin(conditionSpecies, eq(conditionSpecies.conditionId, conditions.id))
    .where(and(eq(conditions.name, "acute gastroenteritis"), eq(conditionSpecies.animalTypeId, 1)));
  gastroenteritis = dogGastroenteritis!.id;
});
afterAll(() => handle.close());

async function dogCase(overrides: Partial<typeof cases.$inferInsert> = {}) {
  const [row] = await handle.db
    .insert(cases)
    .values({
      veterinarianId: vetA,
      notes: "Rex, 6mo entire male dog. Vomiting, bloody diarrhoea.",
      status: "COMPLETED",
      patient: {
        animal_type_id: 1,
        breed_id: null,
        name: "Rex",
        gender_id: 1,
        weight_kg: 12,
        neutered: false,
      },
      ...overrides,
    })
    .returning();
  return row!;
}

async function read(id: string) {
  return (await handle.db.select().from(cases).where(eq(cases.id, id)))[0]!;
}

describe("selectDiagnosis", () => {
  it("stores the condition as the working diagnosis and bumps the version", async () => {
    const row = await dogCase();
    const updated = await selectDiagnosis(
      handle.db,
      { caseId: row.id, veterinarianId: vetA },
      { diagnosis_id: parvo },
    );
    expect(updated.version).toBe(row.version + 1);
    expect(toCaseResource(updated).selected_diagnoses).toEqual([
      {
        id: parvo,
        name: "canine parvovirus enteritis",
        selected_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
  });

  it("replaces an earlier choice", async () => {
    const row = await dogCase();
    await selectDiagnosis(handle.db, { caseId: row.id, veterinarianId: vetA }, { diagnosis_id: parvo });
    await selectDiagnosis(
      handle.db,
      { caseId: row.id, veterinarianId: vetA },
      { diagnosis_id: gastroenteritis },
    );
    const stored = (await read(row.id)).selectedDiagnoses as { id: number }[];
    expect(stored.map((d) => d.id)).toEqual([gastroenteritis]);
  });

  it("refuses a condition of another species (400), leaving the case unchanged", async () => {
    const row = await dogCase();
    await expect(
      selectDiagnosis(handle.db, { caseId: row.id, veterinarianId: vetA }, { diagnosis_id: fip }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/not a condition of this patient's species/),
    });
    const stored = await read(row.id);
    expect(stored.selectedDiagnoses).toEqual([]);
    expect(stored.version).toBe(row.version);
  });

  it("refuses an unknown condition (400)", async () => {
    const row = await dogCase();
    await expect(
      selectDiagnosis(handle.db, { caseId: row.id, veterinarianId: vetA }, { diagnosis_id: 99_999_999 }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("asks for the species first when the patient has none (400)", async () => {
    const row = await dogCase({ patient: null, status: "ERROR" });
    await expect(
      selectDiagnosis(handle.db, { caseId: row.id, veterinarianId: vetA }, { diagnosis_id: parvo }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/species/) });
  });

  it("refuses while the case is still processing (409)", async () => {
    const row = await dogCase({ status: "SANITIZING" });
    await expect(
      selectDiagnosis(handle.db, { caseId: row.id, veterinarianId: vetA }, { diagnosis_id: parvo }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("answers 404 for another vet's case and for a malformed id", async () => {
    const row = await dogCase();
    await expect(
      selectDiagnosis(handle.db, { caseId: row.id, veterinarianId: vetB }, { diagnosis_id: parvo }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      selectDiagnosis(handle.db, { caseId: "not-a-uuid", veterinarianId: vetA }, { diagnosis_id: parvo }),
    ).rejects.toMatchObject({ status: 404 });
    expect((await read(row.id)).selectedDiagnoses).toEqual([]);
  });
});

describe("the case resource", () => {
  it("always shows selected_diagnoses, and soap_notes once set", async () => {
    const row = await dogCase();
    const resource = toCaseResource(row);
    expect(resource.selected_diagnoses).toEqual([]);
    expect(resource).not.toHaveProperty("soap_notes");
  });
});
