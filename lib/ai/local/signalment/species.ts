// Species: the words that name it, how strongly each names this patient's species, and the vote
// that decides between them (breeds and species-specific sex words vote too: breed.ts, sex.ts).
import type { Lexicon } from "@/lib/ai/lexicon";
import { stem } from "../tokenise";
import { HYPHENATED_AGE, isSentenceStart, isVerbDoes, type SignalmentNote, type TokenSpan } from "./note";

// Species words that are also names, body parts or other things: weak evidence, ignored when
// written capitalised mid-sentence (a name: "Leo", "Jack").
const RISKY_SPECIES_TERMS = new Set([
  "chin",
  "leo",
  "jack",
  "kit",
  "tom",
  "queen",
  "amazon",
  "stag",
  "ass",
  "boa",
  "jenny",
  "doe",
  "buck",
  "hob",
  "jill",
  "ox",
  "hog",
  "turkey",
  "duck",
  "mule",
  "gp",
  "calf",
  "lamb",
  "python",
  "gecko",
  "pup",
  "exotic",
  "unknown species",
  "dam",
  "kid goat",
  "billy",
  "nanny",
  "cock",
  "hen",
  "chick",
  // Wild animals a pet meets more often than a vet treats: "sprayed by a skunk".
  "skunk",
  "raccoon",
  "owl",
  "hawk",
  "falcon",
  "swan",
  "dove",
  "finch",
  "quail",
  "koi",
  "canary",
  "kestrel",
  "pigeon",
]);

// Species words that are also pets' names ("Leo", "Jack", "Tom").
export const NAME_LIKE_SPECIES_TERMS = new Set([
  "leo",
  "jack",
  "tom",
  "jenny",
  "jill",
  "kit",
  "amazon",
  "boa",
  "queen",
  "chin",
  "billy",
  // Animals a pet may be named after ("Hawk, 5yo GSD", "Dove is a 2yo DSH").
  "hawk",
  "dove",
  "finch",
  "owl",
  "swan",
  "quail",
  "koi",
  "canary",
  "falcon",
  "kestrel",
  "pigeon",
  "skunk",
]);

// The species' own names ("budgerigar", "rabbit"): stronger than any sex or kind word.
const EXPLICIT_SPECIES_NAMES = new Set([
  "dog",
  "cat",
  "rabbit",
  "horse",
  "guinea pig",
  "ferret",
  "hamster",
  "rat",
  "budgerigar",
  "budgie",
  "parrot",
  "bearded dragon",
  "tortoise",
  "cattle",
  "cow",
  "sheep",
  "goat",
  "pig",
  "chicken",
  "donkey",
  "mouse",
  "chinchilla",
  "gerbil",
  "duck",
  "goose",
  "alpaca",
  "llama",
  "snake",
  "leopard gecko",
  "canine",
  "feline",
  "equine",
  "bovine",
  "ovine",
  "caprine",
  "porcine",
]);

// Species ranked for ties: the commoner patient first.
const SPECIES_PRIOR = [
  "dog",
  "cat",
  "rabbit",
  "horse",
  "guinea_pig",
  "cattle",
  "sheep",
  "goat",
  "pig",
  "ferret",
  "chicken",
];

// "dog bite", "cat flu vaccine", "chicken baby food": the species word is about something else.
const ABOUT_ANOTHER_AFTER = new Set([
  "bite",
  "bites",
  "bitten",
  "attack",
  "attacked",
  "fight",
  "fights",
  "scratch",
  "food",
  "flap",
  "litter",
  "tray",
  "toy",
  "toys",
  "flu",
  // A gait named after an animal: "bunny hopping" in a dog.
  "hop",
  "hops",
  "hopping",
  // A disease named after an animal: "pigeon fever" in horses, "canary pox".
  "fever",
  "pox",
  // Food, not the patient: "chicken baby food", "fed some chicken", "lamb and rice".
  "baby",
  "meat",
  "broth",
  "breast",
  "nuggets",
  "treats",
  "jerky",
  "bones",
  "mince",
  "stock",
  "wings",
  "necks",
  // "cow pat stools": the faeces' look, not the patient.
  "pat",
  "pats",
  // "rat tail" (a coat sign), "rat bait", "rat poison": not the patient.
  "tail",
  "bait",
  "poison",
  "trap",
  "carcass",
  "scraps",
  "dinner",
  "and",
  // A tooth, not the patient: "canine teeth", "broken canine tooth".
  "teeth",
  "tooth",
  // A product or parasite named for the species: "a dog flea spot-on", "cat fleas", "dog shampoo".
  "flea",
  "fleas",
  "spot",
  "spot-on",
  "shampoo",
  "wormer",
  // A sound named after an animal: "goose honk cough".
  "honk",
  "honking",
]);
// "fed some chicken", "the other cat", "no contact with dogs".
const ABOUT_ANOTHER_BEFORE = new Set([
  "some",
  "fed",
  "ate",
  "eating",
  "eats",
  "of",
  "with",
  "other",
  "another",
  "housemate",
  "neighbour's",
  "neighbor's",
  "no",
  "contact",
  "in-contact",
  "all",
  "other's",
  // An object shaped like the animal: "a chocolate rabbit", "his toy duck", "a stuffed bear".
  "chocolate",
  "catnip",
  "toy",
  "stuffed",
  "plush",
  "cuddly",
  "soft",
  "plastic",
  "rubber",
  "squeaky",
  "ceramic",
  "rawhide",
  // Prey a reptile or raptor is fed: "refusing mice", "offered a defrosted rat".
  // A tooth: "upper left canine", "fractured canine", "retained deciduous canine".
  "upper",
  "lower",
  "maxillary",
  "mandibular",
  "left",
  "right",
  "fractured",
  "broken",
  "deciduous",
  "retained",
  // Food as it is prepared: "extra cooked chicken", "raw lamb", "boiled rabbit".
  "cooked",
  "boiled",
  "roast",
  "roasted",
  "grilled",
  "fried",
  "raw",
  "tinned",
  "canned",
  "dried",
  "refusing",
  "refuses",
  "refused",
  "offered",
  "defrosted",
  "thawed",
  "frozen",
  "prey",
]);

