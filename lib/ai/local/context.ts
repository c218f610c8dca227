// Clause-scoped context (NegEx-style): splits the notes into sentences and clauses, recognises
// sections (plan, diagnosis, lab results) and decides for each sign mention whether it is present,
// denied, past, another animal's, or only something to watch for.
import type { MentionStatus } from "@/lib/ai/types";
import type { Token } from "./tokenise";

export type SectionKind = "normal" | "plan" | "diagnosis" | "lab";

export interface Clause {
  /** Token indices [start, end). */
  start: number;
  end: number;
  sentence: number;
  section: SectionKind;
}

export interface ContextModel {
  tokens: Token[];
  clauses: Clause[];
  /** Clause index of every token (breaks belong to no clause: -1). */
  clauseOf: Int32Array;
  /** Names of other animals mentioned ("housemate Luna"), lower case. */
  otherAnimalNames: Set<string>;
}

const CLAUSE_BREAKERS = new Set([
  "but",
  "however",
  "although",
  "though",
  "whereas",
  "except",
  "whilst",
  "while",
]);

const PLAN_HEADERS = new Set([
  "plan",
  "p",
  "tx",
  "rx",
  "treatment",
  "advice",
  "recommendations",
  "recs",
  "f/u",
]);
const PLAN_SENTENCE_STARTS = new Set([
  "plan",
  "advised",
  "advise",
  "recommend",
  "recommended",
  "discussed",
  "discuss",
  "dispensed",
  "consider",
  "start",
  "continue",
  "cont",
  "book",
  "booked",
  "refer",
  "monitor",
  "repeat",
]);
/**
 * Discharge instructions in the imperative: "Check the wound daily for swelling", "Ring if she
 * starts vomiting". Not as a heading ("Phone triage:", "Recheck L forelimb wound", "Check-up").
 */
const INSTRUCTION_STARTS = new Set(["check", "reassess", "ring", "keep", "give", "feed"]);
const OTHER_HEADERS = new Set([
  "o/e",
  "oe",
  "exam",
  "hx",
  "history",
  "s",
  "o",
  "cc",
  "presenting",
  "pe",
  "ce",
  "hpi",
  "signalment",
]);
const DIAGNOSIS_STARTS = new Set([
  "dx",
  "ddx",
  "diagnosis",
  "suspect",
  "suspected",
  "suspicion",
  "likely",
  "probable",
  "probably",
  "presumptive",
  "prognosis",
  "assessment",
  "a",
  "impression",
  "tentative",
  "differentials",
  "differential",
  "c/w",
  "r/o",
]);
const DIAGNOSIS_INLINE = [
  "suspect",
  "suspected",
  "c/w",
  "consistent with",
  "secondary to",
  "likely",
  "probable",
  "dx",
  "diagnosed",
  "r/o",
  "rule out",
  "ruled out",
];
const LAB_STARTS = new Set([
  "bloods",
  "haem",
  "haematology",
  "hematology",
  "biochem",
  "biochemistry",
  "ua",
  "urinalysis",
  "usg",
  "bg",
  "glucose",
  "bgl",
  "pcv",
  "tp",
  "ts",
  "fna",
  "cytology",
  "culture",
  "rads",
  "radiographs",
  "radiography",
  "xray",
  "xrays",
  "x-ray",
  "us",
  "ultrasound",
  "echo",
  "ecg",
  "t4",
  "tt4",
  "snap",
  "pcr",
  "histo",
  "histopathology",
  "biopsy",
  "fec",
  "smear",
  "sdma",
  "crea",
  "creatinine",
  "urea",
  "alt",
  "alp",
  "ct",
  "mri",
  "scrape",
  "lactate",
  "electrolytes",
  "cbc",
  "chem",
  "labs",
  "results",
  "abdo",
]);

/** Lab starts that are also body regions: "Abdo rads:" is a result, "Abdo pain on palpation" is not. */
const REGION_STARTS = new Set(["abdo"]);
const IMAGING_WORDS = new Set([
  "rads",
  "radiographs",
  "radiography",
  "xray",
  "xrays",
  "x-ray",
  "x-rays",
  "us",
  "uss",
  "ultrasound",
  "scan",
  "ct",
  "afast",
  "fast",
  "films",
  "imaging",
  "tap",
  "fluid",
]);

function norm(tokens: Token[], i: number): string {
  return tokens[i]?.norm ?? "";
}

/** Slash-joined abbreviations such as "o/e", "c/w", "r/o" as one string starting at i. */
function compound(tokens: Token[], i: number): { text: string; length: number } {
  const a = tokens[i];
  const slash = tokens[i + 1];
  const b = tokens[i + 2];
  if (
    a &&
    slash &&
    b &&
    slash.norm === "/" &&
    slash.start === a.end &&
    b.start === slash.end &&
    a.norm.length <= 2 &&
    b.norm.length <= 2
  )
    return { text: `${a.norm}/${b.norm}`, length: 3 };
  return { text: a?.norm ?? "", length: 1 };
}

export function buildContext(tokens: Token[]): ContextModel {
  const clauses: Clause[] = [];
  const clauseOf = new Int32Array(tokens.length).fill(-1);
  let sentence = 0;
  let persistentPlan = false;
  let i = 0;
  while (i < tokens.length) {
    // One sentence: tokens up to the next break.
    let end = i;
    while (end < tokens.length && tokens[end]!.kind !== "break") end++;
    if (end > i) {
      // Section header at the sentence start ("Plan:", "O/E:", "Dx", "Bloods:").
      let section: SectionKind = persistentPlan ? "plan" : "normal";
      let j = i;
      if (tokens[j]?.norm === "-" || tokens[j]?.norm === "*") j++;
      let head = compound(tokens, j);
      let colon = tokens[j + head.length]?.norm === ":";
      if (OTHER_HEADERS.has(head.text) && colon) {
        persistentPlan = false;
        section = "normal";
        j += head.length + 1;
        head = compound(tokens, j);
        colon = tokens[j + head.length]?.norm === ":";
      }
      if (PLAN_HEADERS.has(head.text) && colon) {
        persistentPlan = true;
        section = "plan";
      } else if (PLAN_SENTENCE_STARTS.has(head.text)) section = "plan";
      else if (INSTRUCTION_STARTS.has(head.text) && !colon && norm(tokens, j + 1) !== "up") section = "plan";
      else if (DIAGNOSIS_STARTS.has(head.text) && (head.text !== "a" || colon)) section = "diagnosis";
      else if (
        LAB_STARTS.has(head.text) &&
        (colon ||
          tokens[j + head.length]?.kind === "num" ||
          (head.text.length > 2 && !REGION_STARTS.has(head.text)) ||
          tokens[j + head.length]?.norm === "(" ||
          (REGION_STARTS.has(head.text) && IMAGING_WORDS.has(norm(tokens, j + head.length))))
      )
        section = "lab";
      else if (head.text === "skin" && norm(tokens, j + 1) === "scrape") section = "lab";
      else if (colon && !OTHER_HEADERS.has(head.text) && persistentPlan) section = "plan";
      // "Owner to report any vomiting", "Owners to call if ...": an instruction, not a history.
      else if (["owner", "owners", "o"].includes(head.text) && norm(tokens, j + 1) === "to") section = "plan";

      // Clauses inside the sentence.
      let cStart = i;
      for (let k = i; k <= end; k++) {
        const atEnd = k === end;
        const t = tokens[k];
        if (atEnd || (t && CLAUSE_BREAKERS.has(t.norm) && k > cStart)) {
          if (k > cStart) {
            const index = clauses.length;
            clauses.push({ start: cStart, end: k, sentence, section });
            for (let m = cStart; m < k; m++) clauseOf[m] = index;
          }
          cStart = k + 1;
        }
      }
    }
    sentence++;
    i = end + 1;
  }
  return { tokens, clauses, clauseOf, otherAnimalNames: findOtherAnimalNames(tokens) };
}

