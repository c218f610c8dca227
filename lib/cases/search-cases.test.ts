// Dashboard case search: by patient name or notes text, status and species, in pages, and never
// another vet's cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases } from "@/db/schema";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { searchCases } from "./search-cases";

let handle: DatabaseHandle;
let vetA: string;
let vetB: string;
const ids: Record<string, string> = {};

async function insertCase(name: string, values: Partial<typeof cases.$inferInsert>, minutesAgo: number) {
  const [row] = await handle.db
    .insert(cases)
    .values({
      veterinarianId: vetA,
      notes: "",
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
      ...values,
    })
    .returning({ id: cases.id });
  ids[name] = row!.id;
}

const patient = (name: string, animalTypeId: number) => ({
  animal_type_id: animalTypeId,
  breed_id: null,
  name,
  gender_id: null,
  weight_kg: null,
  neutered: null,
});

beforeAll(async () => {
  handle = await openTestDatabase();
  vetA = (await createVeterinarian(handle.db, { email: "search-a@dx.test", name: "Dr A" })).id;
  vetB = (await createVeterinarian(handle.db, { email: "search-b@dx.test", name: "Dr B" })).id;
  await insertCase(
    "rex",
    { notes: "Rex, 6mo dog. Vomiting, bloody diarrhoea.", status: "COMPLETED", patient: patient("Rex", 1) },
    50,
  );
  await insertCase(
    "tom",
    { notes: "Tom, 12yo cat, weight loss, polyuria.", status: "COMPLETED", patient: patient("Tom", 2) },
    40,
  );
  await insertCase(
    "extracting",
    {
      notes: "Old spaniel coughing at night (100% sure, 5_000 coughs).",
      status: "SANITIZING",
      aiExtractedPatient: { name: "Biscuit" },
      rawAiResponse: { animal: { animal_type_id: 1 }, symptoms: [] },
    },
    30,
  );
  await insertCase("pending", { notes: "Dog vomiting since yesterday." }, 20);
  await insertCase(
    "failed",
    { notes: "Unreadable.", status: "ERROR", error: { code: "x", message: "Failed", step: "extract" } },
    10,
  );
  await handle.db.insert(cases).values({
    veterinarianId: vetB,
    notes: "Rex, another vet's dog, vomiting.",
    status: "COMPLETED",
    patient: patient("Rex", 1),
  });
});
afterAll(() => handle.close());

const idsOf = (result: { data: { id: string }[] }) => result.data.map((row) => row.id);

describe("searchCases", () => {
  it("lists only the vet's cases, newest first, with summaries", async () => {
    const result = await searchCases(handle.db, { veterinarianId: vetA });
    expect(idsOf(result)).toEqual([ids.failed, ids.pending, ids.extracting, ids.tom, ids.rex]);
    expect(result).toMatchObject({ total: 5, page: 1, pageCount: 1 });
    expect(result.data[0]).toMatchObject({ status: "ERROR", error: { message: "Failed" } });
    expect(result.data.find((row) => row.id === ids.extracting)).toMatchObject({
      patientName: "Biscuit",
      animalTypeId: 1,
    });
    expect(result.data.find((row) => row.id === ids.pending)).toMatchObject({
      patientName: null,
      animalTypeId: null,
      error: null,
    });
  });

  it("finds the patient's name or words of the notes, case-insensitively, every word required", async () => {
    expect(idsOf(await searchCases(handle.db, { veterinarianId: vetA, query: "rex" }))).toEqual([ids.rex]);
    expect(idsOf(await searchCases(handle.db, { veterinarianId: vetA, query: "biscuit" }))).toEqual([
      ids.extracting,
    ]);
    expect(idsOf(await searchCases(handle.db, { veterinarianId: vetA, query: "VOMITING" }))).toEqual([
      ids.pending,
      ids.rex,
    ]);
    expect(idsOf(await searchCases(handle.db, { veterinarianId: vetA, query: "vomiting bloody" }))).toEqual([
      ids.rex,
    ]);
  });

  it("treats % and _ as text, not patterns", async () => {
    expect(idsOf(await searchCases(handle.db, { veterinarianId: vetA, query: "100%" }))).toEqual([
      ids.extracting,
    ]);
    expect(idsOf(await searchCases(handle.db, { veterinarianId: vetA, query: "5_000" }))).toEqual([
      ids.extracting,
    ]);
    expect(idsOf(await searchCases(handle.db, { veterinarianId: vetA, query: "%" }))).toEqual([
      ids.extracting,
    ]);
  });

  it("filters by status and by species (the patient's, else the extracted one)", async () => {
    expect(
      idsOf(await searchCases(handle.db, { veterinarianId: vetA, status: ["PENDING", "SANITIZING"] })),
    ).toEqual([ids.pending, ids.extracting]);
    expect(idsOf(await searchCases(handle.db, { veterinarianId: vetA, animalTypeId: 1 }))).toEqual([
      ids.extracting,
      ids.rex,
    ]);
    expect(
      idsOf(await searchCases(handle.db, { veterinarianId: vetA, animalTypeId: 2, status: ["COMPLETED"] })),
    ).toEqual([ids.tom]);
  });

  it("pages with totals", async () => {
    const first = await searchCases(handle.db, { veterinarianId: vetA, pageSize: 2 });
    const third = await searchCases(handle.db, { veterinarianId: vetA, pageSize: 2, page: 3 });
    expect(first).toMatchObject({ total: 5, pageCount: 3, page: 1 });
    expect(idsOf(first)).toEqual([ids.failed, ids.pending]);
    expect(idsOf(third)).toEqual([ids.rex]);
    expect(idsOf(await searchCases(handle.db, { veterinarianId: vetA, pageSize: 2, page: 9 }))).toEqual([]);
  });

  it("looks up given ids, ignoring malformed ones and another vet's cases", async () => {
    const [foreign] = await handle.db.select({ id: cases.id }).from(cases);
    const result = await searchCases(handle.db, {
      veterinarianId: vetB,
      ids: [ids.rex!, "not-a-uuid", foreign!.id],
    });
    expect(result.data.every((row) => row.id !== ids.rex)).toBe(true);
    expect(
      idsOf(await searchCases(handle.db, { veterinarianId: vetA, ids: [ids.pending!, "nope"] })),
    ).toEqual([ids.pending]);
    expect(await searchCases(handle.db, { veterinarianId: vetA, ids: ["nope"] })).toMatchObject({
      data: [],
      total: 0,
    });
  });
});