// The patient's offspring, named in a sign of the dam ("slipped her foal", "dead lambs born"): the
// word votes for the species but is not claimed, so the sign's phrase can still be read.
const OFFSPRING_BEFORE = new Set([
  "her",
  "their",
  "dead",
  "stillborn",
  "aborted",
  "slipped",
  "weak",
  "mummified",
]);

/** A species word of this patient. */
export interface SpeciesWord extends TokenSpan {
  id: number;
  term: string;
  /**
   * Votes, but its tokens stay readable as part of a sign: the patient's offspring ("her foal"), or
   * a weak species word in lower case ("wet chin").
   */
  readable?: boolean;
  /** Its vote for the species; null for a sex word that names the species too ("mare"), which votes as a sex word. */
  vote: number | null;
}

/** Votes per species (animal type id). Between equal votes the commoner species wins, then the first voted for. */
export type SpeciesVotes = Map<number, number>;

export function addVote(votes: SpeciesVotes, id: number, weight: number): void {
  votes.set(id, (votes.get(id) ?? 0) + weight);
}

/** A species' place among the common patients; 99 for the rest. */
export function speciesPriorRank(key: string): number {
  const rank = SPECIES_PRIOR.indexOf(key);
  return rank === -1 ? 99 : rank;
}

// Words that make a later animal in the same clause a companion, an attacker or a comparison:
// "lives with two dogs and a rabbit", "bitten by a snake", "a lump like a chicken egg".
const COMPANION_LEADS = new Set(["with", "by", "like"]);
const CLAUSE_ENDS = new Set([",", ";", ".", ":", "(", ")"]);

// Words that make a later animal in the same clause food: "was last fed five frozen/thawed mice".
const PREY_LEADS = new Set(["fed", "feeding", "feeds", "ate", "eats", "eating", "offered", "prey"]);
// Words that make a later animal in the same clause one the patient met: "tackled a large snake in
// the garden", "caught a toad", "licked a cane toad". ("Attacked" is left out: "the neighbour's
// dog attacked the cat" names the patient after it.)
const ENCOUNTER_LEADS = new Set([
  "tackled",
  "killed",
  "caught",
  "catching",
  "chased",
  "chasing",
  "hunted",
  "hunting",
  "bit",
  "licked",
  "licking",
  "mouthed",
  "mouthing",
]);

/**
 * Is the species word at i inside a "with …"/"by …"/"like …" phrase of its clause (within 5
 * words), the food of a "fed …" phrase or the animal of a "tackled …" phrase?
 */
function companionPhrase(note: SignalmentNote, i: number): boolean {
  const { tokens } = note;
  for (let k = i - 1; k >= Math.max(0, i - 6); k--) {
    const t = tokens[k]!;
    if (t.kind === "break" || (CLAUSE_ENDS.has(t.norm) && t.norm !== "(" && t.norm !== ")")) return false;
    // "bottle-fed", "hand-fed": a compound adjective, not food.
    if (PREY_LEADS.has(t.norm) && hyphenatedBefore(note, k)) continue;
    if (COMPANION_LEADS.has(t.norm) || PREY_LEADS.has(t.norm) || ENCOUNTER_LEADS.has(t.norm)) return true;
  }
  return false;
}

const AGE_WITH_UNIT = /^~?\d{1,2}(?:\.\d)?(?:y|yo|yr|yrs|m|mo|mos|mth|mths|w|wk|wks)$/;

