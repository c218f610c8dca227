// Breed: every phrase that may be one, scored; the breeds vote for their species; the best one
// that fits the decided species is the patient's breed ("Labrador x" its cross, when known).
import type { Lexicon, LexiconBreed } from "@/lib/ai/lexicon";
import type { LexiconIndex } from "../lexicon-index";
import type { PhraseMatch } from "../phrase-index";
import { COMMON_BREED_WORDS, CROSS_WORDS, NOT_BREED_WORDS } from "./breed-words";
import { isAgeOrSexToken, isSignalmentToken, type SignalmentNote, type TokenSpan } from "./note";
import { addVote, SIGNALMENT_VOTE, speciesPriorRank, type SpeciesVotes, type SpeciesWord } from "./species";
import type { SexWord } from "./sex";

// Species whose catalogue synonyms name kinds (a parrot's "African grey", a snake's "corn snake").
const KIND_SPECIES = new Set(["parrot", "hamster", "snake", "tortoise"]);
const GENERIC_SPECIES_TERMS = new Set([
  "parrot",
  "psittacine",
  "hamster",
  "snake",
  "serpent",
  "tortoise",
  "chelonian",
]);

const LABORATORY_WORDS = new Set([
  "results",
  "result",
  "work",
  "workup",
  "tests",
  "test",
  "values",
  "findings",
  "panel",
  "data",
  "report",
  "bloods",
  "shows",
  "showed",
  ":",
]);

export interface BreedCandidate {
  /** The catalogue breeds the phrase may name (of one or more species). */
  ids: number[];
  match: PhraseMatch<number[]>;
  written: string;
  score: number;
  /** Followed by a cross word ("Labrador x"). */
  cross: boolean;
  /** Written right beside an age or a sex ("3y MN DSH", "Labrador, 4yo"): it names the patient. */
  inSignalment: boolean;
}

export interface ChosenBreed {
  breedId: number | null;
  /** The catalogue name, or as written for a breed the catalogue lacks for this species. */
  breed: string | null;
  /** Tokens of the breed, and of every likely breed phrase, so that none reads as a sign. */
  claimed: number[];
}

function acronymScore(term: string, name: string): number {
  // "dsh" reads as the initials of "Domestic ShortHair" but not of "German Shepherd Dog".
  const letters = name.toLowerCase().replace(/[^a-z]/g, "");
  if (!/^[a-z]{2,5}$/.test(term) || letters[0] !== term[0]) return 0;
  let k = 0;
  for (const ch of letters) if (ch === term[k]) k++;
  return k === term.length ? 1 : 0;
}

/**
 * Tokens inside a written multi-word breed name ("Staffordshire Bull Terrier", "Cattle Dog"):
 * a species or sex word there is part of the breed.
 */
export function findMultiWordBreeds(note: SignalmentNote): Set<number> {
  const { tokens, view, index } = note;
  const inMultiWordBreed = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const b = index.breeds.matchAt(view, i);
    if (!b || b.distance > 0.05 || b.entry.tokens.length < 2 || b.matched.length < 2) continue;
    if (!(tokens[b.start]!.capitalised || tokens[b.start]!.upper)) continue;
    if (b.entry.tokens.every((w) => COMMON_BREED_WORDS.has(w) || CROSS_WORDS.has(w))) continue;
    for (let k = b.start; k < b.end; k++) inMultiWordBreed.add(k);
    i = b.end - 1;
  }
  return inMultiWordBreed;
}

/**
 * Every phrase that may be the breed, outside the name and the species words, scored by its
 * length, capitals and nearness to other signalment. An initialism keeps only the breeds it
 * abbreviates ("DSH").
 */
