// Laboratory findings read from values in the notes ("PCV 18%", "BG 2.1 mmol/L", "creat 4.2 mg/dL
// (0.5-1.8)", "WBC 31,000/µL", "USG 1.010") and from directional shorthand ("urea + creat high",
// "bili up", "low K"). A value is converted to SI units (mg/dL and µL counts included; a value
// written without a unit is read in the unit its size implies) and compared with the reference
// range written beside it, else the species' interval from db/seed/data/finding-rules.json.
// Values no animal could have ("PCV 300 %") are not read; they come back as flags instead.
import rulesData from "@/db/seed/data/finding-rules.json";

export interface LabFinding {
  /** Catalogue sign (finding) name, e.g. "anaemia". */
  sign: string;
  /** Offsets of the measurement in the notes. */
  start: number;
  end: number;
  /** Markedly outside its range: twice the distance of the range's width, or a life-threatening level. */
  significant: boolean;
}

export interface LabFlag {
  /** The text that could not be trusted. */
  text: string;
  reason: string;
}

interface Analyte {
  key: string;
  names: string[];
  case_sensitive?: string[];
  unit: string;
  units: Record<string, number>;
  guess?: { above?: number; below?: number; unit: string };
  plausible: [number, number];
  low?: string;
  high?: string;
  young_factor?: number;
  usg?: boolean;
  /** The low side only from the note's own range or an L flag, not the species' interval. */
  low_needs_range?: boolean;
  /** Read only with a unit written beside the value ("RBC 3.1 x10^12/L", not a urine "RBC 3"). */
  require_unit?: boolean;
  /** A bare whole number may be a percentage ("bands 3"); read it only with a unit or a decimal. */
  require_unit_or_decimal?: boolean;
  /** Vital signs: only "HR + RR up"-style shorthand is read here; values are read in vitals.ts. */
  directional_only?: boolean;
  intervals: Record<string, [number, number]>;
}

interface Rules {
  groups: Record<string, string[]>;
  analytes: Analyte[];
}

const rules = rulesData as unknown as Rules;
const groupOfSpecies = new Map<string, string>();
for (const [group, species] of Object.entries(rules.groups))
  for (const s of species) groupOfSpecies.set(s, group);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
/** A case-insensitive pattern for one phrase, for regexes that also hold case-sensitive parts. */
const anyCase = (s: string) =>
  escape(s).replace(/[a-z]/gi, (ch) => `[${ch.toLowerCase()}${ch.toUpperCase()}]`);
/** "µmol/L", "x10^9/L", "× 10⁹/l" → "umol/l", "10^9/l". */
function normaliseUnit(unit: string): string {
  return unit
    .toLowerCase()
    .replace(/\s+/g, "")
    .replace(/[µμ]/g, "u")
    .replace(/[×*]/g, "x")
    .replace(/⁹/g, "^9")
    .replace(/¹²/g, "^12")
    .replace(/⁶/g, "^6")
    .replace(/³/g, "^3")
    .replace(/^x(?=10)/, "")
    .replace(/^10e/, "10^")
    .replace(/^10(?=(?:3|9|12|6)\/)/, "10^")
    .replace(/^(?:sec|secs|seconds?)$/, "s");
}

// Insensitive names exclude the short ones that must be written in capitals ("K", "Na", "TP").
const sensitiveNames = new Map<string, Analyte>();
const insensitiveNames = new Map<string, Analyte>();
for (const analyte of rules.analytes) {
  const sensitive = new Set((analyte.case_sensitive ?? []).map((n) => n.toLowerCase()));
  for (const name of analyte.names) if (!sensitive.has(name)) insensitiveNames.set(name, analyte);
  for (const name of analyte.case_sensitive ?? []) sensitiveNames.set(name, analyte);
}
const byLength = (a: string, b: string) => b.length - a.length;
const insensitiveAlt = [...insensitiveNames.keys()].sort(byLength).map(anyCase).join("|");
const sensitiveAlt = [...sensitiveNames.keys()].sort(byLength).map(escape).join("|");
// Counts (x10^9/L, x10^12/L, /µL), concentrations (mmol/L, nmol/L, pmol/L, mg/dL, ng/mL, mg/L),
// activities, fractions, seconds (clotting times) and vertebrae ("VHS 11.8v").
const UNIT_PATTERN =
  "(?:x\\s?|×\\s?)?10\\s?(?:\\^|e)?\\s?(?:12|¹²|[369⁹³⁶])\\s?\\/\\s?[uµμ]?l|(?:cells\\s?)?\\/\\s?[uµμ]l|[km]\\/[uµμ]l|[mµμunp]?mol\\/l|m?eq\\/l|mg\\/dl|g\\/dl|g\\/l|[uµμ]g\\/dl|[uµμnm]g\\/l|[nµμup]g\\/ml|i?u\\/l|l\\/l|%|s(?:ec(?:onds?|s)?)?(?![A-Za-z])|v(?![A-Za-z])";
