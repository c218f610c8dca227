// Generates SOAP notes for one of the vet's cases and stores them on it: the configured model when
// AI_MODEL is set (falling back to the local writer if it fails or times out), else the local writer.
import { and, eq } from "drizzle-orm";
import type { LanguageModel } from "ai";
import type { Database } from "@/db";
import { cases } from "@/db/schema";
import { announceCaseUpdate } from "@/lib/cases/case-updates";
import { getCaseRow } from "@/lib/cases/get-case";
import { touched } from "@/lib/cases/touch";
import { languageModel } from "@/lib/ai/model";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { LOCAL_SOAP_GENERATOR, soapText, writeSoapNotesLocally } from "./local-soap-generator";
import { writeSoapNotesWithModel } from "./model-soap-generator";
import type { SoapNotes, SoapSections } from "./schemas";
import { buildSoapContext, soapInputForCase, type SoapInput } from "./soap-context";

export interface SoapModel {
  model: LanguageModel;
  /** How `generator` names it, e.g. "openai:gpt-4.1-mini". */
  name: string;
}

export interface SoapOptions {
  /** The model to write with; default: AI_MODEL when set. null: the local writer only. */
  model?: SoapModel | null;
}

function configuredModel(): SoapModel | null {
  const spec = getEnv().AI_MODEL;
  return spec ? { model: languageModel(spec), name: spec } : null;
}

/** SOAP notes from a case-shaped input, without storing them (free-form sessions use this directly). */
export async function writeSoapNotes(
  db: Database,
  input: SoapInput,
  options: SoapOptions = {},
): Promise<SoapNotes> {
  const context = await buildSoapContext(db, input);
  const chosen = options.model === undefined ? configuredModel() : options.model;
  let sections: SoapSections | undefined;
  let generator = LOCAL_SOAP_GENERATOR;
  if (chosen) {
    const signal = AbortSignal.timeout(getEnv().AI_TIMEOUT_SECONDS * 1000);
    try {
      sections = await writeSoapNotesWithModel(chosen.model, context, signal);
      generator = chosen.name;
    } catch (error) {
      const reason = signal.aborted ? "timed out" : "failed";
      logger.warn({ err: error, model: chosen.name }, `SOAP model ${reason}; using the local writer`);
      generator = `${LOCAL_SOAP_GENERATOR} (fallback: ${chosen.name} ${reason})`;
    }
  }
  sections ??= writeSoapNotesLocally(context);
  return { ...sections, text: soapText(sections), generator, generated_at: new Date().toISOString() };
}

export async function generateSoapNotes(
  db: Database,
  where: { caseId: string; veterinarianId: string },
  options: SoapOptions = {},
): Promise<SoapNotes> {
  const row = await getCaseRow(db, where);
  if (row.status !== "COMPLETED" && row.status !== "ERROR") {
    throw new AppError(
      "conflict",
      `The case is still being processed (${row.status}); generate SOAP notes once it is COMPLETED`,
    );
  }
  const notes = await writeSoapNotes(db, soapInputForCase(row), options);
  const updated = await db
    .update(cases)
    .set({ soapNotes: notes, ...touched() })
    .where(and(eq(cases.id, row.id), eq(cases.veterinarianId, where.veterinarianId)))
    .returning({ id: cases.id });
  if (updated.length === 0) throw new AppError("not_found", `Case ${where.caseId} was not found`);
  await announceCaseUpdate(db, row.id);
  return notes;
}
