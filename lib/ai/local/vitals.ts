// Signs read from measurements: temperature, heart and respiratory rate against the species'
// reference range, capillary refill time, water drunk a day, and weight lost or gained since a
// previous weighing. A qualifier
// the vet wrote in brackets ("RR 42 (elevated)", "T 37.6 (low)") wins over the range.
import { currentWeight, toKg, type WeightMention } from "./weight-age";

export interface VitalFinding {
  /** Catalogue sign name. */
  sign: string;
  /** Offsets of the measurement in the notes. */
  start: number;
  end: number;
  significant: boolean;
}

interface Range {
  temp: [number, number];
  hr: [number, number];
  rr: [number, number];
}

// Resting reference ranges (°C, beats and breaths per minute), upper bounds set a little generous.
const RANGES: Record<string, Range> = {
  dog: { temp: [37.5, 39.3], hr: [55, 160], rr: [10, 36] },
  cat: { temp: [37.7, 39.3], hr: [130, 200], rr: [16, 40] },
  rabbit: { temp: [38.0, 40.0], hr: [130, 325], rr: [30, 70] },
  horse: { temp: [37.0, 38.5], hr: [24, 48], rr: [8, 24] },
  donkey: { temp: [36.5, 38.5], hr: [30, 56], rr: [10, 30] },
  cattle: { temp: [37.8, 39.5], hr: [40, 90], rr: [10, 40] },
  sheep: { temp: [38.3, 40.0], hr: [60, 100], rr: [12, 35] },
  goat: { temp: [38.5, 40.2], hr: [60, 100], rr: [12, 35] },
  pig: { temp: [37.8, 39.6], hr: [60, 120], rr: [10, 30] },
  guinea_pig: { temp: [37.2, 39.6], hr: [200, 380], rr: [40, 100] },
  ferret: { temp: [37.8, 40.0], hr: [180, 260], rr: [30, 45] },
};

/** Water intake above which a dog or cat is polydipsic (mL per kg per day). */
const POLYDIPSIA_ML_PER_KG: Record<string, number> = { dog: 100, cat: 50 };