// Thousands separated by commas ("31,000"), decimals by a point or, as in much of Europe, by a
// comma followed by one or two digits ("creat 2,8 mg/dl", "K 6,8").
const NUMBER = "\\d{1,3}(?:,\\d{3})+(?!\\d)|\\d*\\.\\d+|\\d{1,3},\\d{1,2}(?!\\d)|\\d+";
const VALUE_RE = new RegExp(
  `(?<![A-Za-z0-9])(?:(?<ci>${insensitiveAlt})|(?<cs>${sensitiveAlt}))(?![A-Za-z])` +
    `(?:\\s+(?:count|ct|level|levels|concentration|conc\\.?|value|result)(?![A-Za-z]))?` +
    `\\s*(?:[:=]|was|of|at|is|-)?\\s*(?<cmp>[<>≤≥])?\\s*(?<num>${NUMBER})(?!\\d|\\.\\d)(?!\\s*\\+)(?!\\s*(?:x\\b(?!\\s*10)|\\/7|\\/52|d\\b|days?|wks?|weeks?|yo|y\\b|yrs?|years?|mo\\b|months?|hrs?|hours?|min|kg|lb))` +
    `\\s*(?<unit>${UNIT_PATTERN})?` +
    `(?:\\s*(?:\\(|\\[)\\s*(?:ref(?:erence)?\\.?(?:\\s*(?:range|interval|int\\.?|ri))?[:\\s]*|ri[:\\s]*|n(?:ormal)?[:\\s]+)?(?<lo>${NUMBER})\\s*(?:-|–|to)\\s*(?<hi>${NUMBER})[^)\\]]{0,12}(?:\\)|\\]))?` +
    `(?:\\s*(?<flag>\\(?(?:H|L|HH|LL|high|low)\\)?(?![A-Za-z])|↑|↓))?`,
  "gi",
);
const DIRECTION_HIGH =
  [
    "high",
    "elevated",
    "raised",
    "increased",
    "incr",
    "up",
    // Rates: "RR fast", "pulse rapid".
    "fast",
    "rapid",
    "markedly high",
    "markedly elevated",
    "markedly increased",
    "markedly raised",
  ]
    .map(anyCase)
    .join("|") + "|↑";
const DIRECTION_LOW =
  [
    "low",
    "decreased",
    "reduced",
    "down",
    "poor",
    "slow",
    "markedly low",
    "markedly decreased",
    "markedly reduced",
  ]
    .map(anyCase)
    .join("|") + "|↓";
const NAME_GROUP = `(?:${insensitiveAlt}|${sensitiveAlt})`;
/** "urea high normal", "ALT high-normal", "K low end of normal": inside the range, not a finding. */
const NOT_NORMAL_END = `(?!(?:\\s*-\\s*|\\s+)(?:${["normal", "end", "side", "limit of normal", "within", "wnl", "but normal", "but within"].map(anyCase).join("|")})(?![A-Za-z]))`;
/**
 * A multiple of the upper limit: "ALT 3x upper limit", "ALT x4", "ALP >10x ULN", "ALT twice the upper
 * limit", "CK five-fold increased". Written multiples from 1.5 up are read as high.
 */
const MULTIPLE_WORDS: Record<string, number> = {
  twice: 2,
  double: 2,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  ten: 10,
  triple: 3,
};
const UPPER_LIMIT = [
  "the upper limit",
  "upper limit",
  "the upper limit of normal",
  "upper limit of normal",
  "uln",
  "the uln",
  "upper reference limit",
  "the upper reference limit",
  "the reference range",
  "reference",
  "normal",
  "the normal",
  "increased",
  "elevated",
  "raised",
  "increase",
  "high",
  "above normal",
  "above the upper limit",
  "above reference",
]
  .sort(byLength)
  .map(anyCase)
  .join("|");
