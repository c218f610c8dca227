// Everything the local extractor looks up, built once per lexicon (catalogue version): phrase
// indexes for signs, breeds, species and sex terms, and the spelling index for misspelt signs.
import { sharedWeakMap } from "@/db/seed/catalogue-cache";
import type { Lexicon, LexiconGenderTerm } from "@/lib/ai/lexicon";
import { CLINICAL_WORDS } from "./clinical-words";
import { SpellingIndex } from "./fuzzy";
import { PhraseIndex } from "./phrase-index";
import { SUPPLEMENTARY_SIGN_PHRASES } from "./sign-phrases";
import { phraseTokens, stem } from "./tokenise";

export interface SignPayload {
  symptomId: number;
}

export interface LexiconIndex {
  lexicon: Lexicon;
  signs: PhraseIndex<SignPayload>;
  breeds: PhraseIndex<number[]>;
  species: PhraseIndex<number>;
  genders: PhraseIndex<LexiconGenderTerm[]>;
  spelling: SpellingIndex;
  /** Stems of every word of every catalogue phrase and common notes vocabulary: never corrected. */
  knownStems: Set<string>;
  symptomIdByName: Map<string, number>;
  animalTypeIdByKey: Map<string, number>;
  /** Breed ids by lower-case breed name. */
  breedIdsByName: Map<string, number[]>;
}

/** Words notes use interchangeably inside a sign phrase (lexicon variants below). */
const WORD_FAMILIES: string[][] = [
  ["faeces", "feces", "stools", "droppings", "poo", "dung", "motions"],
  ["stool", "dropping", "motion"],
  ["urinating", "weeing", "peeing"],
];

// Everyday words of clinical notes that are not catalogue phrases; never "corrected" into signs.
const COMMON_WORDS = `about above after again against along already also although always among another
 around because before behind being below between both bright brought cannot could daily during each
 either evening every first following further having however itself later least little mainly might
 morning night often other otherwise overnight owner owners perhaps please rather really recheck
 second should since since sometimes started still their there these things think third those though
 three through today together tomorrow twice under until usual usually weeks which while whilst within
 without would yesterday months hours minutes advised booked called checked discussed examined noticed
 reported started stopped treated walked wanted started booked phoned client clients plan history
 normal normally approximately approx currently recently previous previously problem problems slightly
 mildly moderate moderately severely really nothing anything something everything booster vaccinated
 vaccination insured referral referred appointment collected dropped returned worried concerned`;

// Shared by name: server.ts warms it, the Next.js bundles' copy of this module reads it.
const cache = sharedWeakMap<Lexicon, LexiconIndex>("lexicon-index");

export function getLexiconIndex(lexicon: Lexicon): LexiconIndex {
  const cached = cache.get(lexicon);
  if (cached && cached.lexicon.version === lexicon.version) return cached;
  const index = buildIndex(lexicon);
  cache.set(lexicon, index);
  return index;
}

/** Two-word heads that notes put first: "mucous membranes brick red", "lymph nodes enlarged". */
const TWO_WORD_HEADS = new Set([
  "mucous membranes",
  "lymph nodes",
  "heart sounds",
  "lung sounds",
  "gut sounds",
  "breath sounds",
  "body condition",
]);

/**
 * "reduced gut sounds" -> "gut sounds reduced"; "pale mm" -> "mm pale"; "brick red gums" ->
 * "gums brick red"; "brick red mucous membranes" -> "mucous membranes brick red".
 */
function reorderings(tokens: string[]): string[][] {
  if (tokens.length === 2) return [[tokens[1]!, tokens[0]!]];
  if (tokens.length === 3 && !["of", "in", "on", "to", "from", "the", "and", "with"].includes(tokens[1]!))
    return [
      [tokens[1]!, tokens[2]!, tokens[0]!],
      [tokens[2]!, tokens[0]!, tokens[1]!],
    ];
  if (tokens.length === 4 && TWO_WORD_HEADS.has(`${tokens[2]} ${tokens[3]}`))
    return [[tokens[2]!, tokens[3]!, tokens[0]!, tokens[1]!]];
  return [];
}

