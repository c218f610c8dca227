// Runs a case's steps in order with retries, for the inline runner (Inngest does the same with
// its own durable steps and retries in inngest/functions/process-case.ts).
import type { Database } from "@/db";
import type { Extractor } from "@/lib/ai/types";
import { logger } from "@/lib/logger";
import { caseErrorFrom, PipelineError, type PipelineStep } from "./errors";
import {
  claimRun,
  completeStep,
  extractStep,
  failCase,
  sanitizeStep,
  startStep,
  type StepOutcome,
} from "./steps";

export const STEP_ATTEMPTS = 3;
const BACKOFF_MS = [200, 1000];

export interface PipelineDeps {
  db: Database;
  extractor: Extractor;
  /** Waits between attempts; tests pass a no-op. */
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function withRetries(
  step: PipelineStep,
  run: () => Promise<StepOutcome>,
  deps: PipelineDeps,
  caseId: string,
) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      const retriable = !(error instanceof PipelineError) || error.retriable;
      logger.warn({ err: error, case_id: caseId, step, attempt }, "pipeline step failed");
      if (!retriable || attempt >= STEP_ATTEMPTS) throw Object.assign(error as object, { step });
      await (deps.sleep ?? wait)(BACKOFF_MS[attempt - 1] ?? 2000);
    }
  }
}

/** Processes one case to COMPLETED or ERROR. Never throws. */
export async function runCase(deps: PipelineDeps, caseId: string): Promise<void> {
  const { db, extractor } = deps;
  let step: PipelineStep = "start";
  try {
    if ((await claimRun(db, caseId)) !== "done") return;
    const steps: [PipelineStep, () => Promise<StepOutcome>][] = [
      ["start", () => startStep(db, caseId)],
      ["extract", () => extractStep(db, caseId, extractor)],
      ["sanitize", () => sanitizeStep(db, caseId)],
      ["complete", () => completeStep(db, caseId)],
    ];
    for (const [name, run] of steps) {
      step = name;
      if ((await withRetries(name, run, deps, caseId)) === "gone") return;
    }
  } catch (error) {
    logger.error({ err: error, case_id: caseId, step }, "case processing failed");
    await failCase(db, caseId, caseErrorFrom(error, step)).catch((failure: unknown) =>
      logger.error({ err: failure, case_id: caseId }, "could not record the failure"),
    );
  }
}