const OTHER_ANIMAL_WORDS = new Set([
  "housemate",
  "housemates",
  "house-mate",
  "littermate",
  "littermates",
  "sibling",
  "siblings",
  "companion",
  "companions",
  "herdmate",
  "herdmates",
  "flockmate",
  "flockmates",
  "penmate",
  "penmates",
  "others",
  "brother",
  "sister",
  "dam",
  "sire",
  // Family: "mother had hip dysplasia and was lame", "grandmother of this dog had seizures".
  "mother",
  "father",
  "grandmother",
  "grandfather",
  "granddam",
  "grandsire",
  "parent",
  "parents",
  "uncle",
  "aunt",
  "cousin",
  "neighbour's",
  "neighbor's",
]);
/** Where animals share a home: "cagemate", "cage mate", "hutch-mate", "stablemate", "pen mate". */
const MATE_PLACES = new Set([
  "cage",
  "hutch",
  "stable",
  "pen",
  "yard",
  "field",
  "paddock",
  "tank",
  "kennel",
  "run",
  "barn",
  "bonded",
  "bond",
]);
const PLACE_MATE = /^(?:cage|hutch|stable|pen|yard|field|paddock|tank|kennel|barn|bond)-?mates?$/;

/** Is token k a word for another animal ("housemate", "cagemate", "cage mate", "littermate")? */
function otherAnimalWord(tokens: Token[], k: number): boolean {
  const word = norm(tokens, k);
  if (OTHER_ANIMAL_WORDS.has(word) || PLACE_MATE.test(word)) return true;
  return (word === "mate" || word === "mates") && MATE_PLACES.has(norm(tokens, k - 1));
}

/** Family words that name a person when the owner's: "owner's mother found him collapsed". */
const FAMILY_WORDS = new Set([
  "mother",
  "father",
  "grandmother",
  "grandfather",
  "parent",
  "parents",
  "uncle",
  "aunt",
  "cousin",
]);
// "her own cat": the owner's own animal, not the patient.
const OTHER_WORDS = new Set(["other", "another", "second", "third", "contact", "own"]);
/**
 * People whose own complaints notes mention: "owner has a cough too", "husband has been sneezing",
 * "owner's child has had vomiting". Only as the subject of the sign (see personSubject).
 */
const PERSON_WORDS = new Set([
  "owner",
  "owners",
  "client",
  "husband",
  "wife",
  "partner",
  "child",
  "children",
  "son",
  "daughter",
  "kids",
  "baby",
  "boyfriend",
  "girlfriend",
  "family",
  "mother",
  "father",
  "neighbour",
  "neighbours",
  "neighbor",
  "neighbors",
]);
/** Young animals in the plural: a nursing mother's litter. */
const OFFSPRING_NOUNS = new Set([
  "kittens",
  "puppies",
  "pups",
  "lambs",
  "kids",
  "calves",
  "foals",
  "piglets",
  "kits",
  "chicks",
  "litter",
]);
/** Words that make the patient a mother with young: then "kittens crying" is the litter's sign. */
const DAM_WORDS = new Set([
  "nursing",
  "lactating",
  "lactation",
  "suckling",
  "whelped",
  "queened",
  "kindled",
  "farrowed",
  "foaled",
  "lambed",
  "kidded",
  "calved",
  "postpartum",
  "post-partum",
]);
const SUBJECT_LEAD = new Set([
  "her",
  "the",
  "their",
  "its",
  "all",
  "both",
  "several",
  "some",
  "two",
  "three",
  "four",
  "five",
  "six",
]);

/**
 * "Kittens crying a lot and the smallest not gaining" in a note about a nursing queen: the clause's
 * subject is her young, not the patient. Only when the note makes the patient a mother with young.
 */
function offspringSubject(
  tokens: Token[],
  start: number,
  clauseStart: number,
  claimed: ReadonlySet<number>,
): boolean {
  let k = clauseStart;
  while (k < start && (SUBJECT_LEAD.has(tokens[k]!.norm) || /^\d+$/.test(tokens[k]!.norm))) k++;
  if (k >= start || claimed.has(k) || !OFFSPRING_NOUNS.has(tokens[k]!.norm)) return false;
  return tokens.some((t) => DAM_WORDS.has(t.norm));
}

/** Words between a person and a sign that keep the person the one who has it. */
const PERSON_GLUE = new Set([
  "has",
  "have",
  "had",
  "is",
  "was",
  "were",
  "been",
  "also",
  "a",
  "an",
  "got",
  "suffering",
  "suffers",
  "from",
  "with",
  "some",
  "bad",
  "own",
  "herself",
  "himself",
  "themselves",
  "too",
  "developed",
  "recently",
  // "owner very anxious re GA": how much the person feels it.
  "very",
  "quite",
  "really",
  "extremely",
  "understandably",
  // "owner has a red itchy ring on her arm": what the person's own lesion looks like.
  "red",
  "small",
  "similar",
  "mild",
  "nasty",
]);
const ANIMAL_NOUNS = new Set([
  "dog",
  "dogs",
  "cat",
  "cats",
  "pet",
  "pets",
  "animal",
  "animals",
  "one",
  "ones",
  "kitten",
  "kittens",
  "puppy",
  "puppies",
  "pup",
  "pups",
  "rabbit",
  "rabbits",
  "bunny",
  "horse",
  "horses",
  "pony",
  "ponies",
  "cow",
  "cows",
  "calf",
  "calves",
  "sheep",
  "ewe",
  "ewes",
  "lamb",
  "lambs",
  "goat",
  "goats",
  "pig",
  "pigs",
  "bird",
  "birds",
  "guinea",
  "ferret",
  "ferrets",
  "hen",
  "hens",
  "chicken",
  "chickens",
  "in-contact",
  "household",
  "members",
]);

/** Sex words that stand for an animal ("doe Willow", "gelding Max"). */
const SEX_NOUNS = new Set(
  "doe buck mare gelding stallion filly colt jill hob sow boar gilt queen tom bitch jenny jack ram wether ewe cow bull heifer steer hen cockerel rooster".split(
    " ",
  ),
);

function findOtherAnimalNames(tokens: Token[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // "bonding attempt with doe Willow", "lives with gelding Max": an animal named beside the patient.
    const beside =
      (ANIMAL_NOUNS.has(t.norm) || SEX_NOUNS.has(t.norm)) &&
      ["with", "and", "&"].includes(norm(tokens, i - 1));
    const isMarker =
      beside ||
      otherAnimalWord(tokens, i) ||
      (OTHER_WORDS.has(t.norm) && ANIMAL_NOUNS.has(norm(tokens, i + 1)));
    if (!isMarker) continue;
    const nextIndex = OTHER_WORDS.has(t.norm) ? i + 2 : i + 1;
    const next = tokens[nextIndex];
    if (next && next.kind === "word" && next.capitalised && !next.upper) names.add(next.norm);
  }
  return names;
}

interface Trigger {
  words: string[];
  status: MentionStatus | "pseudo";
  /** How far forward (tokens) the trigger reaches; Infinity = to the clause end. */
  reach: number;
}

