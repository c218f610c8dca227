// Differentials for one of the vet's cases: the ranker's input read from the case (patient,
// age from the extraction, selected signs present; rejected and denied signs absent).
import { z } from "zod";
import type { Database } from "@/db";
import type { cases } from "@/db/schema";
import { limitParam } from "@/lib/catalogue/schemas";
import { getCaseRow } from "@/lib/cases/get-case";
import { invalid } from "@/lib/errors";
import {
  rankCase,
  type DifferentialsRequest,
  type RankedDifferentials,
  type RiskContextInput,
} from "./rank-differentials";

type CaseRow = typeof cases.$inferSelect;

export const caseDifferentialsQuery = z.strictObject({
  limit: limitParam(20).describe("How many differentials to return, the most probable first"),
});

interface StoredPatient {
  animal_type_id?: number | null;
  breed_id?: number | null;
  gender_id?: number | null;
  neutered?: boolean | null;
}
interface StoredRaw {
  animal?: { animal_type_id?: number | null; age_years?: number | null; risk_context?: RiskContextInput };
}
interface StoredSuggestion {
  symptom?: { id?: number };
  status?: string;
  key_phrases?: string[];
}

/**
 * The notes without the phrases the extractor read as signs (present, denied or past): the ranker
 * counts those through the signs already, and matches the rest of the words (the organ, what
 * happened) against each condition's text.
 */
function notesBeyondSigns(notes: string, suggestions: StoredSuggestion[]): string {
  const phrases = [
    ...new Set(suggestions.flatMap((s) => s.key_phrases ?? []).filter((p) => p.trim().length > 0)),
  ].sort((a, b) => b.length - a.length);
  let rest = notes;
  for (const phrase of phrases) rest = rest.split(phrase).join(" ");
  return rest;
}

/** The ranker's input for a case; a case whose species nobody has set cannot be ranked (400). */
export function differentialsInputForCase(row: CaseRow): DifferentialsRequest {
  const input = caseRankingInput(row);
  if (input.animal_type_id === null) {
    throw invalid(
      "The case has no species yet: set the patient's animal type (PATCH /v1/cases/{id} with patient.animal_type_id) to rank differentials",
      [{ path: "patient.animal_type_id", message: "required to rank differentials" }],
    );
  }
  return { ...input, animal_type_id: input.animal_type_id };
}

/** The ranker's input for a case, with its species null when nobody has set one. */
export function caseRankingInput(
  row: CaseRow,
): Omit<DifferentialsRequest, "animal_type_id"> & { animal_type_id: number | null } {
  const patient = (row.patient ?? {}) as StoredPatient;
  const raw = (row.rawAiResponse ?? {}) as StoredRaw;
  const animalTypeId =
    patient.animal_type_id ?? (row.patient === null ? raw.animal?.animal_type_id : null) ?? null;
  const present = (row.selectedSymptoms as { id: number }[]).map((s) => s.id);
  const presentIds = new Set(present);
  const suggestions = (row.suggestedSymptoms ?? []) as StoredSuggestion[];
  const denied = suggestions
    .filter((s) => s.status === "absent" && typeof s.symptom?.id === "number")
    .map((s) => s.symptom!.id!);
  const rejected = (row.deSelectedSymptoms as { id: number }[]).map((s) => s.id);
  const absent = [...new Set([...rejected, ...denied])].filter((id) => !presentIds.has(id));
  const age = raw.animal?.age_years;
  return {
    animal_type_id: animalTypeId,
    breed_id: patient.breed_id ?? null,
    gender_id: patient.gender_id ?? null,
    neutered: patient.neutered ?? null,
    age_years: typeof age === "number" && Number.isFinite(age) && age >= 0 ? age : null,
    present_symptom_ids: present,
    absent_symptom_ids: absent,
    context: raw.animal?.risk_context ?? null,
    notes: notesBeyondSigns(row.notes, suggestions),
  };
}

/**
 * A case's differentials. A case whose notes named no species still gets a list, spanning the
 * plausible species (and saying so); a case with too little evidence is marked low-evidence.
 */
export async function differentialsForCase(
  db: Database,
  where: { caseId: string; veterinarianId: string },
  options: { limit?: number } = {},
): Promise<RankedDifferentials> {
  const row = await getCaseRow(db, where);
  return rankCase(db, caseRankingInput(row), { limit: options.limit });
}
