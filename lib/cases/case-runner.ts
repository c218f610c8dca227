// What createCase hands a stored case to: the pipeline's runner. The surfaces get theirs from
// inngest/runner.ts (Inngest when configured, else the inline runner in this process), so lib/
// needs neither Inngest nor a runner.
export interface NewCase {
  caseId: string;
  veterinarianId: string;
}

export interface CaseRunner {
  /** Queues the case for processing; rejects when it could not be queued. */
  dispatch(newCase: NewCase): Promise<void>;
}