const PRE_TRIGGERS: Trigger[] = [
  // Pseudo-triggers: look like negation but are not.
  ...[
    "no improvement",
    "no change",
    "not improved",
    "not improving",
    "no better",
    "not resolved",
    "no response",
    "not responding",
    "no reduction",
    "not only",
    "not just",
    "no further improvement",
    // A sign that goes on: "vomiting has not stopped", "hasn't stopped coughing", "not settled".
    "not stopped",
    "hasn't stopped",
    "haven't stopped",
    "never stopped",
    "not settled",
    "hasn't settled",
    "not cleared",
    "not subsided",
    "not gone",
    "not eased",
    "not getting better",
    // "losing weight for no obvious reason": the cause is unknown, the sign is not denied.
    "no obvious reason",
    "no apparent reason",
    "no known reason",
    "no particular reason",
    "no obvious cause",
    "no apparent cause",
    "no known cause",
  ].map((p) => ({ words: p.split(" "), status: "pseudo" as const, reach: 0 })),
  ...[
    "no longer",
    "previously",
    "previous",
    "prev",
    "prior",
    "pmh",
    "in the past",
    "last year",
    "last week",
    "last month",
    "years ago",
    "as a puppy",
    "as a kitten",
    "used to",
    "had had",
    "history of resolved",
    "historical",
    "historically",
    "when young",
    "when younger",
    "resolved",
    "earlier episodes",
    "earlier episode",
    "previous episodes",
    "previous episode",
    "prior episodes",
    "past episodes",
    "treated him for",
    "treated her for",
    "treated it for",
    "was treated for",
    "were treated for",
    "had been treated for",
    "recovered from",
    "for the first few days only",
    "treated him",
    "treated her",
    "vet treated",
    "ago seen",
    "ago presented",
    "ago treated",
    "ago had",
    "ago was seen",
    "ago was treated",
    // "Eighteen months ago he was seen for nasal discharge": an earlier consultation.
    ...["he", "she", "it", "they"].flatMap((who) =>
      [
        "was seen",
        "were seen",
        "presented",
        "was treated",
        "were treated",
        "was admitted",
        "was hospitalised",
        "was hospitalized",
      ].map((verb) => `ago ${who} ${verb}`),
    ),
    "had seen",
    "had noticed",
    // An earlier consultation: "at that visit he had a fever".
    "at that visit",
    "at the first visit",
    "at his first visit",
    "at her first visit",
    "at the last visit",
    "at his last visit",
    "at her last visit",
    "at the previous visit",
    "at that consult",
    "at that time",
  ].map((p) => ({ words: p.split(" "), status: "historical" as const, reach: Infinity })),
  // The owner's guess is not a finding: "owner thinks it's choke", "owners worried she is diabetic".
  ...[
    "owner thinks",
    "owners think",
    "o thinks",
    "owner suspects",
    "owners suspect",
    "o suspects",
    "owner believes",
    "owners believe",
    "owner wonders",
    "owners wonder",
    "owner worried",
    "owners worried",
    "owner is worried",
    "owners are worried",
    "owner concerned",
    "owners concerned",
    "owner is concerned",
    "owners are concerned",
    "owner feels",
    "owner convinced",
    "owner queries",
    "owner queried",
    "owner wondered",
    "owner thought",
    "owners thought",
    "owner is sure",
    "owners are sure",
    "owner sure",
    "owner is certain",
    "owner is convinced",
    "owners are convinced",
    "owners convinced",
    "owner reckons",
    "owners reckon",
    "owner fears",
    "owners fear",
    "owner is afraid",
    "owner assumes",
    "owner assumed",
    "owner guesses",
    "owner asked about",
    "owners asked about",
    "owner wants to rule out",
    "family think",
    "family thinks",
    "family suspect",
    "family suspects",
    "family worried",
    "family are worried",
    "client thinks",
    "client suspects",
    "client worried",
    "client is worried",
    // Anyone else's belief: "the friend is convinced it is an abscess", "breeder thinks".
    ...[
      "friend",
      "friends",
      "breeder",
      "husband",
      "wife",
      "neighbour",
      "neighbor",
      "farmer",
      "keeper",
      "trainer",
      "rider",
      "groom",
    ].flatMap((who) =>
      [
        "thinks",
        "suspects",
        "believes",
        "is convinced",
        "convinced",
        "is sure",
        "reckons",
        "wonders",
        "assumes",
        "is worried",
        "worried",
      ].map((verb) => `${who} ${verb}`),
    ),
    // "owner unsure whether he has been vomiting".
    "unsure whether",
    "unsure if",
    "not sure whether",
    "not sure if",
  ]
    // Notes write the owner as "O": "O worried he's losing weight".
    .flatMap((p) => (p.startsWith("owner ") ? [p, `o ${p.slice(6)}`] : [p]))
    .map((p) => ({ words: p.split(" "), status: "suspected" as const, reach: Infinity })),
  // The owner read up on a disease or sign: "owner googled bloat", "has been reading about
  // seizures". Only its object, a few words on ("googled bloat as he is drinking a lot").
  ...["googled", "googling", "looked up", "read about", "reading about", "researched", "researching"].map(
    (p) => ({ words: p.split(" "), status: "suspected" as const, reach: 3 }),
  ),
  // "insurance exclusion for otitis", "excluded from insurance": a condition held against a
  // policy, not this visit's finding.
  ...["insurance exclusion", "insurance exclusions", "exclusion for", "exclusions for", "exclusions"].map(
    (p) => ({ words: p.split(" "), status: "historical" as const, reach: 3 }),
  ),
  // "healed abscess scar", "old healed fracture": a sign that was, and has healed.
  ...["healed", "old healed", "well-healed", "well healed"].map((p) => ({
    words: p.split(" "),
    status: "historical" as const,
    reach: 1,
  })),
  ...[
    "possible",
    "possibly",
    "may be",
    "may have",
    "might be",
    "might have",
    "could be",
    // "may develop diarrhoea on antibiotics", "could see some vomiting after the chemo".
    "may develop",
    "might develop",
    "could develop",
    "may get",
    "could get",
    "may see",
    "might see",
    "could see",
    "may cause",
    "can cause",
    "could cause",
    "may experience",
    "may become",
    "could become",
    "query",
    "querying",
    "questionable",
    "?",
    // A purpose: "propped up on her brisket to stop her bloating", "in case of vomiting".
    "to stop",
    "to prevent",
    "to avoid",
    "preventing",
    "in case of",
    "risk of",
  ].map((p) => ({ words: p.split(" "), status: "hypothetical" as const, reach: p === "?" ? 0 : 2 })),
  ...[
    "no",
    "nil",
    "neither",
    "free from",
    // A negated observation reaches along its list: "have not noticed any polyuria or polydipsia".
    "not noticed",
    "hasn't noticed",
    "haven't noticed",
    "not observed",
    "not noted",
    "not reported",
    "unable to demonstrate",
    "denies",
    "denied",
    "deny",
    "without",
    "w/o",
    "negative for",
    "neg for",
    "free of",
    "never",
    "nor",
    "none",
    "absence of",
    "absent",
    "no evidence of",
    "no signs of",
    "no sign of",
    "nad",
    "lack of",
    "no obvious",
    "not seen",
    "nothing",
    "could not find",
    "couldn't find",
    "did not find",
    "didn't find",
    "not find any",
    "unable to find",
    "failed to find",
    "could not detect",
    "did not detect",
    "no detectable",
    // "does not seem to be in any pain", "doesn't appear uncomfortable".
    "not seem",
    "doesn't seem",
    "not appear",
    "doesn't appear",
    "not show",
    "doesn't show",
    "not showing",
  ].map((p) => ({ words: p.split(" "), status: "absent" as const, reach: Infinity })),
  // A correction: "collapse rather than true seizures", "myoglobin rather than blood".
  ...["rather than", "instead of", "as opposed to"].map((p) => ({
    words: p.split(" "),
    status: "absent" as const,
    reach: 2,
  })),
  ...[
    "not",
    "isn't",
    "wasn't",
    "hasn't",
    "haven't",
    "didn't",
    "doesn't",
    "don't",
    "won't",
    "cannot",
    "can't",
    "unable",
    "non",
  ].map((p) => ({
    words: p.split(" "),
    status: "absent" as const,
    reach: p === "non" ? 0 : 3,
  })),
  ...[
    "monitor for",
    "monitor",
    "monitoring",
    "watch for",
    "watch",
    "look out for",
    "advise re",
    "advised re",
    "advised",
    "if",
    "in case",
    "should",
    "call back",
    "return if",
    "risk of",
    "warned",
    "warn",
    "await",
    "unless",
    "prevent",
    "prevention",
    "to avoid",
    "avoid",
    "to report",
    "report any",
    "check for",
    "checking for",
    "check",
    "look for",
    "chance of",
    "protect against",
    "protection against",
    "vaccinated against",
    "vaccine against",
    "vaccinated for",
  ].map((p) => ({ words: p.split(" "), status: "monitor" as const, reach: Infinity })),
];

