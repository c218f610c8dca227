// `flock db/seed/data/.lock node scripts/catalogue/finding-synonym-additions.mjs`: adds synonyms to
// findings in db/seed/data/clinical-signs.json (idempotent). Re-reads the file and rewrites only
// the lines of the signs it changes, one compact object a line, so synonyms another helper adds
// at the same time are kept. The phrases are how radiology and ultrasound reports commonly word
// these findings.
import { readFileSync, writeFileSync } from "node:fs";

const FILE = "db/seed/data/clinical-signs.json";
const ADD = {
  "abdominal effusion": [
    "free fluid in the abdomen",
    "free fluid in the peritoneal cavity",
    "free peritoneal fluid",
    "peritoneal free fluid",
    "abdominal free fluid",
    "afast positive",
    "positive afast",
    "positive afast scan",
  ],
  "intestinal dilatation": [
    "gas-distended loops",
    "gas distended loops",
    "gas-filled loops",
    "gas filled loops",
    "gas-dilated loops",
    "dilated loops",
    "distended loops",
    "fluid-distended loops",
    "fluid-dilated loops",
    "distended small intestine",
    "distended small bowel",
    "dilated small bowel",
  ],
  "plicated intestines": [
    "plication",
    "plication of the jejunum",
    "jejunal plication",
    "plicated jejunum",
    "plication of the small intestine",
    "plicated intestine",
  ],
  "abdominal mass": [
    "soft tissue opacity in the abdomen",
    "soft tissue opacity in the mid-abdomen",
    "soft tissue opacity in the mid abdomen",
    "soft tissue opacity in the cranial abdomen",
    "soft tissue opacity in the caudal abdomen",
    "mid-abdominal soft tissue opacity",
    "abdominal soft tissue opacity",
    "soft tissue mass in the abdomen",
    "mass effect in the abdomen",
    "abdominal mass effect",
  ],
  "bladder wall thickening": [
    "thickened bladder wall",
    "thickening of the urinary bladder wall",
    "bladder wall thickening",
    "thickened bladder mucosa",
  ],
  "pleural effusion": [
    "scalloping of the lung margins",
    "scalloping of lung margins",
    "scalloped lung borders",
    "rounding of the lung margins",
    "widened pleural fissures",
    "interlobar fissure lines",
    "pleural fissures visible",
    "visible pleural fissures",
  ],
  "pulmonary nodules": [
    "cannonball metastases",
    "cannonball mets",
    "metastatic pulmonary nodules",
    "pulmonary metastatic disease",
    "lung metastatic disease",
  ],
  "retained eggs on imaging": [
    "shelled egg",
    "shelled egg visible on radiographs",
    "egg visible on radiographs",
    "egg in the coelom",
    "eggs in the coelom",
    "egg seen on radiograph",
    "egg on radiograph",
    "retained egg on radiographs",
    "calcified egg",
    "egg in the oviduct",
  ],
  adrenomegaly: [
    "adrenal enlarged",
    "adrenal gland enlarged",
    "adrenal glands enlarged",
    "enlarged left adrenal",
    "enlarged right adrenal",
    "enlarged left adrenal gland",
    "enlarged right adrenal gland",
  ],
  "gastric distension": [
    "gas dilation of the stomach",
    "gas dilatation of the stomach",
    "gas-dilated stomach",
    "stomach dilated with gas",
  ],
  cardiomegaly: [
    "increased cardiac silhouette",
    "cardiac silhouette enlarged",
    "large cardiac silhouette",
    "enlarged heart silhouette",
  ],
};

/** Phrases that name the finding rather than the sign they sat under: a thickened wall is what
 * palpation or imaging finds, not pain. */
const MOVE = { "thickened bladder wall": ["bladder pain", "bladder wall thickening"] };

const lines = readFileSync(FILE, "utf8").split("\n");
let changed = 0;
const seen = new Set();
for (let i = 0; i < lines.length; i++) {
  const trimmed = lines[i].trim();
  if (!trimmed.startsWith("{")) continue;
  const comma = trimmed.endsWith(",");
  const sign = JSON.parse(comma ? trimmed.slice(0, -1) : trimmed);
  const indent = lines[i].slice(0, lines[i].indexOf("{"));
  const moved = Object.entries(MOVE)
    .filter(([, [from]]) => from === sign.name)
    .map(([phrase]) => phrase);
  if (moved.some((p) => sign.synonyms.includes(p))) {
    sign.synonyms = sign.synonyms.filter((s) => !moved.includes(s));
    lines[i] = `${indent}${JSON.stringify(sign)}${comma ? "," : ""}`;
    changed++;
  }
  const add = [
    ...(ADD[sign.name] ?? []),
    ...Object.entries(MOVE)
      .filter(([, [, to]]) => to === sign.name)
      .map(([phrase]) => phrase),
  ];
  if (add.length === 0) continue;
  seen.add(sign.name);
  const have = new Set(sign.synonyms.map((s) => s.toLowerCase()));
  const fresh = add.filter((s) => !have.has(s.toLowerCase()) && s.toLowerCase() !== sign.name);
  if (fresh.length === 0) continue;
  sign.synonyms.push(...fresh);
  lines[i] = `${indent}${JSON.stringify(sign)}${comma ? "," : ""}`;
  changed += fresh.length;
}
for (const name of Object.keys(ADD)) if (!seen.has(name)) throw new Error(`no sign ${name}`);
writeFileSync(FILE, lines.join("\n"));
console.log(`synonyms added or moved: ${changed}`);
