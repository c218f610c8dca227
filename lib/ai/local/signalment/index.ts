// Signalment: species, breed, sex, neuter status, weight, age and the animal's name. Evidence is
// weighed rather than taken first-come: explicit species words, the breed (a breed implies its
// species) and species-specific sex words ("bitch", "gelding", "ewe") all vote.
import type { ExtractedPatient } from "@/lib/ai/types";
import type { LexiconIndex } from "../lexicon-index";
import type { TokenView } from "../phrase-index";
import { currentWeight, findAgeYears, findWeights, type WeightMention } from "../weight-age";
import { chooseBreed, findBreedCandidates, findMultiWordBreeds, voteForBreedSpecies } from "./breed";
import { findName } from "./name";
import { noteAsWritten } from "./note";
import { decideSex, findSexWords, voteForSexWordSpecies } from "./sex";
import {
  addVote,
  decideSpecies,
  discountNestedSpeciesWords,
  findSpeciesWords,
  SHARED_YOUNG_WORDS,
  type SpeciesVotes,
} from "./species";
import { noSpeciesNamed, voteForSharedSexWordContext, voteFromContext } from "./species-context";

export interface Signalment {
  patient: ExtractedPatient;
  /** Token indices used by breed, name and species words: sign matching skips them. */
  claimed: Set<number>;
  weights: WeightMention[];
}

export function extractSignalment(text: string, view: TokenView, index: LexiconIndex): Signalment {
  const note = noteAsWritten(text, view, index);
  const { tokens } = view;
  const { lexicon } = index;
  const claimed = new Set<number>();
  const claim = (from: number, to: number) => {
    for (let k = from; k < to; k++) claimed.add(k);
  };
  // Every vote is cast before the species is decided; the order of the votes settles exact ties.
  const votes: SpeciesVotes = new Map();

  const inMultiWordBreed = findMultiWordBreeds(note);
  const speciesWords = findSpeciesWords(note, inMultiWordBreed);
  for (const word of speciesWords) {
    if (word.vote !== null) addVote(votes, word.id, word.vote);
    for (const key of SHARED_YOUNG_WORDS[word.term] ?? []) {
      const id = index.animalTypeIdByKey.get(key);
      if (id !== undefined && word.vote !== null) addVote(votes, id, word.vote);
    }
    if (!word.readable) claim(word.start, word.end);
  }
  discountNestedSpeciesWords(speciesWords, votes);

  const name = findName(note, { inMultiWordBreed, speciesWords });
  if (name) claim(name.start, name.end);

  const breedCandidates = findBreedCandidates(note, { name, speciesWords });
  const sexWords = findSexWords(note, { name, inMultiWordBreed });
  voteForBreedSpecies(breedCandidates, lexicon, votes, speciesWords, sexWords);
  voteForSexWordSpecies(sexWords, votes, speciesWords);
  voteForSharedSexWordContext(note, sexWords, votes);
  if (noSpeciesNamed(votes)) voteFromContext(note, votes);
  const species = decideSpecies(votes, lexicon);

  const breed = chooseBreed(note, breedCandidates, speciesWords, species);
  for (const k of breed.claimed) claimed.add(k);
  // A breed names the species the note does not ("Labrador, 4yo MN").
  const animalTypeId =
    species ?? (breed.breedId === null ? null : lexicon.breedById.get(breed.breedId)!.animalTypeId);
  const { sex, neutered } = decideSex(note, sexWords, animalTypeId);

  const weights = findWeights(text);
  const weight = currentWeight(weights);
  return {
    patient: {
      animalTypeId,
      breed: breed.breed,
      breedId: breed.breedId,
      // "Gunner's owner": the name without the possessive.
      name: name
        ? text.slice(tokens[name.start]!.start, tokens[name.end - 1]!.end).replace(/['\u2019]s$/, "")
        : null,
      sex,
      neutered,
      weight: weight ? { value: weight.value, unit: weight.unit } : null,
      ageYears: findAgeYears(text),
    },
    claimed,
    weights,
  };
}