const POST_TRIGGERS: Trigger[] = [
  ...[
    "neg",
    "negative",
    "absent",
    "nad",
    "wnl",
    "normal",
    "normally",
    "nil",
    "none",
    "not seen",
    "not present",
    "not noted",
    "not observed",
    "not detected",
    "none seen",
    "not reported",
    "denied",
    "not appreciated",
    "not elicited",
    "not be elicited",
    "not evident",
    "not apparent",
    "not palpable",
    "not identified",
    "not found",
    "not heard",
    "not visible",
    "not noticed",
    // "Seizure activity ruled out after reviewing the video".
    "ruled out",
    "excluded",
  ].map((p) => ({ words: p.split(" "), status: "absent" as const, reach: 3 })),
  ...[
    "resolved",
    "has resolved",
    "now resolved",
    "now fine",
    "settled",
    "has settled",
    "cleared",
    // "itch mostly settled since", "cough much improved since": an earlier sign, now resolving.
    "mostly settled",
    "largely settled",
    "mostly resolved",
    "largely resolved",
    "mostly cleared",
    "settled since",
    "resolved since",
    "improved since",
    "better since",
    "much improved",
    "mostly gone",
    "previously",
    "last week",
    "last month",
    "last year",
    "last summer",
    "last winter",
    "last spring",
    "last autumn",
    "years ago",
    "no longer",
    "in the past",
    // "was lame before surgery", "head shaking at the time" (not "at the time of presentation").
    // "insured with a lameness exclusion": a condition the policy holds against the animal.
    "exclusion",
    "exclusions",
    "before surgery",
    "before the surgery",
    "before his surgery",
    "before her surgery",
    "prior to surgery",
    "pre-op",
    "preop",
    "preoperatively",
    "prior to referral",
    "before referral",
    "at the time",
    "when young",
    "none since",
    "no recurrence",
    "cleared up",
    "for first few days only",
    "for the first few days only",
    "for first few days",
    "for the first few days",
    "at first only",
    "initially only",
    // "the vomiting stopped 3 weeks ago", "lameness improved and now sound".
    "stopped",
    "has stopped",
    "ceased",
    "has ceased",
    "subsided",
    "has subsided",
    "went away",
    "now sound",
    "now normal",
    "now gone",
    "a year earlier",
    "years earlier",
    "months earlier",
    "a month earlier",
    // "had diarrhoea as a puppy".
    "as a puppy",
    "as a kitten",
    "as a foal",
    "as a youngster",
    "when younger",
    "when he was younger",
    "when she was younger",
  ].map((p) => ({ words: p.split(" "), status: "historical" as const, reach: 4 })),
  // "vomiting is a common side effect of this drug": a possibility, not a finding.
  ...[
    "side effect",
    "side effects",
    "adverse effect",
    "adverse effects",
    // "any coughing to be reported", "mild sneezing can be expected", "tick prevention".
    "to be reported",
    "be expected",
    "expected",
    "may occur",
    "can occur",
    "may develop",
    "may recur",
    "prevention",
    "preventative",
    "prophylaxis",
  ].map((p) => ({
    words: p.split(" "),
    status: "hypothetical" as const,
    reach: 4,
  })),
];

/** Words after "owner concerned" that introduce what the owner saw, not what they suspect. */
const COMPLAINT_WORDS = new Set(["re", "about", "regarding", "over", "by", "at", "with", ":"]);

/** Words that join a list of signs without ending a negation's reach. */
const LIST_GLUE = new Set([
  ",",
  "or",
  "and",
  "nor",
  "had",
  "any",
  "been",
  "has",
  "have",
  "/",
  "a",
  "an",
  "+",
]);

/** "rest NAD", "otherwise normal", "else WNL": the remainder is normal. */
const REST_WORDS = new Set(["rest", "otherwise", "else", "remainder", "remaining", "other"]);

/** Linking verbs: enough to end a negation, not a past event ("previous ..., and the patient is"). */
const LINKING_VERBS = new Set([
  "is",
  "are",
  "was",
  "were",
  "seems",
  "seemed",
  "appears",
  "appeared",
  "looks",
  "looked",
]);
/**
 * Words that open a new statement after a comma or "and": a subject ("he", "there"), a linking verb
 * ("respiratory sounds are ..."), or a new time ("this morning", "now"). A negation, an owner's
 * guess or a past event does not reach past such a boundary: "no nasal discharge, respiratory
 * sounds are harsh and he is bradycardic".
 */
const STATEMENT_WORDS = new Set([
  ...LINKING_VERBS,
  "he",
  "she",
  "they",
  "there",
  "it",
  "today",
  "now",
  "yesterday",
  "this",
  "tonight",
  "examination",
  "exam",
  // "denies coughing, owner has seen him sneezing": the owner starts a new report.
  "owner",
  "owners",
]);
/** A finite verb right after a comma starts a new predicate: "not vomiting, has diarrhoea". */
const FINITE_VERBS = new Set(["has", "have", "had", "is", "are", "was", "were"]);
/** A list item followed by its own onset is a new statement: "no vomiting, diarrhoea started Monday". */
const ONSET_VERBS = new Set([
  "started",
  "starting",
  "began",
  "begun",
  "developed",
  "continues",
  "continuing",
  "persists",
  "persisting",
  "ongoing",
]);
/** A list item placed in the present is asserted: "no further pups, green vulval discharge now". */
const ONSET_TIMES = new Set(["now", "today", "currently"]);
/** Words right after a listed sign that assert it: "no vomiting, diarrhoea present". */
const POSITIVE_AFTER = new Set([
  "present",
  "noted",
  "evident",
  "apparent",
  "seen",
  "observed",
  "persists",
  "+ve",
  "positive",
]);
const SCOPE_BOUNDARIES = new Set([",", ";", "and", "&"]);

/** A comma or "and" between a trigger and the mention, followed by a new statement. */
function newStatementBetween(
  tokens: Token[],
  from: number,
  to: number,
  claimed: ReadonlySet<number>,
  withVerbs: boolean,
): boolean {
  for (let b = from; b < to; b++) {
    if (!SCOPE_BOUNDARIES.has(tokens[b]!.norm) || claimed.has(b)) continue;
    if (
      withVerbs &&
      tokens[b]!.norm !== "and" &&
      FINITE_VERBS.has(norm(tokens, b + 1)) &&
      !claimed.has(b + 1)
    )
      return true;
    for (let k = b + 1; k < to; k++) {
      // "no clumps on the smear, WBC 8.8 with mild lymphopenia": a new measurement.
      if (withVerbs && tokens[k]!.kind === "num" && !claimed.has(k)) return true;
      const word = tokens[k]!.norm;
      if (claimed.has(k) || !STATEMENT_WORDS.has(word)) continue;
      if (withVerbs || !LINKING_VERBS.has(word)) return true;
    }
  }
  return false;
}

/** "for the last week", "in the past month": a duration, not a time in the past. */
function durationBefore(tokens: Token[], k: number): boolean {
  const DURATION = ["since", "from", "for", "over", "in", "within", "during", "throughout"];
  const before = norm(tokens, k - 1);
  return DURATION.includes(before) || (before === "the" && DURATION.includes(norm(tokens, k - 2)));
}

