// Turns any extractor's output into what the pipeline stores: catalogue ids checked against the
// lexicon, the breed resolved for the right species, weight in kg within a sane range for the
// species, and only the signs present now, one per catalogue sign, in the order of the notes.
import type { Lexicon } from "@/lib/ai/lexicon";
import type { Extraction } from "@/lib/ai/types";
import { generalForms } from "@/lib/catalogue/general-forms";

export interface SanitizedPatient {
  animal_type_id: number | null;
  breed_id: number | null;
  name: string | null;
  gender_id: number | null;
  weight_kg: number | null;
  neutered: boolean | null;
}

export interface SanitizedSymptom {
  id: number;
  symptom_name: string;
  category_name: string;
  key_phrases: string[];
  _distance: number;
  significant: boolean;
}

export interface SanitizedExtraction {
  patient: SanitizedPatient;
  sanitized_symptoms: SanitizedSymptom[];
}

/** Plausible body weights (kg) by animal-type key; anything outside is a misread. */
const WEIGHT_RANGE_KG: Record<string, [number, number]> = {
  dog: [0.3, 120],
  cat: [0.08, 15],
  rabbit: [0.03, 12],
  horse: [20, 1300],
  donkey: [15, 500],
  guinea_pig: [0.05, 2],
  ferret: [0.1, 3],
  hamster: [0.01, 0.3],
  rat: [0.02, 1],
  mouse: [0.005, 0.1],
  gerbil: [0.01, 0.2],
  chinchilla: [0.05, 1.2],
  budgerigar: [0.01, 0.12],
  parrot: [0.02, 2],
  bearded_dragon: [0.005, 1],
  leopard_gecko: [0.002, 0.2],
  tortoise: [0.005, 400],
  snake: [0.005, 150],
  cattle: [15, 1600],
  sheep: [1, 200],
  goat: [1, 150],
  pig: [0.5, 400],
  chicken: [0.03, 7],
  duck: [0.03, 8],
  goose: [0.05, 14],
  turkey: [0.05, 40],
  alpaca: [5, 100],
  llama: [8, 250],
};
const ANY_SPECIES_KG: [number, number] = [0.001, 1600];

function toKg(weight: { value: number; unit: "kg" | "g" | "lb" }): number {
  if (weight.unit === "g") return weight.value / 1000;
  if (weight.unit === "lb") return weight.value * 0.4536;
  return weight.value;
}

function resolveBreedId(
  extraction: Extraction,
  lexicon: Lexicon,
  animalTypeId: number | null,
): number | null {
  const { breedId, breed } = extraction.patient;
  const fits = (id: number) => {
    const b = lexicon.breedById.get(id);
    return b !== undefined && (animalTypeId === null || b.animalTypeId === animalTypeId);
  };
  if (breedId !== null && Number.isInteger(breedId) && fits(breedId)) return breedId;
  if (!breed) return null;
  const written = breed.trim().toLowerCase();
  if (!written) return null;
  const matches = lexicon.breeds.filter(
    (b) => (b.name.toLowerCase() === written || b.terms.includes(written)) && fits(b.id),
  );
  if (matches.length === 0) return null;
  // Prefer the breed whose name is the text, then the one whose species was given.
  matches.sort((a, b) => Number(b.name.toLowerCase() === written) - Number(a.name.toLowerCase() === written));
  return matches[0]!.id;
}

/**
 * Sanitises an extraction. With the notes given, signs are ordered by where their key phrases
 * first appear in them; without, the extractor's order (first mention of each sign) is kept.
 */
