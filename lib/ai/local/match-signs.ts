// Finds clinical-sign phrases in the notes: combined shorthand ("PU/PD", "V+D+", "V-D-C-S-"),
// longest catalogue phrase over normalised tokens (with word-order variants, light stemming and
// filler words), spelling correction for misspelt sign words, general signs made regional by a
// nearby body region ("abdomen painful"), and measurement findings (vitals).
import { bodySites } from "@/lib/diagnosis/body-sites";
import type { LexiconIndex } from "./lexicon-index";
import type { TokenView } from "./phrase-index";
import {
  ANATOMICAL_MODIFIERS,
  CAUSE_WORDS,
  DESCRIBING_SIGN_WORDS,
  DISCHARGE_REGIONS,
  EVENT_SIGN,
  NON_SIGN_PHRASES,
  PHRASE_FILLERS,
  POPULATION_NOUNS,
  REGION_RULES,
  STRUCTURE_NOUNS,
  type RegionRule,
} from "./sign-phrases";
import { PhraseIndex } from "./phrase-index";
import { sentenceTopic, stem, type Token } from "./tokenise";

export interface RawMention {
  symptomId: number;
  /** Token span [start, end) in the notes; the status is judged from it. */
  start: number;
  end: number;
  /** Exact substring of the notes. */
  keyPhrase: string;
  distance: number;
  /** Status forced by an explicit marker ("D+", "V-"), else decided from context. */
  forced: "present" | "absent" | null;
  significantHint: boolean;
  /** Read from a measured value ("PCV 18%"): present by definition, wherever it is written. */
  measured?: boolean;
  /** The phrase alone in quotes ("'collapsed'"): someone's word for it, not a finding. */
  quoted?: boolean;
}

const QUOTES = new Set(["'", '"', "\u2018", "\u2019", "\u201c", "\u201d"]);

/**
 * A single sign word alone between quotes: "'collapsed' into the handrail", "episodes of
 * 'incoordination'" (scare quotes: someone's term, not the vet's finding). A quoted lay phrase
 * ("'not herself'") is the owner's description of a real sign and is kept.
 */
export function quotedSpan(text: string, tokens: Token[], start: number, end: number): boolean {
  // The sign's word alone in quotes, also after a verb the phrase took in ("having 'fits'").
  const last = tokens[end - 1]!;
  if (end - start !== 1 && !["having", "has", "had", "with", "some", "a"].includes(tokens[end - 2]!.norm))
    return false;
  return QUOTES.has(text[last.start - 1] ?? "") && QUOTES.has(text[last.end] ?? "");
}

/**
 * A sign word that is not this animal's sign where it stands: an anatomical compound naming a
 * disease ("tracheal collapse", "mitral regurgitation"), a build or manner word describing a
 * structure or a population ("thin wall", "aggressive lytic lesion", "obese cats"), or an injury
 * named as a cause ("constipation after pelvic fracture").
 */
export function notThisSign(
  tokens: Token[],
  start: number,
  end: number,
  signName: string,
  claimed: ReadonlySet<number>,
): boolean {
  const prev = tokens[start - 1];
  if (
    end - start === 1 &&
    prev &&
    prev.kind === "word" &&
    !claimed.has(start - 1) &&
    ANATOMICAL_MODIFIERS.has(prev.norm)
  )
    return true;
  if (end - start === 1 && DESCRIBING_SIGN_WORDS.has(tokens[start]!.norm)) {
    for (let k = end; k < Math.min(tokens.length, end + 4); k++) {
      const t = tokens[k]!;
      if (t.kind === "break" || [",", ";", "and", "with", "but", "or", "("].includes(t.norm)) break;
      if (STRUCTURE_NOUNS.has(t.norm) || POPULATION_NOUNS.has(t.norm)) return true;
    }
    // "in obese dogs", "especially overweight ones": a population before the word.
    if (prev && ["in", "especially", "particularly", "predisposes", "predisposed"].includes(prev.norm)) {
      const next = tokens[end];
      if (next && (POPULATION_NOUNS.has(next.norm) || next.norm === "ones")) return true;
    }
  }
  if (EVENT_SIGN.test(signName)) {
    for (let k = start - 1; k >= Math.max(0, start - 3); k--) {
      const t = tokens[k]!;
      if (t.kind === "break" || claimed.has(k) || t.norm === ",") break;
      if (CAUSE_WORDS.has(t.norm)) return true;
    }
  }
  return false;
}

