// The animal's name, looked for where vets write it, in this order: after a label ("Patient:
// Max"), at the head of a written signalment ("Bella, 4yo FS Lab"), in prose ("Dobie is a
// 5-year-old Labrador cross"), after its species or breed ("his Border Collie Skye"), in quotes.
import { NAME_LIKE_SPECIES_TERMS, type SpeciesWord } from "./species";
import { NOT_BREED_WORDS } from "./breed-words";
import {
  HYPHENATED_AGE,
  isSentenceStart,
  isSignalmentToken,
  SEX_ABBREVIATIONS,
  type SignalmentNote,
  type TokenSpan,
} from "./note";
import type { Token } from "../tokenise";

const APPROX = new Set(["approx", "approximately", "about", "around", "~", "ca", "c."]);
const QUOTES = new Set(["'", '"', "\u2018", "\u2019", "\u201c", "\u201d"]);
/** Words that begin a signalment in prose ("Spike, adult entire male bearded dragon"). */
const AGE_WORDS = new Set([
  "adult",
  "young",
  "old",
  "elderly",
  "senior",
  "geriatric",
  "juvenile",
  "middle-aged",
  "aged",
  "neonatal",
  "entire",
  "intact",
  "neutered",
  "spayed",
  "castrated",
  "male",
  "female",
  "female-spayed",
  "male-neutered",
]);

const OWNER_TITLES = new Set(["mr", "mrs", "ms", "miss", "dr", "prof", "mx"]);
const NOT_NAMES = new Set([
  "jan",
  "feb",
  "mar",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
  "hx",
  "plan",
  "o",
  "oe",
  "o/e",
  "dx",
  "ddx",
  "rx",
  "tx",
  "call",
  "caller",
  "phone",
  "owner",
  "owners",
  "recheck",
  "seen",
  "presenting",
  "presented",
  "today",
  "patient",
  "pt",
  "name",
  "triage",
  "history",
  "exam",
  "notes",
  "note",
  "the",
  "this",
  "my",
  "her",
  "his",
  "their",
  "our",
  "he",
  "she",
  "it",
  "they",
  "we",
  "i",
  "you",
  "a",
  "an",
  "bright",
  "quiet",
  "alert",
  "bar",
  "qar",
  "nad",
  "wt",
  "bw",
  "weight",
  "temp",
  "approx",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "january",
  "february",
  "march",
  "april",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
  "male",
  "female",
  "neutered",
  "entire",
  "spayed",
  "castrated",
  "young",
  "old",
  "adult",
  "senior",
  "geriatric",
  "ignore",
  "system",
  "assistant",
  "instructions",
  "no",
  "yes",
  "not",
  "also",
  "and",
  "with",
  "tag",
  "ear",
  "number",
  // Verbs of weight that open a sentence before a value ("Lost about 10 lb", "Gained 2 kg").
  "lost",
  "gained",
  "weighs",
  "weighed",
  "weighing",
  "dropped",
  // Verbs of the visit that open a sentence ("Referred ~9 pm", "Presented collapsed").
  "referred",
  "presented",
  "admitted",
  "arrived",
  "brought",
  "seen",
  // Headings of a visit ("Emergency, brought in by owner", "Urgent - vomiting").
  "emergency",
  "urgent",
  "referral",
  "consult",
  "consultation",
  "visit",
  "revisit",
  "follow-up",
  "update",
  "new",
  // Words that describe or count the animal before its sex ("Older M cat", "One M kitten").
  "older",
  "younger",
  "elderly",
  "aged",
  "one",
  "two",
  "three",
  "another",
  "first",
  "second",
  // What the animal is when it has no name yet ("Stray, brought in by passer-by").
  "stray",
  "feral",
  "rescue",
  "unknown",
  "unnamed",
  "found",
]);

/** Words of time that open a sentence ("Yesterday, the 5yo dog…"). */
const TIME_WORDS = new Set([
  "yesterday",
  "tonight",
  "overnight",
  "recently",
  "earlier",
  "later",
  "initially",
  "previously",
  "currently",
  "since",
  "morning",
  "evening",
  "afternoon",
  "weekend",
]);

