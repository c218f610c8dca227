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
]);
const OTHER_WORDS = new Set(["other", "another"]);
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

function findOtherAnimalNames(tokens: Token[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const isMarker =
      OTHER_ANIMAL_WORDS.has(t.norm) || (OTHER_WORDS.has(t.norm) && ANIMAL_NOUNS.has(norm(tokens, i + 1)));
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
    "no further improvement",
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
  ].map((p) => ({ words: p.split(" "), status: "suspected" as const, reach: Infinity })),
  ...[
    "possible",
    "possibly",
    "may be",
    "may have",
    "might be",
    "might have",
    "could be",
    "query",
    "querying",
    "questionable",
    "?",
  ].map((p) => ({ words: p.split(" "), status: "hypothetical" as const, reach: p === "?" ? 0 : 2 })),
  ...[
    "no",
    "nil",
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
    "years ago",
    "no longer",
    "in the past",
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
  ...["side effect", "side effects", "adverse effect", "adverse effects"].map((p) => ({
    words: p.split(" "),
    status: "hypothetical" as const,
    reach: 4,
  })),
];

/** Words that join a list of signs without ending a negation's reach. */
const LIST_GLUE = new Set([",", "or", "and", "nor", "had", "any", "been", "has", "have", "/", "a", "an"]);

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
}

const RESOLVED_WORDS = new Set(["resolved", "settled", "cleared", "improved", "better", "gone"]);
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
    if (OTHER_ANIMAL_WORDS.has(t.norm) && !companion) return { status: "other_animal", dropped: false };
    if (OTHER_WORDS.has(t.norm) && ANIMAL_NOUNS.has(norm(tokens, k + 1)) && !companion)
      return { status: "other_animal", dropped: false };
    if (t.kind === "word" && t.capitalised && ctx.otherAnimalNames.has(t.norm))
      return { status: "other_animal", dropped: false };
  }
  // "the other cat too", "as does his brother": a marker right after the sign, before anything else.
  for (let k = end; k < Math.min(clause.end, end + 4); k++) {
    const t = tokens[k]!;
    if (claimed.has(k) || t.norm === ",") break;
    if (
      OTHER_ANIMAL_WORDS.has(t.norm) &&
      !["with", "his", "her", "its", "their"].includes(norm(tokens, k - 1))
    )
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
        const resolved = trigger.words.some((w) => RESOLVED_WORDS.has(w));
        return { status: trigger.status as MentionStatus, dropped: false, ...(resolved ? { resolved } : {}) };
      }
    }
  }

  if (monthsAgoAfter(tokens, end, clause.end, claimed)) return { status: "historical", dropped: false };

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
    const distance = start - (k + found.words.length);
    // "has not retched, vomited or had diarrhoea": a negation carries along a list of signs.
    const alongList =
      found.status === "absent" &&
      tokens
        .slice(k + found.words.length, start)
        .every((t, offset) => claimed.has(k + found.words.length + offset) || LIST_GLUE.has(t.norm));
    if (distance > found.reach && !alongList) continue;
    // A short negation stops at a comma: "came back not right, has vomited since".
    if (
      found.reach !== Infinity &&
      !alongList &&
      tokens.slice(k + found.words.length, start).some((t) => t.norm === "," || t.norm === ";")
    )
      continue;
    if (found.status === "historical" && durationBefore(tokens, k)) continue;
    if (
      found.reach === Infinity &&
      found.status !== "monitor" &&
      newStatementBetween(tokens, k + found.words.length, start, claimed, found.status === "absent")
    )
      break;
    return { status: found.status, dropped: false };
  }

  if (clause.section === "plan") return { status: "monitor", dropped: false };
  return { status: "present", dropped: false };
}