export function sanitizeExtraction(
  extraction: Extraction,
  lexicon: Lexicon,
  notes?: string,
): SanitizedExtraction {
  const p = extraction.patient;
  const animalTypeId =
    p.animalTypeId !== null && lexicon.animalTypeById.has(p.animalTypeId) ? p.animalTypeId : null;
  const breedId = resolveBreedId(extraction, lexicon, animalTypeId);
  const finalType =
    animalTypeId ?? (breedId !== null ? (lexicon.breedById.get(breedId)?.animalTypeId ?? null) : null);

  let genderId: number | null = null;
  if (p.sex === "male" || p.sex === "female") genderId = lexicon.genderIdByKey.get(p.sex) ?? null;
  else if (finalType !== null) genderId = lexicon.genderIdByKey.get("unknown") ?? null;

  let weightKg: number | null = null;
  if (p.weight && Number.isFinite(p.weight.value) && p.weight.value > 0) {
    const kg = toKg(p.weight);
    const key = finalType === null ? null : lexicon.animalTypeById.get(finalType)?.key;
    const [min, max] = (key && WEIGHT_RANGE_KG[key]) || ANY_SPECIES_KG;
    if (kg >= min && kg <= max) weightKg = Math.max(0.01, Math.round(kg * 100) / 100);
  }

  const name = typeof p.name === "string" && p.name.trim() ? p.name.trim().slice(0, 80) : null;

  const merged = new Map<number, SanitizedSymptom>();
  for (const mention of extraction.symptoms) {
    if (mention.status !== "present") continue;
    const symptom = lexicon.symptomById.get(mention.symptomId);
    if (!symptom) continue;
    if (finalType !== null && symptom.animalTypeIds && !symptom.animalTypeIds.includes(finalType)) continue;
    const phrases = mention.keyPhrases.filter((k) => typeof k === "string" && k.length > 0);
    const distance = Number.isFinite(mention.distance) ? Math.min(1, Math.max(0, mention.distance)) : 1;
    const existing = merged.get(symptom.id);
    if (existing) {
      for (const k of phrases) if (!existing.key_phrases.includes(k)) existing.key_phrases.push(k);
      existing._distance = Math.min(existing._distance, distance);
      existing.significant = existing.significant || Boolean(mention.significant);
    } else {
      merged.set(symptom.id, {
        id: symptom.id,
        symptom_name: symptom.name,
        category_name: symptom.categoryName,
        key_phrases: [...new Set(phrases)],
        _distance: distance,
        significant: Boolean(mention.significant),
      });
    }
  }
  addGeneralForms(merged, extraction, lexicon, finalType);
  let symptoms = [...merged.values()];
  if (typeof notes === "string" && notes) {
    const lower = notes.toLowerCase();
    const position = (s: SanitizedSymptom) => {
      const found = s.key_phrases.map((k) => lower.indexOf(k.toLowerCase())).filter((i) => i >= 0);
      return found.length > 0 ? Math.min(...found) : Number.MAX_SAFE_INTEGER;
    };
    const order = new Map(symptoms.map((s, i) => [s.id, [position(s), i] as const]));
    symptoms = symptoms.sort((a, b) => {
      const [pa, ia] = order.get(a.id)!;
      const [pb, ib] = order.get(b.id)!;
      return pa - pb || ia - ib;
    });
  }
  return {
    patient: {
      animal_type_id: finalType,
      breed_id: breedId,
      name,
      gender_id: genderId,
      weight_kg: weightKg,
      neutered: typeof p.neutered === "boolean" ? p.neutered : null,
    },
    sanitized_symptoms: symptoms,
  };
}

/**
 * A present specific sign also makes its general sign present ("productive cough" → coughing),
 * with the specific sign's phrases, unless the note says something else of the general sign
 * (denied, past, another animal's).
 */
function addGeneralForms(
  merged: Map<number, SanitizedSymptom>,
  extraction: Extraction,
  lexicon: Lexicon,
  animalTypeId: number | null,
): void {
  const forms = lexiconForms(lexicon);
  const spokenOf = new Set(extraction.symptoms.filter((m) => m.status !== "present").map((m) => m.symptomId));
  for (const specific of [...merged.values()]) {
    for (const generalId of forms.get(specific.id) ?? []) {
      if (merged.has(generalId) || spokenOf.has(generalId)) continue;
      const general = lexicon.symptomById.get(generalId);
      if (!general) continue;
      if (animalTypeId !== null && general.animalTypeIds && !general.animalTypeIds.includes(animalTypeId))
        continue;
      merged.set(generalId, {
        id: generalId,
        symptom_name: general.name,
        category_name: general.categoryName,
        key_phrases: [...specific.key_phrases],
        _distance: specific._distance,
        significant: specific.significant,
      });
    }
  }
}

const formsByLexicon = new WeakMap<Lexicon, Map<number, number[]>>();

function lexiconForms(lexicon: Lexicon): Map<number, number[]> {
  let forms = formsByLexicon.get(lexicon);
  if (!forms) {
    forms = generalForms(
      lexicon.symptoms.map((s) => ({ id: s.id, name: s.name, category: s.categoryName, terms: s.terms })),
    );
    formsByLexicon.set(lexicon, forms);
  }
  return forms;
}
