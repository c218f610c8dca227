// Sign words used in another sense, read from the words written right beside them: a "mass" that
// is body mass, a "cough" that is a syrup or a vaccine, "pain" that is pain relief, a "weight
// loss" that is a plan, "shaking" hands, "scales" to weigh on, the "collapse" of an airway, an
// "anti-" drug, side effects listed on a leaflet, a person scratched by the patient or itchy
// themselves, and questionnaire answers ("Lethargy Y/N: N", "V/D/C/S: -/-/-/-", "Vomiting:" with
// nothing after it). The mentions are dropped, or marked absent where the note answers "no".
import type { Token } from "./tokenise";

interface SenseMention {
  symptomId: number;
  start: number;
  end: number;
  forced: "present" | "absent" | null;
  measured?: boolean;
}

/** A rule on the words before and after a mention; the sign name narrows it. */
interface SenseRule {
  sign: RegExp;
  before?: RegExp;
  after?: RegExp;
  /** The phrase as written must match too. */
  phrase?: RegExp;
}

const PERSON = String.raw`(?:nurse|nurses|owner|owners|client|vet|vets|handler|staff|receptionist|me|us|student|technician|tech)`;

/** Analgesics by name or ending, and dose words: "meloxicam", "tramadol", "gabapentin", "mg/kg". */
const DRUG = String.raw`(?:\w+(?:profen|coxib|oxicam|adol|pentin|phine|orphanol|fentanyl)|metacam|onsior|loxicom|galliprant|paracetamol|librela|solensia|analgesi\w*|mg(?:\s*\/\s*kg)?)`;

const DROP_RULES: SenseRule[] = [
  // "body mass 4 kg", "muscle mass normal", "body mass index": the animal's build, not a mass.
  { sign: /mass/, before: /\b(?:body|muscle|muscular|lean|fat|bone|red cell|cell)\s*$/i },
  { sign: /mass/, after: /^\s*index\b/i },
  // "cough syrup", "cough suppressant", "kennel cough vaccine": a medicine or a vaccine.
  {
    sign: /cough/,
    after:
      /^\s*(?:syrups?|suppressants?|medicines?|mixtures?|tablets?|drops|linctus|remed(?:y|ies)|(?:\w+\s+)?(?:vaccin\w*|booster|jab|intranasal))\b/i,
  },
  // "pain relief given", "pain meds", "painkillers", "pain management plan".
  {
    sign: /pain/,
    after: /^\s*(?:relief|relieving|killers?|meds|medications?|medicines?|management|protocol|plan|patch)\b/i,
  },
  {
    sign: /pain|pruritus/,
    phrase: /\b(?:pain|itch|pruritus)\b/i,
    after: /^\s*score\s*:?\s*0(?:\s*\/\s*\d+)?\b/i,
  },
  // "Pruritus: 0/10", "lameness grading 0/5 all limbs" (and no other grade above 0 after it).
  {
    sign: /pain|pruritus|lameness/,
    after: /^\s*(?:grad(?:e|ing)|score)?\s*:?\s*0\s*\/\s*(?:4|5|10)\b(?![^.;\n]*\b[1-9]\s*\/\s*\d)/i,
  },
  // "Parvo SNAP +ve", "4Dx SNAP": the in-house test, not snapping.
  { sign: /aggression/, phrase: /^SNAP$/ },
  // "shaking hands with the owner".
  { sign: /tremors|shivering/, after: /^\s*(?:hands?|paws?)\s+with\b/i },
  // "dropped the weight of the food bag", "weight loss plan started".
  { sign: /weight loss/, phrase: /weight$/i, after: /^\s*of\s+(?:the|a|his|her|its|their)\b/i },
  {
    sign: /weight loss/,
    after:
      /^\s*(?:plans?|programmes?|programs?|clinics?|diets?|regimes?|regimens?|goals?|targets?|journey|food|kibble)\b/i,
  },
  // "weighed on the scales".
  {
    sign: /scal/,
    phrase: /\bscales\b/i,
    before:
      /\b(?:weigh\w*|on|onto|the|kitchen|baby|bathroom|electronic|digital|big)\s+(?:the\s+)?(?:\w+\s+)?$/i,
  },
  // "collapse of the trachea": the airway's collapse, a diagnosis.
  {
    sign: /^collapse$/,
    after:
      /^\s*of\s+(?:the\s+|a\s+)?(?:(?:left|right|cranial|caudal|middle|accessory|intrathoracic|cervical|main(?:stem)?)\s+)*(?:trachea|airways?|lungs?|lobes?|bronch\w*|larynx|laryngeal|alveoli|nares|nostrils?|discs?|vertebra\w*|arches|palate)\b/i,
  },
  // "anti-diarrhoeal", "anti-itch shampoo", "antiemetic": a drug against the sign.
  { sign: /./, before: /\banti\s*-?\s*$/i },
  // "Nurse scratched on the arm", "scratched the owner", "owner itchy".
  {
    sign: /./,
    before: new RegExp(
      String.raw`(?<!\b(?:per|by|to|from|the|of)\s+)\b${PERSON}\s+(?:was\s+|got\s+|is\s+|has\s+been\s+)?$`,
      "i",
    ),
  },
  { sign: /pruritus/, after: new RegExp(String.raw`^\s*(?:the\s+|a\s+)?${PERSON}\b`, "i") },
  // "owner is recovering from diarrhoea": a person's illness.
  {
    sign: /./,
    before: new RegExp(
      String.raw`\b${PERSON}\s+(?:is\s+|was\s+|has\s+been\s+)?(?:recovering from|suffering from|getting over|down with|off work with|ill with)\s+(?:a\s+|the\s+|some\s+)?$`,
      "i",
    ),
  },
  // "vomit sample", "diarrhoea PCR panel", "seizure diary", "lameness exam", "hairball paste": a
  // test, record or product named after the sign.
  {
    sign: /./,
    after:
      /^\s*(?:(?:pcr|faecal|fecal)\s+)?(?:samples?|panels?|kits?|diary|diaries|logs?|protocols?|charts?|sheets?|grading|exam|examination|paste|remed(?:y|ies)|shampoos?|collars?|prevent(?:at)?ives?|prevention)\b/i,
  },
  { sign: /perineal soiling/, phrase: /^past(?:e|es)$/i },
  // "vein collapsed on the first attempt".
  {
    sign: /collapse/,
    before:
      /\b(?:vein|veins|vessel|vessels|lung|lobe|lobes|airway|trachea|catheter)\s+(?:has\s+|had\s+|was\s+)?$/i,
  },
  // "lethargy after the vaccine is normal", "vomiting may occur": what to expect, not a finding.
  {
    sign: /./,
    after:
      /^\s*(?:(?:after|with|following|post)\s+(?:the\s+|a\s+|an\s+)?[\w-]+(?:\s+[\w-]+)?\s+)?(?:(?:is|are|can be|may be)\s+(?:normal|expected|common|possible|a side effect)|may (?:occur|develop|happen|be seen))\b/i,
  },
  // "sutures out, wound healed": a surgical wound that has healed.
  {
    sign: /^wound$/,
    after:
      /^\s*(?:has\s+|is\s+)?(?:healed|healing well|closed|(?:looks\s+)?(?:clean and dry|dry and clean))\b/i,
  },
  // "tramadol for pain", "gabapentin for chronic pain": the reason for a drug, not an examined pain.
  {
    sign: /pain/,
    phrase: /^(?:chronic\s+)?pain$/i,
    before: new RegExp(
      String.raw`\b${DRUG}\b[^.;\n]{0,30}\bfor\s+(?:chronic\s+|ongoing\s+|long[- ]term\s+)?$`,
      "i",
    ),
  },
  // "recheck skin for pruritus response": the response to treatment.
  { sign: /./, after: /^\s*response\b/i },
];