const nonSigns = new PhraseIndex<true>();
for (const phrase of NON_SIGN_PHRASES) nonSigns.add(phrase, true);
nonSigns.freeze();
/** Commas may sit inside a non-sign phrase: "quiet, alert and responsive". */
const NON_SIGN_FILLERS: ReadonlySet<string> = new Set([...PHRASE_FILLERS, ","]);

/**
 * Describing words that may stand between a sign's first word and its head: "pale and tacky
 * mucous membranes", "enlarged, irregular spleen", "large irregular kidneys". Colours are not
 * among them ("pale pink mucous membranes" is not pale).
 */
const STACKED_ADJECTIVES: ReadonlySet<string> = new Set(
  `tacky dry firm hard irregular rounded hyperechoic hypoechoic heterogeneous mottled nodular
  lobulated painful hot warm tense thick thickened swollen inflamed scaly greasy dull unkempt
  thready weak turgid itchy moist matted cold copious tender fluid-filled
  distended enlarged large ulcerated`.split(/\s+/),
);

/**
 * A sign read across a describing word stacked before its head ("pale and tacky mucous
 * membranes" is also pale mucous membranes): the first word, then ","/"and" and one describing
 * word passed over, then the rest of the phrase.
 */
function stackedAdjectiveMentions(
  text: string,
  view: TokenView,
  index: LexiconIndex,
  mentions: RawMention[],
  claimed: Set<number>,
): void {
  const { tokens } = view;
  for (let i = 0; i < tokens.length; i++) {
    if (claimed.has(i) || view.blocked.has(i) || !/^[a-z]{3,}$/.test(tokens[i]!.norm)) continue;
    let adjective = i + 1;
    if (tokens[adjective]?.norm === "," || tokens[adjective]?.norm === "and") adjective++;
    const word = tokens[adjective];
    if (!word || !STACKED_ADJECTIVES.has(word.norm)) continue;
    const skippable = new Set([...PHRASE_FILLERS, ",", "and", word.norm]);
    const sign = index.signs.matchAt(view, i, skippable);
    if (!sign || sign.matched.length < 2 || sign.matched[1]! <= adjective) continue;
    // Words only: "bladder v large + painful" is not "v+".
    if (!sign.matched.every((k) => /^[a-z]{2,}$/.test(tokens[k]!.norm))) continue;
    const symptomId = sign.entry.payload.symptomId;
    const name = index.lexicon.symptomById.get(symptomId)?.name.toLowerCase() ?? "";
    if (notThisSign(tokens, sign.start, sign.end, name, view.blocked)) continue;
    if (mentions.some((m) => m.symptomId === symptomId && m.start < sign.end && sign.start < m.end)) continue;
    mentions.push({
      symptomId,
      start: sign.start,
      end: sign.end,
      keyPhrase: spanText(text, tokens, sign.start, sign.end),
      distance: Math.max(sign.distance, 0.1),
      forced: null,
      significantHint: false,
    });
    claimed.add(i);
  }
}

const SHORTHAND: Record<string, string> = {
  v: "vomiting",
  d: "diarrhoea",
  c: "coughing",
  s: "sneezing",
  pu: "polyuria",
  pd: "polydipsia",
};
const JOINERS = new Set(["/", "&", "and", "+"]);

