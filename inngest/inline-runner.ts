// The in-process runner that stands in for Inngest when it is not configured: a bounded queue in
// the server process running lib/pipeline's steps (runCase). On start it resumes every case a
// crash or restart left in a processing state.
import type { Database } from "@/db";
import type { Extractor } from "@/lib/ai/types";
import type { CaseRunner, NewCase } from "@/lib/cases/case-runner";
import { logger } from "@/lib/logger";
import { runCase } from "@/lib/pipeline/run-case";
import { unfinishedCaseIds } from "@/lib/pipeline/steps";

export class InlineRunner implements CaseRunner {
  private readonly queue: string[] = [];
  private readonly known = new Set<string>();
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly deps: () => Promise<{ db: Database; extractor: Extractor }>,
    private readonly concurrency = 4,
  ) {}

  async dispatch({ caseId }: NewCase): Promise<void> {
    this.enqueue(caseId);
  }

  private enqueue(caseId: string): void {
    if (this.known.has(caseId)) return;
    this.known.add(caseId);
    this.queue.push(caseId);
    this.pump();
  }

  /** Queues every unfinished case; returns how many. */
  async resumeUnfinished(): Promise<number> {
    const { db } = await this.deps();
    const ids = await unfinishedCaseIds(db);
    ids.forEach((id) => this.enqueue(id));
    return ids.length;
  }

  /** Resolves when nothing is queued or running (tests, graceful shutdown). */
  idle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const caseId = this.queue.shift()!;
      this.running += 1;
      void this.process(caseId);
    }
    if (this.running === 0 && this.queue.length === 0) {
      this.idleWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  private async process(caseId: string): Promise<void> {
    try {
      await runCase(await this.deps(), caseId);
    } catch (error) {
      logger.error({ err: error, case_id: caseId }, "inline runner failed");
    } finally {
      this.known.delete(caseId);
      this.running -= 1;
      this.pump();
    }
  }
}
