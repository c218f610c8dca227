// Body weight and age as written in notes: "30kg", "BW 12.4 kg", "Wt 62 lbs", "1,020 g",
// "7.9 kg (9.2 kg 4 wks ago)"; "4yo", "14y", "8 months", "10wk".

export interface WeightMention {
  value: number;
  unit: "kg" | "g" | "lb";
  /** Offsets of the weight in the notes. */
  start: number;
  end: number;
  role: "current" | "previous" | "unknown";
  inParentheses: boolean;
}

const WEIGHT_RE =
  /(?<![\w.,/])(\d{1,4}(?:[.,]\d{1,3})?)\s?(kgs?|kilos?|kilograms?|g|gms?|grams?|lbs?|pounds?)(?![\w/])/gi;

/** "lost 2 lb", "gained 1.5 kg", "down 300 g": a change of weight, not the weight. */
const CHANGE_BEFORE =
  /(?:\b(?:lost|losing|loses|gained|gaining|gains|put on|dropped|shed|down|up|increase of|decrease of|loss of|gain of|drop of)\s*(?:about|approx\.?|around|~|c\.|nearly|almost|over|another|a further)?\s*)$/i;
const TARGET_BEFORE =
  /\b(?:grown|raised|reared|finished|fattened|fed|target(?:\s+weight)?(?:\s+of)?|slaughter(?:\s+weight)?(?:\s+of)?|goal(?:\s+of)?)\s+(?:to\s+)?(?:about|approx\.?|around|~|c\.)?\s*$/i;
const PREVIOUS_BEFORE =
  /(?:\bprev(?:ious(?:ly)?)?\.?|\bwas|\bfrom|\blast|\bbefore|\busual(?:ly)?|\bhad been|\bdown from|\bup from|\bthen)\s*[:=~]?\s*(?:approx\.?|~|c\.)?\s*$/i;
const PREVIOUS_AFTER =
  /^\s*(?:\w+\s+){0,3}?(?:ago\b|previously\b|before\b|last\s+(?:time|visit|week|wk|month|mth|mo|year|yr|seen|check|exam|appointment|spring|summer|autumn|fall|winter)\b|when\s+last\b|at\s+(?:the\s+|his\s+|her\s+|its\s+)?(?:last\b|vacc\w*|booster|annual\b|check-?up|health\s+check|previous\b)|in\s+(?:the\s+)?(?:spring|summer|autumn|fall|winter)\b|in\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)/i;
const CURRENT_BEFORE =
  /(?:\btoday|\bnow|\bto|\bcurrent(?:ly)?|\bcurr|->|\u2192|=>)\s*[:=~]?\s*(?:approx\.?|~)?\s*$/i;
/** "40kg -> 30kg", "40 kg → 30 kg": the first weight of a change written with an arrow is the earlier one. */
const ARROW_AFTER = /^\s*(?:->|\u2192|=>)\s*\d/;
const CURRENT_AFTER = /^\s*(?:today|now|currently|this visit)\b/i;

function parseNumber(raw: string, unit: string): number {
  if (/^\d{1,3},\d{3}$/.test(raw)) return Number(raw.replace(",", ""));
  if (/^\d+,\d{1,2}$/.test(raw) && unit !== "g") return Number(raw.replace(",", "."));
  return Number(raw.replace(",", "."));
}

function parenthesisDepth(text: string, at: number): number {
  let depth = 0;
  for (let i = 0; i < at; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth = Math.max(0, depth - 1);
    else if (text[i] === "\n") depth = 0;
  }
  return depth;
}

export function findWeights(text: string): WeightMention[] {
  const out: WeightMention[] = [];
  let changeEnd = -1;
  WEIGHT_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WEIGHT_RE.exec(text)) !== null) {
    const unitRaw = m[2]!.toLowerCase();
    const unit: WeightMention["unit"] = unitRaw.startsWith("k")
      ? "kg"
      : unitRaw.startsWith("l") || unitRaw.startsWith("p")
        ? "lb"
        : "g";
    const value = parseNumber(m[1]!, unit);
    if (!Number.isFinite(value) || value <= 0) continue;
    const start = m.index;
    const end = start + m[0].length;
    const before = text.slice(Math.max(0, start - 24), start);
    const after = text.slice(end, end + 30);
    // "0.1 mg/kg", "5 g/dL" are doses and concentrations.
    if (/\/\s*$/.test(before) || /^\s*\/\s*(kg|day|d|dl|l)\b/i.test(after)) continue;
    if (CHANGE_BEFORE.test(before) && !/\bdown to\s*$|\bup to\s*$/i.test(before)) {
      changeEnd = end;
      continue;
    }
    // "a gain of about 7 lb (3 kg)": the conversion of a change is a change too.
    if (changeEnd >= 0 && /^\s*\(\s*$/.test(text.slice(changeEnd, start))) continue;
    // "grown to 180 kg", "pigs of 60-180 kg": a target or a group's range, not this animal's weight.
    if (TARGET_BEFORE.test(before) || /\d\s*[-\u2013]\s*$/.test(before)) continue;
    let role: WeightMention["role"] = "unknown";
    if (PREVIOUS_BEFORE.test(before) || PREVIOUS_AFTER.test(after) || ARROW_AFTER.test(after))
      role = "previous";
    else if (CURRENT_BEFORE.test(before) || CURRENT_AFTER.test(after)) role = "current";
    out.push({ value, unit, start, end, role, inParentheses: parenthesisDepth(text, start) > 0 });
  }
  return out;
}

/** Today's weight: an explicitly current one, else the first not marked previous or in brackets; none when every weight is an earlier one. */
export function currentWeight(weights: WeightMention[]): WeightMention | null {
  if (weights.length === 0) return null;
  const current = weights.find((w) => w.role === "current");
  if (current) return current;
  const plain = weights.find((w) => w.role !== "previous" && !w.inParentheses);
  if (plain) return plain;
  // Only earlier weights ("weighed 21 lb when last seen"): today's weight is not known.
  return weights.find((w) => w.role !== "previous") ?? null;
}

export function toKg(weight: { value: number; unit: "kg" | "g" | "lb" }): number {
  if (weight.unit === "g") return weight.value / 1000;
  if (weight.unit === "lb") return weight.value * 0.4536;
  return weight.value;
}

const AGE_RE =
  /(?<![\w.])(?:~|approx\.?\s*|about\s+|c\.\s*)?(\d{1,2}(?:\.\d)?)\s?-?\s?(yo|y\/o|yrs?|years?|y|mo|mos|mths?|months?|m|wks?|weeks?|w|days?)(?:\s+old)?(?![\w])/gi;

export function findAgeYears(text: string): number | null {
  AGE_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = AGE_RE.exec(text)) !== null) {
    const before = text.slice(Math.max(0, m.index - 8), m.index);
    // Durations: "x2 wks", "for 3 days", "over 2 months", "q3 months".
    if (/(?:\bx|\bfor|\bover|\bpast|\blast|\bevery|\bq|\bin|>|<|since|\bwithin|\bthe)\s*$/i.test(before))
      continue;
    const value = Number(m[1]);
    const unit = m[2]!.toLowerCase();
    const old = /old$/i.test(m[0]);
    if (unit.startsWith("d")) {
      if (!old) continue;
      return Math.round((value / 365) * 100) / 100;
    }
    if (unit.startsWith("w")) return Math.round((value / 52) * 100) / 100;
    if (unit === "m" || unit.startsWith("mo") || unit.startsWith("mth"))
      return Math.round((value / 12) * 100) / 100;
    if (value > 40) continue;
    return value;
  }
  return null;
}