/**
 * Is a shorthand item the second or later of a list a negation opens ("no v+ or d+", "nil v+/d+")?
 * Not across a comma: "no v+, d+ since yesterday" asserts the diarrhoea.
 */
function negatedShorthandList(tokens: Token[], start: number, claimed: ReadonlySet<number>): boolean {
  let sawItem = false;
  for (let k = start - 1; k >= 0; k--) {
    const word = tokens[k]!.norm;
    if (claimed.has(k)) sawItem = true;
    else if (["no", "nil", "neither", "nor", "without"].includes(word)) return sawItem;
    else if (!["+", "-", "or", "/", "&", "and"].includes(word)) return false;
  }
  return false;
}

function spanText(text: string, tokens: Token[], start: number, end: number): string {
  return text.slice(tokens[start]!.start, tokens[end - 1]!.end);
}

/** Correct misspelt words against the catalogue vocabulary (names and known words excluded). */
export function spellingCorrections(view: TokenView, index: LexiconIndex): void {
  const { tokens } = view;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== "word" || t.norm.length < 6 || view.blocked.has(i)) continue;
    const prev = tokens[i - 1];
    const sentenceStart = !prev || prev.kind === "break";
    if (t.capitalised && !sentenceStart && !t.upper) continue;
    const s = view.stems[i]!;
    if (index.knownStems.has(s) || index.signs.has(s)) continue;
    const fix = index.spelling.correct(t.norm);
    if (!fix) continue;
    view.corrections.set(i, {
      stem: stem(fix.word),
      distance: Math.min(1, fix.edits / Math.max(4, t.norm.length)) * 1 + 0.05,
    });
  }
}

function shorthandMentions(
  text: string,
  view: TokenView,
  index: LexiconIndex,
  claimed: Set<number>,
): RawMention[] {
  const { tokens } = view;
  const out: RawMention[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    const key = t.kind === "word" ? t.norm : "";
    if (!(key in SHORTHAND) && key !== "pupd") {
      i++;
      continue;
    }
    if (view.blocked.has(i)) {
      i++;
      continue;
    }
    type Item = { key: string; start: number; end: number; marker: "+" | "-" | null };
    const items: Item[] = [];
    let joined = false;
    let j = i;
    while (j < tokens.length) {
      const tk = tokens[j]!;
      if (tk.kind !== "word" || !(tk.norm in SHORTHAND || tk.norm === "pupd") || view.blocked.has(j)) break;
      const item: Item = { key: tk.norm, start: j, end: j + 1, marker: null };
      const next = tokens[j + 1];
      if (next && (next.norm === "+" || next.norm === "-") && next.start === tk.end) {
        item.marker = next.norm;
        item.end = j + 2;
        // "++" / "+++" written as separate plus tokens.
        while (tokens[item.end]?.norm === "+" && tokens[item.end]!.start === tokens[item.end - 1]!.end)
          item.end++;
      }
      items.push(item);
      j = item.end;
      const joiner = tokens[j];
      const after = tokens[j + 1];
      if (joiner && JOINERS.has(joiner.norm) && after && after.norm in SHORTHAND && after.kind === "word") {
        joined = true;
        j += 1;
        continue;
      }
      // "V-D-C-S-", "V+D+": the next letter follows the marker directly.
      if (
        joiner &&
        joiner.kind === "word" &&
        joiner.norm in SHORTHAND &&
        item.marker &&
        joiner.start === tokens[j - 1]!.end
      )
        continue;
      break;
    }
    const multi = items.length >= 2 && (joined || items.every((it) => it.marker));
    const accepted: Item[] = [];
    for (const it of items) {
      const single = it.key.length === 1;
      const explicit = it.marker !== null;
      const upper = tokens[it.start]!.upper;
      if (it.key === "pupd") accepted.push(it);
      else if (!single) {
        if (multi || explicit || upper) accepted.push(it);
      } else if (it.key === "c" || it.key === "s") {
        if (explicit) accepted.push(it);
      } else if (explicit || (multi && (upper || items.some((x) => x.marker)))) accepted.push(it);
      else if (["no", "nil", "or"].includes(tokens[it.start - 1]?.norm ?? "") && upper) accepted.push(it);
    }
    for (const it of accepted) {
      const names = it.key === "pupd" ? ["polyuria", "polydipsia"] : [SHORTHAND[it.key]!];
      for (const n of names) {
        const id = index.symptomIdByName.get(n);
        if (id === undefined) continue;
        const span =
          multi && !it.marker
            ? { start: items[0]!.start, end: items[items.length - 1]!.end }
            : { start: it.start, end: it.end };
        out.push({
          symptomId: id,
          start: span.start,
          end: span.end,
          keyPhrase: spanText(text, tokens, span.start, span.end),
          distance: 0,
          // "no v+ or d+": a "+" under a negation that carries along the list forces nothing.
          forced:
            it.marker === "+" && !negatedShorthandList(tokens, it.start, claimed)
              ? "present"
              : it.marker === "-"
                ? "absent"
                : null,
          significantHint: tokens[it.end - 1]!.norm === "+" && tokens[it.end - 2]?.norm === "+",
        });
      }
      for (let k = it.start; k < it.end; k++) claimed.add(k);
    }
    if (accepted.length > 0 && multi)
      for (let k = items[0]!.start; k < items[items.length - 1]!.end; k++) claimed.add(k);
    i = Math.max(j, i + 1);
  }
  return out;
}

