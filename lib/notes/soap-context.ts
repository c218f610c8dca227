// Everything SOAP notes may say, gathered from a case (or a free-form selection) with catalogue
// names resolved: the generators write only from this, so they cannot state what the case lacks.
import { eq, inArray } from "drizzle-orm";
import type { Database } from "@/db";
import { animalTypes, breeds, cases, genders, symptomCategories, symptoms } from "@/db/schema";
import { differentialsInputForCase } from "@/lib/diagnosis/case-differentials";
import { rankDifferentials, type DifferentialsRequest } from "@/lib/diagnosis/rank-differentials";
import { AppError } from "@/lib/errors";
import { workupsFor, type Workup } from "./diagnostic-workup";

type CaseRow = typeof cases.$inferSelect;

/** What the generators are given, by id; `buildSoapContext` turns it into names. */
export interface SoapInput {
  notes: string;
  patient: {
    name: string | null;
    animal_type_id: number | null;
    breed_id: number | null;
    gender_id: number | null;
    neutered: boolean | null;
    weight_kg: number | null;
    age_years: number | null;
  };
  present: { id: number; significant: boolean; key_phrases: string[] }[];
  /** Signs the notes deny ("no diarrhoea"). */
  denied: { id: number; key_phrases: string[] }[];
  /** Signs the notes place in the past. */
  historical: { id: number; key_phrases: string[] }[];
  diagnosis: { id: number; name: string } | null;
  /** The ranker's input, or null when the species is not known. */
  ranking: DifferentialsRequest | null;
}

export interface SoapSign {
  name: string;
  category: string;
  significant: boolean;
  key_phrases: string[];
}

export interface SoapContext {
  notes: string;
  patient: {
    name: string | null;
    species: string | null;
    breed: string | null;
    sex: "male" | "female" | null;
    neutered: boolean | null;
    weight_kg: number | null;
    age_years: number | null;
  };
  signs: SoapSign[];
  denied: SoapSign[];
  historical: SoapSign[];
  diagnosis: { name: string; workup: Workup } | null;
  differentials: { name: string; score: number; supporting: string[]; against: string[]; workup: Workup }[];
}

interface StoredSuggestion {
  symptom: { id: number };
  key_phrases: string[];
  status: string;
}

export function soapInputForCase(row: CaseRow): SoapInput {
  const patient = (row.patient ?? {}) as Partial<SoapInput["patient"]>;
  const raw = (row.rawAiResponse ?? {}) as { animal?: { age_years?: number | null } };
  const suggestions = (row.suggestedSymptoms ?? []) as StoredSuggestion[];
  const phrases = (id: number, status: string) => [
    ...new Set(
      suggestions.filter((s) => s.symptom.id === id && s.status === status).flatMap((s) => s.key_phrases),
    ),
  ];
  const byStatus = (status: string) =>
    [...new Set(suggestions.filter((s) => s.status === status).map((s) => s.symptom.id))].map((id) => ({
      id,
      key_phrases: phrases(id, status),
    }));
  const selected = row.selectedSymptoms as { id: number; significant: boolean }[];
  const selectedIds = new Set(selected.map((s) => s.id));
  let ranking: DifferentialsRequest | null = null;
  try {
    ranking = differentialsInputForCase(row);
  } catch (error) {
    // No species: the notes say so instead of ranking.
    if (!(error instanceof AppError)) throw error;
  }
  const chosen = (row.selectedDiagnoses as { id: number; name: string }[])[0];
  return {
    notes: row.notes,
    patient: {
      name: patient.name ?? null,
      animal_type_id: ranking?.animal_type_id ?? null,
      breed_id: patient.breed_id ?? null,
      gender_id: patient.gender_id ?? null,
      neutered: patient.neutered ?? null,
      weight_kg: patient.weight_kg ?? null,
      age_years: ranking?.age_years ?? raw.animal?.age_years ?? null,
    },
    present: selected.map((s) => ({
      id: s.id,
      significant: s.significant,
      key_phrases: phrases(s.id, "present"),
    })),
    denied: byStatus("absent").filter((s) => !selectedIds.has(s.id)),
    historical: byStatus("historical").filter((s) => !selectedIds.has(s.id)),
    diagnosis: chosen ? { id: chosen.id, name: chosen.name } : null,
    ranking,
  };
}

const DEFAULT_WORKUP: Workup = {
  category: "systemic",
  tests: ["haematology (CBC)", "serum biochemistry", "urinalysis"],
};

/** How many ranked differentials the notes discuss. */
const DIFFERENTIALS_IN_NOTES = 5;

export async function buildSoapContext(db: Database, input: SoapInput): Promise<SoapContext> {
  const { patient } = input;
  const ids = [...input.present, ...input.denied, ...input.historical].map((s) => s.id);
  const [species, breed, gender, signRows, differentials] = await Promise.all([
    patient.animal_type_id === null
      ? undefined
      : db
          .select({ name: animalTypes.name })
          .from(animalTypes)
          .where(eq(animalTypes.id, patient.animal_type_id))
          .then((r) => r[0]),
    patient.breed_id === null
      ? undefined
      : db
          .select({ name: breeds.name })
          .from(breeds)
          .where(eq(breeds.id, patient.breed_id))
          .then((r) => r[0]),
    patient.gender_id === null
      ? undefined
      : db
          .select({ key: genders.key })
          .from(genders)
          .where(eq(genders.id, patient.gender_id))
          .then((r) => r[0]),
    ids.length === 0
      ? []
      : db
          .select({ id: symptoms.id, name: symptoms.name, category: symptomCategories.name })
          .from(symptoms)
          .innerJoin(symptomCategories, eq(symptomCategories.id, symptoms.categoryId))
          .where(inArray(symptoms.id, ids)),
    input.ranking ? rankDifferentials(db, input.ranking, { limit: DIFFERENTIALS_IN_NOTES }) : [],
  ]);
  const signById = new Map(signRows.map((row) => [row.id, row]));
  const sign = (s: { id: number; significant?: boolean; key_phrases: string[] }): SoapSign[] => {
    const known = signById.get(s.id);
    return known
      ? [
          {
            name: known.name,
            category: known.category,
            significant: s.significant ?? false,
            key_phrases: s.key_phrases,
          },
        ]
      : [];
  };
  const workups = await workupsFor(db, input.diagnosis ? [...differentials, input.diagnosis] : differentials);
  const sex = gender?.key === "male" || gender?.key === "female" ? gender.key : null;
  return {
    notes: input.notes,
    patient: {
      name: patient.name,
      species: species?.name ?? null,
      breed: breed?.name ?? null,
      sex,
      neutered: patient.neutered,
      weight_kg: patient.weight_kg,
      age_years: patient.age_years,
    },
    signs: input.present.flatMap(sign),
    denied: input.denied.flatMap(sign),
    historical: input.historical.flatMap(sign),
    diagnosis: input.diagnosis
      ? { name: input.diagnosis.name, workup: workups.get(input.diagnosis.id) ?? DEFAULT_WORKUP }
      : null,
    differentials: differentials.map((d) => ({
      name: d.name,
      score: d.score,
      supporting: d.evidence.supporting.map((e) => e.symptom_name),
      against: d.evidence.against.map((e) => e.symptom_name),
      workup: workups.get(d.id) ?? DEFAULT_WORKUP,
    })),
  };
}