function matchesAt(tokens: Token[], i: number, words: string[]): boolean {
  for (let k = 0; k < words.length; k++) if (tokens[i + k]?.norm !== words[k]) return false;
  return true;
}

export interface StatusResult {
  status: MentionStatus;
  /** The mention sits in a diagnosis or lab-result clause: not an observed sign. */
  dropped: boolean;
  /** Historical because the note says it has since settled or resolved ("itch settled since"). */
  resolved?: boolean;
  /** Something only to watch for because a word says so ("watch for", "monitor for"), not only its plan section. */
  watchWord?: boolean;
}

const RESOLVED_WORDS = new Set([
  "resolved",
  "settled",
  "cleared",
  "improved",
  "better",
  "gone",
  "stopped",
  "ceased",
  "subsided",
]);
const LONG_AGO_UNITS = new Set(["mo", "mos", "mth", "mths", "month", "months", "yr", "yrs", "year", "years"]);

/**
 * "abscess ventral abdo ~1 mo ago": a time months or years back later in the clause, not the
 * start of something still going on ("... ever since ... six months ago").
 */
function monthsAgoAfter(
  tokens: Token[],
  end: number,
  clauseEnd: number,
  claimed: ReadonlySet<number>,
): boolean {
  for (let k = end; k < Math.min(clauseEnd, end + 8); k++) {
    if (claimed.has(k)) return false;
    // "difficulty passing urine ever since he was castrated six months ago": still going on.
    if (["since", "for", "over", "began", "started", "starting", "onset"].includes(tokens[k]!.norm))
      return false;
    if (tokens[k]!.norm !== "ago") continue;
    const unit = norm(tokens, k - 1);
    if (LONG_AGO_UNITS.has(unit)) return true;
    const joined = /^\d+(mo|mos|mth|mths|m|yr|yrs|y)$/.test(unit);
    return joined;
  }
  return false;
}

const NEGATORS = new Set([
  "not",
  "never",
  "no",
  "hasn't",
  "haven't",
  "hadn't",
  "isn't",
  "wasn't",
  "didn't",
  "doesn't",
  "won't",
  "yet",
]);
/** Words that end a sign's course when the sign (or "it", "this") is their subject. */
const RESOLUTION_VERBS = new Set([
  "resolved",
  "settled",
  "cleared",
  "subsided",
  "ceased",
  "stopped",
  "gone",
  "abated",
]);
/** Words after which a resolved sign came back: "settled on steroids but recurred". */
const RELAPSE_WORDS = new Set([
  "again",
  "recurred",
  "returned",
  "relapsed",
  "relapse",
  "back",
  "worse",
  "worsened",
  "flared",
  "restarted",
  "reopened",
  "re-opened",
  "dehisced",
]);
/** "partially healed", "not fully healed": still there. */
const PARTLY = new Set([
  "partially",
  "partly",
  "fully",
  "completely",
  "incompletely",
  "half",
  "poorly",
  "yet",
]);
const RESOLUTION_PHRASES = [
  "none since",
  "nothing since",
  "no recurrence",
  "no further episodes",
  "not since",
  // "the vomiting has not recurred since", "hasn't come back".
  "not recurred",
  "hasn't recurred",
  "not returned",
  "hasn't returned",
  "not come back",
  "hasn't come back",
].map((p) => p.split(" "));
const WELL_WORDS = new Set(["fine", "normal", "normally", "ok", "okay", "well", "sound"]);
/** Statements about the animal as a whole, not this sign: "vomiting but otherwise fine". */
const WHOLE_ANIMAL = new Set(["otherwise", "else", "himself", "herself", "itself", "themselves"]);

const COUNT_WORDS = /^(?:\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|few)$/;
const AGO_UNITS = /^(?:days?|wks?|weeks?|mo|mos|mths?|months?|yrs?|years?)$/;
/** "was seen", "were examined": an earlier visit, when an "N days ago" follows in its sentence. */
const PAST_VISIT_AUX = new Set(["was", "were"]);
const PAST_VISIT_VERBS = new Set([
  "seen",
  "presented",
  "examined",
  "treated",
  "admitted",
  "brought",
  "checked",
  "vaccinated",
  "operated",
  "hospitalised",
  "hospitalized",
]);
/** Words that bring a past sentence back to now: "still", "since then", "again today". */
const NOW_WORDS = new Set([
  "now",
  "today",
  "currently",
  "still",
  "since",
  "ongoing",
  "again",
  "continues",
  "continuing",
  "persists",
  "persisting",
  "worse",
  "worsening",
  "recurred",
]);

/**
 * A sentence that opens with "Six weeks ago" tells of then, through its clauses ("Six weeks ago he
 * was seen after eating a sago palm; he vomited six times"), unless it comes back to now.
 */
function sentenceInPast(tokens: Token[], start: number, end: number): boolean {
  // The sentence runs through semicolons.
  const inside = (k: number) => tokens[k]!.kind !== "break" || tokens[k]!.norm === ";";
  let first = start;
  while (first > 0 && inside(first - 1)) first--;
  let last = end;
  while (last < tokens.length && inside(last)) last++;
  let k = first;
  if (norm(tokens, k) === "a" && norm(tokens, k + 1) === "few") k++;
  const agoAt = (i: number) =>
    COUNT_WORDS.test(norm(tokens, i)) && AGO_UNITS.test(norm(tokens, i + 1)) && norm(tokens, i + 2) === "ago";
  // Index just after the phrase that places the sentence in the past.
  let after: number;
  // "Back in June he vomited…", "Last spring she was lame…": a sentence opening on a time gone by.
  const opening = pastTimeOpening(tokens, k);
  if (opening > 0 && opening <= start) after = opening;
  else if (agoAt(k)) after = k + 3;
  else {
    // "He was seen about a week ago, very lame, with a wound on one toe": a visit told in the past.
    const seen = [...Array(Math.max(0, start - first)).keys()].map((o) => first + o);
    const visit = seen.find(
      (i) => PAST_VISIT_AUX.has(norm(tokens, i)) && PAST_VISIT_VERBS.has(norm(tokens, i + 1)),
    );
    const ago = visit === undefined ? undefined : seen.find((i) => i > visit && agoAt(i));
    if (ago === undefined) return false;
    after = ago + 3;
  }
  if (after > start) return false;
  // What comes back to now after the sign's own clause ("A year ago he passed blood in his urine;
  // since then he has been well") speaks of something else.
  let clauseEnd = end;
  while (clauseEnd < last && norm(tokens, clauseEnd) !== ";") clauseEnd++;
  for (let j = after; j < clauseEnd; j++) if (NOW_WORDS.has(norm(tokens, j))) return false;
  return true;
}

const PAST_MONTHS =
  /^(?:january|february|march|april|june|july|august|september|october|november|december|spring|summer|autumn|winter|the)$/;
/**
 * Index after an opening that places a sentence in a time gone by ("back in June", "in March",
 * "last spring", "last year", "earlier this year"), or 0. Not "last night" or "last week": notes
 * write a current problem's start that way.
 */
function pastTimeOpening(tokens: Token[], k: number): number {
  let i = k;
  if (norm(tokens, i) === "back" && norm(tokens, i + 1) === "in") i += 2;
  else if (norm(tokens, i) === "in") i += 1;
  else if (norm(tokens, i) === "last" && /^(?:year|spring|summer|autumn|winter)$/.test(norm(tokens, i + 1)))
    return i + 2;
  else if (norm(tokens, i) === "earlier" && norm(tokens, i + 1) === "this" && norm(tokens, i + 2) === "year")
    return i + 3;
  else return 0;
  if (norm(tokens, i) === "the") i++;
  return PAST_MONTHS.test(norm(tokens, i)) && norm(tokens, i) !== "the" ? i + 1 : 0;
}

