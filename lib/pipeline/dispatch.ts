// Hands a new case to the pipeline: an Inngest event when Inngest is configured, else the inline
// runner in this process.
import { getDb } from "@/db";
import { inngest, inngestConfigured } from "@/inngest/client";
import { caseCreated } from "@/inngest/events";
import { getExtractor } from "@/lib/ai/providers";
import { getInlineRunner, InlineRunner } from "./inline-runner";

export function processRunner(): InlineRunner {
  return getInlineRunner(
    () => new InlineRunner(async () => ({ db: await getDb(), extractor: getExtractor() })),
  );
}

export async function dispatchCase(event: { caseId: string; veterinarianId: string }): Promise<void> {
  if (inngestConfigured()) {
    await inngest.send(caseCreated.create({ case_id: event.caseId, veterinarian_id: event.veterinarianId }));
    return;
  }
  processRunner().enqueue(event.caseId);
}
