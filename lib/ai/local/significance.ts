// Whether a sign is significant: stressed by the note (severe, marked, acute, profuse, bloody,
// "++", repeated three times or more) or alarming in itself (collapse, seizures, dyspnoea…).
import type { Token } from "./tokenise";

const INTENSIFIERS = new Set([
  "severe",
  "severely",
  "marked",
  "markedly",
  "acute",
  "acutely",
  "sudden",
  "suddenly",
  "profuse",
  "profusely",
  "haemorrhagic",
  "hemorrhagic",
  "bloody",
  "intense",
  "intensely",
  "extreme",
  "extremely",
  "violent",
  "violently",
  "persistent",
  "repeated",
  "repeatedly",
  "constant",
  "constantly",
  "continuous",
  "uncontrollable",
  "intractable",
  "projectile",
  "massive",
  "copious",
]);

const ALARMING =
  /collapse|seizure|convuls|dyspn|respiratory distress|open-mouth|haematemesis|hematemesis|melaena|melena|non-weight-bearing|paralysis|coma|cyanosis|shock|apnoea|apnea|recumben|syncope|haemorrhag|hemorrhag|haemoptysis|epistaxis|anuria|dystocia|sudden death|unconscious|status epilepticus|pale mucous|jaundice|abdominal distension|unproductive retching|stupor|agonal|weak pulses|hypothermia|bloat/i;

export function isSignificant(signName: string, tokens: Token[], start: number, end: number): boolean {
  if (ALARMING.test(signName)) return true;
  for (let k = Math.max(0, start - 3); k < Math.min(tokens.length, end + 4); k++) {
    const t = tokens[k]!;
    if (t.kind === "break") {
      if (k < start) continue;
      break;
    }
    if (INTENSIFIERS.has(t.norm)) return true;
    // "++", "+++" after the sign.
    if (k >= end && t.norm === "+" && tokens[k + 1]?.norm === "+") return true;
    // "x3", "x 4", "3 times" (counts, not durations "x3 wks").
    if (k >= end && t.norm === "x" && tokens[k + 1]?.kind === "num") {
      const count = Number.parseInt(tokens[k + 1]!.norm, 10);
      const unit = tokens[k + 2]?.norm ?? "";
      const isDuration =
        /^\d+(d|days?|wks?|weeks?|mths?|months?|h|hrs?|hours?|y|yrs?)$/.test(tokens[k + 1]!.norm) ||
        /^(d|days?|wks?|weeks?|mths?|months?|h|hrs?|hours?|y|yrs?|mins?)$/.test(unit);
      if (!isDuration && count >= 3) return true;
    }
    if (
      k >= end &&
      t.kind === "num" &&
      /^\d+$/.test(t.norm) &&
      Number(t.norm) >= 3 &&
      tokens[k + 1]?.norm === "times"
    )
      return true;
  }
  return false;
}
