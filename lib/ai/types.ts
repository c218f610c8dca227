// What every extractor (the local clinical-text extractor, or an LLM through the AI SDK) returns
// for a case's notes. Catalogue ids in it are always real: extractors resolve text through the
// Lexicon, never invent ids.
import type { Lexicon } from "./lexicon";
import type { RiskContext } from "./local/risk-context";

export interface ExtractedPatient {
  /** Catalogue animal type, or null when the notes do not say and it cannot be inferred. */
  animalTypeId: number | null;
  /** Catalogue breed when recognised (breedId set), else the breed as written, else null. */
  breed: string | null;
  breedId: number | null;
  name: string | null;
  /** "male" | "female" when stated or implied (e.g. "spayed", "gelding"), else null. */
  sex: "male" | "female" | null;
  neutered: boolean | null;
  weight: { value: number; unit: "kg" | "g" | "lb" } | null;
  ageYears: number | null;
  /** Vaccination, travel and environment as the notes state them (risk factors for ranking). */
  riskContext?: RiskContext;
}

/**
 * present: the animal shows it now. absent: denied ("no vomiting", "v-"). historical: resolved or
 * past only. other_animal: another animal's sign. monitor: to watch for, not observed.
 * suspected: the owner's guess ("owner thinks it's choke"). hypothetical: possible or queried
 * ("?sore joints", "may be diabetic").
 */
export const MENTION_STATUSES = [
  "present",
  "absent",
  "historical",
  "other_animal",
  "monitor",
  "suspected",
  "hypothetical",
] as const;
export type MentionStatus = (typeof MENTION_STATUSES)[number];

export interface SymptomMention {
  symptomId: number;
  /** Exact substrings of the notes that led to this sign. */
  keyPhrases: string[];
  /** 0 for an exact catalogue phrase, up to 1 for the weakest fuzzy match. */
  distance: number;
  status: MentionStatus;
  /** A sign the note stresses (severe, acute, repeated, haemorrhagic…) or a cardinal finding. */
  significant: boolean;
}

export interface Extraction {
  patient: ExtractedPatient;
  symptoms: SymptomMention[];
  /** Which extractor produced this, e.g. "local-v1" or "openai:gpt-4.1-mini". */
  extractor: string;
  /** Parts of the notes that could not be trusted (impossible values), reported, never used. */
  flags?: { text: string; reason: string }[];
}

export interface Extractor {
  readonly name: string;
  extract(notes: string, lexicon: Lexicon, options?: { signal?: AbortSignal }): Promise<Extraction>;
}
