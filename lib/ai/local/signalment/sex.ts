// Sex and neuter status: the sex words of the note ("MN", "bitch", "gelding", "entire") read for
// the decided species, else the pronouns. Species-specific sex words vote for their species.
import type { LexiconGenderTerm } from "@/lib/ai/lexicon";
import type { Token } from "../tokenise";
import { isVerbDoes, SEX_ABBREVIATIONS, type SignalmentNote, type TokenSpan } from "./note";
import { addVote, writtenAsSpeciesWord, type SpeciesVotes, type SpeciesWord } from "./species";

const NEUTER_ONLY_TERMS = new Set(["entire", "intact"]);
const AGE_TOKEN_WITH_UNIT = /^~?\d{1,2}(?:\.\d)?(?:y|yo|yr|yrs|mo|mos|mth|mths|wk|wks)$/;
// Two-letter sex abbreviations that may be written in lower case; others must be capitals.
const SEX_LOWER_OK = new Set(["mn", "mc", "fn", "fs"]);
const UNKNOWN_SEX_RE =
  /\b(?:not sexed|unsexed|sex(?:ed)? not (?:determined|known|confirmed)|sex unknown|unknown sex|sex undetermined|undetermined sex)\b/i;
const IGNORED_GENDER_TERMS = new Set([
  "spay",
  "castrate",
  "geld",
  "he",
  "she",
  "u",
  "unknown",
  "undetermined",
  "boy",
  "girl",
  "fixed male",
  "fixed female",
]);

const OWNER_CONTEXT = new Set([
  "owner",
  "owners",
  "o",
  "caller",
  "client",
  "says",
  "said",
  "reports",
  "reported",
  "mr",
  "mrs",
  "ms",
  "miss",
  "vet",
  "nurse",
  "husband",
  "wife",
  "son",
  "daughter",
]);

export interface SexWord {
  /** The sex terms the words may be, of one or more species. */
  terms: LexiconGenderTerm[];
  index: number;
  written: string;
}

export interface Sex {
  sex: "male" | "female" | null;
  neutered: boolean | null;
}

/** The sex words of the note, outside the name and multi-word breeds, that are not a temperature or a distance. */
export function findSexWords(
  note: SignalmentNote,
  { name, inMultiWordBreed }: { name: TokenSpan | null; inMultiWordBreed: Set<number> },
): SexWord[] {
  const { tokens, view, index } = note;
  const words: SexWord[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const m = index.genders.matchAt(view, i);
    if (!m || m.distance > 0.05) continue;
    const term = m.entry.tokens.join(" ");
    const first = tokens[m.start]!;
    i = m.end - 1;
    if (IGNORED_GENDER_TERMS.has(term)) continue;
    // Short sex words as written, not by stem: "second-stage labour" has no stag, "cocked" no cock.
    if (term.length <= 5 && /^[a-z]+$/.test(term) && !writtenAsSpeciesWord(note, m.start, m.entry.tokens))
      continue;
    if (SEX_ABBREVIATIONS.has(term) && !first.upper && !SEX_LOWER_OK.has(term)) continue;
    // "101 F" is a temperature and "5 m" a distance; "3mo F" and "7yo M" are the sex.
    const before = tokens[m.start - 1];
    if (
      (term === "m" || term === "f") &&
      ((before?.kind === "num" && !AGE_TOKEN_WITH_UNIT.test(before.norm)) || before?.norm === "\u00b0")
    )
      continue;
    if ((term === "m" || term === "f") && tokens[m.start + 1]?.norm === "/") continue;
    if (name && m.start >= name.start && m.start < name.end) continue;
    if (inMultiWordBreed.has(m.start)) continue;
    if (isVerbDoes(tokens, m.start) || aboutOtherAnimals(tokens, m.start)) continue;
    // "never been spayed", "not castrated": an entire animal of that sex.
    const terms = negatedNeuter(tokens, m.start)
      ? m.entry.payload.map((t) => (t.neutered === true ? { ...t, neutered: false } : t))
      : m.entry.payload;
    words.push({ terms, index: m.start, written: term });
  }
  return words;
}

const NEGATORS = new Set([
  "not",
  "never",
  "n't",
  "hasn't",
  "hasnt",
  "isn't",
  "isnt",
  "wasn't",
  "wasnt",
  "non",
]);

/** A neuter word negated just before it ("has never been spayed", "not neutered"). */
function negatedNeuter(tokens: Token[], i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 3); k--) if (NEGATORS.has(tokens[k]!.norm)) return true;
  return false;
}

const OTHER_ANIMALS = new Set([
  "other",
  "others",
  "another",
  "housemate",
  "housemates",
  "companion",
  "companions",
  "littermates",
]);

/** "lives with three other cats, all neutered": a sex word said of the other animals in its sentence. */
function aboutOtherAnimals(tokens: Token[], i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 6); k--) {
    const t = tokens[k]!;
    if (t.kind === "break" || t.norm === "." || t.norm === ";") return false;
    if (OTHER_ANIMALS.has(t.norm)) return true;
  }
  return false;
}

