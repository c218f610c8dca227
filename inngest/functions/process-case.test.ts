// process-case under @inngest/test: the durable function runs the same steps as the inline runner;
// its failure handler (which @inngest/test does not run) is tested directly.
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases } from "@/db/schema";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { handleProcessCaseFailure, processCase } from "./process-case";

let handle: DatabaseHandle;
let vetId: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  vetId = (await createVeterinarian(handle.db, { email: "inngest@example.com", name: "Dr I" })).id;
});
afterAll(() => handle.close());

async function newCase(notes: string) {
  const [row] = await handle.db.insert(cases).values({ veterinarianId: vetId, notes }).returning();
  return row!.id;
}

const read = async (id: string) => (await handle.db.select().from(cases).where(eq(cases.id, id)))[0]!;

describe("process-case", () => {
  it("takes a case from PENDING to COMPLETED through its four steps", async () => {
    const caseId = await newCase(
      "Rex, 6yo MN GSD, 35kg. Vomiting and diarrhoea since this morning. Not coughing.",
    );
    const engine = new InngestTestEngine({
      function: processCase,
      events: [{ name: "case/created", data: { case_id: caseId, veterinarian_id: vetId } }],
    });
    const { result, error } = await engine.execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ case_id: caseId, outcome: "done" });
    const row = await read(caseId);
    expect(row.status).toBe("COMPLETED");
    expect(row.patient).toMatchObject({ animal_type_id: 1, weight_kg: 35, neutered: true });
  });

  it("replays harmlessly: a second run over a completed case changes nothing", async () => {
    const caseId = await newCase("Cat, sneezing and nasal discharge.");
    const engine = new InngestTestEngine({
      function: processCase,
      events: [{ name: "case/created", data: { case_id: caseId, veterinarian_id: vetId } }],
    });
    await engine.execute();
    const before = await read(caseId);
    // A new engine: a real replay after the steps' memoized results are lost.
    const again = await new InngestTestEngine({
      function: processCase,
      events: [{ name: "case/created", data: { case_id: caseId, veterinarian_id: vetId } }],
    }).execute();
    expect(again.result).toEqual({ case_id: caseId, outcome: "skipped" });
    expect((await read(caseId)).version).toBe(before.version);
  });

  it("ends a deleted case's run without error", async () => {
    const caseId = await newCase("Dog, limping.");
    await handle.db.delete(cases).where(eq(cases.id, caseId));
    const engine = new InngestTestEngine({
      function: processCase,
      events: [{ name: "case/created", data: { case_id: caseId, veterinarian_id: vetId } }],
    });
    expect((await engine.execute()).result).toEqual({ case_id: caseId, outcome: "deleted" });
  });
});

describe("handleProcessCaseFailure", () => {
  it("sets ERROR with the failing step and a safe message", async () => {
    const caseId = await newCase("Dog, vomiting.");
    await handleProcessCaseFailure({
      event: { data: { event: { data: { case_id: caseId } }, step_id: "extract" } },
      error: new Error("ECONNREFUSED 10.1.2.3:443"),
    });
    const row = await read(caseId);
    expect(row.status).toBe("ERROR");
    expect(row.error).toEqual({
      code: "internal_error",
      message: "Processing failed unexpectedly",
      step: "extract",
    });
  });

  it("leaves a completed case alone", async () => {
    const caseId = await newCase("Cat, coughing.");
    await new InngestTestEngine({
      function: processCase,
      events: [{ name: "case/created", data: { case_id: caseId, veterinarian_id: vetId } }],
    }).execute();
    await handleProcessCaseFailure({
      event: { data: { event: { data: { case_id: caseId } } } },
      error: new Error("late failure"),
    });
    expect((await read(caseId)).status).toBe("COMPLETED");
  });
});
