// The case pipeline's steps (spec section 3, DESIGN section 5), runner-independent: the Inngest
// function and the inline runner call the same four functions. Each step moves the case from one
// status to the next in one transaction, and does nothing when the case has already moved on, so
// running a step twice (a retry, a replay, a resumed run) is harmless.
import { eq, inArray } from "drizzle-orm";
import type { Database, Transaction } from "@/db";
import { cases, type CaseStatus } from "@/db/schema";
import { announceCaseUpdate } from "@/lib/cases/case-updates";
import { touched } from "@/lib/cases/touch";
import { loadLexicon, type Lexicon } from "@/lib/ai/lexicon";
import type { Extraction, Extractor } from "@/lib/ai/types";
import { getEnv } from "@/lib/env";
import { PipelineError, type PipelineStep } from "./errors";
import {
  fromRawAiResponse,
  toAiExtractedPatient,
  toRawAiResponse,
  toSuggestedSymptoms,
  type RawAiResponse,
} from "./extraction-record";
import { sanitizeExtraction } from "./sanitize-extraction";
import { findLabFindings } from "@/lib/ai/local/lab-values";
import { LOCAL_EXTRACTOR_NAME } from "@/lib/ai/local/local-extractor";
import { findRiskContext } from "@/lib/ai/local/risk-context";

/** done: this call moved the case on; skipped: it had already moved on; gone: deleted meanwhile. */
export type StepOutcome = "done" | "skipped" | "gone";

export const PROCESSING_STATUSES: CaseStatus[] = [
  "PENDING",
  "PROCESSING",
  "INITIAL_AI_PROCESSING_DONE",
  "SANITIZING",
];

/** A run that has started this many times without finishing is abandoned (crash loops). */
export const MAX_RUNS = 3;

async function lockCase(tx: Transaction, caseId: string) {
  const [row] = await tx.select().from(cases).where(eq(cases.id, caseId)).for("update");
  return row;
}

/** Records that a run (re)starts; abandons the case after MAX_RUNS starts. */
export async function claimRun(db: Database, caseId: string): Promise<StepOutcome> {
  const abandoned = await db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    if (!row) return "gone" as const;
    if (!PROCESSING_STATUSES.includes(row.status)) return "skipped" as const;
    const attempts = row.processingAttempts + 1;
    await tx
      .update(cases)
      .set({ processingAttempts: attempts, processingClaimedAt: new Date() })
      .where(eq(cases.id, caseId));
    return attempts > MAX_RUNS ? ("abandoned" as const) : ("done" as const);
  });
  if (abandoned === "abandoned") {
    await failCase(db, caseId, {
      code: "abandoned",
      message: `Processing was interrupted ${MAX_RUNS} times; submit the notes again`,
      step: "start",
    });
    return "skipped";
  }
  return abandoned;
}

export async function startStep(db: Database, caseId: string): Promise<StepOutcome> {
  return db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    if (!row) return "gone";
    if (row.status !== "PENDING") return "skipped";
    await tx
      .update(cases)
      .set({ status: "PROCESSING", ...touched() })
      .where(eq(cases.id, caseId));
    await announceCaseUpdate(tx, caseId);
    return "done";
  });
}