export function findBreedCandidates(
  note: SignalmentNote,
  { name, speciesWords }: { name: TokenSpan | null; speciesWords: SpeciesWord[] },
): BreedCandidate[] {
  const { text, tokens, view, index } = note;
  const candidates: BreedCandidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const m = index.breeds.matchAt(view, i);
    if (!m) continue;
    if (m.matched.some((k) => name && k >= name.start && k < name.end)) continue;
    const term = m.entry.tokens.join(" ");
    const first = tokens[m.start]!;
    const last = tokens[m.end - 1]!;
    const written = text.slice(first.start, last.end);
    const speciesWordsOnly = m.matched.every((k) => speciesWords.some((s) => k >= s.start && k < s.end));
    if (speciesWordsOnly || /^\d+$/.test(term) || m.distance > 0.05) continue;
    // A near-match with short words is a different phrase ("male mixed" is not "mal mix").
    if (m.distance > 0 && m.entry.tokens.some((w) => w.length <= 3)) continue;
    const single = m.entry.tokens.length === 1;
    const visible = first.capitalised || first.upper;
    // Colour and size words alone are not a breed; "mixed breed", "crossbreed" and "mongrel" are
    // (the catalogue's Mixed Breed of the species), but weakly: a named breed beats them.
    const mixedOnly = m.entry.payload.every((id) => index.lexicon.breedById.get(id)?.mixed === true);
    if (single && NOT_BREED_WORDS.has(term) && !mixedOnly) continue;
    // "Lab results", "lab work": the laboratory, not a Labrador.
    if (term === "lab" && LABORATORY_WORDS.has(tokens[m.end]?.norm ?? "")) continue;
    if (!mixedOnly && m.entry.tokens.every((w) => COMMON_BREED_WORDS.has(w) || CROSS_WORDS.has(w))) continue;
    if (mixedOnly && tokens[m.start - 1] && CROSS_WORDS.has(term) && index.breeds.matchAt(view, m.start - 1))
      continue;
    let score = mixedOnly ? 1 : m.matched.length * 2 + (visible ? 2 : 0) + Math.min(term.length, 12) / 4;
    const next = tokens[m.end];
    const cross = Boolean(next && CROSS_WORDS.has(next.norm) && next.kind === "word");
    const besideSignalment =
      isSignalmentToken(note, m.start - 1) ||
      isSignalmentToken(note, m.end) ||
      tokens[m.start - 1]?.norm === ",";
    if (besideSignalment) score += 2;
    // A short lower-case word is a breed only right beside an age or sex ("19yo cob mare", "6yo lab").
    if (single && term.length <= 4 && !visible && !besideAgeOrSex(note, m.start, m.end)) continue;
    // Two-letter abbreviations ("TB", "QH") only in capitals and beside other signalment.
    if (single && term.length <= 2 && !(first.upper && besideSignalment)) continue;
    const ids = abbreviatedBreeds(term, m.entry.payload, index.lexicon);
    // A word many species' breeds share ("crossbred") names no species, so it gains nothing from
    // where it stands.
    const oneSpecies = new Set(ids.map((id) => index.lexicon.breedById.get(id)?.animalTypeId)).size === 1;
    // The breed opening the note as its first entry ("Pug, Biscuit, 4y FN") is signalment too.
    const opensNote =
      tokens.slice(0, m.start).every((t) => t.kind === "break" || t.norm === "-") &&
      tokens[m.end]?.norm === ",";
    const inSignalment =
      oneSpecies &&
      (isAgeOrSexToken(note, m.start - 1) ||
        isAgeOrSexToken(note, m.end) ||
        (tokens[m.end]?.norm === "," && isAgeOrSexToken(note, m.end + 1)) ||
        opensNote);
    candidates.push({ ids, match: m, written, score, cross, inSignalment });
    i = m.end - 1;
  }
  return candidates;
}

/** The breeds a term is the initials of, when it is the initials of any; else all of them. */
function abbreviatedBreeds(term: string, ids: number[], lexicon: Lexicon): number[] {
  const best = Math.max(...ids.map((id) => acronymScore(term, lexicon.breedById.get(id)?.name ?? "")));
  if (best > 0) return ids.filter((id) => acronymScore(term, lexicon.breedById.get(id)?.name ?? "") === best);
  return ids;
}

/** The species word written beside a breed and naming the same animal ("her dog, a Border Terrier", "Labrador dog"). */
function speciesNamedWith(
  c: BreedCandidate,
  speciesWords: SpeciesWord[],
  lexicon: Lexicon,
): SpeciesWord | null {
  const species = new Set(c.ids.map((id) => lexicon.breedById.get(id)?.animalTypeId));
  const word = speciesWords.find(
    (w) =>
      w.vote !== null &&
      species.has(w.id) &&
      ((w.end <= c.match.start && c.match.start - w.end <= 3) ||
        (w.start >= c.match.end && w.start - c.match.end <= 1)),
  );
  return word ?? null;
}

/**
 * A breed implies its species: strong candidates vote 3, weak ones 1.5, shared among its species;
 * a breed in the signalment names this patient and votes as strongly as a species word there
 * ("Pumpkin, 3y MN DSH… O put a dog spot-on on him" is a cat).
 */
export function voteForBreedSpecies(
  candidates: BreedCandidate[],
  lexicon: Lexicon,
  votes: SpeciesVotes,
  speciesWords: SpeciesWord[],
  sexWords: SexWord[] = [],
): void {
  for (const c of candidates) {
    const species = new Set(c.ids.map((id) => lexicon.breedById.get(id)?.animalTypeId));
    // "Italian mare", "24yo Italian Trotter mare": a sex word only another species has, right after
    // the breed (or after one more word of it), is the head noun, as a species word is below.
    const sexHead = sexWords.find(
      (word) =>
        (word.index === c.match.end || word.index === c.match.end + 1) &&
        word.terms.length > 0 &&
        word.terms.every((t) => t.animalTypeId !== null && !species.has(t.animalTypeId)),
    );
    if (sexHead) continue;
    // A breed in the signalment names the patient as surely as a species word there, however short.
    const w = c.inSignalment ? 3 + SIGNALMENT_VOTE : c.score >= 6 ? 3 : 1.5;
    // "Buff Orpington duck", "Abyssinian guinea pig": the species word after another species'
    // breed is the head noun; the breed only describes the animal's look.
    const head = speciesWords.find(
      (word) => word.start === c.match.end && word.vote !== null && !species.has(word.id),
    );
    if (head) {
      addVote(votes, head.id, 3);
      continue;
    }
    // "her dog, a Border Terrier", "Labrador dog": one animal named twice votes once, as strongly
    // as the stronger of the two ("Lab pup": the breed outweighs a weak word like "pup").
    const named = speciesNamedWith(c, speciesWords, lexicon);
    if (named !== null) {
      const extra = w - (named.vote ?? w);
      if (extra > 0) addVote(votes, named.id, extra);
      continue;
    }
    for (const s of species) if (s !== undefined) addVote(votes, s, w / species.size);
  }
}

