// The inline runner (Inngest's stand-in in the server process): a dispatched case is processed to
// COMPLETED, and on start it finishes the cases a crash left in every processing state.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases } from "@/db/schema";
import { localExtractor } from "@/lib/ai/local/local-extractor";
import { extractStep, sanitizeStep, startStep } from "@/lib/pipeline/steps";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { InlineRunner } from "./inline-runner";

let handle: DatabaseHandle;
let vetId: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  vetId = (await createVeterinarian(handle.db, { email: "inline@example.com", name: "Dr L" })).id;
});
afterAll(() => handle.close());

async function newCase() {
  const notes = "Bella, 4yo FS Lab, 28 kg. Vomiting x3. No diarrhoea.";
  const [row] = await handle.db.insert(cases).values({ veterinarianId: vetId, notes }).returning();
  return row!.id;
}

const statusOf = async (caseId: string) =>
  (await handle.db.select({ status: cases.status }).from(cases).where(eq(cases.id, caseId)))[0]!.status;

const runner = (concurrency?: number) =>
  new InlineRunner(async () => ({ db: handle.db, extractor: localExtractor }), concurrency);

describe("InlineRunner", () => {
  it("processes a dispatched case to COMPLETED", async () => {
    const inline = runner();
    const caseId = await newCase();
    await inline.dispatch({ caseId, veterinarianId: vetId });
    await inline.idle();
    expect(await statusOf(caseId)).toBe("COMPLETED");
  });

  it("finishes cases a crash left in every processing state", async () => {
    const states = ["PENDING", "PROCESSING", "INITIAL_AI_PROCESSING_DONE", "SANITIZING"] as const;
    const ids: string[] = [];
    for (const status of states) {
      const caseId = await newCase();
      // Bring the case to `status` with the real steps, as a run that then died would have.
      if (status !== "PENDING") await startStep(handle.db, caseId);
      if (status === "INITIAL_AI_PROCESSING_DONE" || status === "SANITIZING")
        await extractStep(handle.db, caseId, localExtractor);
      if (status === "SANITIZING") await sanitizeStep(handle.db, caseId);
      expect(await statusOf(caseId)).toBe(status);
      ids.push(caseId);
    }
    const inline = runner(2);
    expect(await inline.resumeUnfinished()).toBeGreaterThanOrEqual(states.length);
    await inline.idle();
    for (const caseId of ids) expect(await statusOf(caseId)).toBe("COMPLETED");
  });
});
