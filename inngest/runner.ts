// The case runner the surfaces hand to createCase, chosen here once for every surface: Inngest
// when it is configured (INNGEST_EVENT_KEY or INNGEST_DEV), else this process's inline runner.
import { getDb } from "@/db";
import { getExtractor } from "@/lib/ai/providers";
import type { CaseRunner } from "@/lib/cases/case-runner";
import { inngest, inngestConfigured } from "./client";
import { caseCreated } from "./events";
import { InlineRunner } from "./inline-runner";

const inngestRunner: CaseRunner = {
  async dispatch({ caseId, veterinarianId }) {
    await inngest.send(caseCreated.create({ case_id: caseId, veterinarian_id: veterinarianId }));
  },
};

const globalKey = Symbol.for("vetdx.inline-runner");
type Holder = { [globalKey]?: InlineRunner };

/**
 * This process's inline runner, one per process: server.ts resumes unfinished cases on it and
 * waits for it on shutdown, and the route handlers (bundled apart by Next.js) reach the same one
 * through globalThis.
 */
export function inlineRunner(): InlineRunner {
  const holder = globalThis as Holder;
  holder[globalKey] ??= new InlineRunner(async () => ({ db: await getDb(), extractor: getExtractor() }));
  return holder[globalKey];
}

export function caseRunner(): CaseRunner {
  return inngestConfigured() ? inngestRunner : inlineRunner();
}