const MULTIPLE_RE = new RegExp(
  `(?<![A-Za-z0-9])(?<name>${NAME_GROUP})(?![A-Za-z])\\s*(?:[:=]|was|is|at|of|~|approx\\.?)?\\s*(?:[>≥]\\s*)?` +
    `(?:(?<n>\\d+(?:\\.\\d+)?)\\s*(?:x|×|times|-?\\s?fold)(?![A-Za-z0-9])|(?:x|×)\\s?(?<n2>\\d+(?:\\.\\d+)?)(?![\\d.])` +
    `|(?<word>${Object.keys(MULTIPLE_WORDS).map(anyCase).join("|")})(?:\\s*-?\\s*(?:times|fold))?(?=\\s+(?:${UPPER_LIMIT})(?![A-Za-z])))` +
    `(?!\\s*(?:\\/|10\\b|${["daily", "a day", "per", "weekly", "days", "doses", "readings", "tests"].map(anyCase).join("|")}))` +
    `(?:\\s+(?<phrase>${UPPER_LIMIT})(?![A-Za-z]))?`,
  "g",
);
/** A meter's reading off its scale: "BG HI", "glucose reads HI on the glucometer", "lactate LO". */
const OFF_SCALE_RE = new RegExp(
  `(?<![A-Za-z0-9])(?<name>${NAME_GROUP})(?![A-Za-z])\\s*(?:[:=]|-)?\\s*(?:(?:${["reads", "read", "reading", "was", "is"].map(anyCase).join("|")})\\s+)?` +
    `(?:(?<hi>HI|HIGH(?=\\s+on\\s)|${["too high to read", "too high to measure", "off the scale", "above the measurable range", "above the meter's range", "above the range of the meter"].map(anyCase).join("|")})|(?<lo>LO|${["too low to read", "too low to measure", "below the measurable range"].map(anyCase).join("|")}))(?![A-Za-z])`,
  "g",
);
const JOIN = `\\s*(?:\\+|&|${anyCase("and")}|,|\\/)\\s*`;
const QUALIFIER = [
  "both",
  "all",
  "very",
  "mildly",
  "moderately",
  "markedly",
  "severely",
  "slightly",
  "critically",
  "dangerously",
  "extremely",
  "profoundly",
  "quite",
  "v",
  "a little",
  "a bit",
]
  .map(anyCase)
  .join("|");
const SERUM = ["serum", "blood", "plasma"].map(anyCase).join("|");
// Words between the analytes and their direction: "insulin was also low", "glucose was
// persistently low", "globulins borderline high", "ALP, ALT and AST all elevated".
const LINKING = [
  "was",
  "were",
  "is",
  "are",
  "also",
  "all",
  "borderline",
  "persistently",
  "still",
  "now",
  "consistently",
  "both",
  "has",
  "have",
  "had",
  "been",
  "stays",
  "stayed",
  "remains",
  "remained",
  "extremely",
  "very",
]
  .map(anyCase)
  .join("|");
// "urea + creat high", "bili up, AST up", "K+ 7.2 H" is read by VALUE_RE; "low K", "raised ALT".
// A word before "and" that is a name only with the last name's head noun: "heart and respiratory
// rates are raised" (heart rate and respiratory rate).
const POSTFIX_RE = new RegExp(
  `(?<![A-Za-z0-9])(?:(?<lead>(?!(?:${NAME_GROUP})(?![A-Za-z]))[A-Za-z]+)\\s+${anyCase("and")}\\s+)?(?<names>${NAME_GROUP}(?:${JOIN}${NAME_GROUP}){0,10})\\s+(?:(?:${LINKING}|${QUALIFIER})\\s+){0,3}(?<dir>${DIRECTION_HIGH}|${DIRECTION_LOW})(?![A-Za-z])${NOT_NORMAL_END}`,
  "gi",
);
// "low potassium, sodium, chloride and phosphate", "raised ALT and bilirubin"; a later name with
// its own value ("high ALT, ALP 300") is that value's.
const PREFIX_RE = new RegExp(
  `(?<![A-Za-z0-9])(?<dir>${DIRECTION_HIGH}|${DIRECTION_LOW})\\s+(?:(?:${SERUM})\\s+)?(?<names>${NAME_GROUP}(?:${JOIN}(?:${SERUM}\\s+)?${NAME_GROUP}(?![A-Za-z])(?!\\s*(?:[:=]\\s*)?[<>]?\\s*\\d)(?!\\s+(?:${["normal", "wnl", "nad", "within", "unremarkable", "ok"].map(anyCase).join("|")})(?![A-Za-z]))){0,10})(?![A-Za-z])`,
  "gi",
);
const PCV_TS_RE =
  /(?<![A-Za-z])(?:PCV|Hct)\s*\/\s*T[PS]\s*[:=]?\s*(?<pcv>\d{1,2}(?:\.\d)?)\s*%?\s*\/\s*(?<tp>\d{1,3}(?:\.\d)?)/gi;

