// process-case: the durable case pipeline under Inngest. Each step is one of lib/pipeline's
// idempotent steps, with stable ids; a run that fails after its retries ends the case in ERROR.
import { getDb } from "@/db";
import { getExtractor } from "@/lib/ai/providers";
import { caseErrorFrom, type PipelineStep } from "@/lib/pipeline/errors";
import { completeStep, extractStep, failCase, sanitizeStep, startStep } from "@/lib/pipeline/steps";
import { inngest } from "../client";
import { caseCreated } from "../events";

/** The failure handler (onFailure): marks the case ERROR with the failing step's reason. */
export async function handleProcessCaseFailure({
  event,
  error,
}: {
  event: { data: { event: { data: { case_id: string } }; step_id?: string } };
  error: unknown;
}) {
  const stepId = event.data.step_id;
  const step: PipelineStep =
    stepId === "start" || stepId === "sanitize" || stepId === "complete" ? stepId : "extract";
  await failCase(await getDb(), event.data.event.data.case_id, caseErrorFrom(error, step));
}

export const processCase = inngest.createFunction(
  {
    id: "process-case",
    name: "Process case notes",
    triggers: [caseCreated],
    retries: 3,
    // One vet's burst cannot starve everyone else's cases.
    concurrency: { key: "event.data.veterinarian_id", limit: 5 },
    onFailure: handleProcessCaseFailure as never,
  },
  async ({ event, step }) => {
    const caseId = event.data.case_id;
    const started = await step.run("start", async () => startStep(await getDb(), caseId));
    if (started === "gone") return { case_id: caseId, outcome: "deleted" };
    await step.run("extract", async () => extractStep(await getDb(), caseId, getExtractor()));
    await step.run("sanitize", async () => sanitizeStep(await getDb(), caseId));
    const completed = await step.run("complete", async () => completeStep(await getDb(), caseId));
    return { case_id: caseId, outcome: completed };
  },
);

export const functions = [processCase];