/** "Side effects include vomiting", "possible side effects: lethargy": a leaflet, not the patient. */
const LEAFLET = /\b(?:side[\s-]?effects?|adverse (?:effects?|reactions?)|contra-?indicat\w*)\b/i;

/**
 * An answer after the sign's name: "Lethargy Y/N: N", "Coughing - N", "Pruritus: 0/10",
 * "V/D/C/S: -/-/-/-", "Vomiting/Diarrhoea: neither". Read past further "/word" items first.
 */
const ANSWER_NO =
  /^(?:\s*\/\s*[a-z]+)*\s*(?:\(\s*y\s*\/\s*n\s*\)\s*|y\s*\/\s*n\s*)?[:?\-=]\s*(?:n|no|nil|none|neither|nor|neg|negative|-ve|0|-(?:\s*\/\s*-)*)\s*(?:[.,;)]|$)/i;
/** "Vomiting:" as a header with nothing after it: end of notes, a blank line, or another header. */
const EMPTY_HEADER = /^\s*:\s*(?:$|\n\s*\n|\n\s*[A-Za-z][\w /-]{0,30}:)/;
/** "E+D+U+F normal", "E/D/U/F": eating, drinking, urinating, faeces shorthand. */
const EDUF = /\bE\s*[+/]\s*D\s*[+/]\s*U(?:\s*[+/]\s*F)?\b/gi;

export function applySignSenses<M extends SenseMention>(
  text: string,
  mentions: M[],
  tokens: Token[],
  signName: (id: number) => string | undefined,
): void {
  const eduf = [...text.matchAll(EDUF)].map((m) => [m.index, m.index + m[0].length] as const);
  for (let i = mentions.length - 1; i >= 0; i--) {
    const m = mentions[i]!;
    if (m.measured) continue;
    const name = signName(m.symptomId)?.toLowerCase();
    const first = tokens[m.start];
    const last = tokens[m.end - 1];
    if (!name || !first || !last) continue;
    const from = first.start;
    const to = last.end;
    if (eduf.some(([a, b]) => from >= a && to <= b)) {
      mentions.splice(i, 1);
      continue;
    }
    const phrase = text.slice(from, to);
    const before = text.slice(Math.max(0, from - 60), from);
    const after = text.slice(to, to + 60);
    const sentence =
      text
        .slice(0, from)
        .split(/[.!?\n]/)
        .pop() ?? "";
    const dropped =
      LEAFLET.test(sentence) ||
      (EMPTY_HEADER.test(after) && m.forced === null) ||
      DROP_RULES.some(
        (r) =>
          r.sign.test(name) &&
          (!r.phrase || r.phrase.test(phrase)) &&
          (!r.before || r.before.test(before)) &&
          (!r.after || r.after.test(after)),
      );
    if (dropped) mentions.splice(i, 1);
    else if (ANSWER_NO.test(after)) m.forced = "absent";
  }
}