/** How far back in its sentence a body site still names where a general sign is ("R eye suddenly red, painful"). */
const REGION_REACH_BEFORE = 6;
const REGION_REACH_AFTER = 4;

function regionalise(
  signName: string,
  tokens: Token[],
  start: number,
  end: number,
  index: LexiconIndex,
): number | null {
  // A cry when a site is touched is that site's pain ("yelps if ear touched", "cries when his
  // back is handled"); a cry on being picked up stays a cry.
  if (signName === "vocalisation") {
    for (let k = end; k < Math.min(tokens.length, end + REGION_REACH_AFTER + 1); k++) {
      const t = tokens[k]!;
      if (t.kind === "break" || [",", ".", ";"].includes(t.norm)) break;
      if (!/^(?:touched|handled|palpated|manipulated|examined|flexed|extended)$/.test(t.norm)) continue;
      for (let j = end; j < k; j++) {
        const rule = REGION_RULES.find((r) => r.map.pain !== undefined && r.words.includes(tokens[j]!.norm));
        const id = rule && index.symptomIdByName.get(rule.map.pain!);
        if (id !== undefined) return id;
      }
    }
  }
  const rules = REGION_RULES.filter((rule) => rule.map[signName] !== undefined);
  if (rules.length === 0) return null;
  const target = (rule: RegionRule) => index.symptomIdByName.get(rule.map[signName]!);
  // The nearest site word: after the sign within its sentence ("pain in the abdomen"), or before it
  // in its sentence with no other body site between ("R eye suddenly red, painful"; not "eye
  // closed, R hind painful").
  let afterOpen = true;
  let beforeOpen = true;
  for (let d = 1; d <= REGION_REACH_BEFORE && (afterOpen || beforeOpen); d++) {
    const after = end - 1 + d;
    if (afterOpen && d <= REGION_REACH_AFTER && after < tokens.length && tokens[after]!.kind !== "break") {
      const rule = rules.find((r) => r.words.includes(tokens[after]!.norm));
      if (rule && target(rule) !== undefined) return target(rule)!;
    } else afterOpen = false;
    const before = start - d;
    if (!beforeOpen || before < 0 || tokens[before]!.kind === "break") {
      beforeOpen = false;
      continue;
    }
    const word = tokens[before]!.norm;
    const rule = rules.find((r) => r.words.includes(word));
    if (rule && target(rule) !== undefined) return target(rule)!;
    // Another site between: the sign is not about the earlier one.
    if (bodySites(word).sites.length > 0) beforeOpen = false;
  }
  for (const rule of rules) {
    const id = target(rule);
    if (id !== undefined && sentenceTopic(tokens, start).some((w) => rule.words.includes(w))) return id;
  }
  return null;
}