/** Index one past the sentence that holds token i. */
function sentenceEnd(tokens: Token[], i: number): number {
  let k = i;
  while (k < tokens.length && tokens[k]!.kind !== "break") k++;
  return k;
}

/**
 * A later part of the same sentence ends the sign's course before any other sign is named:
 * "sneezed for a few days after the vaccine, settled", "coughed in March, none since", "diarrhoea
 * on Monday which has since cleared up", "was coughing but now fine".
 */
function resolvedLater(
  tokens: Token[],
  start: number,
  end: number,
  clauseStart: number,
  claimed: ReadonlySet<number>,
): boolean {
  const stop = sentenceEnd(tokens, end);
  // "was coughing", "were limping": a sign told in the past tense, contrasted with now.
  let pastTense = false;
  for (let k = Math.max(clauseStart, start - 2); k < end; k++)
    if (["was", "were"].includes(tokens[k]!.norm) && (k >= start || !claimed.has(k))) pastTense = true;
  // "had diarrhoea", "sneezed", "vomited": also past tense.
  if (norm(tokens, start - 1) === "had" && !claimed.has(start - 1)) pastTense = true;
  // "had mild D+", "had some diarrhoea": one describing word between.
  if (norm(tokens, start - 2) === "had" && !claimed.has(start - 2) && tokens[start - 1]!.kind === "word")
    pastTense = true;
  // "went (very) lame", "went off his food": an event told in the past.
  if (
    (norm(tokens, start - 1) === "went" && !claimed.has(start - 1)) ||
    (norm(tokens, start - 2) === "went" && !claimed.has(start - 2) && tokens[start - 1]!.kind === "word")
  )
    pastTense = true;
  if (/[a-z]ed$/.test(tokens[end - 1]!.norm) && end - start === 1) pastTense = true;
  let contrast = false;
  let sawBut = false;
  // "stopped the antibiotics", "the NSAID was stopped": something else stopped.
  const objectAfter = (k: number) => {
    if (["was", "were", "been", "be", "is"].includes(norm(tokens, k - 1))) return true;
    const next = tokens[k + 1];
    return (
      !!next &&
      next.kind === "word" &&
      ["the", "his", "her", "their", "its", "all", "them", "it", "him", "treatment", "meds"].includes(
        next.norm,
      )
    );
  };
  // Another sign between: only a statement that ends the whole episode reaches back past it ("one
  // episode of blue tongue after a coughing fit, none since"; "was lame with a hoof abscess in
  // May, sound now").
  // "settled on steroids but recurred": the sign came back after it ended.
  const relapseAfter = (k: number) => tokens.slice(k + 1, stop).some((t) => RELAPSE_WORDS.has(t.norm));
  // "a hoof abscess, which was drained and resolved fully": a relative clause about the sign.
  const relative =
    ["which", "that"].includes(norm(tokens, end)) ||
    (norm(tokens, end) === "," && ["which", "that"].includes(norm(tokens, end + 1)));
  let crossed = false;
  const episode =
    pastTense ||
    tokens
      .slice(Math.max(clauseStart, start - 3), end)
      .some((t) => ["had", "episode", "episodes", "bout", "bouts", "once", "twice"].includes(t.norm));
  for (let k = end; k < stop; k++) {
    if (claimed.has(k)) {
      if (!episode) return false;
      crossed = true;
      continue;
    }
    const word = tokens[k]!.norm;
    if (WHOLE_ANIMAL.has(word)) return false;
    if (["but", "however", "now"].includes(word)) contrast = true;
    if (word === "but") sawBut = true;
    if (RESOLUTION_PHRASES.some((p) => matchesAt(tokens, k, p))) return true;
    if (NEGATORS.has(word)) return false;
    // "was lame ..., sound now", "was coughing, fine now".
    // "had diarrhoea the first week home, fine since".
    if (
      pastTense &&
      WELL_WORDS.has(word) &&
      ["now", "since"].includes(norm(tokens, k + 1)) &&
      norm(tokens, k - 1) === ","
    )
      return true;
    // "went very lame ..., sound again after 2 wks": well again ends the episode.
    if (WELL_WORDS.has(word) && norm(tokens, k + 1) === "again" && (pastTense || !crossed)) return true;
    // "went acutely lame with a hoof abscess, which was drained and resolved fully".
    if ((pastTense || relative) && ["resolved", "cleared"].includes(word) && !objectAfter(k)) {
      if (relapseAfter(k)) return false;
      return true;
    }
    if (crossed) continue;
    // "bite wound on the neck three weeks ago, now healed": a lesion that has healed is history.
    if (word === "healed" && !PARTLY.has(norm(tokens, k - 1))) {
      if (relapseAfter(k)) return false;
      return true;
    }
    // "which has since cleared", "lameness has gone since the NSAIDs", "itch settled since". A
    // bare "now settled" at the end is left alone: in a presenting history it is often this
    // illness's sign, gone by the visit ("vomited twice, now settled").
    const lead = norm(tokens, k - 1);
    if (RESOLUTION_VERBS.has(word) && (lead === "since" || norm(tokens, k + 1) === "since")) {
      if (relapseAfter(k)) return false;
      // "the NSAID was stopped", "stopped the antibiotics": something else stopped.
      if (["stopped", "ceased"].includes(word)) {
        if (["was", "were", "been", "be", "is"].includes(norm(tokens, k - 1))) return false;
        const next = tokens[k + 1];
        if (
          next &&
          next.kind === "word" &&
          ["the", "his", "her", "their", "its", "all", "them", "it"].includes(next.norm)
        )
          return false;
      }
      return true;
    }
    // "was limping yesterday but today is weight-bearing normally".
    if (pastTense && contrast && WELL_WORDS.has(word)) return true;
    // "was vomiting over the weekend but has stopped", "had diarrhoea but this has now settled":
    // an episode told in the past tense that a "but" clause ends. A bare "..., now settled" is
    // left alone (in a presenting history it is often this illness's sign).
    if (pastTense && sawBut && RESOLUTION_VERBS.has(word) && !objectAfter(k)) {
      if (relapseAfter(k)) return false;
      return true;
    }
  }
  // "Initially he was pyrexic; this responded to antibiotics.": the next sentence opens with
  // "this", "it" or "which" as the subject of a resolution of the past-tense episode.
  const next = stop + 1;
  if (
    pastTense &&
    stop < tokens.length &&
    tokens[stop]!.norm !== "\n" &&
    ["this", "it", "which"].includes(norm(tokens, next)) &&
    tokens.slice(next + 1, next + 4).some((t) => RESOLUTION_VERBS.has(t.norm) || t.norm === "responded")
  ) {
    const nextStop = sentenceEnd(tokens, next);
    for (let m = next + 1; m < nextStop; m++) {
      const word = tokens[m]!.norm;
      if (
        claimed.has(m) ||
        RELAPSE_WORDS.has(word) ||
        NEGATORS.has(word) ||
        ["partially", "partly"].includes(word)
      )
        return false;
    }
    return true;
  }
  return false;
}

/** "treated for pruritus in 2022", "in 2020 she had seizures": a year named beside the sign. */
const MONTHS =
  /^(?:jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)$/;
const SEASONS = /^(?:spring|summer|autumn|fall|winter)$/;
const CONTINUING_WORDS = new Set([
  "again",
  "still",
  "ongoing",
  "continuing",
  "continues",
  "persists",
  "persisting",
  "worse",
  "worsening",
]);