/**
 * The patient's breed: the best-scored candidate with a breed of the species (or of any species
 * when none was decided); else a capitalised breed of another species as written ("Abyssinian"
 * guinea pig); else the kind a species was named by ("African grey").
 */
export function chooseBreed(
  note: SignalmentNote,
  candidates: BreedCandidate[],
  speciesWords: SpeciesWord[],
  animalTypeId: number | null,
): ChosenBreed {
  // A breed written beside another species' word is that animal's ("her dog, a Border Terrier").
  const own = candidates.filter((c) => {
    const named = speciesNamedWith(c, speciesWords, note.index.lexicon);
    return named === null || animalTypeId === null || named.id === animalTypeId;
  });
  const ranked = [...own].sort((a, b) => b.score - a.score || a.match.start - b.match.start);
  const chosen =
    catalogueBreed(note.index, ranked, animalTypeId) ??
    writtenBreed(ranked) ??
    kindOfSpecies(note, speciesWords, animalTypeId);
  // Every breed word is claimed so it never reads as a sign ("Flat-coated", "Bull Terrier").
  for (const c of candidates) if (c.score >= 6) chosen.claimed.push(...c.match.matched);
  return chosen;
}

function catalogueBreed(
  index: LexiconIndex,
  ranked: BreedCandidate[],
  animalTypeId: number | null,
): ChosenBreed | null {
  const { lexicon } = index;
  for (const c of ranked) {
    let ids = c.ids.filter(
      (id) => animalTypeId === null || lexicon.breedById.get(id)?.animalTypeId === animalTypeId,
    );
    if (ids.length === 0) continue;
    const term = c.match.entry.tokens.join(" ");
    ids = [...ids].sort((a, b) => {
      const ba = lexicon.breedById.get(a)!;
      const bb = lexicon.breedById.get(b)!;
      const acr = acronymScore(term, bb.name) - acronymScore(term, ba.name);
      if (acr !== 0) return acr;
      const exact = Number(bb.name.toLowerCase() === term) - Number(ba.name.toLowerCase() === term);
      if (exact !== 0) return exact;
      const pa = speciesPriorRank(lexicon.animalTypeById.get(ba.animalTypeId)?.key ?? "");
      const pb = speciesPriorRank(lexicon.animalTypeById.get(bb.animalTypeId)?.key ?? "");
      return pa - pb || bb.terms.length - ba.terms.length;
    });
    let breedId = ids[0]!;
    const breed = lexicon.breedById.get(breedId)!;
    if (c.cross && !breed.mixed) breedId = crossOf(index, breed) ?? breedId;
    return { breedId, breed: lexicon.breedById.get(breedId)!.name, claimed: [...c.match.matched] };
  }
  return null;
}

/** "Labrador x": the catalogue's "Labrador Retriever cross" of the same species, if it has one. */
function crossOf(index: LexiconIndex, breed: LexiconBreed): number | undefined {
  const crossIds = index.breedIdsByName.get(`${breed.name.toLowerCase()} cross`) ?? [];
  return crossIds.find((id) => index.lexicon.breedById.get(id)?.animalTypeId === breed.animalTypeId);
}

/** A capitalised breed of another species ("Abyssinian" guinea pig): kept as written. */
function writtenBreed(ranked: BreedCandidate[]): ChosenBreed | null {
  const written = ranked.find(
    (c) => c.score >= 6 && /^[A-Z]/.test(c.written) && c.match.matched.length === c.match.end - c.match.start,
  );
  return written ? { breedId: null, breed: written.written, claimed: [...written.match.matched] } : null;
}

/** Species named by their kind ("African grey", "cockatiel", "corn snake"): the kind is the breed. */
function kindOfSpecies(
  note: SignalmentNote,
  speciesWords: SpeciesWord[],
  animalTypeId: number | null,
): ChosenBreed {
  const { text, tokens, index } = note;
  const key = animalTypeId === null ? "" : (index.lexicon.animalTypeById.get(animalTypeId)?.key ?? "");
  const kind = speciesWords.find(
    (s) =>
      s.id === animalTypeId &&
      KIND_SPECIES.has(key) &&
      !GENERIC_SPECIES_TERMS.has(s.term) &&
      s.term !== key &&
      !s.term.endsWith("s"),
  );
  const breed = kind ? text.slice(tokens[kind.start]!.start, tokens[kind.end - 1]!.end) : null;
  return { breedId: null, breed, claimed: [] };
}

/** Is an age or sex written right before or after [start, end)? */
function besideAgeOrSex(note: SignalmentNote, start: number, end: number): boolean {
  return (start > 0 && isSignalmentToken(note, start - 1)) || isSignalmentToken(note, end);
}
