// Signalment: species, breed, sex, neuter status, weight, age and the animal's name. Evidence is
// weighed rather than taken first-come: explicit species words, the breed (a breed implies its
// species) and species-specific sex words ("bitch", "gelding", "ewe") all vote.
import type { ExtractedPatient } from "@/lib/ai/types";
import type { LexiconGenderTerm } from "@/lib/ai/lexicon";
import type { LexiconIndex } from "./lexicon-index";
import type { PhraseMatch, TokenView } from "./phrase-index";
import { currentWeight, findAgeYears, findWeights, type WeightMention } from "./weight-age";
import { stem, type Token } from "./tokenise";

export interface Signalment {
  patient: ExtractedPatient;
  /** Token indices used by breed, name and species words: sign matching skips them. */
  claimed: Set<number>;
  weights: WeightMention[];
}

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
]);

// Species words that are also pets' names ("Leo", "Jack", "Tom").
const NAME_LIKE_SPECIES_TERMS = new Set([
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
]);

// Never a breed on its own, whatever the catalogue says (colours, common words, numbers).
const NOT_BREED_WORDS = new Set([
  "nil",
  "call",
  "red",
  "blue",
  "buff",
  "fox",
  "hare",
  "tan",
  "jack",
  "chin",
  "wolf",
  "rat",
  "pit",
  "cape",
  "kent",
  "vit",
  "wire",
  "sage",
  "don",
  "bond",
  "han",
  "hu",
  "moi",
  "fao",
  "aden",
  "char",
  "java",
  "bug",
  "jug",
  "cur",
  "reds",
  "mal",
  "swan",
  "elf",
  "tax",
  "leo",
  "kai",
  "pon",
  "ob",
  "ec",
  "sm",
  "dk",
  "gp",
  "rt",
  "wt",
  "hf",
  "ac",
  "sable",
  "black",
  "white",
  "brown",
  "grey",
  "gray",
  "silver",
  "golden",
  "cream",
  "chocolate",
  "standard",
  "miniature",
  "mini",
  "toy",
  "giant",
  "common",
  "native",
  "local",
  "mixed",
  "cross",
  "pony",
  "dog",
  "cat",
  "rabbit",
  "lamb",
  "hog",
  "turkey",
  "duck",
  "chicken",
  "alpaca",
  "mule",
  "fell",
  "dales",
  "moor",
  "lop",
  "rex",
  "tan",
  "lynx",
  "thai",
  "york",
  "hairless",
  "shorthair",
  "longhair",
  "domestic",
  "crossbreed",
  "cobs",
  "kara",
  "suri",
  "lulu",
  "pega",
]);

// Multi-word breed terms made only of these are colours or descriptions, not breeds.
const COMMON_BREED_WORDS = new Set([
  "red",
  "white",
  "black",
  "brown",
  "grey",
  "gray",
  "blue",
  "silver",
  "golden",
  "cream",
  "tan",
  "and",
  "the",
  "of",
  "with",
  "standard",
  "miniature",
  "mini",
  "toy",
  "giant",
  "common",
  "native",
  "local",
  "domestic",
  "mixed",
  "dog",
  "cat",
  "horse",
  "pony",
  "breed",
]);

const CROSS_WORDS = new Set([
  "x",
  "cross",
  "crossbreed",
  "cross-breed",
  "mix",
  "mixed",
  "xbreed",
  "crossbred",
]);

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

/**
 * Words that point to a species when no species word, breed or sex word does: coat and breed-type
 * descriptions, husbandry and anatomy only one kind of animal has ("silver tabby", "crossbreed",
 * "pastern", "rumen", "cere", "plastron"). Each counts a little; a named species always wins.
 */