export function findSignMentions(
  text: string,
  view: TokenView,
  index: LexiconIndex,
): { mentions: RawMention[]; claimed: Set<number> } {
  const { tokens } = view;
  const claimed = new Set<number>();
  const mentions = shorthandMentions(text, view, index, claimed);
  const blockedView: TokenView = { ...view, blocked: new Set([...view.blocked, ...claimed]) };

  let i = 0;
  while (i < tokens.length) {
    if (blockedView.blocked.has(i) || tokens[i]!.kind !== "word") {
      i++;
      continue;
    }
    const sign = index.signs.matchAt(blockedView, i, PHRASE_FILLERS);
    const non = nonSigns.matchAt({ ...blockedView, corrections: new Map() }, i, NON_SIGN_FILLERS);
    if (non && (!sign || non.matched.length >= sign.matched.length)) {
      for (let k = non.start; k < non.end; k++) claimed.add(k);
      i = non.end;
      continue;
    }
    // "spontaneous bleeding from the nose": a longer phrase starting inside this one wins.
    if (sign && sign.matched.length >= 2) {
      let later = null;
      for (let j = sign.start + 1; j < sign.end && !later; j++) {
        const other = index.signs.matchAt(blockedView, j, PHRASE_FILLERS);
        if (other && other.end > sign.end && other.matched.length > sign.matched.length) later = other;
      }
      if (later) {
        i = later.start;
        continue;
      }
    }
    if (!sign) {
      // "discharge" with a body region nearby: "ears ... brown waxy discharge".
      const t = tokens[i]!;
      if (
        t.norm === "discharge" ||
        (t.norm === "d" && tokens[i + 1]?.norm === "/" && tokens[i + 2]?.norm === "c")
      ) {
        // "d/c" takes three tokens: "mucoid d/c from both eyes".
        const reach = t.norm === "d" ? 6 : 4;
        const near = (region: (typeof DISCHARGE_REGIONS)[number]) => {
          let found = false;
          for (let k = Math.max(0, i - 5); k < Math.min(tokens.length, i + reach); k++) {
            if (tokens[k]!.kind === "break") {
              if (k < i) {
                found = false;
                continue;
              }
              break;
            }
            if (region.words.includes(tokens[k]!.norm)) found = true;
          }
          // "R ear: shaking, thick yellow d/c": the sentence's heading names the site.
          return found || sentenceTopic(tokens, i).some((w) => region.words.includes(w));
        };
        // Else the nearest region further on in its clause: "thick green discharge is running
        // from both nostrils".
        const farther = () =>
          nearestWord(
            tokens,
            i,
            t.norm === "d" ? 9 : 7,
            (norm) => DISCHARGE_REGIONS.find((r) => r.words.includes(norm)),
            { before: false },
          );
        const region = DISCHARGE_REGIONS.find(near) ?? farther();
        const id = region && index.symptomIdByName.get(region.sign);
        if (id !== undefined) {
          mentions.push({ ...oneWordMention(text, tokens, i, id), distance: 0.2 });
          claimed.add(i);
        }
      }
      i++;
      continue;
    }
    let symptomId = sign.entry.payload.symptomId;
    let distance = sign.distance;
    const symptom = index.lexicon.symptomById.get(symptomId);
    if (notThisSign(tokens, sign.start, sign.end, symptom?.name.toLowerCase() ?? "", blockedView.blocked)) {
      for (let k = sign.start; k < sign.end; k++) claimed.add(k);
      i = sign.end;
      continue;
    }
    if (symptom) {
      const regional = regionalise(symptom.name.toLowerCase(), tokens, sign.start, sign.end, index);
      if (regional !== null) {
        symptomId = regional;
        distance = Math.max(distance, 0.1);
      }
    }
    mentions.push({
      symptomId,
      start: sign.start,
      end: sign.end,
      keyPhrase: spanText(text, tokens, sign.start, sign.end),
      distance,
      forced: null,
      significantHint: false,
      ...(quotedSpan(text, tokens, sign.start, sign.end) ? { quoted: true } : {}),
    });
    for (let k = sign.start; k < sign.end; k++) claimed.add(k);
    i = sign.end;
  }
  stackedAdjectiveMentions(text, view, index, mentions, claimed);
  strainingMentions(text, view, index, mentions, claimed);
  bareSiteMentions(text, view, index, mentions, claimed);
  return { mentions, claimed };
}