/**
 * Is the species word at [start, end) written in the patient's signalment, beside an age, a sex
 * or the name that opens the note ("Tabitha, cat.", "Slither, 12-year-old female corn snake",
 * "Whiskers, cat, 10y MN")? Such a word names the patient and outweighs animals the history
 * mentions later (the owner's dog, the snake's mice, "report that the patient is a horse").
 */
function inSignalment(note: SignalmentNote, start: number, end: number): boolean {
  const { tokens, view, index } = note;
  const near = (k: number) => {
    const t = tokens[k]!;
    if ((t.kind === "num" && AGE_WITH_UNIT.test(t.norm)) || HYPHENATED_AGE.test(t.norm)) return true;
    if (t.norm === "old" && tokens[k - 1] && /^(?:years?|months?|weeks?)$/.test(tokens[k - 1]!.norm))
      return true;
    const g = index.genders.matchAt(view, k);
    if (g && g.distance === 0 && (t.upper || g.entry.tokens.join(" ").length > 2)) return true;
    // The name opening the note: "Tabitha, cat."
    return (
      k <= 1 && t.capitalised && tokens[k + 1]?.norm === "," && (k === 0 || tokens[k - 1]!.kind === "break")
    );
  };
  for (let k = start - 1; k >= Math.max(0, start - 5) && tokens[k]!.kind !== "break"; k--)
    if (near(k)) return true;
  for (let k = end; k < Math.min(tokens.length, end + 4) && tokens[k]!.kind !== "break"; k++)
    if (near(k)) return true;
  return false;
}
/**
 * Young of two species that the catalogue files under the first: a foal may be a horse's or a
 * donkey's ("a jenny in foal", "donkey foal"), so it votes for both and the horse wins only a tie.
 */
export const SHARED_YOUNG_WORDS: Record<string, string[]> = { foal: ["donkey"] };

/** Extra vote of a species word written in the signalment. */
export const SIGNALMENT_VOTE = 2;

/**
 * The words as written are the species term or its plural or possessive: the index matches by
 * stem, which also lets "stage" reach "stag" and "ratting" reach "rat".
 */