const CONTEXT_SPECIES: Record<string, string[]> = {
  cat: [
    "tabby",
    "moggy",
    "moggie",
    "tortoiseshell",
    "tortie",
    "calico",
    "shorthair",
    "longhair",
    "dsh",
    "dlh",
    "dmh",
    "ksh",
    "litter",
    "purring",
    "catio",
    "queening",
  ],
  dog: [
    "terrier",
    "spaniel",
    "retriever",
    "collie",
    "sheepdog",
    "shepherd",
    "setter",
    "pointer",
    "mastiff",
    "bulldog",
    "lurcher",
    "whippet",
    "husky",
    "poodle",
    "doodle",
    "canine",
    "crossbreed",
    "cross-breed",
    "crossbred",
    "x breed",
    "xbreed",
    "x bred",
    "mixed breed",
    "cross breed",
    "mongrel",
    "mutt",
    "hound",
    "puppy",
    "pup",
    "walks",
    "walkies",
    "lead",
    "leash",
    "kennel",
    "kennels",
    "whelping",
    "whelped",
    "doggy",
  ],
  horse: [
    "in foal",
    "cob",
    "ponies",
    "mares",
    "geldings",
    "stallion",
    "pastern",
    "pasterns",
    "fetlock",
    "fetlocks",
    "hoof",
    "hooves",
    "withers",
    "farrier",
    "stabled",
    "stable",
    "paddock",
    "ridden",
    "riding",
    "coronary",
    "gelding",
    "mare",
    "foal",
    "colt",
    "filly",
    "hock",
    "hocks",
    "cannon",
    "poll",
    "tack",
    "bit",
    "dressage",
    "eventing",
    "racing",
    "broodmare",
    "yearling",
  ],
  cattle: [
    "in calf",
    "heifers",
    "cows",
    "calves",
    "rumen",
    "ruminal",
    "cud",
    "calving",
    "calved",
    "heifer",
    "dairy",
    "herd",
    "teat",
    "teats",
    "quarters",
    "dim",
    "lactation",
    "milking",
    "parlour",
    "parlor",
    "abomasum",
    "abomasal",
  ],
  sheep: [
    "in lamb",
    "ewes",
    "lambs",
    "flock",
    "fleece",
    "tupping",
    "lambing",
    "lambed",
    "shearing",
    "crutching",
  ],
  budgerigar: [
    "cere",
    "perch",
    "perches",
    "preening",
    "aviary",
    "keel",
    "crop",
    "feathers",
    "feather",
    "droppings",
    "cage",
    "cagebird",
  ],
  tortoise: ["plastron", "carapace", "hibernation", "hibernating", "hibernated", "scutes", "shell"],
  bearded_dragon: ["vivarium", "basking", "uvb", "substrate", "brumation", "shedding"],
  rabbit: ["hutch", "caecotrophs", "cecotrophs", "hay", "lop"],
};

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

const NEUTER_ONLY_TERMS = new Set(["entire", "intact"]);
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

/** Index of the first token after the note's first two sentences (or its first 40 tokens). */
function earlyTokenLimit(tokens: Token[]): number {
  let breaks = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.kind === "break" && ++breaks === 2) return Math.min(i, 40);
  }
  return Math.min(tokens.length, 40);
}

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
]);

const AGE_TOKEN = /^~?\d{1,2}(?:\.\d)?(?:y|yo|yr|yrs|m|mo|mos|mth|mths|w|wk|wks|d)?$/;
const AGE_TOKEN_WITH_UNIT = /^~?\d{1,2}(?:\.\d)?(?:y|yo|yr|yrs|mo|mos|mth|mths|wk|wks)$/;
const SEX_ABBREVIATIONS = new Set(["mn", "mc", "me", "mi", "fn", "fs", "fe", "fi", "m", "f"]);
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

interface BreedCandidate {
  ids: number[];
  match: PhraseMatch<number[]>;
  written: string;
  score: number;
  cross: boolean;
}

function isSentenceStart(tokens: Token[], i: number): boolean {
  const prev = tokens[i - 1];
  return (
    !prev ||
    prev.kind === "break" ||
    prev.norm === ":" ||
    prev.norm === "-" ||
    prev.norm === "(" ||
    prev.norm === '"'
  );
}

