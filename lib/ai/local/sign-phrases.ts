// Clinical language the local extractor knows beyond the catalogue's own phrases: a few common
// phrasings (keyed by catalogue sign name; ignored if the sign is missing), filler words allowed
// inside a phrase, phrases that look like signs but are not, and body regions that turn a general
// sign ("painful", "discharge") into the regional one.

/** Extra phrasings, by catalogue sign name. Candidates for the catalogue itself. */
export const SUPPLEMENTARY_SIGN_PHRASES: Record<string, string[]> = {
  inappetence: [
    "not eaten",
    "hasn't eaten",
    "has not eaten",
    "not eating",
    "won't eat",
    "not interested in milk",
    "not interested in feed",
    "not interested in her food",
    "not interested in his food",
    "inappetant",
    "appetite reduced",
    "appetite poor",
    "appetite decreased",
  ],
  ataxia: [
    "losing her balance",
    "losing his balance",
    "losing its balance",
    "losing balance",
    "unsteady on legs",
  ],
  nystagmus: ["eyes flicking", "eye flicking", "flicking eyes"],
  stranguria: [
    "straining in litter tray",
    "straining in the litter tray",
    "straining to pee",
    "straining to wee",
  ],
  "non-weight-bearing lameness": [
    "won't put the foot down",
    "won't put the leg down",
    "won't put weight on",
    "not weight bearing",
    "not weight-bearing",
    "non weight bearing",
  ],
  lameness: ["toe-touching lame", "toe touching", "toe-touching", "favouring the leg", "favouring leg"],
  "plantigrade stance": [
    "walking on his hocks",
    "walking on her hocks",
    "walking on hocks",
    "walking on its hocks",
  ],
  "mandibular softening": ["rubbery lower jaw", "rubbery jaw", "soft lower jaw"],
  "weak pulses": ["pulses not palpable", "pulses weak", "pulses poor"],
  dyspnoea: ["increased resp effort", "increased respiratory effort", "resp effort increased"],
  tachypnoea: ["rr increased", "rr elevated", "resp rate increased", "resp rate elevated"],
  "reduced rumen motility": ["rumen contractions reduced", "reduced rumen contractions"],
};

/** Words that may sit inside a phrase without breaking it ("lame R fore", "MM slightly tacky"). */
export const PHRASE_FILLERS: ReadonlySet<string> = new Set([
  "l",
  "r",
  "lh",
  "rh",
  "lf",
  "rf",
  "left",
  "right",
  "bilat",
  "bilateral",
  "bilaterally",
  "both",
  "slightly",
  "slight",
  "mild",
  "mildly",
  "moderately",
  "markedly",
  "very",
  "quite",
  "a",
  "the",
  "his",
  "her",
  "its",
  "their",
  "all",
  "is",
  "are",
  "was",
  "were",
  "been",
]);

/** Phrases that contain sign words but are not signs: consumed, producing nothing. */
export const NON_SIGN_PHRASES: string[] = [
  "deep pain",
  "deep pain present",
  "deep pain sensation present",
  "pain relief",
  "pain management",
  "pain score",
  "pain meds",
  "pain medication",
  "pain killers",
  "painkillers",
  "critical care",
  "weight tape",
  "weigh tape",
  "flea treatment",
  "flea control",
  "worm treatment",
  "body condition score",
  "heart rate",
  "resp rate",
  "respiratory rate",
  "cat bite",
  "dog bite",
  "ear cleaner",
  "ear drops",
  "eye drops",
  "eye ointment",
  "cage rest",
  "box rest",
  "crate rest",
  "appetite stimulant",
  "appetite support",
  "anti-nausea",
  "antiemetic",
  "anti-emetic",
  "anti-diarrhoeal",
  "skin scrape",
  "skin scrapes",
  "tape strip",
  "hair pluck",
  "fat only",
  "blood test",
  "blood tests",
  "blood sample",
  "blood pressure",
  "blood glucose",
  "urine sample",
  "urine culture",
  "faecal sample",
  "fecal sample",
  "weight check",
  "in season",
  "season ended",
];

export interface RegionRule {
  /** Tokens naming the region. */
  words: string[];
  /** General sign name -> regional sign name. */
  map: Record<string, string>;
}

export const REGION_RULES: RegionRule[] = [
  {
    words: ["abdomen", "abdominal", "abdo", "belly", "tummy", "abdomens"],
    map: { pain: "abdominal pain" },
  },
  {
    words: ["spine", "spinal", "back", "thoracolumbar", "lumbar", "lumbosacral"],
    map: { pain: "spinal pain" },
  },
  { words: ["neck", "cervical"], map: { pain: "neck pain" } },
  {
    words: [
      "joint",
      "joints",
      "hip",
      "hips",
      "stifle",
      "stifles",
      "elbow",
      "elbows",
      "shoulder",
      "carpus",
      "hock",
      "hocks",
    ],
    map: { pain: "joint pain" },
  },
  { words: ["ear", "ears", "aural", "otic", "canal", "canals"], map: { pain: "ear pain" } },
  { words: ["eye", "eyes", "ocular"], map: { pain: "ocular pain" } },
  { words: ["mouth", "oral", "teeth", "jaw"], map: { pain: "oral pain" } },
];

/** Discharge words: with a region nearby they become that region's discharge sign. */
export const DISCHARGE_REGIONS: Array<{ words: string[]; sign: string }> = [
  { words: ["ear", "ears", "aural", "otic", "canal", "canals"], sign: "aural discharge" },
  { words: ["eye", "eyes", "ocular", "conjunctival"], sign: "ocular discharge" },
  { words: ["nose", "nasal", "nostril", "nostrils"], sign: "nasal discharge" },
  { words: ["vulva", "vulval", "vaginal", "vulvar"], sign: "vulval discharge" },
  { words: ["prepuce", "preputial", "penis", "urethra"], sign: "urethral discharge" },
];
