// The catalogue in memory, as extractors need it: every phrase of every species, breed, sex term
// and clinical sign, lower-cased. Loaded once per database and catalogue version.
import { asc, eq } from "drizzle-orm";
import type { Database } from "@/db";
import {
  animalTypes,
  breedTerms,
  breeds,
  genderTerms,
  genders,
  symptomCategories,
  symptomTerms,
  symptoms,
} from "@/db/schema";
import { catalogueCache } from "@/db/seed/catalogue-cache";

export interface LexiconAnimalType {
  id: number;
  key: string;
  name: string;
  /** Lower-case name and synonyms ("dog", "canine", "bitch"…). */
  terms: string[];
}

export interface LexiconBreed {
  id: number;
  animalTypeId: number;
  name: string;
  /** Lower-case name, synonyms and abbreviations ("gsd", "lab x"…). */
  terms: string[];
  mixed: boolean;
}

export interface LexiconGenderTerm {
  term: string;
  gender: "male" | "female" | "unknown";
  neutered: boolean | null;
  /** Null when the term applies to every species. */
  animalTypeId: number | null;
}

export interface LexiconSymptom {
  id: number;
  name: string;
  categoryName: string;
  /** Lower-case name and synonyms. */
  terms: string[];
  /** Species that show the sign; null for all. */
  animalTypeIds: number[] | null;
}

export interface Lexicon {
  /** Catalogue content hash; a changed catalogue gives a new lexicon. */
  version: string;
  animalTypes: LexiconAnimalType[];
  breeds: LexiconBreed[];
  genderTerms: LexiconGenderTerm[];
  symptoms: LexiconSymptom[];
  symptomById: Map<number, LexiconSymptom>;
  breedById: Map<number, LexiconBreed>;
  animalTypeById: Map<number, LexiconAnimalType>;
  genderIdByKey: Map<"male" | "female" | "unknown", number>;
}

function groupTerms<K>(rows: { key: K; term: string }[]): Map<K, string[]> {
  const grouped = new Map<K, string[]>();
  for (const row of rows) grouped.set(row.key, [...(grouped.get(row.key) ?? []), row.term]);
  return grouped;
}

async function readLexicon(db: Database, version: string): Promise<Lexicon> {
  const [typeRows, breedRows, breedTermRows, genderRows, genderTermRows, symptomRows, symptomTermRows] =
    await Promise.all([
      db.select().from(animalTypes).orderBy(asc(animalTypes.id)),
      db
        .select({ id: breeds.id, animalTypeId: breeds.animalTypeId, name: breeds.name, mixed: breeds.mixed })
        .from(breeds),
      db.select({ key: breedTerms.breedId, term: breedTerms.term }).from(breedTerms),
      db.select().from(genders),
      db.select().from(genderTerms),
      db
        .select({
          id: symptoms.id,
          name: symptoms.name,
          categoryName: symptomCategories.name,
          animalTypeIds: symptoms.animalTypeIds,
          retired: symptoms.retired,
        })
        .from(symptoms)
        .innerJoin(symptomCategories, eq(symptomCategories.id, symptoms.categoryId)),
      db.select({ key: symptomTerms.symptomId, term: symptomTerms.term }).from(symptomTerms),
    ]);
  const breedTermsById = groupTerms(breedTermRows);
  const symptomTermsById = groupTerms(symptomTermRows);
  const genderKeyById = new Map(genderRows.map((g) => [g.id, g.key as LexiconGenderTerm["gender"]]));

  const lexiconAnimalTypes = typeRows.map((t) => ({
    id: t.id,
    key: t.key,
    name: t.name,
    terms: [...new Set([t.name.toLowerCase(), ...t.synonyms.map((s) => s.toLowerCase())])],
  }));
  const lexiconBreeds = breedRows.map((b) => ({
    ...b,
    terms: breedTermsById.get(b.id) ?? [b.name.toLowerCase()],
  }));
  const lexiconSymptoms = symptomRows
    .filter((s) => !s.retired)
    .map(({ retired: _retired, ...s }) => ({
      ...s,
      terms: symptomTermsById.get(s.id) ?? [s.name.toLowerCase()],
    }));
  return {
    version,
    animalTypes: lexiconAnimalTypes,
    breeds: lexiconBreeds,
    genderTerms: genderTermRows.map((t) => ({
      term: t.term,
      gender: genderKeyById.get(t.genderId) ?? "unknown",
      neutered: t.neutered,
      animalTypeId: t.animalTypeId,
    })),
    symptoms: lexiconSymptoms,
    symptomById: new Map(lexiconSymptoms.map((s) => [s.id, s])),
    breedById: new Map(lexiconBreeds.map((b) => [b.id, b])),
    animalTypeById: new Map(lexiconAnimalTypes.map((t) => [t.id, t])),
    genderIdByKey: new Map(genderRows.map((g) => [g.key as LexiconGenderTerm["gender"], g.id])),
  };
}

/** The lexicon for this database, reloaded when the catalogue changes. */
export const loadLexicon = catalogueCache("lexicon", readLexicon);