function acronymScore(term: string, name: string): number {
  // "dsh" reads as the initials of "Domestic ShortHair" but not of "German Shepherd Dog".
  const letters = name.toLowerCase().replace(/[^a-z]/g, "");
  if (!/^[a-z]{2,5}$/.test(term) || letters[0] !== term[0]) return 0;
  let k = 0;
  for (const ch of letters) if (ch === term[k]) k++;
  return k === term.length ? 1 : 0;
}

export function extractSignalment(text: string, view: TokenView, index: LexiconIndex): Signalment {
  const { tokens } = view;
  const { lexicon } = index;
  const claimed = new Set<number>();
  const votes = new Map<number, number>();
  const vote = (id: number, weight: number) => votes.set(id, (votes.get(id) ?? 0) + weight);

  // Multi-word breed names hold other species' words ("Staffordshire Bull Terrier", "Cattle
  // Dog", "Rex Rabbit"): inside one, a species word is part of the breed, not the species.
  const inMultiWordBreed = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const b = index.breeds.matchAt({ ...view, corrections: new Map() }, i);
    if (!b || b.distance > 0.05 || b.entry.tokens.length < 2 || b.matched.length < 2) continue;
    if (!(tokens[b.start]!.capitalised || tokens[b.start]!.upper)) continue;
    if (b.entry.tokens.every((w) => COMMON_BREED_WORDS.has(w) || CROSS_WORDS.has(w))) continue;
    for (let k = b.start; k < b.end; k++) inMultiWordBreed.add(k);
    i = b.end - 1;
  }

  // --- Species words -----------------------------------------------------------------------
  const speciesSpans: Array<{ start: number; end: number; id: number; term: string }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const m = index.species.matchAt({ ...view, corrections: new Map() }, i);
    if (!m || m.distance > 0.05) continue;
    if (inMultiWordBreed.has(m.start) && !EXPLICIT_SPECIES_NAMES.has(m.entry.tokens.join(" "))) {
      i = m.end - 1;
      continue;
    }
    const term = m.entry.tokens.join(" ");
    const first = tokens[m.start]!;
    const next = tokens[m.end]?.norm ?? "";
    const prev = tokens[m.start - 1]?.norm ?? "";
    const risky = RISKY_SPECIES_TERMS.has(term);
    if (risky && first.capitalised && !isSentenceStart(tokens, m.start)) {
      i = m.end - 1;
      continue;
    }
    // "dog bite", "the other cat", "cat flu vaccine" are not this patient's species.
    const aboutAnother =
      [
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
        "and",
      ].includes(next) ||
      ["some", "fed", "ate", "eating", "eats", "of", "with"].includes(prev) ||
      [
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
      ].includes(prev);
    if (!aboutAnother) {
      // Sex words that name the species too ("boar", "sow", "mare") vote through the sex terms.
      const alsoSex = index.genders.matchAt({ ...view, corrections: new Map() }, m.start)?.end === m.end;
      const explicit = EXPLICIT_SPECIES_NAMES.has(term);
      if (!alsoSex) vote(m.entry.payload, explicit ? 4 : risky ? 1 : 3);
      speciesSpans.push({ start: m.start, end: m.end, id: m.entry.payload, term });
      for (let k = m.start; k < m.end; k++) claimed.add(k);
    }
    i = m.end - 1;
  }

  // "pigs" after "guinea pigs" means the guinea pigs: a shorter term inside a longer one found
  // elsewhere in the note does not vote on its own.
  const longer = speciesSpans.filter((s) => s.end - s.start > 1);
  for (const s of speciesSpans) {
    if (s.end - s.start > 1) continue;
    const inside = longer.find((l) => l.id !== s.id && stem(l.term.split(" ").at(-1)!) === stem(s.term));
    if (inside) {
      vote(s.id, -(votes.get(s.id) !== undefined ? Math.min(votes.get(s.id)!, 3) : 0));
      vote(inside.id, 0);
    }
  }

  // --- Name ---------------------------------------------------------------------------------
  const breedAt = (i: number) => index.breeds.matchAt({ ...view, corrections: new Map() }, i);
  const isSignalmentToken = (i: number): boolean => {
    const t = tokens[i];
    if (!t) return false;
    if (AGE_TOKEN.test(t.norm) && t.kind === "num") return true;
    if (t.norm === "~" && tokens[i + 1]?.kind === "num") return true;
    if (SEX_ABBREVIATIONS.has(t.norm) && t.upper) return true;
    if (index.species.matchAt({ ...view, corrections: new Map() }, i)) return true;
    const g = index.genders.matchAt({ ...view, corrections: new Map() }, i);
    if (g && g.entry.tokens.join(" ").length > 2) return true;
    const b = breedAt(i);
    return Boolean(b && (t.capitalised || t.upper) && !NOT_BREED_WORDS.has(b.entry.tokens.join(" ")));
  };
  const namedSpecies = new Set(speciesSpans.map((s) => s.id));
  const isAgeToken = (i: number) => {
    const t = tokens[i];
    return Boolean(
      t && t.kind === "num" && /^\d{1,2}(?:\.\d)?(?:y|yo|yr|yrs|m|mo|mos|mth|mths|w|wk|wks)$/.test(t.norm),
    );
  };
  const isSexToken = (i: number) => {
    const t = tokens[i];
    if (!t) return false;
    if (SEX_ABBREVIATIONS.has(t.norm) && t.upper && t.norm.length === 2) return true;
    return ["male", "female", "neutered", "spayed", "entire", "castrated"].includes(t.norm);
  };
  const nameCandidate = (i: number): { start: number; end: number } | null => {
    const t = tokens[i];
    if (!t || t.kind !== "word" || !t.capitalised || NOT_NAMES.has(t.norm)) return null;
    if (inMultiWordBreed.has(i)) return null;
    if (t.upper && t.norm.length <= 4) return null;
    const prev = tokens[i - 1];
    if (
      prev &&
      OWNER_TITLES.has(prev.norm) &&
      !(isSentenceStart(tokens, i - 1) || tokens[i - 2]?.norm === ",")
    )
      return null;
    const nextToken = tokens[i + 1];
    if (nextToken && (nextToken.norm === "'" || nextToken.norm === "'s")) return null;
    if (t.norm.endsWith("'s") || /['\u2019]$/.test(text.slice(t.end, t.end + 1))) return null;
    const sp = index.species.matchAt({ ...view, corrections: new Map() }, i);
    if (sp && !NAME_LIKE_SPECIES_TERMS.has(sp.entry.tokens.join(" "))) return null;
    // A breed of a species the note names ("Kid goat, Boer") is the breed, not a name.
    const b = breedAt(i);
    if (b && b.entry.payload.some((id) => namedSpecies.has(lexicon.breedById.get(id)?.animalTypeId ?? -1)))
      return null;
    let start = i;
    // "Mr Nibbles": a title that begins the name, not an owner.
    if (prev && OWNER_TITLES.has(prev.norm) && prev.capitalised) start = i - 1;
    return { start, end: i + 1 };
  };

  let name: { start: number; end: number } | null = null;
  // 1. Labels: "Patient: Max", "Name - Bella", "this record Pepper", "Presenting: Milo".
  for (let i = 0; i < tokens.length && !name; i++) {
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
    if (at >= 0) name = nameCandidate(at);
  }
  // 2. "Bella, 4yo FS Lab" / "Storm, 12yo TB gelding" / "- Buster, JRT ME" / "Jasper 7yo MN" /
  //    "Daisy (Westie, 10)". Only in the note's first sentences, where the signalment is written
  //    ("Wormed, neutered + vacc'd" later on is history, not a name).
  const early = earlyTokenLimit(tokens);
  for (let i = 0; i < tokens.length && !name; i++) {
    const c = nameCandidate(i);
    if (!c) continue;
    const prev = tokens[c.start - 1];
    const after = tokens[i + 1];
    if (!after) continue;
    // Late in the note only a signature-like "- Buster, JRT ME." counts, not "Wormed, neutered".
    const late = i >= early;
    if (late) {
      const sign = tokens[i + 2];
      const signature =
        after.norm === "," &&
        (!prev || prev.kind === "break" || prev.norm === "-") &&
        sign !== undefined &&
        (isAgeToken(i + 2) ||
          (SEX_ABBREVIATIONS.has(sign.norm) && sign.upper) ||
          (breedAt(i + 2) !== null && sign.upper));
      if (!signature) continue;
    }
    if (after.norm === "," || after.norm === "-") {
      if (prev && !(prev.kind === "break" || [",", ":", "-", "(", ";"].includes(prev.norm))) continue;
      if (isSignalmentToken(i + 2) || (tokens[i + 2]?.norm === "~" && isSignalmentToken(i + 3))) name = c;
    } else if (after.norm === "(") {
      let found = false;
      for (let k = i + 2; k < Math.min(tokens.length, i + 6) && tokens[k]!.norm !== ")"; k++)
        if (isAgeToken(k) || isSexToken(k)) found = true;
      if (found) name = c;
    } else if (
      isAgeToken(i + 1) ||
      isSexToken(i + 1) ||
      (APPROX.has(after.norm) && isSignalmentToken(i + 2))
    ) {
      if (prev && !(prev.kind === "break" || [",", ":", "-", "(", ";"].includes(prev.norm))) continue;
      name = c;
    }
  }
  // 2b. Prose: "Dobie is a 5-year-old Labrador cross", "Poppy, a 5-month-old entire female",
  //     "Spike, adult entire male bearded dragon", "'Rosie' 11mo FE Bloodhound", "a cat called Tom".
  for (let i = 0; i < early && !name; i++) {
    const c = nameCandidate(i);
    if (!c) continue;
    const prev = tokens[c.start - 1];
    const quoted = QUOTES.has(prev?.norm ?? "") && QUOTES.has(tokens[i + 1]?.norm ?? "");
    const calledBefore = prev && ["named", "called"].includes(prev.norm);
    if (quoted || calledBefore) {
      name = c;
      break;
    }
    if (prev && !(prev.kind === "break" || [":", "-", "(", ";"].includes(prev.norm))) continue;
    const n1 = tokens[i + 1]?.norm ?? "";
    const n2 = tokens[i + 2]?.norm ?? "";
    const n3 = i + 3;
    if (
      (n1 === "is" || n1 === "was") &&
      (n2 === "a" || n2 === "an") &&
      (isSignalmentToken(n3) || AGE_WORDS.has(tokens[n3]?.norm ?? "") || tokens[n3]?.kind === "num")
    )
      name = c;
    else if (
      n1 === "," &&
      (n2 === "a" || n2 === "an" || n2 === "our" || n2 === "the") &&
      (isSignalmentToken(n3) ||
        AGE_WORDS.has(tokens[n3]?.norm ?? "") ||
        tokens[n3]?.kind === "num" ||
        /^(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/.test(tokens[n3]?.norm ?? ""))
    )
      name = c;
    else if (n1 === "," && AGE_WORDS.has(n2)) name = c;
  }
  // 3. "Mrs Smith's cat Tigger", "his Border Collie Skye", "Yorkie Princess vomited".
  if (!name) {
    for (let i = 1; i < tokens.length && !name; i++) {
      const c = nameCandidate(i);
      if (!c || c.start !== i) continue;
      const prev = tokens[i - 1]!;
      const speciesBefore = speciesSpans.some((s) => s.end === i);
      let breedBefore = false;
      for (let k = Math.max(0, i - 4); k < i; k++) {
        const b = breedAt(k);
        if (
          b &&
          b.end === i &&
          !NOT_BREED_WORDS.has(b.entry.tokens.join(" ")) &&
          (tokens[k]!.capitalised || tokens[k]!.upper)
        )
          breedBefore = true;
      }
      if (breedAt(i) && !speciesBefore && !breedBefore) continue;
      if ((speciesBefore || breedBefore) && prev.kind === "word") name = c;
    }
  }
  // 2c. A quoted name early in the note: "'Rosie' 11mo FE Bloodhound", "4yo M Shih Tzu X 'Charlie'".
  if (!name) {
    const quoted =
      /(?:^|[\s(,])['"\u2018\u201c]([A-Z][a-z]+(?: [A-Z][a-z]+){0,2})['"\u2019\u201d](?=[\s,.;:)]|$)/.exec(
        text.slice(0, tokens[early - 1]?.end ?? 0),
      );
    if (quoted) {
      const at = text.indexOf(quoted[1]!, quoted.index);
      const first = tokens.findIndex((t) => t.start === at);
      const last = tokens.findIndex((t) => t.end === at + quoted[1]!.length);
      if (first >= 0 && last >= first && !NOT_NAMES.has(tokens[first]!.norm))
        name = { start: first, end: last + 1 };
    }
  }
  if (name) for (let k = name.start; k < name.end; k++) claimed.add(k);

  // --- Breed --------------------------------------------------------------------------------
  const candidates: BreedCandidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (claimed.has(i) && !speciesSpans.some((s) => s.start === i && s.end > i + 1)) {
      // Species words may begin a breed ("Guinea pig" is not one, "Pony" is a species word).
    }
    const m = breedAt(i);
    if (!m) continue;
    if (m.matched.some((k) => name && k >= name.start && k < name.end)) continue;
    const term = m.entry.tokens.join(" ");
    const first = tokens[m.start]!;
    const last = tokens[m.end - 1]!;
    const written = text.slice(first.start, last.end);
    const speciesWordsOnly = m.matched.every((k) => speciesSpans.some((s) => k >= s.start && k < s.end));
    if (speciesWordsOnly || /^\d+$/.test(term) || m.distance > 0.05) continue;
    // A near-match with short words is a different phrase ("male mixed" is not "mal mix").
    if (m.distance > 0 && m.entry.tokens.some((w) => w.length <= 3)) continue;
    const single = m.entry.tokens.length === 1;
    const visible = first.capitalised || first.upper;
    if (single && NOT_BREED_WORDS.has(term)) continue;
    if (single && term.length <= 4 && !visible) continue;
    if (m.entry.tokens.every((w) => COMMON_BREED_WORDS.has(w) || CROSS_WORDS.has(w))) continue;
    let score = m.matched.length * 2 + (visible ? 2 : 0) + Math.min(term.length, 12) / 4;
    const next = tokens[m.end];
    const cross = Boolean(next && CROSS_WORDS.has(next.norm) && next.kind === "word");
    const besideSignalment =
      isSignalmentToken(m.start - 1) || isSignalmentToken(m.end) || tokens[m.start - 1]?.norm === ",";
    if (besideSignalment) score += 2;
    // Two-letter abbreviations ("TB", "QH") only in capitals and beside other signalment.
    if (single && term.length <= 2 && !(first.upper && besideSignalment)) continue;
    candidates.push({ ids: m.entry.payload, match: m, written, score, cross });
    i = m.end - 1;
  }

  const breedSpecies = (c: BreedCandidate) =>
    new Set(c.ids.map((id) => lexicon.breedById.get(id)?.animalTypeId));
  for (const c of candidates) {
    const term = c.match.entry.tokens.join(" ");
    const best = Math.max(...c.ids.map((id) => acronymScore(term, lexicon.breedById.get(id)?.name ?? "")));
    if (best > 0)
      c.ids = c.ids.filter((id) => acronymScore(term, lexicon.breedById.get(id)?.name ?? "") === best);
    const species = breedSpecies(c);
    const w = c.score >= 6 ? 3 : 1.5;
    for (const s of species) if (s !== undefined) vote(s, w / species.size);
  }

  // --- Sex and neuter status ----------------------------------------------------------------
  const genderHits: Array<{ terms: LexiconGenderTerm[]; index: number; written: string }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const m = index.genders.matchAt({ ...view, corrections: new Map() }, i);
    if (!m || m.distance > 0.05) continue;
    const term = m.entry.tokens.join(" ");
    const first = tokens[m.start]!;
    i = m.end - 1;
    if (IGNORED_GENDER_TERMS.has(term)) continue;
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
    genderHits.push({ terms: m.entry.payload, index: m.start, written: term });
    // Species-specific sex words vote for their species ("bitch", "gelding", "ewe").
    const specific = m.entry.payload.filter((t) => t.animalTypeId !== null);
    if (specific.length > 0 && specific.length === m.entry.payload.length) {
      specific.forEach((t, k) => vote(t.animalTypeId!, k === 0 ? 1.5 : 0.75));
    }
  }

  // Nothing named the species: let husbandry, anatomy and coat words point to it, and a height
  // in hands ("16.2hh") a horse.
  if ([...votes.values()].every((v) => v <= 0)) {
    const horseId = index.animalTypeIdByKey.get("horse");
    if (horseId !== undefined && /\b\d{2}(?:\.[0-3])?\s?hh\b/i.test(text)) vote(horseId, 1);
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      const pair = `${t.norm} ${tokens[i + 1]?.norm ?? ""}`;
      for (const [key, words] of Object.entries(CONTEXT_SPECIES)) {
        if (!words.includes(t.norm) && !words.includes(pair)) continue;
        const id = index.animalTypeIdByKey.get(key);
        if (id !== undefined) vote(id, 0.5);
      }
    }
  }

  // Decide species.
  let animalTypeId: number | null = null;
  let bestVote = 0;
  for (const [id, v] of votes) {
    const key = lexicon.animalTypeById.get(id)?.key ?? "";
    const prior = SPECIES_PRIOR.indexOf(key);
    const bestKey = animalTypeId === null ? "" : (lexicon.animalTypeById.get(animalTypeId)?.key ?? "");
    const bestPrior = SPECIES_PRIOR.indexOf(bestKey);
    const better =
      v > bestVote + 1e-9 ||
      (Math.abs(v - bestVote) < 1e-9 && (prior === -1 ? 99 : prior) < (bestPrior === -1 ? 99 : bestPrior));
    if (better) {
      animalTypeId = id;
      bestVote = v;
    }
  }

  // Choose the breed consistent with the species.
  let breedId: number | null = null;
  let breed: string | null = null;
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.match.start - b.match.start);
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
      const pa = SPECIES_PRIOR.indexOf(lexicon.animalTypeById.get(ba.animalTypeId)?.key ?? "");
      const pb = SPECIES_PRIOR.indexOf(lexicon.animalTypeById.get(bb.animalTypeId)?.key ?? "");
      return (pa === -1 ? 99 : pa) - (pb === -1 ? 99 : pb) || bb.terms.length - ba.terms.length;
    });
    let chosen = ids[0]!;
    const chosenBreed = lexicon.breedById.get(chosen)!;
    if (c.cross && !chosenBreed.mixed) {
      const crossIds = index.breedIdsByName.get(`${chosenBreed.name.toLowerCase()} cross`) ?? [];
      const crossId = crossIds.find(
        (id) => lexicon.breedById.get(id)?.animalTypeId === chosenBreed.animalTypeId,
      );
      if (crossId !== undefined) chosen = crossId;
    }
    breedId = chosen;
    breed = lexicon.breedById.get(chosen)!.name;
    for (const k of c.match.matched) claimed.add(k);
    if (animalTypeId === null) animalTypeId = lexicon.breedById.get(chosen)!.animalTypeId;
    break;
  }
  if (breedId === null) {
    // A capitalised breed of another species ("Abyssinian" guinea pig): keep it as written.
    const written = ranked.find(
      (c) =>
        c.score >= 6 && /^[A-Z]/.test(c.written) && c.match.matched.length === c.match.end - c.match.start,
    );
    if (written) {
      breed = written.written;
      for (const k of written.match.matched) claimed.add(k);
    }
  }
  if (breed === null && animalTypeId !== null) {
    // Species named by their kind ("African grey", "cockatiel", "corn snake"): the kind is the breed.
    const key = lexicon.animalTypeById.get(animalTypeId)?.key ?? "";
    const kind = speciesSpans.find(
      (s) =>
        s.id === animalTypeId &&
        KIND_SPECIES.has(key) &&
        !GENERIC_SPECIES_TERMS.has(s.term) &&
        s.term !== key &&
        !s.term.endsWith("s"),
    );
    if (kind) breed = text.slice(tokens[kind.start]!.start, tokens[kind.end - 1]!.end);
  }
  // Every breed word is claimed so it never reads as a sign ("Flat-coated", "Bull Terrier").
  for (const c of candidates) if (c.score >= 6) for (const k of c.match.matched) claimed.add(k);

  // Sex from the terms that fit the species.
  let sex: "male" | "female" | null = null;
  let neutered: boolean | null = null;
  const unknownSex = UNKNOWN_SEX_RE.test(text);
  for (const hit of genderHits) {
    const fitting = hit.terms.filter(
      (t) => t.animalTypeId === null || animalTypeId === null || t.animalTypeId === animalTypeId,
    );
    let term = fitting[0];
    if (!term && hit.terms.length > 0 && hit.terms.every((t) => t.gender === hit.terms[0]!.gender)) {
      // A sex word of another species ("cock" for a cockatiel): the sex holds, the neuter status not.
      term = { ...hit.terms[0]!, neutered: null };
    }
    if (!term || term.gender === "unknown") continue;
    // "entire" and "intact" say the neuter status of any animal, the sex only of a horse ("an
    // entire" is a stallion): "entire mixed-breed bitch" is an intact female.
    const neuterOnly = NEUTER_ONLY_TERMS.has(hit.written) && term.animalTypeId === null;
    if (neuterOnly) {
      if (neutered === null) neutered = false;
      continue;
    }
    if (sex === null) sex = term.gender;
    else if (sex !== term.gender) continue;
    if (neutered === null && term.neutered !== null) {
      // A sex word borrowed by another species ("boar" guinea pig, "buck" rabbit) gives the sex only.
      const speciesOfTerm = hit.terms.filter((t) => t.animalTypeId !== null).map((t) => t.animalTypeId);
      const primary =
        speciesOfTerm.length === 0 || speciesOfTerm[0] === animalTypeId || animalTypeId === null;
      if (primary || term.neutered === true) neutered = term.neutered;
    }
  }
  if (sex === null && !unknownSex) sex = pronounSex(tokens);

  // --- Weight and age -----------------------------------------------------------------------
  const weights = findWeights(text);
  const w = currentWeight(weights);

  return {
    patient: {
      animalTypeId,
      breed,
      breedId,
      name: name ? text.slice(tokens[name.start]!.start, tokens[name.end - 1]!.end) : null,
      sex,
      neutered,
      weight: w ? { value: w.value, unit: w.unit } : null,
      ageYears: findAgeYears(text),
    },
    claimed,
    weights,
  };
}

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

/** "she won't put the foot down": pronouns decide the sex when nothing else does. */
function pronounSex(tokens: Token[]): "male" | "female" | null {
  let male = 0;
  let female = 0;
  for (let i = 0; i < tokens.length; i++) {
    const n = tokens[i]!.norm;
    const isFemale = n === "she" || n === "she's" || n === "herself";
    const isMale = n === "he" || n === "he's" || n === "himself";
    if (!isFemale && !isMale) continue;
    let owner = false;
    for (let k = Math.max(0, i - 3); k < i; k++) if (OWNER_CONTEXT.has(tokens[k]!.norm)) owner = true;
    if (owner) continue;
    if (isFemale) female++;
    else male++;
  }
  if (female > male) return "female";
  if (male > female) return "male";
  return null;
}