/** Species-specific sex words vote for their species ("bitch", "gelding", "ewe"). */
export function voteForSexWordSpecies(
  words: SexWord[],
  votes: SpeciesVotes,
  speciesWords: SpeciesWord[] = [],
): void {
  for (const word of words) {
    const specific = word.terms.filter((t) => t.animalTypeId !== null);
    if (specific.length > 0 && specific.length === word.terms.length) {
      // The species the word itself names leads ("gander" is a goose among the poultry's male
      // words); otherwise the table's first species does.
      const named = speciesWords.find((s) => s.start === word.index)?.id;
      const lead = specific.some((t) => t.animalTypeId === named) ? named : specific[0]!.animalTypeId;
      const ids = [lead!, ...new Set(specific.map((t) => t.animalTypeId!))].filter(
        (id, k, all) => all.indexOf(id) === k,
      );
      ids.forEach((id, k) => addVote(votes, id, k === 0 ? 1.5 : 0.75));
    }
  }
}

/** Sex from the terms that fit the species; the first sex written wins, and pronouns decide when none is. */
export function decideSex(note: SignalmentNote, words: SexWord[], animalTypeId: number | null): Sex {
  let sex: "male" | "female" | null = null;
  let neutered: boolean | null = null;
  for (const word of words) {
    const fitting = word.terms.filter(
      (t) => t.animalTypeId === null || animalTypeId === null || t.animalTypeId === animalTypeId,
    );
    let term = fitting[0];
    if (!term && word.terms.length > 0 && word.terms.every((t) => t.gender === word.terms[0]!.gender)) {
      // A sex word of another species ("cock" for a cockatiel): the sex holds, the neuter status not.
      term = { ...word.terms[0]!, neutered: null };
    }
    if (!term || term.gender === "unknown") continue;
    // "entire" and "intact" say the neuter status of any animal, the sex only of a horse ("an
    // entire" is a stallion): "entire mixed-breed bitch" is an intact female.
    const neuterOnly = NEUTER_ONLY_TERMS.has(word.written) && term.animalTypeId === null;
    if (neuterOnly) {
      if (neutered === null) neutered = false;
      continue;
    }
    if (sex === null) sex = term.gender;
    else if (sex !== term.gender) continue;
    if (neutered === null && term.neutered !== null) {
      // A sex word borrowed by another species ("boar" guinea pig, "buck" rabbit) gives the sex only.
      const speciesOfTerm = word.terms.filter((t) => t.animalTypeId !== null).map((t) => t.animalTypeId);
      const primary =
        speciesOfTerm.length === 0 || speciesOfTerm[0] === animalTypeId || animalTypeId === null;
      if (primary || term.neutered === true) neutered = term.neutered;
    }
  }
  if (sex === null && !UNKNOWN_SEX_RE.test(note.text)) sex = pronounSex(note.tokens);
  // "heavily pregnant", "in labour since midnight", "lactating", "in season": a female. Her neuter
  // status stays unstated, as labels leave it when the note does not say it.
  if (sex === null && REPRODUCING.test(note.text)) sex = "female";
  return { sex, neutered };
}

/** A female reproducing now, not after a negation or a question ("not pregnant", "? in season"). */
const REPRODUCING =
  /(?<!\b(?:not|no|non|never|isn't|wasn't|nor|\?)\s+(?:\w+\s+)?)\b(?:pregnant|in labou?r|into labou?r|lactating|in season|in heat|in foal|in calf|in kid|in lamb|in pig|gave birth|has whelped|whelped|queened|kidded|lambed|calved|foaled|farrowed|kindled)\b/i;

const PET_NOUN =
  /^(?:dog|dogs|cat|cats|pet|pets|puppy|kitten|rabbit|horse|pony|animal|animals|bird|parrot|ferret|hamster|tortoise|cow|cows|herd|flock|goat|sheep)$/;

/**
 * "she won't put the foot down": pronouns decide the sex when nothing else does. Subject pronouns
 * count most; "his", "him" and "her" less (they may be an owner's); a pronoun just after the
 * owner ("owner says she…") least, since it may be the owner's, yet when it is all there is it
 * usually is the patient ("owners report he's stopped eating").
 */
function pronounSex(tokens: Token[]): "male" | "female" | null {
  let male = 0;
  let female = 0;
  for (let i = 0; i < tokens.length; i++) {
    const n = tokens[i]!.norm;
    const isFemale = n === "she" || n === "she's" || n === "herself" || n === "her";
    const isMale = n === "he" || n === "he's" || n === "himself" || n === "his" || n === "him";
    if (!isFemale && !isMale) continue;
    // "his dog", "her cat": the owner's pronoun, not the patient's.
    if ((n === "his" || n === "her") && PET_NOUN.test((tokens[i + 1]?.norm ?? "").replace(/'s$/, "")))
      continue;
    let weight = n === "her" || n === "his" || n === "him" ? 0.5 : 1;
    for (let k = Math.max(0, i - 3); k < i; k++) if (OWNER_CONTEXT.has(tokens[k]!.norm)) weight = 0.2;
    if (isFemale) female += weight;
    else male += weight;
  }
  if (female > male) return "female";
  if (male > female) return "male";
  return null;
}