function yearBeside(
  tokens: Token[],
  start: number,
  end: number,
  clause: Clause,
  claimed: ReadonlySet<number>,
): boolean {
  const isYear = (k: number) =>
    tokens[k]?.kind === "num" &&
    /^(19|20)\d\d$/.test(tokens[k]!.norm) &&
    ["in", "during", "(", "early", "late", "mid"].includes(norm(tokens, k - 1));
  // "had ear discharge in Jan", "was lame in the spring", "last summer": past unless the sentence
  // goes on to say it continues ("lame in the spring and again now").
  const isPastDate = (k: number) =>
    ((MONTHS.test(norm(tokens, k)) &&
      ["in", "during", "early", "late", "mid", "last"].includes(norm(tokens, k - 1))) ||
      (SEASONS.test(norm(tokens, k)) &&
        (norm(tokens, k - 1) === "last" ||
          (norm(tokens, k - 1) === "the" && norm(tokens, k - 2) === "in")))) &&
    !tokens.slice(k + 1, sentenceEnd(tokens, k)).some((t) => CONTINUING_WORDS.has(t.norm));
  for (let k = end; k < clause.end; k++) {
    if (claimed.has(k) || [",", ";"].includes(tokens[k]!.norm)) break;
    if (["since", "from"].includes(tokens[k]!.norm)) break;
    if (isYear(k) || isPastDate(k)) return true;
  }
  // Before the sign only a year: "was seen in May after he went off his food" is the visit itself.
  for (let k = start - 1; k >= clause.start; k--) {
    if (claimed.has(k) || [",", ";"].includes(tokens[k]!.norm)) break;
    if (isYear(k)) return true;
  }
  return false;
}

/**
 * A person is the subject of the sign: "owner has a cough too", "husband has been sneezing". Not
 * "owner has seen him limping" or "owner reports vomiting", where the owner tells of the patient.
 */
function personSubject(
  tokens: Token[],
  start: number,
  clauseStart: number,
  claimed: ReadonlySet<number>,
): boolean {
  for (let k = start - 1; k >= clauseStart; k--) {
    if (claimed.has(k)) return false;
    const word = tokens[k]!.norm;
    // Shorthand "O" for the owner: "O has a red itchy ring on her forearm".
    const shorthandOwner =
      word === "o" &&
      tokens[k]!.capitalised &&
      ["has", "have", "had", "is", "was"].includes(norm(tokens, k + 1));
    if (
      shorthandOwner ||
      PERSON_WORDS.has(word) ||
      (word.endsWith("'s") && PERSON_WORDS.has(word.slice(0, -2)))
    ) {
      if (k === start - 1) return false;
      return true;
    }
    if (!PERSON_GLUE.has(word)) return false;
  }
  return false;
}

/**
 * The status of a sign phrase spanning tokens [start, end). `claimed` holds every token used by a
 * sign phrase, whose words never act as triggers ("no droppings", "not eating").
 */