/** What a name is judged by besides its own tokens. */
interface NameSearch {
  note: SignalmentNote;
  inMultiWordBreed: Set<number>;
  speciesWords: SpeciesWord[];
  /** Species the note names by a species word. */
  namedSpecies: Set<number>;
  /** Index of the first token after the note's first sentences, where the signalment is written. */
  early: number;
}

export function findName(
  note: SignalmentNote,
  { inMultiWordBreed, speciesWords }: { inMultiWordBreed: Set<number>; speciesWords: SpeciesWord[] },
): TokenSpan | null {
  const search: NameSearch = {
    note,
    inMultiWordBreed,
    speciesWords,
    namedSpecies: new Set(speciesWords.map((s) => s.id)),
    early: earlyTokenLimit(note.tokens),
  };
  return (
    labelledName(search) ??
    ownersName(search) ??
    signalmentName(search) ??
    proseName(search) ??
    headName(search) ??
    nameAfterSpeciesOrBreed(search) ??
    quotedName(search)
  );
}

/** Index of the first token after the note's first two sentences (or its first 40 tokens). */
function earlyTokenLimit(tokens: Token[]): number {
  let breaks = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.kind === "break" && ++breaks === 2) return Math.min(i, 40);
  }
  return Math.min(tokens.length, 40);
}

function isAgeToken(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  return Boolean(
    t && t.kind === "num" && /^\d{1,2}(?:\.\d)?(?:y|yo|yr|yrs|m|mo|mos|mth|mths|w|wk|wks)$/.test(t.norm),
  );
}

function isSexToken(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  if (!t) return false;
  if (SEX_ABBREVIATIONS.has(t.norm) && t.upper && t.norm.length === 2) return true;
  return ["male", "female", "neutered", "spayed", "entire", "castrated"].includes(t.norm);
}

const AGE_UNIT_WORDS = new Set([
  "y",
  "yr",
  "yrs",
  "year",
  "years",
  "yo",
  "mo",
  "mos",
  "month",
  "months",
  "wk",
  "wks",
  "week",
  "weeks",
]);

/** An age at token i: "14y", "14 years", or a bare number before a sex ("8, M"). */
function ageFollows(note: SignalmentNote, i: number): boolean {
  const { tokens } = note;
  if (isSignalmentToken(note, i)) return true;
  if (tokens[i]?.kind !== "num" || !/^\d{1,2}(?:\.\d)?$/.test(tokens[i]!.norm)) return false;
  const next = tokens[i + 1];
  if (next && AGE_UNIT_WORDS.has(next.norm)) return true;
  return next?.norm === "," && isSexToken(tokens, i + 2);
}

/** Does a breed other than the one at [start, end) appear anywhere in the note? */
function breedElsewhere(note: SignalmentNote, start: number, end: number): boolean {
  const { tokens, view, index } = note;
  for (let k = 0; k < tokens.length; k++) {
    if (k >= start && k < end) continue;
    const b = index.breeds.matchAt(view, k);
    if (
      b &&
      b.distance === 0 &&
      (tokens[k]!.capitalised || tokens[k]!.upper) &&
      !NOT_BREED_WORDS.has(b.entry.tokens.join(" "))
    )
      return true;
  }
  return false;
}

/** Is token i beside the separators a signalment is written between ("Bella, 4yo", "- Buster,")? */
function afterSeparator(prev: Token | undefined): boolean {
  return !prev || prev.kind === "break" || [",", ":", "-", "(", ";"].includes(prev.norm);
}

/** A capitalised word at i that may be a name (with a title that is part of it: "Mr Nibbles"). */
/** Does a species word follow token `from` before the sentence ends? */
function speciesInSentence({ note, speciesWords }: NameSearch, from: number): boolean {
  const end = note.tokens.findIndex((t, k) => k >= from && t.kind === "break");
  return speciesWords.some((w) => w.start >= from && (end === -1 || w.start < end));
}

