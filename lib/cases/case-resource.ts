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

/** A strong validator that changes whenever the case does (every write increments version). */
export function caseEtag(row: { id: string; version: number }): string {
  return `"${row.id}.${row.version}"`;
}
