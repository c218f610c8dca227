// What every extractor (the local clinical-text extractor, or an LLM through the AI SDK) returns
// for a case's notes. Catalogue ids in it are always real: extractors resolve text through the
// Lexicon, never invent ids.
import type { Lexicon } from "./lexicon";

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
}

/**
 * present: the animal shows it now. absent: denied ("no vomiting", "v-"). historical: resolved or
 * past only. other_animal: another animal's sign. monitor: to watch for, not observed.
 */
export type MentionStatus = "present" | "absent" | "historical" | "other_animal" | "monitor";

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
}

export interface Extractor {
  readonly name: string;
  extract(notes: string, lexicon: Lexicon, options?: { signal?: AbortSignal }): Promise<Extraction>;
}