export function writtenAsSpeciesWord(note: SignalmentNote, start: number, terms: string[]): boolean {
  const bare = (word: string) => word.replace(/['’]s?$/, "");
  return terms.map(bare).every((term, j) => {
    const written = bare(note.tokens[start + j]?.norm ?? "");
    if (written === term || written === `${term}s` || written === `${term}es`) return true;
    if (term.endsWith("y") && written === `${term.slice(0, -1)}ies`) return true;
    if (term.endsWith("f") && written === `${term.slice(0, -1)}ves`) return true;
    // A misspelling the spelling index corrected, or a word the tokeniser split differently.
    return note.view.corrections.has(start + j) || !/^[a-z]+$/.test(written);
  });
}

/** Is the word ending at token end - 1 joined by a hyphen to the next word ("goose-honk")? */
function hyphenatedBefore(note: SignalmentNote, end: number): boolean {
  const last = note.tokens[end - 1];
  const next = note.tokens[end];
  return Boolean(last && next && next.start === last.end + 1 && note.text[last.end] === "-");
}

const COUNT_WORDS = /^(?:\d{1,3}|two|three|four|five|six|several|multiple|many|both|few)$/;

/**
 * "2 dogs in the household", "three cats at home": animals counted in the plural are the
 * household's, a weak vote for the patient's species that its breed or own species word outweighs.
 */
function countedPlural(note: SignalmentNote, start: number, end: number, id: number): boolean {
  const last = note.tokens[end - 1]?.norm ?? "";
  const singular = note.index.lexicon.animalTypeById.get(id)?.name.toLowerCase().split(" ").at(-1);
  const plural = last !== singular && /s$/.test(last) && !/['’]/.test(last);
  return plural && COUNT_WORDS.test(note.tokens[start - 1]?.norm ?? "");
}

/**
 * The species words that name this patient, in the order written. Inside a multi-word breed
 * ("Staffordshire Bull Terrier", "Rex Rabbit") a species word belongs to the breed.
 */
export function findSpeciesWords(note: SignalmentNote, inMultiWordBreed: Set<number>): SpeciesWord[] {
  const { tokens, view, index } = note;
  const words: SpeciesWord[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const m = index.species.matchAt(view, i);
    if (!m || m.distance > 0.05) continue;
    if (inMultiWordBreed.has(m.start) && !EXPLICIT_SPECIES_NAMES.has(m.entry.tokens.join(" "))) {
      i = m.end - 1;
      continue;
    }
    if (isVerbDoes(tokens, m.start)) continue;
    // A compound word's first part ("goose-honk cough", "dog-bite wound"): about something else.
    if (hyphenatedBefore(note, m.end)) continue;
    if (!writtenAsSpeciesWord(note, m.start, m.entry.tokens)) continue;
    // "the canines", "behind the canines": the teeth, never the patients.
    if (tokens[m.start]!.norm === "canines") continue;
    const term = m.entry.tokens.join(" ");
    const first = tokens[m.start]!;
    const next = tokens[m.end]?.norm ?? "";
    const prev = tokens[m.start - 1]?.norm ?? "";
    const risky = RISKY_SPECIES_TERMS.has(term);
    // A capitalised risky word mid-sentence is a name ("Leo", "Jack"); an abbreviation in capitals
    // is not ("3yo F entire GP").
    if (
      risky &&
      first.capitalised &&
      !(first.upper && term.length <= 3) &&
      !isSentenceStart(tokens, m.start)
    ) {
      i = m.end - 1;
      continue;
    }
    // "rat snake", "sheep dog": the first of two species words is the second's modifier.
    const head = index.species.matchAt(view, m.end);
    if (
      head &&
      head.entry.payload !== m.entry.payload &&
      // "Llama gelding", "goat wether": a sex word after the species names the sex, not the animal.
      index.genders.matchAt(view, head.start)?.end !== head.end &&
      head.distance <= 0.05 &&
      !hyphenatedBefore(note, m.end - 1) &&
      writtenAsSpeciesWord(note, head.start, head.entry.tokens)
    ) {
      i = m.end - 1;
      continue;
    }
    // "playing with the other cats", "another dog in the house": the patient is most likely one
    // of them too, a weak vote a named species or breed outweighs.
    const other = prev === "other" || prev === "another";
    if ((other || countedPlural(note, m.start, m.end, m.entry.payload)) && !ABOUT_ANOTHER_AFTER.has(next)) {
      words.push({ start: m.start, end: m.end, id: m.entry.payload, term, vote: other ? 1 : 0.5 });
    } else if (
      !ABOUT_ANOTHER_AFTER.has(next) &&
      // "bottle-fed alpaca", "hand-reared lamb": a compound adjective, not "fed some chicken".
      (!ABOUT_ANOTHER_BEFORE.has(prev) || hyphenatedBefore(note, m.start - 1)) &&
      !companionPhrase(note, m.start)
    ) {
      // Sex words that name the species too ("boar", "sow", "mare") vote through the sex terms.
      const alsoSex = index.genders.matchAt(view, m.start)?.end === m.end;
      const explicit = EXPLICIT_SPECIES_NAMES.has(term);
      const offspring = OFFSPRING_BEFORE.has(prev);
      const opening = !offspring && !risky && inSignalment(note, m.start, m.end) ? SIGNALMENT_VOTE : 0;
      // The patient is named once in the signalment; a species named again and again in the
      // history ("the mice came from a new supplier… the mice were bad") gains little each time.
      const repeated = words.some((w) => w.id === m.entry.payload && w.vote !== null && w.vote >= 3);
      const vote = alsoSex ? null : repeated && !risky ? 1 : (explicit ? 4 : risky ? 1 : 3) + opening;
      // A weak word written in lower case ("wet chin", "calf muscles") stays readable as a sign's word.
      const readable = offspring || (risky && !first.capitalised && !first.upper);
      words.push({ start: m.start, end: m.end, id: m.entry.payload, term, vote, readable });
    }
    i = m.end - 1;
  }
  return words;
}

/**
 * "pigs" after "guinea pigs" means the guinea pigs: a shorter term inside a longer one found
 * elsewhere in the note takes back its vote.
 */
export function discountNestedSpeciesWords(words: SpeciesWord[], votes: SpeciesVotes): void {
  const longer = words.filter((s) => s.end - s.start > 1);
  for (const s of words) {
    if (s.end - s.start > 1) continue;
    const inside = longer.find((l) => l.id !== s.id && stem(l.term.split(" ").at(-1)!) === stem(s.term));
    if (inside) {
      addVote(votes, s.id, -(votes.get(s.id) !== undefined ? Math.min(votes.get(s.id)!, 3) : 0));
      addVote(votes, inside.id, 0);
    }
  }
}

/** The species with the most votes, if any species got a vote. */
export function decideSpecies(votes: SpeciesVotes, lexicon: Lexicon): number | null {
  let animalTypeId: number | null = null;
  let bestVote = 0;
  for (const [id, v] of votes) {
    const rank = speciesPriorRank(lexicon.animalTypeById.get(id)?.key ?? "");
    const bestKey = animalTypeId === null ? "" : (lexicon.animalTypeById.get(animalTypeId)?.key ?? "");
    const better = v > bestVote + 1e-9 || (Math.abs(v - bestVote) < 1e-9 && rank < speciesPriorRank(bestKey));
    if (better) {
      animalTypeId = id;
      bestVote = v;
    }
  }
  return animalTypeId;
}