/**
 * What `classify` finds in the nearest word that has something, looking both ways from token i
 * (or only ahead) within `reach` words and inside the sentence.
 */
function nearestWord<T>(
  tokens: Token[],
  i: number,
  reach: number,
  classify: (norm: string) => T | undefined,
  { before = true }: { before?: boolean } = {},
): T | undefined {
  let best: { d: number; value: T } | undefined;
  for (const dir of before ? [-1, 1] : [1]) {
    for (let k = i + dir, d = 1; k >= 0 && k < tokens.length && d <= reach; k += dir, d++) {
      if (tokens[k]!.kind === "break") break;
      const value = classify(tokens[k]!.norm);
      if (value !== undefined) {
        if (!best || d < best.d) best = { d, value };
        break;
      }
    }
  }
  return best?.value;
}

/** A sign read from the one word at token i. */
function oneWordMention(text: string, tokens: Token[], i: number, symptomId: number): RawMention {
  return {
    symptomId,
    start: i,
    end: i + 1,
    keyPhrase: spanText(text, tokens, i, i + 1),
    distance: 0.1,
    forced: null,
    significantHint: false,
  };
}

const EYE = /^(?:eyes?|cornea|corneal|fluorescein|os|od|ou|axial|keratitis|globe)$/;
const MOUTH = /^(?:mouth|oral|tongue|lingual|gums?|gingiva\w*|palate|lips?|buccal)$/;
const SKIN =
  /^(?:skin|patch|patches|blotches|rash|canal|canals|pinna|pinnae|ventrum|belly|interdigital|paws?|feet|flanks?|groin|axilla\w*|muzzle|chin)$/;
const CONJUNCTIVA = /^(?:conjunctiva|conjunctivae|conjunctival|sclera|scleral)$/;
/**
 * Bare words that are a sign only at a site, the nearest site word in the clause deciding (within
 * `reach` words): "Fluorescein: dendritic ulcers OS" (a corneal ulcer), "L eye squinting, watering"
 * (epiphora), "raised red patches on the skin", "canal red and narrowed" (erythema), "conjunctiva
 * very red".
 */
const BARE_SITE_WORDS: { word: RegExp; reach: number; sites: [RegExp, string][] }[] = [
  // "a urine sample was obtained, which is tinged red", "faeces streaked with blood".
  {
    word: /^(?:red|pink|bloody|blood-tinged|bloodstained|blood-stained|tinged|streaked)$/,
    reach: 8,
    sites: [
      [/^(?:urine|urinary|pee|wee|urinalysis)$/, "haematuria"],
      [/^(?:faeces|feces|faecal|fecal|stools?|poos?|droppings|motions?|diarrh\w*)$/, "haematochezia"],
      [/^(?:vomit|vomitus|vomiting|vomited|vomits)$/, "haematemesis"],
    ],
  },
  {
    word: /^(?:ulcers?|ulcerated|ulceration)$/,
    reach: 8,
    sites: [
      [EYE, "corneal ulceration"],
      [MOUTH, "oral ulceration"],
      [SKIN, "skin ulceration"],
    ],
  },
  { word: /^(?:watering|watery|streaming|weeping|teary)$/, reach: 6, sites: [[EYE, "epiphora"]] },
  // "R eye red and cloudy", "cornea hazy": a clouded cornea.
  { word: /^(?:cloudy|clouded|hazy|milky|opaque)$/, reach: 4, sites: [[EYE, "corneal opacity"]] },
  {
    word: /^(?:red|reddened|inflamed)$/,
    reach: 4,
    sites: [
      [CONJUNCTIVA, "conjunctival hyperaemia"],
      [SKIN, "erythema"],
    ],
  },
];