// The regexes run case-insensitively; a capitals-only name ("K", "Na", "TP") must match exactly.
function analyteOf(groups: Record<string, string | undefined>): Analyte | undefined {
  if (groups.cs) return sensitiveNames.get(groups.cs);
  if (groups.ci) return insensitiveNames.get(groups.ci.toLowerCase());
  return undefined;
}
function nameToAnalyte(name: string): Analyte | undefined {
  return insensitiveNames.get(name.toLowerCase()) ?? sensitiveNames.get(name);
}
const num = (text: string) =>
  /^\d{1,3},\d{1,2}$/.test(text) ? Number(text.replace(",", ".")) : Number(text.replace(/,/g, ""));

function interval(analyte: Analyte, speciesKey: string | null, ageYears: number | null): [number, number] {
  const group = speciesKey ? (groupOfSpecies.get(speciesKey) ?? speciesKey) : "default";
  const [lo, hi] = analyte.intervals[group] ?? analyte.intervals.default ?? [-Infinity, Infinity];
  const young = ageYears !== null && ageYears < 1 && analyte.young_factor ? analyte.young_factor : 1;
  return [lo, hi * young];
}

/** The value in the analyte's own unit, or null when the unit is not one of its units. */
function convert(analyte: Analyte, value: number, unitText: string | undefined): number | null {
  if (analyte.key === "pcv" && !unitText && value > 0 && value < 1) return value * 100;
  let unit = unitText ? normaliseUnit(unitText) : "";
  if (!unit && analyte.guess) {
    const { above, below } = analyte.guess;
    if ((above !== undefined && value > above) || (below !== undefined && value < below))
      unit = analyte.guess.unit;
  }
  if (!unit) return value;
  const factors = Object.fromEntries(Object.entries(analyte.units).map(([u, f]) => [normaliseUnit(u), f]));
  if (factors[unit] !== undefined) return value * factors[unit]!;
  if (unit === normaliseUnit(analyte.unit)) return value;
  return null;
}

function judge(
  analyte: Analyte,
  value: number,
  range: [number, number],
): { sign: string; significant: boolean } | null {
  const [lo, hi] = range;
  const width = Math.max(hi - lo, Math.abs(hi) * 0.1, 1e-9);
  if (value < lo && analyte.low) return { sign: analyte.low, significant: lo - value > 0.5 * width };
  if (value > hi && analyte.high) return { sign: analyte.high, significant: value - hi > width };
  return null;
}

function usgFinding(value: number): string | null {
  const sg = value > 1000 && value < 1100 ? value / 1000 : value;
  if (sg < 1.0 || sg > 1.09) return null;
  if (sg < 1.008) return "hyposthenuria";
  if (sg <= 1.012) return "isosthenuria";
  return null;
}

