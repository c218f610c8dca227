// How an extraction is stored on the case: `raw_ai_response` keeps all of it (and is what the
// later steps re-read), `ai_extracted_patient` and `suggested_symptoms` are the spec's views of it.
import type { Extraction, MentionStatus } from "@/lib/ai/types";
import type { Lexicon } from "@/lib/ai/lexicon";
import type { RiskContext } from "@/lib/ai/local/risk-context";

export interface RawAiResponse {
  extractor: string;
  animal: {
    animal_type_id: number | null;
    breed: string | null;
    breed_id: number | null;
    name: string | null;
    sex: "male" | "female" | null;
    neutered: boolean | null;
    weight: { value: number; unit: "kg" | "g" | "lb" } | null;
    age_years: number | null;
    /** Vaccination, travel and environment as the notes state them. */
    risk_context?: RiskContext;
  };
  /** Parts of the notes that could not be trusted (impossible values), never used. */
  flags?: { text: string; reason: string }[];
  symptoms: {
    symptom_id: number;
    symptom_name: string;
    key_phrases: string[];
    distance: number;
    status: MentionStatus;
    significant: boolean;
  }[];
}

const KG_PER = { kg: 1, g: 0.001, lb: 0.4536 } as const;

export function weightInKg(weight: { value: number; unit: "kg" | "g" | "lb" } | null): number | null {
  if (!weight || !Number.isFinite(weight.value) || weight.value <= 0) return null;
  return Math.round(weight.value * KG_PER[weight.unit] * 100) / 100;
}

export function toRawAiResponse(extraction: Extraction, lexicon: Lexicon): RawAiResponse {
  const { patient } = extraction;
  return {
    extractor: extraction.extractor,
    animal: {
      animal_type_id: patient.animalTypeId,
      breed: patient.breed,
      breed_id: patient.breedId,
      name: patient.name,
      sex: patient.sex,
      neutered: patient.neutered,
      weight: patient.weight,
      age_years: patient.ageYears,
      ...(patient.riskContext ? { risk_context: patient.riskContext } : {}),
    },
    ...(extraction.flags && extraction.flags.length > 0 ? { flags: extraction.flags } : {}),
    symptoms: extraction.symptoms.map((mention) => ({
      symptom_id: mention.symptomId,
      symptom_name: lexicon.symptomById.get(mention.symptomId)?.name ?? String(mention.symptomId),
      key_phrases: mention.keyPhrases,
      distance: mention.distance,
      status: mention.status,
      significant: mention.significant,
    })),
  };
}

export function fromRawAiResponse(raw: RawAiResponse): Extraction {
  return {
    extractor: raw.extractor,
    patient: {
      animalTypeId: raw.animal.animal_type_id,
      breed: raw.animal.breed,
      breedId: raw.animal.breed_id,
      name: raw.animal.name,
      sex: raw.animal.sex,
      neutered: raw.animal.neutered,
      weight: raw.animal.weight,
      ageYears: raw.animal.age_years,
      ...(raw.animal.risk_context ? { riskContext: raw.animal.risk_context } : {}),
    },
    ...(raw.flags ? { flags: raw.flags } : {}),
    symptoms: raw.symptoms.map((s) => ({
      symptomId: s.symptom_id,
      keyPhrases: s.key_phrases,
      distance: s.distance,
      status: s.status,
      significant: s.significant,
    })),
  };
}

/** Spec 2.2: ids and weight as strings, weight in kilograms. */
export function toAiExtractedPatient(extraction: Extraction, lexicon: Lexicon) {
  const { patient } = extraction;
  const kg = weightInKg(patient.weight);
  const breed =
    patient.breedId !== null
      ? (lexicon.breedById.get(patient.breedId)?.name ?? patient.breed)
      : patient.breed;
  return {
    animal_type_id: patient.animalTypeId === null ? null : String(patient.animalTypeId),
    breed,
    name: patient.name,
    gender: patient.sex,
    weight: kg === null ? null : String(kg),
    neutered: patient.neutered,
  };
}

/** Spec 2.3, plus each suggestion's status (present, absent, historical…). */
export function toSuggestedSymptoms(extraction: Extraction, lexicon: Lexicon) {
  return extraction.symptoms.flatMap((mention) => {
    const symptom = lexicon.symptomById.get(mention.symptomId);
    if (!symptom) return [];
    return [
      {
        symptom: {
          id: symptom.id,
          symptom_name: symptom.name,
          category_name: symptom.categoryName,
          _distance: mention.distance,
        },
        key_phrases: mention.keyPhrases,
        status: mention.status,
      },
    ];
  });
}