async function runExtractor(
  extractor: Extractor,
  notes: string,
  lexicon: Awaited<ReturnType<typeof loadLexicon>>,
) {
  const timeoutMs = getEnv().AI_TIMEOUT_SECONDS * 1000;
  const signal = AbortSignal.timeout(timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PipelineError(
            "extraction_timeout",
            `The extractor did not answer within ${timeoutMs / 1000} s`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([extractor.extract(notes, lexicon, { signal }), timeout]);
  } catch (error) {
    if (error instanceof PipelineError) throw error;
    if (signal.aborted)
      throw new PipelineError(
        "extraction_timeout",
        `The extractor did not answer within ${timeoutMs / 1000} s`,
      );
    throw new PipelineError("extraction_failed", "The extractor failed to read the notes");
  } finally {
    clearTimeout(timer);
  }
}

export async function extractStep(db: Database, caseId: string, extractor: Extractor): Promise<StepOutcome> {
  const [row] = await db
    .select({ status: cases.status, notes: cases.notes })
    .from(cases)
    .where(eq(cases.id, caseId));
  if (!row) return "gone";
  if (row.status !== "PROCESSING") return "skipped";
  const lexicon = await loadLexicon(db);
  const extraction: Extraction = await runExtractor(extractor, row.notes, lexicon);
  // Any extractor's output gets the risk context and the measured findings read from the notes
  // the same way (the local extractor reads both itself).
  extraction.patient.riskContext ??= findRiskContext(row.notes);
  if (extraction.extractor !== LOCAL_EXTRACTOR_NAME) addMeasuredFindings(extraction, row.notes, lexicon);
  return db.transaction(async (tx) => {
    const current = await lockCase(tx, caseId);
    if (!current) return "gone";
    if (current.status !== "PROCESSING") return "skipped";
    await tx
      .update(cases)
      .set({
        status: "INITIAL_AI_PROCESSING_DONE",
        aiExtractedPatient: toAiExtractedPatient(extraction, lexicon),
        suggestedSymptoms: toSuggestedSymptoms(extraction, lexicon),
        rawAiResponse: toRawAiResponse(extraction, lexicon),
        ...touched(),
      })
      .where(eq(cases.id, caseId));
    await announceCaseUpdate(tx, caseId);
    return "done";
  });
}

/** Laboratory findings read from values ("PCV 18%") that another extractor's output lacks. */
function addMeasuredFindings(extraction: Extraction, notes: string, lexicon: Lexicon) {
  const key =
    extraction.patient.animalTypeId !== null
      ? lexicon.animalTypeById.get(extraction.patient.animalTypeId)?.key
      : null;
  const { findings, flags } = findLabFindings(notes, key ?? null, extraction.patient.ageYears);
  const have = new Set(extraction.symptoms.filter((m) => m.status === "present").map((m) => m.symptomId));
  for (const finding of findings) {
    const symptomId = lexicon.symptoms.find((s) => s.name === finding.sign)?.id;
    if (symptomId === undefined || have.has(symptomId)) continue;
    have.add(symptomId);
    extraction.symptoms.push({
      symptomId,
      keyPhrases: [notes.slice(finding.start, finding.end).trim()],
      distance: 0,
      status: "present",
      significant: finding.significant,
    });
  }
  if (flags.length > 0) extraction.flags = [...(extraction.flags ?? []), ...flags];
}

export async function sanitizeStep(db: Database, caseId: string): Promise<StepOutcome> {
  const lexicon = await loadLexicon(db);
  return db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    if (!row) return "gone";
    if (row.status !== "INITIAL_AI_PROCESSING_DONE") return "skipped";
    const sanitized = sanitizeExtraction(fromRawAiResponse(row.rawAiResponse as RawAiResponse), lexicon);
    await tx
      .update(cases)
      .set({ status: "SANITIZING", sanitizedSymptoms: sanitized.sanitized_symptoms, ...touched() })
      .where(eq(cases.id, caseId));
    await announceCaseUpdate(tx, caseId);
    return "done";
  });
}

export async function completeStep(db: Database, caseId: string): Promise<StepOutcome> {
  const lexicon = await loadLexicon(db);
  return db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    if (!row) return "gone";
    if (row.status !== "SANITIZING") return "skipped";
    const sanitized = sanitizeExtraction(fromRawAiResponse(row.rawAiResponse as RawAiResponse), lexicon);
    await tx
      .update(cases)
      .set({
        status: "COMPLETED",
        patient: sanitized.patient,
        sanitizedSymptoms: sanitized.sanitized_symptoms,
        selectedSymptoms: sanitized.sanitized_symptoms.map((s) => ({ id: s.id, significant: s.significant })),
        deSelectedSymptoms: [],
        error: null,
        ...touched(),
      })
      .where(eq(cases.id, caseId));
    await announceCaseUpdate(tx, caseId);
    return "done";
  });
}

/** Ends a run that failed for good: ERROR with `{code, message, step}`, unless already finished. */
export async function failCase(
  db: Database,
  caseId: string,
  error: { code: string; message: string; step: PipelineStep | "dispatch" },
): Promise<StepOutcome> {
  return db.transaction(async (tx) => {
    const row = await lockCase(tx, caseId);
    if (!row) return "gone";
    if (!PROCESSING_STATUSES.includes(row.status)) return "skipped";
    await tx
      .update(cases)
      .set({ status: "ERROR", error, ...touched() })
      .where(eq(cases.id, caseId));
    await announceCaseUpdate(tx, caseId);
    return "done";
  });
}

/** Cases whose run did not finish (a crash, a restart): the inline runner resumes them on start. */
export async function unfinishedCaseIds(db: Database): Promise<string[]> {
  const rows = await db
    .select({ id: cases.id })
    .from(cases)
    .where(inArray(cases.status, PROCESSING_STATUSES))
    .orderBy(cases.createdAt);
  return rows.map((row) => row.id);
}