/** Dipstick and sediment results: "protein 2+", "glucose +++", "ketones strongly positive". */
const URINE_CONTEXT = /\b(?:ua|u\/a|urinalysis|urine|dipstick|usg|cysto(?:centesis)?|sediment)\b/i;
const URINE_ANALYTES: [RegExp, string][] = [
  [/^(?:protein|prot|pro)$/i, "proteinuria"],
  [/^(?:glucose|glu|gluc|sugar)$/i, "glucosuria"],
  [/^(?:ketones?|ket|ketone bodies)$/i, "ketonuria"],
  [/^(?:blood|bld|heme|haem|rbcs?|red cells)$/i, "microscopic haematuria"],
  [/^(?:bilirubin|bili|bil)$/i, "bilirubinuria"],
  [/^(?:wbcs?|leucocytes|leukocytes|white cells)$/i, "pyuria"],
  [/^(?:bacteria|cocci|rods|bacilli)$/i, "bacteriuria"],
  [/^(?:crystals)$/i, "crystalluria"],
];
const DIPSTICK_RE =
  /(?<![A-Za-z])(?<name>protein|prot|pro|glucose|glu|gluc|ketones?|ket|blood|bld|bilirubin|bili|bil|wbcs?|rbcs?|bacteria|crystals)\s*[:=]?\s*(?<value>\d\s*\+|\+{1,4}|(?:strongly |weakly )?positive|pos\b|present|trace|many|numerous|\d{2,4}\s*(?:\/hpf|mg\/dl)|>\s*\d{1,3}\s*\/hpf)/gi;

const DIPSTICK_NAME =
  "protein|prot|glucose|gluc|ketones?|blood|bilirubin|bili|wbcs?|rbcs?|red cells|white cells|bacteria|crystals";
/** "glucose, bilirubin and protein present", "blood + protein positive". */
const DIPSTICK_LIST_RE = new RegExp(
  `(?<![A-Za-z])(?<names>(?:${DIPSTICK_NAME})(?:\\s*(?:,|and|&|\\+|\\/)\\s*(?:${DIPSTICK_NAME})){1,6})\\s+(?:(?:all|both|also|were|are)\\s+)?(?:present|positive|detected|seen)(?![A-Za-z])`,
  "gi",
);

/** The value first: "1+ protein", "2+ blood", "319 RBC/hpf" (more than 5 cells a field). */
const DIPSTICK_VALUE_FIRST_RE =
  /(?<![A-Za-z0-9])(?:(?<plus>[1-4]\s*\+|\+{1,4})\s*(?<name>protein|prot|glucose|gluc|ketones?|blood|bilirubin)|(?:>\s*)?(?<count>\d{1,4})\s*(?<cells>rbcs?|wbcs?|red cells|white cells)\s*\/\s*hpf|(?<many>many|numerous|moderate|large numbers of|lots of|abundant)\s+(?<organisms>bacteria|rods|cocci|bacilli))(?![A-Za-z])/gi;
/** "urine culture: E. coli >10^5 cfu/ml", "urine culture grew Proteus"; not "no growth". A period
 * after a single letter is a genus abbreviation ("E. coli"), not the end of the sentence. */
const URINE_CULTURE_RE =
  /\burine\s+culture\b(?!(?:[^.;\n]|(?<=(?<![A-Za-z])[A-Za-z])\.)*?\b(?:no growth|negative|sterile|pending|submitted|sent|awaited)\b)(?:[^.;\n]|(?<=(?<![A-Za-z])[A-Za-z])\.){0,50}?(?:cfu|\bgrew\b|\bgrowth of\b|\bpositive\b|\bisolated\b|\bcultured\b)/gi;

function findUrineFindings(text: string): LabFinding[] {
  const found: LabFinding[] = [];
  for (const m of text.matchAll(DIPSTICK_VALUE_FIRST_RE)) {
    let sentenceStart = 0;
    for (const b of text.slice(0, m.index).matchAll(/[.!?;](?=\s)|\n/g)) sentenceStart = b.index;
    if (!URINE_CONTEXT.test(text.slice(sentenceStart, m.index + m[0].length))) continue;
    const g = m.groups!;
    if (g.count !== undefined && Number(g.count) <= 5) continue;
    const name = g.name ?? g.cells ?? g.organisms!;
    const sign = URINE_ANALYTES.find(([re]) => re.test(name))?.[1];
    if (sign)
      found.push({
        sign,
        start: m.index,
        end: m.index + m[0].length,
        significant: /3\s*\+|\+\+\+/.test(g.plus ?? "") || Number(g.count ?? 0) > 50,
      });
  }
  for (const m of text.matchAll(URINE_CULTURE_RE))
    found.push({ sign: "bacteriuria", start: m.index, end: m.index + m[0].length, significant: false });
  for (const m of text.matchAll(DIPSTICK_LIST_RE)) {
    let sentenceStart = 0;
    for (const b of text.slice(0, m.index).matchAll(/[.!?;](?=\s)|\n/g)) sentenceStart = b.index;
    if (!URINE_CONTEXT.test(text.slice(sentenceStart, m.index + m[0].length))) continue;
    for (const name of m.groups!.names!.split(/\s*(?:,|\band\b|&|\+|\/)\s*/i).filter(Boolean)) {
      const sign = URINE_ANALYTES.find(([re]) => re.test(name))?.[1];
      if (sign) found.push({ sign, start: m.index, end: m.index + m[0].length, significant: false });
    }
  }
  for (const m of text.matchAll(DIPSTICK_RE)) {
    // Only inside a urinalysis: the sentence up to the result names urine, UA or a dipstick.
    let sentenceStart = 0;
    for (const b of text.slice(0, m.index).matchAll(/[.!?;](?=\s)|\n/g)) sentenceStart = b.index;
    if (!URINE_CONTEXT.test(text.slice(sentenceStart, m.index + m[0].length))) continue;
    const value = m.groups!.value!.toLowerCase();
    if (value === "trace" && !/^(?:glu|ket)/i.test(m.groups!.name!)) continue;
    const sign = URINE_ANALYTES.find(([re]) => re.test(m.groups!.name!))?.[1];
    if (sign)
      found.push({
        sign,
        start: m.index,
        end: m.index + m[0].length,
        significant: /3\s*\+|\+\+\+|strongly/.test(value),
      });
  }
  return found;
}

