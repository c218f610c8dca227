// When nothing names the species: the words around it (coat, husbandry, anatomy) and a height in
// hands still point to one.
import type { SignalmentNote } from "./note";
import type { SexWord } from "./sex";
import { addVote, type SpeciesVotes } from "./species";

/**
 * Words that point to a species when no species word, breed or sex word does: coat and breed-type
 * descriptions, husbandry and anatomy only one kind of animal has ("silver tabby", "crossbreed",
 * "pastern", "rumen", "cere", "plastron"). Each counts a little; a named species always wins.
 * Not words other patients share or that mean something else in a note: "hock" (dogs and cattle
 * have them), "stable" and "a bit", "cage rest", "shedding" hair, "hind quarters", "racing"
 * greyhounds.
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
    "meowing",
    "meows",
    "meowed",
    "miaowing",
    "catio",
    "queening",
    "kitty",
    "hairball",
    "hairballs",
    // Tests and diseases of cats only ("FIV/FeLV neg").
    "fiv",
    "felv",
    "fip",
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
    // Diseases and repairs of dogs far more than of any other patient.
    "cruciate",
    "ccl",
    "tplo",
    "lyme",
  ],
  horse: [
    "in foal",
    "coronary band",
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
    "paddock",
    "ridden",
    "riding",
    "gelding",
    "mare",
    "foal",
    "colt",
    "filly",
    "cannon",
    "poll",
    "tack",
    "dressage",
    "eventing",
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
    "cagebird",
  ],
  tortoise: ["plastron", "carapace", "hibernation", "hibernating", "hibernated", "scutes", "shell"],
  bearded_dragon: ["vivarium", "basking", "uvb", "substrate", "brumation"],
  rabbit: ["hutch", "caecotrophs", "cecotrophs", "hay", "lop"],
};

/** Did no species word, breed or sex word vote for a species? */
export function noSpeciesNamed(votes: SpeciesVotes): boolean {
  return [...votes.values()].every((v) => v <= 0);
}

/** Votes a little for the species that context words and a height in hands ("16.2hh") suggest. */
export function voteFromContext(note: SignalmentNote, votes: SpeciesVotes): void {
  const { text, tokens, index } = note;
  const horseId = index.animalTypeIdByKey.get("horse");
  if (horseId !== undefined && /\b\d{2}(?:\.[0-3])?\s?hh\b/i.test(text)) addVote(votes, horseId, 1);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const pair = `${t.norm} ${tokens[i + 1]?.norm ?? ""}`;
    // Poodle crosses are named by their own portmanteau ("Bernedoodle", "Sheepadoodle", "Schnoodle").
    const dogId = index.animalTypeIdByKey.get("dog");
    if (
      dogId !== undefined &&
      /^[a-z]{2,}oodles?$/.test(t.norm) &&
      !/^(?:noodles?|poodles?|doodles?)$/.test(t.norm)
    )
      addVote(votes, dogId, 0.5);
    for (const [key, words] of Object.entries(CONTEXT_SPECIES)) {
      if (!words.includes(t.norm) && !words.includes(pair)) continue;
      const id = index.animalTypeIdByKey.get(key);
      if (id !== undefined) addVote(votes, id, 0.5);
    }
  }
}

/**
 * Husbandry that tells apart the species one sex word may name ("doe" and "buck" are rabbits' and
 * goats'): a dairy doe with an udder is a goat, a doe in a hutch a rabbit.
 */
const SHARED_SEX_WORD_CONTEXT: Record<string, string[]> = {
  goat: [
    "udder",
    "dairy",
    "milk",
    "milking",
    "milked",
    "lactating",
    "lactation",
    "teat",
    "teats",
    "kid",
    "kids",
    "kidding",
    "kidded",
    "herd",
    "browse",
    "browsing",
    "caprine",
    "goatling",
  ],
  rabbit: [...CONTEXT_SPECIES.rabbit!, "warren", "kits", "kindling", "dewlap"],
};

/** Each context word of one of a shared sex word's species votes 1 for it (at most 3). */
export function voteForSharedSexWordContext(
  note: SignalmentNote,
  sexWords: SexWord[],
  votes: SpeciesVotes,
): void {
  const shared = new Set<number>();
  for (const word of sexWords) {
    const species = new Set(word.terms.map((t) => t.animalTypeId).filter((id) => id !== null));
    if (species.size > 1) for (const id of species) shared.add(id);
  }
  if (shared.size === 0) return;
  const words = new Set(note.tokens.map((t) => t.norm));
  for (const [key, context] of Object.entries(SHARED_SEX_WORD_CONTEXT)) {
    const id = note.index.animalTypeIdByKey.get(key);
    if (id === undefined || !shared.has(id)) continue;
    const hits = context.filter((w) => words.has(w)).length;
    if (hits > 0) addVote(votes, id, Math.min(hits, 3));
  }
}
