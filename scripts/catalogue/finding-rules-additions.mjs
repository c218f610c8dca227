// `flock db/seed/data/.lock node scripts/catalogue/finding-rules-additions.mjs`: adds analytes and
// names to db/seed/data/finding-rules.json (idempotent; re-reads the file, keeps one analyte a
// line). Each new interval carries its source.
import { readFileSync, writeFileSync } from "node:fs";

const FILE = "db/seed/data/finding-rules.json";
const text = readFileSync(FILE, "utf8");
const rules = JSON.parse(text);
/** Each analyte's line as written, kept as it is when the analyte is unchanged ("3.0" stays "3.0"). */
const originalLine = new Map();
for (const line of text.split("\n")) {
  const trimmed = line.trim().replace(/,$/, "");
  if (!trimmed.startsWith('{"key"')) continue;
  const analyte = JSON.parse(trimmed);
  originalLine.set(analyte.key, { line: trimmed, json: JSON.stringify(analyte) });
}
const byKey = new Map(rules.analytes.map((a) => [a.key, a]));

/** Names added to existing analytes. */
const NAMES = {
  plt: ["plt count", "plat", "plat count", "platelet ct"],
  wbc: ["wbc count", "white count", "total white cell count", "leukocyte count", "leucocyte count"],
  bile: [
    "post-prandial bile acids",
    "postprandial bile acids",
    "pre-prandial bile acids",
    "preprandial bile acids",
    "pre bile acids",
    "post bile acids",
    "bile acids post",
    "bile acids pre",
  ],
  glucose: ["blood glucose level", "glucose level", "bgluc"],
  t4: ["serum t4", "t4 total"],
  glob: ["globs", "glob."],
};

const SOURCES = {
  eclinpath:
    "eClinpath (Cornell University), absolute reticulocyte count: https://eclinpath.com/hematology/tests/absolute-reticulocyte-count/",
  merck_haem: "Merck Veterinary Manual, hematologic reference ranges (RBC counts by species)",
  vhs: "Buchanan & Bücheler 1995 (dog 8.5-10.6) and Litster & Buchanan 2000 (cat 6.7-8.1), as summarised at https://cliniciansbrief.com/article/measuring-vertebral-heart-scale-cats and http://www.vetmedinminimodules.com/diagnosis_canine_heart_failure/module_2/thoracic_radiographs/canine_vertebral_heart_scale_5.html",
  laao: "Echocardiographic LA:Ao (2D, short axis): dogs below 1.6 (Hansson et al. 2002, Vet Radiol Ultrasound), cats below 1.5 (Abbott & MacLean 2006, Vet Radiol Ultrasound)",
  iris: "IRIS, Measurement and interpretation of proteinuria (Grauer, revised 2022): UPC proteinuric at 0.5 or more in dogs, 0.4 or more in cats, http://www.iris-kidney.com/education/proteinuria.html",
  tamu_b12:
    "Texas A&M GI Lab reference intervals, cobalamin dog 251-908 ng/L, cat 290-1500 ng/L: https://vetmed.tamu.edu/gilab/service/assays/b12folate",
  tamu_ctni:
    "Texas A&M GI Lab cardiac troponin (dog 0-0.059 ng/mL, up to 0.12 in ageing dogs): http://vetmed.tamu.edu/gilab/service/assays/cardiac-troponin; cats up to 0.16 ng/mL (Sleeper et al. 2001, JVIM 15:501)",
  saa: "Serum amyloid A in healthy horses is low (under about 20 mg/L; Satué et al. 2013, Open J Vet Med 3:58); canine CRP in health is under about 20 mg/L on common assays",
  fructosamine:
    "Fructosamine reference intervals of commercial laboratories (dog and cat roughly 175-350 umol/L); 400 umol/L taken as the upper limit so only clear increases are read",
  bands:
    "Band neutrophils in health: 0-0.3 x10^9/L in dogs and cats (eClinpath, leukocyte reference intervals)",
  coag: "Clotting times depend on the analyser (PT, aPTT); judged only against the range written in the note or a lab flag",
};

/** Directions added to existing analytes: a low urea (hepatic insufficiency, portosystemic
 * shunt) is its own finding, read only against the note's own range or a lab's L flag, since the
 * species' lower limits vary between laboratories more than the upper. */
const DIRECTIONS = { urea: { low: "low urea", low_needs_range: true } };