const DESCRIBED_NEXT =
  /^(?:d|diarrh\w*|faec\w*|fec\w*|stools?|droppings|discharge|nasal|mucus|urine|blood|cells?|rbcs?|nose|mouth)$/;

function bareSiteMentions(
  text: string,
  view: TokenView,
  index: LexiconIndex,
  mentions: RawMention[],
  claimed: Set<number>,
): void {
  const { tokens } = view;
  for (let i = 0; i < tokens.length; i++) {
    if (claimed.has(i) || view.blocked.has(i)) continue;
    // "watery d+", "red urine": the word describes what follows it.
    if (DESCRIBED_NEXT.test(tokens[i + 1]?.norm ?? "")) continue;
    // "dark red-brown urine" is pigment, not blood.
    const around = (k: number) => tokens[k]?.norm ?? "";
    if (around(i - 1) === "dark" || [around(i + 1), around(i + 2)].includes("brown")) continue;
    // The first rule for the word whose sites its sentence names.
    let rule: (typeof BARE_SITE_WORDS)[number] | undefined;
    let symptomId: number | undefined;
    for (const r of BARE_SITE_WORDS) {
      if (!r.word.test(tokens[i]!.norm)) continue;
      const site = nearestWord(tokens, i, r.reach, (norm) => r.sites.find(([re]) => re.test(norm))?.[1]);
      symptomId = site === undefined ? undefined : index.symptomIdByName.get(site);
      if (symptomId !== undefined) {
        rule = r;
        break;
      }
    }
    if (rule === undefined || symptomId === undefined) continue;
    if (
      mentions.some((m) => m.symptomId === symptomId && m.start <= i + rule.reach && i - rule.reach < m.end)
    )
      continue;
    mentions.push(oneWordMention(text, tokens, i, symptomId));
    claimed.add(i);
  }
}

const STRAINING = /^(?:straining|strains|strained|strain)$/;
// What a strain is to pass, read from its sentence: faeces (tenesmus) or urine (stranguria).
const STOOL_WORDS =
  /^(?:faeces|feces|faecal|fecal|stools?|poos?|pooing|poop\w*|defa?ecat\w*|motions?|droppings|constipat\w*|obstipat\w*|rectum|rectal|vent|cloaca\w*|colon)$/;
const URINE_WORDS =
  /^(?:urine|urinat\w*|urination|pee\w*|wee\w*|bladder|urethra\w*|micturat\w*|dysuria|blocked|haematuria|hematuria)$/;
// ... or young: straining in labour with nothing delivered is dystocia.
const BIRTH_WORDS =
  /^(?:labou?r\w*|whelp\w*|queening|lambing|kidding|foaling|calving|farrowing|kindling|parturi\w*|birth\w*|deliver\w*|contractions?|fo?etus\w*|fo?etal)$/;

/**
 * "Straining in tray with nothing passed, a few small hard dry faeces", "straining from vent":
 * straining the catalogue leaves open ("in the tray", bare) is tenesmus or stranguria by what its
 * sentence says is passed, the nearest word winning; a tray phrase already read as stranguria
 * turns to tenesmus when only faeces are named beside it.
 */
