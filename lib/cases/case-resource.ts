// A case row as the API shows it: fields appear as the pipeline produces them (spec 2.1).
import type { cases } from "@/db/schema";
import type { CaseResource } from "./schemas";

type CaseRow = typeof cases.$inferSelect;

export function toCaseResource(row: CaseRow): CaseResource {
  const resource: CaseResource = {
    id: row.id,
    notes: row.notes,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    selected_symptoms: row.selectedSymptoms as CaseResource["selected_symptoms"],
    de_selected_symptoms: row.deSelectedSymptoms as CaseResource["de_selected_symptoms"],
    attachment_ids: row.attachmentIds as string[],
    selected_diagnoses: row.selectedDiagnoses as CaseResource["selected_diagnoses"],
  };
  if (row.aiExtractedPatient !== null)
    resource.ai_extracted_patient = row.aiExtractedPatient as CaseResource["ai_extracted_patient"];
  if (row.suggestedSymptoms !== null)
    resource.suggested_symptoms = row.suggestedSymptoms as CaseResource["suggested_symptoms"];
  if (row.rawAiResponse !== null)
    resource.raw_ai_response = row.rawAiResponse as CaseResource["raw_ai_response"];
  if (row.sanitizedSymptoms !== null)
    resource.sanitized_symptoms = row.sanitizedSymptoms as CaseResource["sanitized_symptoms"];
  if (row.patient !== null) resource.patient = row.patient as CaseResource["patient"];
  if (row.soapNotes !== null) resource.soap_notes = row.soapNotes as CaseResource["soap_notes"];
  if (row.status === "ERROR" && row.error !== null) resource.error = row.error as CaseResource["error"];
  return resource;
}

/** A case row with its JSON columns as PostgreSQL's text, unparsed (getCaseResourceJson). */
export interface CaseJsonRow {
  id: string;
  version: number;
  notes: string;
  status: CaseRow["status"];
  createdAt: Date;
  updatedAt: Date;
  selectedSymptoms: string;
  deSelectedSymptoms: string;
  attachmentIds: string;
  selectedDiagnoses: string;
  aiExtractedPatient: string | null;
  suggestedSymptoms: string | null;
  rawAiResponse: string | null;
  sanitizedSymptoms: string | null;
  patient: string | null;
  soapNotes: string | null;
  error: string | null;
}

/**
 * The same resource as `toCaseResource`, as JSON text spliced from the columns' JSON text: a
 * polled case is answered without parsing its JSON columns only to serialise them again.
 * (case-resource.test.ts holds the two to the same output.)
 */
export function caseResourceJson(row: CaseJsonRow): string {
  const fields = [
    `"id":${JSON.stringify(row.id)}`,
    `"notes":${JSON.stringify(row.notes)}`,
    `"status":${JSON.stringify(row.status)}`,
    `"created_at":"${row.createdAt.toISOString()}"`,
    `"updated_at":"${row.updatedAt.toISOString()}"`,
    `"selected_symptoms":${row.selectedSymptoms}`,
    `"de_selected_symptoms":${row.deSelectedSymptoms}`,
    `"attachment_ids":${row.attachmentIds}`,
    `"selected_diagnoses":${row.selectedDiagnoses}`,
  ];
  if (row.aiExtractedPatient !== null) fields.push(`"ai_extracted_patient":${row.aiExtractedPatient}`);
  if (row.suggestedSymptoms !== null) fields.push(`"suggested_symptoms":${row.suggestedSymptoms}`);
  if (row.rawAiResponse !== null) fields.push(`"raw_ai_response":${row.rawAiResponse}`);
  if (row.sanitizedSymptoms !== null) fields.push(`"sanitized_symptoms":${row.sanitizedSymptoms}`);
  if (row.patient !== null) fields.push(`"patient":${row.patient}`);
  if (row.soapNotes !== null) fields.push(`"soap_notes":${row.soapNotes}`);
  if (row.status === "ERROR" && row.error !== null) fields.push(`"error":${row.error}`);
  return `{${fields.join(",")}}`;
}

/** A strong validator that changes whenever the case does (every write increments version). */
export function caseEtag(row: { id: string; version: number }): string {
  return `"${row.id}.${row.version}"`;
}