/**
 * The plural and possessive of a three-letter species or sex word ("ewes", "rams", "dog's"): the
 * phrase index reaches those by stem only for words of four letters or more.
 */
function shortWordForms(term: string): string[] {
  return /^[a-z]{3}$/.test(term) ? [`${term}s`, `${term}'s`] : [];
}

const NOT_REORDERED = new Set([
  "no",
  "not",
  "non",
  "nil",
  "off",
  "won't",
  "can't",
  "unable",
  "lack",
  "loss",
  "of",
  "to",
]);

function buildIndex(lexicon: Lexicon): LexiconIndex {
  const signs = new PhraseIndex<SignPayload>();
  const symptomIdByName = new Map<string, number>();
  const signWords = new Set<string>();
  for (const symptom of lexicon.symptoms) symptomIdByName.set(symptom.name.toLowerCase(), symptom.id);
  const allTerms = new Set<string>();
  for (const symptom of lexicon.symptoms) for (const term of symptom.terms) allTerms.add(term);

  for (const symptom of lexicon.symptoms) {
    for (const term of symptom.terms) {
      const tokens = phraseTokens(term);
      signs.add(tokens, { symptomId: symptom.id }, 0, String(symptom.id));
      for (const t of tokens) if (/^[a-z]+$/.test(t)) signWords.add(t);
    }
  }
  for (const [name, phrases] of Object.entries(SUPPLEMENTARY_SIGN_PHRASES)) {
    const id = symptomIdByName.get(name);
    if (id === undefined) continue;
    for (const phrase of phrases) signs.add(phrase, { symptomId: id }, 0.05, String(id));
  }
  // Word-order variants: vets write "abdomen distended", "paws cold", "MM pale".
  for (const symptom of lexicon.symptoms) {
    for (const term of symptom.terms) {
      const tokens = phraseTokens(term);
      if (tokens.some((t) => NOT_REORDERED.has(t) || !/^[a-z]+$/.test(t))) continue;
      for (const variant of reorderings(tokens)) {
        if (allTerms.has(variant.join(" "))) continue;
        signs.add(variant, { symptomId: symptom.id }, 0.1, String(symptom.id));
      }
    }
  }
  // "swelling of the joint", "discharge from the left eye", "loss of hair": a two-word term's head
  // noun first, its modifier after a preposition (fillers such as "the", "left" may sit between).
  for (const symptom of lexicon.symptoms) {
    for (const term of symptom.terms) {
      const tokens = phraseTokens(term);
      if (tokens.length !== 2 || tokens.some((t) => NOT_REORDERED.has(t) || !/^[a-z]+$/.test(t))) continue;
      for (const preposition of ["of", "from", "in", "on"]) {
        const variant = [tokens[1]!, preposition, tokens[0]!];
        if (allTerms.has(variant.join(" "))) continue;
        signs.add(variant, { symptomId: symptom.id }, 0.1, String(symptom.id));
      }
    }
  }
  // "trouble passing urine", "having trouble standing": the everyday word for "difficulty".
  for (const symptom of lexicon.symptoms) {
    for (const term of symptom.terms) {
      const tokens = phraseTokens(term);
      if (tokens[0] !== "difficulty" || tokens.length < 2) continue;
      const variant = ["trouble", ...tokens.slice(1)];
      if (allTerms.has(variant.join(" "))) continue;
      signs.add(variant, { symptomId: symptom.id }, 0.05, String(symptom.id));
    }
  }
  // "black tarry droppings", "weeing large volumes", "blood in the poo": the everyday words for
  // faeces and for passing urine in any phrase written with another of them.
  for (const symptom of lexicon.symptoms) {
    for (const term of symptom.terms) {
      const tokens = phraseTokens(term);
      tokens.forEach((token, k) => {
        const family = WORD_FAMILIES.find((words) => words.includes(token));
        for (const other of family ?? []) {
          const variant = [...tokens.slice(0, k), other, ...tokens.slice(k + 1)];
          if (other === token || allTerms.has(variant.join(" "))) continue;
          signs.add(variant, { symptomId: symptom.id }, 0.1, String(symptom.id));
        }
      });
    }
  }
  // "has not been able to pass urine", "isn't able to stand": "unable to" in other words. The
  // negation is part of the phrase, so it denies nothing.
  for (const symptom of lexicon.symptoms) {
    for (const term of symptom.terms) {
      const tokens = phraseTokens(term);
      if (tokens[0] !== "unable" || tokens[1] !== "to" || tokens.length < 3) continue;
      for (const lead of [
        ["not", "able"],
        ["not", "been", "able"],
        ["never", "been", "able"],
        ["hasn't", "been", "able"],
        ["hadn't", "been", "able"],
        ["isn't", "able"],
        ["wasn't", "able"],
      ]) {
        const variant = [...lead, ...tokens.slice(1)];
        if (allTerms.has(variant.join(" "))) continue;
        signs.add(variant, { symptomId: symptom.id }, 0.05, String(symptom.id));
      }
    }
  }
  signs.freeze();

  const breeds = new PhraseIndex<number[]>();
  const breedIdsByTerm = new Map<string, number[]>();
  const breedIdsByName = new Map<string, number[]>();
  for (const breed of lexicon.breeds) {
    const name = breed.name.toLowerCase();
    breedIdsByName.set(name, [...(breedIdsByName.get(name) ?? []), breed.id]);
    for (const term of new Set(breed.terms)) {
      const key = phraseTokens(term).join(" ");
      if (!key) continue;
      breedIdsByTerm.set(key, [...(breedIdsByTerm.get(key) ?? []), breed.id]);
    }
  }
  for (const [key, ids] of breedIdsByTerm) breeds.add(key.split(" "), [...new Set(ids)]);
  breeds.freeze();

  const species = new PhraseIndex<number>();
  const animalTypeIdByKey = new Map<string, number>();
  for (const type of lexicon.animalTypes) {
    animalTypeIdByKey.set(type.key, type.id);
    // "Other" is a catalogue bucket, not a word that names a species ("the other cats").
    const names = type.key === "other" ? [] : [type.name.toLowerCase(), type.key.replace(/_/g, " ")];
    for (const term of new Set([...names, ...type.terms])) {
      if (term === "other") continue;
      species.add(term, type.id, 0, String(type.id));
      for (const form of shortWordForms(term)) species.add([form], type.id, 0, String(type.id));
    }
  }
  species.freeze();

  const genders = new PhraseIndex<LexiconGenderTerm[]>();
  const genderByTerm = new Map<string, LexiconGenderTerm[]>();
  for (const term of lexicon.genderTerms) {
    const key = phraseTokens(term.term).join(" ");
    if (!key) continue;
    genderByTerm.set(key, [...(genderByTerm.get(key) ?? []), term]);
  }
  for (const [key, terms] of genderByTerm) {
    genders.add(key.split(" "), terms);
    for (const form of shortWordForms(key)) if (!genderByTerm.has(form)) genders.add([form], terms);
  }
  genders.freeze();

  const knownStems = new Set<string>();
  const addKnown = (word: string) => knownStems.add(stem(word));
  for (const w of signWords) addKnown(w);
  for (const key of breedIdsByTerm.keys()) for (const w of key.split(" ")) addKnown(w);
  for (const type of lexicon.animalTypes)
    for (const term of type.terms) for (const w of phraseTokens(term)) addKnown(w);
  for (const key of genderByTerm.keys()) for (const w of key.split(" ")) addKnown(w);
  for (const w of COMMON_WORDS.split(/\s+/)) if (w) addKnown(w);
  for (const w of CLINICAL_WORDS) addKnown(w);

  return {
    lexicon,
    signs,
    breeds,
    species,
    genders,
    spelling: new SpellingIndex(signWords),
    knownStems,
    symptomIdByName,
    animalTypeIdByKey,
    breedIdsByName,
  };
}
