// Stores a new case (PENDING) for the calling vet and hands it to the runner the surface passes
// (inngest/runner.ts chooses it), within the vet's daily case quota (CASES_PER_VET_PER_DAY; every
// case costs a pipeline run and maybe a model call).
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { cases } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { Identity } from "@/lib/auth/identity";
import { caseQuota, checkRateLimit, RateLimitedError } from "@/lib/http/rate-limit";
import { logger } from "@/lib/logger";
import { toCaseResource } from "./case-resource";
import type { CaseRunner } from "./case-runner";
import type { CreateCaseInput } from "./schemas";
import { touched } from "./touch";

export async function createCase(
  db: Database,
  identity: Identity,
  input: CreateCaseInput,
  runner: CaseRunner,
) {
  const quota = await checkRateLimit(caseQuota(), identity.veterinarianId);
  if (quota.limited) {
    throw new RateLimitedError(
      quota,
      `This veterinarian has created ${quota.limit} cases in the last day, the daily quota; try again later`,
    );
  }
  const [row] = await db
    .insert(cases)
    .values({ veterinarianId: identity.veterinarianId, notes: input.notes })
    .returning();
  if (!row) throw new Error("case not stored");
  try {
    await runner.dispatch({ caseId: row.id, veterinarianId: identity.veterinarianId });
  } catch (error) {
    logger.error({ err: error, case_id: row.id }, "could not dispatch case");
    await db
      .update(cases)
      .set({
        status: "ERROR",
        error: {
          code: "dispatch_failed",
          message: "The case could not be queued for processing",
          step: "dispatch",
        },
        ...touched(),
      })
      .where(eq(cases.id, row.id));
    throw new AppError("unavailable", "The case could not be queued for processing; try again", {
      retryAfterSeconds: 5,
    });
  }
  return toCaseResource(row);
}