/** Species-group intervals added to existing analytes, with their source. */
const AVIAN =
  "Psittacine plasma biochemistry: AST up to about 350 U/L, CK up to about 550 U/L, bile acids up to about 75 umol/L (Hochleithner, Biochemistries, ch. 11 in Avian Medicine: Principles and Application; Harr 2002, Vet Clin Pathol 31:140; Pacific parrotlet reference intervals AST 73-274, CK 44-543, bile acids 0-34 on VetScan avian/reptile rotors)";
const INTERVALS = {
  ast: { bird: [0, 350] },
  ck: { bird: [0, 550] },
  bile: { bird: [0, 75] },
};
const INTERVAL_SOURCES = { ast: AVIAN, ck: AVIAN, bile: AVIAN };

/** New analytes. */
const NEW = [
  {
    key: "rbc",
    names: [
      "rbc",
      "rbc count",
      "red cell count",
      "red blood cell count",
      "erythrocytes",
      "erythrocyte count",
    ],
    unit: "10^12/l",
    units: { "10^12/l": 1, "x10^12/l": 1, "10^6/ul": 1, "x10^6/ul": 1, "m/ul": 1 },
    require_unit: true,
    plausible: [0.3, 20],
    low: "anaemia",
    intervals: {
      dog: [5.5, 8.5],
      cat: [5, 10],
      horse: [6.5, 12.5],
      cattle: [5, 10],
      small_ruminant: [8, 16],
      default: [5, 10],
    },
    source: SOURCES.merck_haem,
  },
  {
    key: "retic",
    names: [
      "reticulocytes",
      "retics",
      "retic",
      "retic count",
      "reticulocyte count",
      "absolute reticulocytes",
      "absolute reticulocyte count",
      "abs retic",
      "abs retics",
    ],
    unit: "10^9/l",
    units: {
      "10^9/l": 1,
      "x10^9/l": 1,
      "10^3/ul": 1,
      "x10^3/ul": 1,
      "k/ul": 1,
      "/ul": 0.001,
      "cells/ul": 0.001,
    },
    guess: { above: 2000, unit: "/ul" },
    plausible: [0, 2000],
    high: "reticulocytosis",
    intervals: { dog: [0, 110], cat: [0, 60], default: [0, 110] },
    source: SOURCES.eclinpath,
  },
  {
    key: "bands",
    names: ["bands", "band neutrophils", "band count", "band cells", "bands count"],
    unit: "10^9/l",
    units: {
      "10^9/l": 1,
      "x10^9/l": 1,
      "10^3/ul": 1,
      "x10^3/ul": 1,
      "k/ul": 1,
      "/ul": 0.001,
      "cells/ul": 0.001,
    },
    require_unit_or_decimal: true,
    guess: { above: 50, unit: "/ul" },
    plausible: [0, 100],
    high: "left shift",
    intervals: { dog: [0, 0.3], cat: [0, 0.3], horse: [0, 0.2], cattle: [0, 0.2], default: [0, 0.3] },
    source: SOURCES.bands,
  },
  {
    key: "vhs",
    names: ["vhs", "vertebral heart score", "vertebral heart size", "vertebral heart scale"],
    unit: "",
    units: { v: 1 },
    plausible: [5, 16],
    high: "cardiomegaly",
    intervals: { dog: [8.5, 10.7], cat: [6.7, 8.1] },
    source: SOURCES.vhs,
  },
  {
    key: "laao",
    names: ["la:ao", "la/ao", "la:ao ratio", "la/ao ratio", "la to ao ratio", "la : ao", "la-ao ratio"],
    unit: "",
    units: {},
    plausible: [0.5, 5],
    high: "left atrial enlargement",
    intervals: { dog: [0.8, 1.6], cat: [0.8, 1.5] },
    source: SOURCES.laao,
  },
  {
    key: "upc",
    names: [
      "upc",
      "upcr",
      "up:c",
      "upc ratio",
      "urine protein:creatinine ratio",
      "urine protein creatinine ratio",
      "urine protein to creatinine ratio",
      "upr:cr",
      "protein:creatinine ratio",
    ],
    unit: "",
    units: {},
    plausible: [0, 40],
    high: "proteinuria",
    intervals: { dog: [0, 0.5], cat: [0, 0.4], default: [0, 0.5] },
    source: SOURCES.iris,
  },
  {
    key: "cobalamin",
    names: ["cobalamin", "b12", "vitamin b12", "vit b12", "serum cobalamin", "cobalamine"],
    unit: "ng/l",
    units: { "ng/l": 1, "pg/ml": 1, "pmol/l": 1.355 },
    plausible: [10, 5000],
    low: "low serum cobalamin",
    intervals: { dog: [251, 908], cat: [290, 1500] },
    source: SOURCES.tamu_b12,
  },
  {
    key: "ctni",
    names: ["ctni", "troponin", "troponin i", "cardiac troponin", "cardiac troponin i", "hs-ctni", "tni"],
    unit: "ng/ml",
    units: { "ng/ml": 1, "ug/l": 1, "µg/l": 1, "ng/l": 0.001, "pg/ml": 0.001 },
    plausible: [0, 1000],
    high: "elevated cardiac troponin",
    intervals: { dog: [0, 0.12], cat: [0, 0.16] },
    source: SOURCES.tamu_ctni,
  },
  {
    key: "saa",
    names: ["saa", "serum amyloid a", "serum amyloid"],
    unit: "mg/l",
    units: { "mg/l": 1, "ug/ml": 1, "µg/ml": 1 },
    plausible: [0, 10000],
    high: "elevated acute phase proteins",
    intervals: { horse: [0, 20], cat: [0, 20] },
    source: SOURCES.saa,
  },
  {
    key: "crp",
    names: ["crp", "c-reactive protein", "c reactive protein"],
    unit: "mg/l",
    units: { "mg/l": 1, "ug/ml": 1, "µg/ml": 1, "mg/dl": 10 },
    plausible: [0, 2000],
    high: "elevated acute phase proteins",
    intervals: { dog: [0, 20] },
    source: SOURCES.saa,
  },
  {
    key: "fructosamine",
    names: ["fructosamine", "fruc", "fructosamine level"],
    unit: "umol/l",
    units: { "umol/l": 1, "µmol/l": 1 },
    plausible: [50, 2000],
    high: "hyperglycaemia",
    intervals: { dog: [0, 400], cat: [0, 400] },
    source: SOURCES.fructosamine,
  },
  {
    key: "pt",
    names: [
      "prothrombin time",
      "aptt",
      "ptt",
      "activated partial thromboplastin time",
      "partial thromboplastin time",
      "one-stage prothrombin time",
      "ospt",
    ],
    case_sensitive: ["PT", "aPTT", "APTT", "PTT", "OSPT"],
    unit: "s",
    units: { s: 1, sec: 1, secs: 1, seconds: 1 },
    plausible: [1, 1000],
    high: "prolonged clotting times",
    intervals: {},
    source: SOURCES.coag,
  },
];