export function findLabFindings(
  text: string,
  speciesKey: string | null,
  ageYears: number | null,
): { findings: LabFinding[]; flags: LabFlag[] } {
  const findings: LabFinding[] = [];
  const flags: LabFlag[] = [];
  const covered: [number, number][] = [];

  for (const finding of findUrineFindings(text)) {
    findings.push(finding);
    covered.push([finding.start, finding.end]);
  }

  for (const m of text.matchAll(PCV_TS_RE)) {
    const pcv = analyteOf({ ci: "pcv" })!;
    const tp = analyteOf({ ci: "total protein" })!;
    const start = m.index;
    const end = start + m[0].length;
    covered.push([start, end]);
    for (const [analyte, raw] of [
      [pcv, num(m.groups!.pcv!)],
      [tp, num(m.groups!.tp!)],
    ] as const) {
      const value = convert(analyte, raw, undefined);
      if (value === null) continue;
      const verdict = judge(analyte, value, interval(analyte, speciesKey, ageYears));
      if (verdict) findings.push({ ...verdict, start, end });
    }
  }

  for (const m of text.matchAll(VALUE_RE)) {
    const g = m.groups!;
    const analyte = analyteOf(g);
    if (!analyte || analyte.directional_only) continue;
    const start = m.index;
    const end = start + m[0].length;
    if (covered.some(([s, e]) => start < e && end > s)) continue;
    covered.push([start, end]);
    const raw = num(g.num!);
    if (!Number.isFinite(raw)) continue;
    if (analyte.require_unit && !g.unit) continue;
    if (analyte.require_unit_or_decimal && !g.unit && !g.num!.includes(".")) continue;
    if (analyte.usg) {
      const finding = usgFinding(raw);
      if (finding) findings.push({ sign: finding, start, end, significant: false });
      else if (raw > 1.09 && !(raw > 1000 && raw < 1100))
        flags.push({ text: m[0].trim(), reason: "urine specific gravity outside what any urine can have" });
      continue;
    }
    const value = convert(analyte, raw, g.unit);
    if (value === null) continue;
    const [minPlausible, maxPlausible] = analyte.plausible;
    if (value < minPlausible || value > maxPlausible) {
      flags.push({
        text: m[0].trim(),
        reason: `${analyte.key} value outside what any animal could have; not used`,
      });
      continue;
    }
    // The note's own reference range, in the same unit as the value, wins over the species'.
    let range = interval(analyte, speciesKey, ageYears);
    let ownRange = false;
    if (g.lo !== undefined && g.hi !== undefined) {
      const lo = convert(analyte, num(g.lo), g.unit);
      const hi = convert(analyte, num(g.hi), g.unit);
      if (lo !== null && hi !== null && lo < hi) {
        range = [lo, hi];
        ownRange = true;
      }
    }
    // A lab's H/L flag decides the direction when the value alone sits inside our interval.
    let verdict = judge(analyte, value, range);
    if (verdict && verdict.sign === analyte.low && analyte.low_needs_range && !ownRange) verdict = null;
    const flag = (g.flag ?? "").replace(/[()]/g, "").toLowerCase();
    if (!verdict && (flag === "h" || flag === "hh" || flag === "high" || flag === "↑") && analyte.high)
      verdict = { sign: analyte.high, significant: flag === "hh" };
    if (!verdict && (flag === "l" || flag === "ll" || flag === "low" || flag === "↓") && analyte.low)
      verdict = { sign: analyte.low, significant: flag === "ll" };
    if (g.cmp === "<" && verdict?.sign === analyte.high) verdict = null;
    if (g.cmp === ">" && verdict?.sign === analyte.low) verdict = null;
    if (verdict) findings.push({ ...verdict, start, end });
  }

  for (const m of text.matchAll(MULTIPLE_RE)) {
    const start = m.index;
    const end = start + m[0].length;
    if (covered.some(([s, e]) => start < e && end > s)) continue;
    const analyte = nameToAnalyte(m.groups!.name!);
    const g = m.groups!;
    const times = g.word ? MULTIPLE_WORDS[g.word.toLowerCase()]! : Number(g.n ?? g.n2);
    if (!analyte?.high || !(times >= 1.5 && times <= 1000)) continue;
    // "glucose x2", "PCV 2x": a count of tests unless it names the limit; enzymes are written "ALT x4".
    if (!g.phrase && normaliseUnit(analyte.unit) !== "u/l") continue;
    covered.push([start, end]);
    findings.push({ sign: analyte.high, start, end, significant: times >= 3 });
  }
  for (const m of text.matchAll(OFF_SCALE_RE)) {
    const start = m.index;
    const end = start + m[0].length;
    if (covered.some(([s, e]) => start < e && end > s)) continue;
    const analyte = nameToAnalyte(m.groups!.name!);
    const sign = m.groups!.hi ? analyte?.high : analyte?.low;
    if (!analyte || analyte.directional_only || !sign) continue;
    covered.push([start, end]);
    findings.push({ sign, start, end, significant: true });
  }

  for (const re of [POSTFIX_RE, PREFIX_RE]) {
    for (const m of text.matchAll(re)) {
      const names = m.groups!.names!.split(/\s*(?:\+|&|\band\b|\bAND\b|,|\/)\s*/i).filter(Boolean);
      const head = names.at(-1)!.trim().split(/\s+/).at(-1)!;
      const lead = m.groups!.lead ? nameToAnalyte(`${m.groups!.lead} ${head}`) : undefined;
      const start = lead || !m.groups!.lead ? m.index : m.index + m[0].indexOf(m.groups!.names!);
      const end = m.index + m[0].length;
      if (covered.some(([s, e]) => start < e && end > s)) continue;
      const dir = m.groups!.dir!.toLowerCase();
      const high = new RegExp(`^(?:${DIRECTION_HIGH})$`).test(dir);
      // "low serum sodium and chloride": the analyte after a sample word.
      const analytes = [
        lead,
        ...names.map(
          (name) =>
            nameToAnalyte(name.trim()) ??
            nameToAnalyte(name.trim().replace(/^(?:serum|blood|plasma)\s+/i, "")),
        ),
      ];
      for (const analyte of analytes) {
        const sign = analyte ? (high ? analyte.high : analyte.low) : undefined;
        if (sign) findings.push({ sign, start, end, significant: false });
      }
    }
  }
  // Values measured in an effusion or another body fluid ("Abdominal fluid: glucose 32 mg/dL",
  // "thoracocentesis yields fluid with a total protein of 5.3 g/dL") are not the blood's.
  return { findings: findings.filter((f) => !FLUID_SAMPLE.test(sentenceBefore(text, f.start))), flags };
}

const FLUID_SAMPLE =
  /\b(?:fluid|effusion|(?:thoraco|abdomino|pericardio|arthro)?centesis|tap|aspirate|transudate|exudate|csf|synovial)\b/i;

/** The sentence up to a position: back to a full stop (not a decimal point), semicolon or line break. */
function sentenceBefore(text: string, at: number): string {
  let i = at;
  while (i > 0) {
    const ch = text[i - 1]!;
    if (ch === "\n" || ch === ";" || (ch === "." && !/\d/.test(text[i] ?? ""))) break;
    i--;
  }
  return text.slice(i, at);
}