function nameCandidate(search: NameSearch, i: number): TokenSpan | null {
  const { note, inMultiWordBreed, namedSpecies } = search;
  const { text, tokens, view, index } = note;
  const t = tokens[i];
  if (!t || t.kind !== "word" || !t.capitalised || NOT_NAMES.has(t.norm) || TIME_WORDS.has(t.norm))
    return null;
  if (inMultiWordBreed.has(i)) return null;
  // A sign written as one word opening a line ("Vomiting, 3 days", "Lethargic, male cat").
  const sign = index.signs.matchAt(view, i);
  if (sign && sign.distance === 0 && sign.end === i + 1) return null;
  if (t.upper && t.norm.length <= 4) return null;
  const prev = tokens[i - 1];
  if (prev && OWNER_TITLES.has(prev.norm) && !(isSentenceStart(tokens, i - 1) || tokens[i - 2]?.norm === ","))
    return null;
  const nextToken = tokens[i + 1];
  if (nextToken && (nextToken.norm === "'" || nextToken.norm === "'s")) return null;
  if (t.norm.endsWith("'s") || /['\u2019]$/.test(text.slice(t.end, t.end + 1))) return null;
  const sp = index.species.matchAt(view, i);
  if (sp && !NAME_LIKE_SPECIES_TERMS.has(sp.entry.tokens.join(" "))) return null;
  // A breed of a species the note names ("Kid goat, Boer") is the breed, not a name.
  const b = index.breeds.matchAt(view, i);
  if (
    b &&
    b.entry.payload.some((id) => namedSpecies.has(index.lexicon.breedById.get(id)?.animalTypeId ?? -1))
  )
    return null;
  // A breed's name straight before an age or sex ("Labrador 5y MN", "Lab 3yo FS") is the breed in
  // shorthand signalment, not the pet's name ("Casey is a…", "Jack, cat" stay names).
  const age = tokens[i + 1];
  const ageOrSexNext =
    age !== undefined &&
    ((age.kind === "num" && /^\d+(?:\.\d+)?(?:y|yo|yr|yrs|m|mo|mth|mths|w|wk|wks)$/.test(age.norm)) ||
      (age.upper && /^(?:m|f|mn|fn|fs|mc|me|fe|mi|fi)$/.test(age.norm)));
  if (b && b.distance === 0 && b.start === i && b.end === i + 1 && ageOrSexNext) return null;
  // A breed opening a note's signalment ("Siamese, 14 years", "Boxer, 8, M") when its sentence
  // names no species and the note no other breed: the breed, not a pet called after one ("Rex, 5yo
  // Lab" and "Dexter, M tabby cat" keep their names), even when another animal is named in a later
  // sentence ("Pug, 4y FN… O thinks the cat swiped her").
  if (
    b &&
    b.distance === 0 &&
    b.start === i &&
    afterSeparator(prev) &&
    !speciesInSentence(search, b.end) &&
    tokens[b.end]?.norm === "," &&
    ageFollows(note, b.end + 1) &&
    !breedElsewhere(note, b.start, b.end)
  )
    return null;
  let start = i;
  // "Mr Nibbles": a title that begins the name, not an owner.
  if (prev && OWNER_TITLES.has(prev.norm) && prev.capitalised) start = i - 1;
  return { start, end: i + 1 };
}

/** "Patient: Max", "Name - Bella", "this record Pepper", "Presenting: Milo". */
function labelledName(search: NameSearch): TokenSpan | null {
  const { tokens } = search.note;
  for (let i = 0; i < tokens.length; i++) {
    const n = tokens[i]!.norm;
    const n1 = tokens[i + 1]?.norm;
    let at = -1;
    if (["patient", "pt", "name", "pet", "animal"].includes(n) && (n1 === ":" || n1 === "-")) at = i + 2;
    else if (
      (n === "patient" || n === "pet") &&
      n1 === "name" &&
      [":", "-"].includes(tokens[i + 2]?.norm ?? "")
    )
      at = i + 3;
    else if (n === "this" && n1 === "record" && tokens[i + 2]?.norm !== ":") at = i + 2;
    else if (n === "this" && n1 === "record" && tokens[i + 2]?.norm === ":") at = i + 3;
    else if ((n === "presenting" || n === "re") && n1 === ":") at = i + 2;
    // "Faulkner (name), a Blue-Faced Leicester ram": the word the writer marks as the name.
    else if (n1 === "(" && tokens[i + 2]?.norm === "name" && tokens[i + 3]?.norm === ")") at = i;
    const name = at >= 0 ? nameCandidate(search, at) : null;
    if (name) return name;
  }
  return null;
}

/**
 * "Bella, 4yo FS Lab" / "Storm, 12yo TB gelding" / "- Buster, JRT ME" / "Jasper 7yo MN" /
 * "Daisy (Westie, 10)". Only in the note's first sentences, where the signalment is written
 * ("Wormed, neutered + vacc'd" later on is history, not a name), or as a signature-like
 * "- Buster, JRT ME." later.
 */
function signalmentName(search: NameSearch): TokenSpan | null {
  const { note, early } = search;
  const { tokens, view, index } = note;
  for (let i = 0; i < tokens.length; i++) {
    const c = nameCandidate(search, i);
    if (!c) continue;
    const prev = tokens[c.start - 1];
    const after = tokens[i + 1];
    if (!after) continue;
    if (i >= early) {
      const sign = tokens[i + 2];
      const signature =
        after.norm === "," &&
        (!prev || prev.kind === "break" || prev.norm === "-") &&
        sign !== undefined &&
        (isAgeToken(tokens, i + 2) ||
          (SEX_ABBREVIATIONS.has(sign.norm) && sign.upper) ||
          (index.breeds.matchAt(view, i + 2) !== null && sign.upper));
      if (!signature) continue;
    }
    if (after.norm === "," || after.norm === "-") {
      if (!afterSeparator(prev)) continue;
      if (isSignalmentToken(note, i + 2) || (tokens[i + 2]?.norm === "~" && isSignalmentToken(note, i + 3)))
        return c;
    } else if (after.norm === "(") {
      // "Daisy (Westie, 10)", "Teddy (dog).": the signalment or the species in brackets.
      let close = -1;
      for (let k = i + 2; k < Math.min(tokens.length, i + 6); k++) {
        if (tokens[k]!.norm === ")") {
          close = k;
          break;
        }
        if (isAgeToken(tokens, k) || isSexToken(tokens, k)) return c;
        if (!afterSeparator(prev)) continue;
        // Not a breed explained in brackets ("Mini Aussie (Miniature Australian Shepherd)").
        const breed = index.breeds.matchAt(view, k);
        if (
          breed &&
          breed.distance === 0 &&
          [",", ")"].includes(tokens[breed.end]?.norm ?? "") &&
          !index.breeds.matchAt(view, i)
        )
          return c;
        if (search.speciesWords.some((w) => w.start === k && w.end <= i + 6 && tokens[w.end]?.norm === ")"))
          return c;
      }
      // "Smurph (Murphy), F guinea pig": a nickname in brackets, then the signalment.
      if (
        close === i + 3 &&
        tokens[i + 2]!.capitalised &&
        tokens[close + 1]?.norm === "," &&
        afterSeparator(prev) &&
        isSignalmentToken(note, close + 2)
      )
        return c;
    } else if (
      isAgeToken(tokens, i + 1) ||
      isSexToken(tokens, i + 1) ||
      // "Emmie F dog.": a one-letter sex before the species or an age.
      (/^[mf]$/.test(after.norm) &&
        after.upper &&
        (search.speciesWords.some((w) => w.start === i + 2) || isAgeToken(tokens, i + 2))) ||
      (APPROX.has(after.norm) && isSignalmentToken(note, i + 2))
    ) {
      if (!afterSeparator(prev)) continue;
      return c;
    }
  }
  return null;
}

/**
 * "Dobie is a 5-year-old Labrador cross", "Poppy, a 5-month-old entire female", "Spike, adult
 * entire male bearded dragon", "'Rosie' 11mo FE Bloodhound", "a cat called Tom".
 */
function proseName(search: NameSearch): TokenSpan | null {
  const { note, early } = search;
  const { tokens } = note;
  const beginsSignalment = (k: number) =>
    isSignalmentToken(note, k) || AGE_WORDS.has(tokens[k]?.norm ?? "") || tokens[k]?.kind === "num";
  for (let i = 0; i < early; i++) {
    const c = nameCandidate(search, i);
    if (!c) continue;
    const prev = tokens[c.start - 1];
    const quoted = QUOTES.has(prev?.norm ?? "") && QUOTES.has(tokens[i + 1]?.norm ?? "");
    const calledBefore = prev && ["named", "called"].includes(prev.norm);
    if (quoted || calledBefore) return c;
    if (prev && !(prev.kind === "break" || [":", "-", "(", ";"].includes(prev.norm))) continue;
    // "Milly (Mildred), a four-year-old cat": a nickname in brackets after the name.
    const skip =
      tokens[i + 1]?.norm === "(" && tokens[i + 3]?.norm === ")" && tokens[i + 2]!.capitalised ? 3 : 0;
    const n1 = tokens[i + 1 + skip]?.norm ?? "";
    const n2 = tokens[i + 2 + skip]?.norm ?? "";
    const n3 = i + 3 + skip;
    if ((n1 === "is" || n1 === "was") && (n2 === "a" || n2 === "an") && beginsSignalment(n3)) return c;
    if ((n1 === "is" || n1 === "was") && (n2 === "a" || n2 === "an") && describesAnimal(search, n3)) return c;
    if (
      n1 === "," &&
      (n2 === "a" || n2 === "an" || n2 === "our" || n2 === "the") &&
      (beginsSignalment(n3) ||
        /^(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/.test(tokens[n3]?.norm ?? ""))
    )
      return c;
    if (n1 === "," && AGE_WORDS.has(n2)) return c;
    // "Storm was rushed in…", "Fletch is in for his annual check": the note opens with the patient arriving.
    if (
      i === firstWord(tokens) &&
      ["is", "was", "has"].includes(n1) &&
      /^(?:rushed|brought|admitted|presented|presenting|referred|in|been)$/.test(n2) &&
      (n2 !== "been" || /^(?:rushed|brought|admitted|presented|referred)$/.test(tokens[n3]?.norm ?? "")) &&
      (n2 !== "in" || tokens[n3]?.norm === "for")
    )
      return c;
    // "Spunky, brought in by the owner's son", "Bob, presented for…": the patient arriving.
    if (n1 === "," && ARRIVAL_WORDS.has(n2) && i === firstWord(tokens)) return c;
  }
  return null;
}

/** Verbs that open a note's account of the patient arriving, after its name and a comma. */
const ARRIVAL_WORDS = new Set(["brought", "presented", "presenting", "referred", "admitted"]);

/** Index of the note's first word token. */
function firstWord(tokens: Token[]): number {
  return tokens.findIndex((t) => t.kind === "word");
}

const NUMBER_WORDS = /^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)$/;
/** Words that end a description of the animal before it names one ("a risk in dogs"). */
const NOT_DESCRIBING = new Set(["in", "of", "for", "to", "from", "at", "on", "that", "which", "who"]);

/**
 * "Jake is an overweight Newfoundland", "Ruby is a backyard Rhode Island Red hen", "Gruff is a
 * two-year-old male Syrian hamster": within five words of the article (none of them a
 * preposition: "Lepto is a risk in dogs") the sentence names a species, a breed, an age or a sex.
 */
function describesAnimal({ note, speciesWords }: NameSearch, from: number): boolean {
  const { tokens } = note;
  // A comma between adjectives ("a very fit, active 10-year-old male dog") does not end it.
  let limit = from + 5;
  for (let k = from; k < Math.min(tokens.length, limit); k++) {
    const t = tokens[k]!;
    const next = tokens[k + 1];
    if (t.norm === "," && k > from && next?.kind === "word" && !NOT_DESCRIBING.has(next.norm)) {
      limit += 2;
      continue;
    }
    if (t.kind === "break" || [".", ";", ",", ":"].includes(t.norm) || NOT_DESCRIBING.has(t.norm))
      return false;
    if (speciesWords.some((w) => w.start === k) || isSignalmentToken(note, k) || NUMBER_WORDS.test(t.norm))
      return true;
  }
  return false;
}

const OWNER_WORDS = new Set([
  "owner",
  "owners",
  "family",
  "mum",
  "dad",
  "carer",
  "carers",
  "breeder",
  "keeper",
]);

/**
 * "Gunner's owner called in early October": a capitalised word opening a sentence of the note's
 * beginning, in the possessive before the owner, is the patient's name ("Mrs Smith's" is the
 * owner's own: a title before it).
 */
function ownersName({ note, early, inMultiWordBreed }: NameSearch): TokenSpan | null {
  const { tokens, view, index } = note;
  for (let i = 0; i < early; i++) {
    const t = tokens[i]!;
    if (t.kind !== "word" || !t.capitalised || t.upper || !/['’]s$/.test(t.norm)) continue;
    if (!isSentenceStart(tokens, i) || !OWNER_WORDS.has(tokens[i + 1]?.norm ?? "")) continue;
    const bare = t.norm.replace(/['’]s$/, "");
    if (NOT_NAMES.has(bare) || TIME_WORDS.has(bare) || inMultiWordBreed.has(i)) continue;
    if (index.species.matchAt(view, i) || index.breeds.matchAt(view, i)) continue;
    return { start: i, end: i + 1 };
  }
  return null;
}

/** Words a description of the patient begins or is made of, after its name and a comma. */
// "Harry, well known to us": a patient the practice knows.
const DESCRIBING_WORDS = new Set([
  "pet",
  "indoor",
  "outdoor",
  "strictly",
  "rescue",
  "stray",
  "feral",
  "known",
]);

/**
 * The note opens with the name, a comma and a description of the animal in the same sentence:
 * "Archie, sleek, well-covered indoor-only male cat", "Alby, two-year-old male domestic
 * shorthair", "Lily, pet hen", "Jo Jo, 6mo M mixed breed hound", "Bunny, 7-year-old indoor cat"
 * (a species word as a name, when the sentence names the patient's species after it).
 */
function headName(search: NameSearch): TokenSpan | null {
  const { note, speciesWords } = search;
  const { tokens, view, index } = note;
  let i = 0;
  while (tokens[i] && (tokens[i]!.kind === "break" || tokens[i]!.norm === "-")) i++;
  const first = tokens[i];
  if (!first || first.kind !== "word" || !first.capitalised || first.upper) return null;
  const speciesAtHead = speciesWords.find((w) => w.start === i);
  let span: TokenSpan | null = nameCandidate(search, i);
  if (!span && speciesAtHead && speciesAtHead.end === i + 1 && !NOT_NAMES.has(first.norm))
    span = { start: i, end: i + 1 };
  if (!span || span.start !== i) return null;
  // A second capitalised word of the name ("Jo Jo", "Bobby Rae"), when it is neither breed nor species.
  const second = tokens[span.end];
  if (
    second?.kind === "word" &&
    second.capitalised &&
    !second.upper &&
    tokens[span.end + 1]?.norm === "," &&
    nameCandidate(search, span.end) &&
    !index.breeds.matchAt(view, span.end)
  )
    span = { start: span.start, end: span.end + 1 };
  if (tokens[span.end]?.norm !== ",") return null;
  // A species or breed word at the head ("Doe, 5y", "Greyhound, retired racer, 4y") is the
  // animal itself unless the sentence goes on to name the animal by another species or breed.
  const breedAtHead = index.breeds.matchAt(view, i);
  const animalWordAtHead = Boolean(speciesAtHead) || Boolean(breedAtHead && breedAtHead.distance === 0);
  for (let k = span.end + 1; k < Math.min(tokens.length, span.end + 16); k++) {
    const t = tokens[k]!;
    if (t.kind === "break" || t.norm === "." || t.norm === ";") break;
    const otherAnimal =
      speciesWords.some((w) => w.start === k && w.id !== speciesAtHead?.id) ||
      (animalWordAtHead &&
        !speciesAtHead &&
        isSignalmentToken(note, k) &&
        index.breeds.matchAt(view, k) !== null);
    if (otherAnimal) return span;
    if (animalWordAtHead) continue;
    if (HYPHENATED_AGE.test(t.norm) || AGE_WORDS.has(t.norm) || DESCRIBING_WORDS.has(t.norm)) return span;
    if (isSignalmentToken(note, k) && !speciesWords.some((w) => w.start === k)) return span;
  }
  return null;
}

/**
 * Does the note name another species before token `at`, by a species word or a breed, than the
 * breeds `breedIds` belong to? Then that breed is a place or another word ("Carpet python … from
 * Belgian Gardens").
 */
function otherSpeciesBefore(
  { note, namedSpecies, speciesWords }: NameSearch,
  at: number,
  breedIds: number[],
) {
  const { view, index } = note;
  const speciesOf = new Set(breedIds.map((id) => index.lexicon.breedById.get(id)?.animalTypeId ?? -1));
  if (speciesWords.some((w) => w.end <= at && namedSpecies.has(w.id) && !speciesOf.has(w.id))) return true;
  for (let k = 0; k < at; k++) {
    const b = index.breeds.matchAt(view, k);
    if (b && b.distance === 0 && b.end <= at && b.entry.payload.every((id) => !breedIds.includes(id)))
      if (b.entry.payload.every((id) => !speciesOf.has(index.lexicon.breedById.get(id)?.animalTypeId ?? -1)))
        return true;
  }
  return false;
}

/** "Mrs Smith's cat Tigger", "his Border Collie Skye", "Yorkie Princess vomited". */
function nameAfterSpeciesOrBreed(search: NameSearch): TokenSpan | null {
  const { note, speciesWords } = search;
  const { tokens, view, index } = note;
  for (let i = 1; i < tokens.length; i++) {
    const c = nameCandidate(search, i);
    if (!c || c.start !== i) continue;
    const prev = tokens[i - 1]!;
    const speciesBefore = speciesWords.some((s) => s.end === i);
    let breedBefore = false;
    for (let k = Math.max(0, i - 4); k < i; k++) {
      const b = index.breeds.matchAt(view, k);
      if (
        b &&
        b.end === i &&
        !NOT_BREED_WORDS.has(b.entry.tokens.join(" ")) &&
        (tokens[k]!.capitalised || tokens[k]!.upper) &&
        !otherSpeciesBefore(search, k, b.entry.payload)
      )
        breedBefore = true;
    }
    if (index.breeds.matchAt(view, i) && !speciesBefore && !breedBefore) continue;
    if ((speciesBefore || breedBefore) && prev.kind === "word") return c;
  }
  return null;
}

/** A quoted name early in the note: "'Rosie' 11mo FE Bloodhound", "4yo M Shih Tzu X 'Charlie'". */
function quotedName({ note, early }: NameSearch): TokenSpan | null {
  const { text, tokens } = note;
  const quoted =
    /(?:^|[\s(,])['"\u2018\u201c]([A-Z][a-z]+(?:[A-Z][a-z]+)?(?: [A-Z][a-z]+){0,2})['"\u2019\u201d](?=[\s,.;:)\-]|$)/.exec(
      text.slice(0, tokens[early - 1]?.end ?? 0),
    );
  if (!quoted) return null;
  const at = text.indexOf(quoted[1]!, quoted.index);
  const first = tokens.findIndex((t) => t.start === at);
  const last = tokens.findIndex((t) => t.end === at + quoted[1]!.length);
  if (first >= 0 && last >= first && !NOT_NAMES.has(tokens[first]!.norm))
    return { start: first, end: last + 1 };
  return null;
}