export function mentionStatus(
  ctx: ContextModel,
  start: number,
  end: number,
  claimed: ReadonlySet<number>,
  options: { finding?: boolean } = {},
): StatusResult {
  const { tokens } = ctx;
  const clauseIndex = ctx.clauseOf[start] ?? -1;
  const clause = ctx.clauses[clauseIndex];
  if (!clause) return { status: "present", dropped: false };
  // A result section names findings ("US: pleural effusion", "Haem: thrombocytopenia"), never
  // signs the animal shows; a diagnosis section names neither.
  if (clause.section === "diagnosis") return { status: "present", dropped: true };
  if (clause.section === "lab" && !options.finding) return { status: "present", dropped: true };

  // Inline diagnosis: "... c/w lipoma", "Suspect ..." before the mention.
  for (let k = clause.start; k < start; k++) {
    if (claimed.has(k)) continue;
    for (const p of DIAGNOSIS_INLINE)
      if (matchesAt(tokens, k, p.split(" "))) return { status: "present", dropped: true };
    if (tokens[k]?.norm === "c" && tokens[k + 1]?.norm === "/" && tokens[k + 2]?.norm === "w")
      return { status: "present", dropped: true };
  }

  // Another animal's sign: the other animal is named before the sign in its clause ("housemate
  // Luna had vomiting", "the other cat is sneezing"), not after it ("off his food and no longer
  // playing with his littermate"), and not as the patient's companion ("with his littermate").
  for (let k = clause.start; k < start; k++) {
    const t = tokens[k]!;
    if (claimed.has(k)) continue;
    // "playing with (his) littermate" is a companion; "his brother has had diarrhoea" is not.
    const companion =
      norm(tokens, k - 1) === "with" ||
      (["his", "her", "its", "their"].includes(norm(tokens, k - 1)) && norm(tokens, k - 2) === "with");
    // "owner's mother found him collapsed": a person, not the dam.
    const ownersRelative =
      FAMILY_WORDS.has(t.norm) &&
      ["owner's", "owners", "client's", "my", "our"].includes(norm(tokens, k - 1));
    if (otherAnimalWord(tokens, k) && !companion && !ownersRelative)
      return { status: "other_animal", dropped: false };
    // "family history: ...", "the dog next door".
    if (t.norm === "family" && ["history", "hx"].includes(norm(tokens, k + 1)))
      return { status: "other_animal", dropped: false };
    if (ANIMAL_NOUNS.has(t.norm) && norm(tokens, k + 1) === "next" && norm(tokens, k + 2) === "door")
      return { status: "other_animal", dropped: false };
    // "owner has a cat that has diabetes and drinks a lot", "knows a dog which had seizures": a
    // relative clause about some other animal (not "a 5yo dog that has been vomiting").
    if (
      ["a", "an"].includes(t.norm) &&
      ["has", "have", "had", "owns", "own", "owned", "knows", "know", "knew", "with"].includes(
        norm(tokens, k - 1),
      ) &&
      ANIMAL_NOUNS.has(norm(tokens, k + 1)) &&
      ["that", "which", "who", "with"].includes(norm(tokens, k + 2))
    )
      return { status: "other_animal", dropped: false };
    if (OTHER_WORDS.has(t.norm) && ANIMAL_NOUNS.has(norm(tokens, k + 1)) && !companion)
      return { status: "other_animal", dropped: false };
    if (t.kind === "word" && t.capitalised && ctx.otherAnimalNames.has(t.norm))
      return { status: "other_animal", dropped: false };
  }
  if (personSubject(tokens, start, clause.start, claimed)) return { status: "other_animal", dropped: false };
  if (offspringSubject(tokens, start, clause.start, claimed))
    return { status: "other_animal", dropped: false };
  // "the other cat too", "as does his brother": a marker right after the sign, before anything else.
  for (let k = end; k < Math.min(clause.end, end + 4); k++) {
    const t = tokens[k]!;
    if (claimed.has(k) || t.norm === ",") break;
    if (otherAnimalWord(tokens, k) && !["with", "his", "her", "its", "their"].includes(norm(tokens, k - 1)))
      return { status: "other_animal", dropped: false };
    if (OTHER_WORDS.has(t.norm) && ANIMAL_NOUNS.has(norm(tokens, k + 1)))
      return { status: "other_animal", dropped: false };
  }

  // Shorthand markers right after the phrase: "v+", "d-", "cough +ve".
  const after = tokens[end];
  if (after && after.start === tokens[end - 1]!.end) {
    if (after.norm === "+") return { status: "present", dropped: false };
    if (after.norm === "-") return { status: "absent", dropped: false };
  }
  if (after && (after.norm === "+" || after.norm === "++" || after.norm === "+++"))
    return { status: "present", dropped: false };

  // "Vomiting? No.": a question the next sentence answers.
  const question = tokens[clause.end];
  if (
    question?.norm === "?" &&
    ["no", "none", "nil", "n", "neg", "negative"].includes(norm(tokens, clause.end + 1)) &&
    (clause.end + 2 >= tokens.length ||
      tokens[clause.end + 2]!.kind === "break" ||
      norm(tokens, clause.end + 2) === ",")
  )
    return { status: "absent", dropped: false };
  // "Vomiting: N.", a form's yes/no answer.
  if (
    norm(tokens, end) === ":" &&
    norm(tokens, end + 1) === "n" &&
    (end + 2 >= clause.end || [",", ";"].includes(norm(tokens, end + 2)))
  )
    return { status: "absent", dropped: false };

  // Post-triggers within a few tokens, before anything else is named.
  for (let k = end; k < Math.min(clause.end, end + 4); k++) {
    if (claimed.has(k)) break;
    const t = tokens[k]!;
    if (t.norm === "," && k > end) break;
    // "drinking less and no longer playing": a trigger after a conjunction is another clause's
    // ("vomiting and now resolved" apart).
    // "lameness improved and now sound": "and now" still speaks of this sign.
    if (
      ["and", "or", "&", "+"].includes(t.norm) &&
      (k > end || !["resolved", "settled", "cleared", "now"].includes(norm(tokens, k + 1))) &&
      !(t.norm === "and" && norm(tokens, k + 1) === "now")
    )
      break;
    // "watery eye for the first days, settled since": a comma then resolved/settled.
    if (t.norm === "," && k === end && ["resolved", "settled", "cleared"].includes(norm(tokens, k + 1)))
      return { status: "historical", dropped: false, resolved: true };
    // "Bilateral mydriasis, PLRs absent": after a comma a post-positioned negator belongs to the
    // next item unless it follows the comma at once ("vomiting, none since", "cough, resolved").
    if (t.norm === "," && k === end && !POST_TRIGGERS.some((p) => matchesAt(tokens, k + 1, p.words))) break;
    if (t.norm === "-" && k === end) return { status: "absent", dropped: false };
    // "seizure-free for 2 years", "pain free".
    if (t.norm === "free" && k === end) return { status: "absent", dropped: false };
    // "PU/PD: no." — a bare "no" answering the sign.
    if (t.norm === "no" && (k + 1 >= clause.end || [",", ";", "."].includes(norm(tokens, k + 1))))
      return { status: "absent", dropped: false };
    for (const trigger of POST_TRIGGERS) {
      if (k - end > trigger.reach) continue;
      if (matchesAt(tokens, k, trigger.words)) {
        // "strabismus, rest NAD", "otherwise normal": the rest is normal, not this sign.
        if (trigger.status === "absent" && REST_WORDS.has(norm(tokens, k - 1))) break;
        if (trigger.status === "historical" && durationBefore(tokens, k)) continue;
        // "an exclusion diet", "exclusion trial": a diet, not a policy.
        if (
          trigger.words[0]?.startsWith("exclusion") &&
          ["diet", "diets", "trial", "food"].includes(norm(tokens, k + 1))
        )
          continue;
        // "at the time of presentation" is now.
        if (trigger.words.join(" ") === "at the time" && norm(tokens, k + 3) === "of") continue;
        // "vomiting has not stopped", "diarrhoea not resolved": the sign goes on.
        if (trigger.status === "historical" && NEGATORS.has(norm(tokens, k - 1))) break;
        const resolved = trigger.words.some((w) => RESOLVED_WORDS.has(w));
        return { status: trigger.status as MentionStatus, dropped: false, ...(resolved ? { resolved } : {}) };
      }
    }
  }

  if (monthsAgoAfter(tokens, end, clause.end, claimed)) return { status: "historical", dropped: false };
  if (sentenceInPast(tokens, start, end)) return { status: "historical", dropped: false };
  if (yearBeside(tokens, start, end, clause, claimed)) return { status: "historical", dropped: false };
  if (resolvedLater(tokens, start, end, clause.start, claimed))
    return { status: "historical", dropped: false, resolved: true };

  // Pre-triggers: the nearest one before the mention in the clause.
  for (let k = start - 1; k >= clause.start; k--) {
    if (claimed.has(k)) continue;
    let found: Trigger | null = null;
    for (const trigger of PRE_TRIGGERS) {
      if (!matchesAt(tokens, k, trigger.words)) continue;
      if (!found || trigger.words.length > found.words.length) found = trigger;
    }
    // A longer trigger may start earlier ("no longer" when at "longer"): prefer it.
    if (!found) continue;
    // A trigger may end inside the mention: "had seen fleas" with "seen fleas" the sign.
    if (found.words.some((_, offset) => claimed.has(k + offset) && (k + offset < start || k + offset >= end)))
      continue;
    if (k > clause.start) {
      let longer: Trigger | null = null;
      for (const trigger of PRE_TRIGGERS) {
        if (trigger.words.length >= 2 && matchesAt(tokens, k - 1, trigger.words)) longer = trigger;
      }
      if (longer) found = longer;
    }
    if (found.status === "pseudo") break;
    // "neither ... nor": only with its "nor" ("neither drug has helped the itch" denies nothing).
    if (found.words[0] === "neither" && !tokens.slice(k + 1, clause.end).some((t) => t.norm === "nor"))
      continue;
    const distance = start - (k + found.words.length);
    // "has not retched, vomited or had diarrhoea": a negation carries along a list of signs; a
    // prefix negates its own word only ("non-painful mass", "non-pruritic alopecia").
    const alongList =
      found.status === "absent" &&
      found.words[0] !== "non" &&
      tokens.slice(k + found.words.length, start).every(
        (t, offset) =>
          claimed.has(k + found.words.length + offset) ||
          (LIST_GLUE.has(t.norm) &&
            // "not vomiting, has diarrhoea": a verb after the comma starts a new statement.
            !(FINITE_VERBS.has(t.norm) && norm(tokens, k + found.words.length + offset - 1) === ",")),
      );
    // "no vomiting, diarrhoea started yesterday": the last item has an onset of its own.
    if (
      found.status === "absent" &&
      tokens.slice(k + found.words.length, start).some((t) => t.norm === ",")
    ) {
      let onset = false;
      // "no further pups, green discharge now": what the negation names first is no sign, so the
      // comma ends it; "no coughing, sneezing now" stays a list of denied signs.
      const between = tokens.slice(k + found.words.length, start);
      const signList = between.some(
        (t, offset) => t.norm !== "," && claimed.has(k + found.words.length + offset),
      );
      for (let m = end; m < clause.end && tokens[m]!.norm !== "," && !claimed.has(m); m++)
        if (ONSET_VERBS.has(tokens[m]!.norm) || (!signList && ONSET_TIMES.has(tokens[m]!.norm))) onset = true;
      // "no vomiting, diarrhoea present": the item is asserted in its own words.
      if (POSITIVE_AFTER.has(norm(tokens, end))) onset = true;
      if (onset) break;
    }
    if (distance > found.reach && !alongList) continue;
    // A short negation stops at a comma: "came back not right, has vomited since".
    if (
      found.reach !== Infinity &&
      !alongList &&
      tokens.slice(k + found.words.length, start).some((t) => t.norm === "," || t.norm === ";")
    )
      continue;
    if (found.status === "historical" && durationBefore(tokens, k)) continue;
    // "O concerned re blood in his droppings", "owner worried about the cough": the owner's
    // complaint, an observation; "owner worried he has a blockage" stays a guess.
    if (found.status === "suspected" && COMPLAINT_WORDS.has(norm(tokens, k + found.words.length))) continue;
    if (
      found.reach === Infinity &&
      found.status !== "monitor" &&
      newStatementBetween(tokens, k + found.words.length, start, claimed, found.status === "absent")
    )
      break;
    return {
      status: found.status,
      dropped: false,
      ...(found.status === "monitor" ? { watchWord: true } : {}),
    };
  }

  if (clause.section === "plan") return { status: "monitor", dropped: false };
  return { status: "present", dropped: false };
}