const QUALIFIER_HIGH =
  /^\s*\(?\s*(?:elevated|increased|high|raised|tachy(?:cardic|pnoeic|pneic)?\b|febrile|pyrexic|\u2191)/i;
const QUALIFIER_LOW =
  /^\s*\(?\s*(?:low|reduced|decreased|subnormal|hypothermic|brady(?:cardic|cardia|pnoeic|pneic)?\b|\u2193)/i;
const QUALIFIER_NORMAL = /^\s*\(?\s*(?:normal|nad|wnl|n\b)/i;

/**
 * Words between a vital sign's name and its value: "temperature of 40.4", "pulse is over 300",
 * "HR dropped to 80", "RR: 40".
 */
const LINK =
  "(?:\\s+(?:of|was|is|at|over|above|around|about|approx\\.?|c\\.|(?:dropped|fell|rose|increased|decreased|went|came|back|up|down)(?:\\s+(?:up|down))?\\s+to)){0,2}\\s*[:=]?\\s*";

/** "T 104F 2 d ago": an earlier reading, not today's. */
const EARLIER =
  /^\s*,?\s*(?:~|about\s+)?(?:\d+|a|an|one|two|three|few)\s*(?:d|days?|wks?|weeks?|mo|mos|months?|hrs?|hours?|h)\s+ago\b/i;

function classify(
  value: number,
  range: [number, number] | undefined,
  after: string,
): "high" | "low" | "normal" | null {
  if (QUALIFIER_HIGH.test(after)) return "high";
  if (QUALIFIER_LOW.test(after)) return "low";
  if (QUALIFIER_NORMAL.test(after)) return "normal";
  if (!range) return null;
  if (value > range[1]) return "high";
  if (value < range[0]) return "low";
  return "normal";
}

export function findVitalSigns(
  text: string,
  speciesKey: string | null,
  weights: WeightMention[],
  ageYears: number | null = null,
): VitalFinding[] {
  const out: VitalFinding[] = [];
  const range = speciesKey ? RANGES[speciesKey] : undefined;

  const tempRe = new RegExp(
    `\\b(?:T|RT|[Tt]emp|TEMP|[Tt]emperature|[Rr]ectal temp(?:erature)?)(?=[\\s:=])${LINK}(\\d{2,3}(?:\\.\\d{1,2})?)\\s*(?:\u00b0\\s*)?([CF])?\\b`,
    "g",
  );
  let m: RegExpExecArray | null;
  while ((m = tempRe.exec(text)) !== null) {
    if (EARLIER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 30))) continue;
    let value = Number(m[1]);
    if (m[2]?.toUpperCase() === "F" || value > 90) value = ((value - 32) * 5) / 9;
    if (value < 30 || value > 45) continue;
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 20);
    const generic: [number, number] | undefined = range ? range.temp : speciesKey ? undefined : [36.5, 40.0];
    const c = classify(value, generic, after);
    // Above 41.5 °C the body is overheating (heat stroke, exertion, seizures), not a fever.
    if (c === "high")
      out.push({
        sign: value >= 41.5 ? "hyperthermia" : "pyrexia",
        start: m.index,
        end: m.index + m[0].length,
        significant: value >= 40.5,
      });
    if (c === "low")
      out.push({
        sign: "hypothermia",
        start: m.index,
        end: m.index + m[0].length,
        significant: value < 36.5,
      });
  }

  // A dog of 10 kg or more: 140 at rest (toy dogs run to 160).
  const today = currentWeight(weights);
  const heartRange: [number, number] | undefined =
    speciesKey === "dog" && today && toKg(today) >= 10 ? [55, 140] : range?.hr;
  const hrRe = new RegExp(
    `\\b(?:HR|heart rate|pulse(?: rate)?)${LINK}(?:>\\s*)?(\\d{2,3})\\b(?!\\s*(?:%|kg|g\\b|mg|ml|mmol))`,
    "gi",
  );
  while ((m = hrRe.exec(text)) !== null) {
    if (EARLIER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 30))) continue;
    const value = Number(m[1]);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 20);
    const c = classify(value, heartRange, after);
    if (c === "high")
      out.push({ sign: "tachycardia", start: m.index, end: m.index + m[0].length, significant: false });
    if (c === "low")
      out.push({ sign: "bradycardia", start: m.index, end: m.index + m[0].length, significant: false });
  }

  const rrRe = new RegExp(
    `\\b(?:RR|resp(?:iratory)? rate|resp(?:iration|irations)?|breathing rate)${LINK}(?:>\\s*)?(\\d{1,3})\\b(?!\\s*(?:%|kg|g\\b|mg|ml|mmol))`,
    "gi",
  );
  while ((m = rrRe.exec(text)) !== null) {
    if (EARLIER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 30))) continue;
    const value = Number(m[1]);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 20);
    const c = classify(value, range?.rr, after);
    if (c === "high")
      out.push({ sign: "tachypnoea", start: m.index, end: m.index + m[0].length, significant: false });
    if (c === "low")
      out.push({ sign: "bradypnoea", start: m.index, end: m.index + m[0].length, significant: false });
  }

  // Systolic blood pressure ("BP 220/180 mmHg", "SBP 190", "systolic BP of 85") in dogs and cats:
  // 160 mmHg and above is hypertension (ACVIM), below 90 hypotension.
  if (speciesKey === "dog" || speciesKey === "cat") {
    const bpRe = new RegExp(
      `\\b(?:BP|SBP|[Ss]ystolic(?: BP| blood pressure| pressure)?|[Bb]lood pressure|[Dd]oppler(?: BP)?)${LINK}(\\d{2,3})(?:\\s*\\/\\s*\\d{2,3})?\\s*(?:mm\\s?Hg)?`,
      "g",
    );
    while ((m = bpRe.exec(text)) !== null) {
      const value = Number(m[1]);
      if (value < 40 || value > 350) continue;
      const sign = value >= 160 ? "hypertension" : value < 90 ? "hypotension" : null;
      if (sign)
        out.push({
          sign,
          start: m.index,
          end: m.index + m[0].length,
          significant: value >= 180 || value < 80,
        });
    }
  }

  // "TPR 40.3/220/60", "T/P/R: 38.5 / 100 / 24", "TPR 103.1F/140/40": the three in one.
  const tprRe =
    /\b(?:TPR|T\s*\/\s*P\s*\/\s*R|T\s*\/\s*HR\s*\/\s*RR)\s*[:=]?\s*(\d{2,3}(?:\.\d{1,2})?)\s*(?:\u00b0\s*)?([CF])?\s*\/\s*(\d{2,3})\s*\/\s*(\d{1,3})\b/gi;
  while ((m = tprRe.exec(text)) !== null) {
    const span = { start: m.index, end: m.index + m[0].length };
    let temp = Number(m[1]);
    if (m[2]?.toUpperCase() === "F" || temp > 90) temp = ((temp - 32) * 5) / 9;
    const generic: [number, number] | undefined = range ? range.temp : speciesKey ? undefined : [36.5, 40.0];
    if (temp >= 30 && temp <= 45) {
      const t = classify(temp, generic, "");
      if (t === "high")
        out.push({ sign: temp >= 41.5 ? "hyperthermia" : "pyrexia", ...span, significant: temp >= 40.5 });
      if (t === "low") out.push({ sign: "hypothermia", ...span, significant: temp < 36.5 });
    }
    const hr = classify(Number(m[3]), range?.hr, "");
    if (hr === "high") out.push({ sign: "tachycardia", ...span, significant: false });
    if (hr === "low") out.push({ sign: "bradycardia", ...span, significant: false });
    const rr = classify(Number(m[4]), range?.rr, "");
    if (rr === "high") out.push({ sign: "tachypnoea", ...span, significant: false });
    if (rr === "low") out.push({ sign: "bradypnoea", ...span, significant: false });
  }

  // "T 37.4, P 108, R 66", "P 80/min, R 32/min": the one-letter forms, only beside another vital
  // sign or with a rate unit, so a lone "P 80" (phosphate?) stays unread.
  const letterRe =
    /\b([PR])\s*[:=]?\s*(\d{1,3})(\s*(?:\/\s*min|bpm|brpm|breaths|beats))?\b(?!\s*(?:%|kg|g\b|mg|ml|mmol))/g;
  while ((m = letterRe.exec(text)) !== null) {
    const around =
      text.slice(Math.max(0, m.index - 30), m.index) +
      " " +
      text.slice(m.index + m[0].length, m.index + m[0].length + 30);
    if (!m[3] && !/\b(?:T|Temp|HR|RR|P|R)\s*[:=]?\s*\d/.test(around)) continue;
    const value = Number(m[2]);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 20);
    const c = classify(value, m[1] === "P" ? range?.hr : range?.rr, after);
    const span = { start: m.index, end: m.index + m[0].length, significant: false };
    if (c === "high") out.push({ sign: m[1] === "P" ? "tachycardia" : "tachypnoea", ...span });
    if (c === "low") out.push({ sign: m[1] === "P" ? "bradycardia" : "bradypnoea", ...span });
  }

  const crtRe =
    /\b(?:CRT|capillary refill(?: time)?)\s*(?:of|was|is)?\s*[:=]?\s*(?:~|approx\.?|about|c\.)?\s*(<|>|&lt;|&gt;)?\s*(\d(?:\.\d)?)\s*(?:s|sec|secs|seconds)?\b/gi;
  while ((m = crtRe.exec(text)) !== null) {
    const op = m[1];
    const value = Number(m[2]);
    if (op === "<" || op === "&lt;") continue;
    if (value > 2 || (op === ">" && value >= 2))
      out.push({
        sign: "prolonged crt",
        start: m.index,
        end: m.index + m[0].length,
        significant: value >= 3,
      });
  }

  // Water drunk a day against body weight: above 100 mL/kg in a dog or 50 in a cat is polydipsia
  // ("drinking ~1.2 L/day" in a 7 kg dog).
  const weight = currentWeight(weights);
  const threshold = speciesKey ? POLYDIPSIA_ML_PER_KG[speciesKey] : undefined;
  if (weight && threshold) {
    const intakeRe =
      /\b(?:drinks?|drinking|drank|water intake|intake)\b[^.;\n]{0,20}?(\d+(?:\.\d+)?)\s*(l|litres?|liters?|ml|mls)\s*(?:\/|a|per|each)\s*(?:day|d|24\s*h(?:rs?|ours?)?)\b/gi;
    while ((m = intakeRe.exec(text)) !== null) {
      const ml = Number(m[1]) * (/^m/i.test(m[2]!) ? 1 : 1000);
      const perKg = ml / toKg(weight);
      if (perKg > threshold)
        out.push({ sign: "polydipsia", start: m.index, end: m.index + m[0].length, significant: true });
    }
  }

  // Weight lost since an earlier weighing ("3.9 kg today (4.8 kg in Feb)", "down from 42 g to 36 g").
  const current =
    weights.find((w) => w.role === "current") ??
    weights.find((w) => w.role !== "previous" && !w.inParentheses);
  const previous = weights.find((w) => w.role === "previous");
  if (current && previous && current !== previous && toKg(previous) > 0) {
    const change = (toKg(current) - toKg(previous)) / toKg(previous);
    const span = { start: Math.min(current.start, previous.start), end: Math.max(current.end, previous.end) };
    if (change <= -0.05) out.push({ sign: "weight loss", ...span, significant: change <= -0.1 });
    // Gained a tenth or more since then, in an adult: a young animal is growing.
    if (change >= 0.1 && (ageYears === null || ageYears >= 1.5))
      out.push({ sign: "weight gain", ...span, significant: false });
  }
  return out;
}