function strainingMentions(
  text: string,
  view: TokenView,
  index: LexiconIndex,
  mentions: RawMention[],
  claimed: Set<number>,
): void {
  const { tokens } = view;
  const tenesmus = index.symptomIdByName.get("tenesmus");
  const stranguria = index.symptomIdByName.get("stranguria");
  const dystocia = index.symptomIdByName.get("dystocia");
  if (tenesmus === undefined || stranguria === undefined) return;
  const nearest = (i: number) =>
    nearestWord(tokens, i, 30, (norm) =>
      STOOL_WORDS.test(norm)
        ? tenesmus
        : URINE_WORDS.test(norm)
          ? stranguria
          : BIRTH_WORDS.test(norm)
            ? dystocia
            : undefined,
    );
  for (let i = 0; i < tokens.length; i++) {
    if (!STRAINING.test(tokens[i]!.norm) || view.blocked.has(i)) continue;
    const mention = mentions.find((m) => m.start <= i && i < m.end);
    if (mention) {
      const passed = nearest(i);
      if (mention.symptomId === stranguria && passed === tenesmus) mention.symptomId = tenesmus;
      if ([tenesmus, stranguria].includes(mention.symptomId) && passed === dystocia && dystocia !== undefined)
        mention.symptomId = dystocia;
      continue;
    }
    if (claimed.has(i)) continue;
    // A note about a birth ("Went into labour yesterday… This AM still straining"): straining its
    // own sentence does not explain is the labour's.
    const inLabour = tokens
      .slice(Math.max(0, i - 40), i)
      .some(
        (t, k, before) =>
          BIRTH_WORDS.test(t.norm) && !["no", "not", "never"].includes(before[k - 1]?.norm ?? ""),
      );
    const symptomId = nearest(i) ?? (inLabour ? dystocia : undefined);
    if (symptomId === undefined) continue;
    mentions.push(oneWordMention(text, tokens, i, symptomId));
    claimed.add(i);
  }
}

/** "Rumen contractions 1 per 2 min (reduced)": a bracketed qualifier applied to the clause's subject. */
export function qualifiedMeasurements(
  text: string,
  view: TokenView,
  index: LexiconIndex,
  claimed: Set<number>,
): RawMention[] {
  const { tokens } = view;
  const out: RawMention[] = [];
  const qualifiers = new Set([
    "reduced",
    "decreased",
    "increased",
    "elevated",
    "low",
    "high",
    "weak",
    "absent",
    "raised",
  ]);
  for (let i = 1; i < tokens.length - 1; i++) {
    if (tokens[i - 1]!.norm !== "(" || !qualifiers.has(tokens[i]!.norm) || tokens[i + 1]!.norm !== ")")
      continue;
    // The subject: the words at the start of this sentence, up to the first number.
    let s = i - 1;
    while (s > 0 && tokens[s - 1]!.kind !== "break") s--;
    const subject: string[] = [];
    for (let k = s; k < i - 1 && subject.length < 3; k++) {
      const t = tokens[k]!;
      if (t.kind !== "word") break;
      subject.push(t.norm);
    }
    if (subject.length === 0 || subject.some((_, k) => claimed.has(s + k))) continue;
    const candidates = [
      [tokens[i]!.norm, ...subject],
      [...subject, tokens[i]!.norm],
    ];
    for (const words of candidates) {
      const fakeTokens: Token[] = words.map((w, k) => ({
        norm: w,
        start: 0,
        end: 0,
        kind: "word",
        capitalised: false,
        upper: false,
        index: k,
      }));
      const m = index.signs.matchAt(
        { tokens: fakeTokens, stems: words.map(stem), corrections: new Map(), blocked: new Set() },
        0,
      );
      if (m && m.end === words.length && m.entry.payload.symptomId > 0) {
        out.push({
          symptomId: m.entry.payload.symptomId,
          start: s,
          end: i + 2,
          keyPhrase: spanText(text, tokens, s, i + 2),
          distance: 0.15,
          forced: null,
          significantHint: false,
        });
        break;
      }
    }
  }
  return out;
}