for (const [key, names] of Object.entries(NAMES)) {
  const analyte = byKey.get(key);
  if (!analyte) throw new Error(`no analyte ${key}`);
  for (const name of names) if (!analyte.names.includes(name)) analyte.names.push(name);
}
for (const [key, directions] of Object.entries(DIRECTIONS)) Object.assign(byKey.get(key), directions);
for (const [key, intervals] of Object.entries(INTERVALS)) {
  const analyte = byKey.get(key);
  Object.assign(analyte.intervals, intervals);
  analyte.interval_sources = { ...(analyte.interval_sources ?? {}), bird: INTERVAL_SOURCES[key] };
}
for (const analyte of NEW) {
  const existing = byKey.get(analyte.key);
  if (existing) Object.assign(existing, analyte);
  else {
    // Before the directional-only entries (liver enzymes, vitals) at the end.
    const at = rules.analytes.findIndex((a) => a.directional_only);
    rules.analytes.splice(at < 0 ? rules.analytes.length : at, 0, analyte);
    byKey.set(analyte.key, analyte);
  }
}

/** JSON with ", " and ": " separators, as the file is written. */
function compact(value) {
  if (Array.isArray(value)) return `[${value.map(compact).join(", ")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${compact(v)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}
const out = [
  "{",
  `  "source": ${JSON.stringify(rules.source)},`,
  `  "groups": ${compact(rules.groups)},`,
  '  "analytes": [',
  rules.analytes
    .map((a) => {
      const original = originalLine.get(a.key);
      return `    ${original && original.json === JSON.stringify(a) ? original.line : compact(a)}`;
    })
    .join(",\n"),
  "  ]",
  "}",
  "",
].join("\n");
writeFileSync(FILE, out);
console.log(`analytes: ${rules.analytes.length}`);
