// `npx tsx scripts/catalogue/description-links.ts [--out report.json] [--file equine.json] [--all]`
// (--all also shows description candidates already reviewed and left out: description-links.reviewed.json)
//
// Maintainers' audit of missing condition→sign links. The ranker charges a condition heavily for
// a present sign it does not link (the leak), so a condition whose own description names a sign
// it does not link is ranked down exactly when a note describes it well. Three audits:
//
//  1. description: the project's local extractor (lib/ai/local/local-extractor.ts) reads each live
//     condition's name and description as if they were a note; every sign it reads as "present"
//     that the condition does not link (neither the sign itself nor a more specific or more general
//     sign of the same name family, e.g. "haemorrhagic diarrhoea" for "diarrhoea") is a candidate.
//     Candidates need review: the extractor reads sentences such as "unlike X, which causes
//     vomiting" or "differentiated from Y by its diarrhoea" as present.
//  2. name: a condition whose name states its cardinal sign (…colic, …dermatitis, pneumonia,
//     cystitis, …enteritis, conjunctivitis, otitis externa, epilepsy…) but links none of the signs
//     that sign would be written as (NAME_RULES below).
//  3. name contains a sign: "perineal hernia" should link hernia, "retinal detachment" the sign
//     of that name (NAME_SIGN_SKIP lists sign words that mean something else in a name).
//
// Prints a JSON report: counts, then one entry per condition with candidates. Reads the seed files
// directly (no database writes); the catalogue is loaded into an in-memory PGlite for the lexicon.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { loadCatalogue } from "@/db/seed/load-catalogue";
import { loadLexicon } from "@/lib/ai/lexicon";
import { extractLocally } from "@/lib/ai/local/local-extractor";
import { containsRun, words } from "@/lib/diagnosis/knowledge-base";

interface Link {
  sign: string;
  weight: number;
}
interface Condition {
  id: number;
  name: string;
  species: string[];
  description: string;
  signs: Link[];
  retired?: boolean;
}

/**
 * A condition whose name matches `name` (and not `unless`) should link one of `anyOf` (or a sign
 * of the same name family); if it links none, `add` is proposed at `weight` — the share of such
 * animals that show the sign at presentation. Ordered from specific to general; every rule that
 * matches is checked.
 */
export interface NameRule {
  rule: string;
  name: RegExp;
  unless?: RegExp;
  /** Restrict to conditions of these species (any of). */
  species?: string[];
  anyOf: string[];
  add: string;
  weight: number;
}

const MAMMALS = [
  "dog",
  "cat",
  "horse",
  "donkey",
  "cattle",
  "sheep",
  "goat",
  "pig",
  "alpaca",
  "llama",
  "rabbit",
  "guinea_pig",
  "ferret",
  "hamster",
  "rat",
  "mouse",
  "chinchilla",
  "gerbil",
];

/**
 * Audit 3 (name contains a sign): a condition whose name contains a sign's whole name ("perineal
 * hernia" → hernia, "tick paralysis" → paralysis, "retinal detachment") should link it. Signs whose
 * word means something else inside a condition name are skipped (an airway "collapse", valvular
 * "regurgitation", "pulmonary hypertension"), as are nerve and organ paralyses.
 */
const NAME_SIGN_SKIP = new Set([
  "collapse",
  "regurgitation",
  "hypertension",
  "haematoma",
  "destructive behaviour",
  "urticaria",
]);
const NAME_SIGN_SKIP_CONDITION = /\b(laryngeal|pharyngeal|vocal fold|oesophageal|facial nerve) paralysis\b/i;

const NOT_A_SIGN_NAME = /\b(vaccin\w*|carrier|subclinical|asymptomatic|prophylaxis|screening)\b/i;

export const NAME_RULES: NameRule[] = [
  // Colic is abdominal pain by definition.
  {
    rule: "colic",
    name: /\bcolic\b/i,
    unless: /\brenal colic\b/i,
    anyOf: ["abdominal pain"],
    add: "abdominal pain",
    weight: 0.9,
  },
  // Diarrhoea: enteritis, colitis, enterocolitis, named diarrhoeas, dysentery.
  {
    rule: "diarrhoea",
    name: /\b(diarrh\w*|scour\w*|enterocolitis|gastroenteritis|enteritis|colitis|typhlitis|typhlocolitis|dysentery|enteropathy)\b/i,
    unless:
      /\b(protein[- ]losing|proximal enteritis|anterior enteritis|duodenitis[- ]proximal jejunitis|regional enteritis)\b/i,
    anyOf: ["diarrhoea", "mucoid faeces"],
    add: "diarrhoea",
    weight: 0.8,
  },
  // Pneumonia and bronchopneumonia: cough, laboured or fast breathing.
  {
    rule: "pneumonia",
    name: /\b(pneumonia|bronchopneumonia|pneumonitis|pleuropneumonia)\b/i,
    anyOf: ["coughing", "dyspnoea", "tachypnoea"],
    add: "tachypnoea",
    weight: 0.7,
  },
  // Bronchitis, tracheitis, tracheobronchitis: cough.
  {
    rule: "bronchitis",
    name: /\b(bronchitis|tracheitis|tracheobronchitis|kennel cough|laryngotracheitis)\b/i,
    anyOf: ["coughing"],
    add: "coughing",
    weight: 0.85,
  },
  // Lower urinary tract: cystitis, urethritis, uroliths in the bladder or urethra.
  {
    rule: "lower urinary tract",
    name: /\b(cystitis|urethritis|cystic calculi|bladder stones?|urolithiasis|urocystoliths?|cystoliths?|urethral (?:obstruction|calculi|plug)|flutd|lower urinary tract)\b/i,
    unless: /\b(emphysematous|polypoid)\b/i,
    species: MAMMALS,
    anyOf: ["pollakiuria", "stranguria", "haematuria", "dysuria", "anuria", "urinary incontinence"],
    add: "stranguria",
    weight: 0.7,
  },
  // Cystitis and bladder uroliths in mammals: blood in the urine (not the obstructive forms).
  {
    rule: "cystitis haematuria",
    name: /\b(cystitis|cystic calculi|bladder stones?|urocystoliths?|cystoliths?|flutd)\b/i,
    unless: /\b(sabulous|obstruct\w*)\b/i,
    species: [
      "dog",
      "cat",
      "ferret",
      "rabbit",
      "guinea_pig",
      "horse",
      "donkey",
      "pig",
      "cattle",
      "sheep",
      "goat",
    ],
    anyOf: ["haematuria", "discoloured urine"],
    add: "haematuria",
    weight: 0.6,
  },
  // Gastritis in species that vomit.
  {
    rule: "gastritis",
    name: /\b(gastritis|gastroenteritis|gastric ulcer\w*)\b/i,
    unless: /\b(parasitic|equine|abomasal)\b/i,
    species: ["dog", "cat", "ferret", "pig"],
    anyOf: ["vomiting", "regurgitation"],
    add: "vomiting",
    weight: 0.7,
  },
  // Conjunctivitis and keratoconjunctivitis: discharge and red conjunctiva.
  {
    rule: "conjunctivitis",
    name: /\b(conjunctivitis|keratoconjunctivitis|pink ?eye)\b/i,
    unless: /\bsicca\b/i,
    anyOf: ["ocular discharge", "conjunctival hyperaemia", "epiphora"],
    add: "ocular discharge",
    weight: 0.75,
  },
  // Otitis externa (and otitis without a qualifier): head shaking, scratching, discharge.
  {
    rule: "otitis externa",
    name: /\b(otitis externa|otitis|ear canal infection|otoacariasis|ear mites?|otodectic)\b/i,
    unless: /\b(otitis media|otitis interna|otitis media[- ]interna)\b/i,
    anyOf: [
      "head shaking",
      "aural discharge",
      "scratching at ears",
      "ear odour",
      "ear pain",
      "erythema of ear canal",
    ],
    add: "head shaking",
    weight: 0.7,
  },
  // Seizure disorders.
  {
    rule: "seizures",
    name: /\b(epilep\w*|seizures?|convulsions?|status epilepticus)\b/i,
    unless: /\b(epileptoid|cramping|pseudo\w*)\b/i,
    anyOf: ["seizures"],
    add: "seizures",
    weight: 0.9,
  },
  // Rhinitis and sinusitis: nasal discharge.
  {
    rule: "rhinitis",
    name: /\b(rhinitis|sinusitis|rhinosinusitis|snuffles|coryza)\b/i,
    anyOf: ["nasal discharge", "sneezing"],
    add: "nasal discharge",
    weight: 0.8,
  },
  // Pruritic dermatoses.
  {
    rule: "pruritic dermatitis",
    name: /\b(atopic|allergic|flea allergy|scabies|sarcoptic|mange|pediculosis|lice|chorioptic|psoroptic|cheyletiell\w*|trombicul\w*|harvest mites?|insect bite hypersensitivity|sweet itch|pruritus)\b/i,
    unless:
      /\b(demodec\w*|anaphyla\w*|bronch\w*|asthma|rhinitis|conjunctivitis|airway|respiratory|urticaria|lung)\b/i,
    anyOf: ["pruritus"],
    add: "pruritus",
    weight: 0.8,
  },
  // Other dermatitis and pyoderma: visible skin lesions.
  {
    rule: "dermatitis",
    name: /\b(dermatitis|dermatosis|pyoderma|dermatophytosis|ringworm|dermatophilosis|rain scald|mud fever|pastern dermatitis|folliculitis|furunculosis)\b/i,
    anyOf: [
      "skin lesions",
      "skin rash",
      "alopecia",
      "crusting",
      "scaling",
      "papules",
      "pustules",
      "erythema",
      "skin ulceration",
      "skin thickening",
      "skin necrosis",
      "skin fold inflammation",
      "draining tract",
      "skin mass",
      "pinnal lesions",
      "footpad lesions",
      "ringworm-like lesions",
      "scabs on lower limbs",
      "skin colour change",
    ],
    add: "skin lesions",
    weight: 0.8,
  },
  // Arthritis, fractures, luxations, ligament and tendon injuries, osteochondrosis: lameness.
  {
    rule: "lameness",
    name: /\b(arthritis|osteoarthritis|polyarthritis|fracture|fractures|luxation|subluxation|dysplasia|cruciate|osteochondr\w*|ocd|panosteitis|osteomyelitis|tendinitis|tendonitis|desmitis|bursitis|navicular|laminitis|sole abscess|foot abscess|hoof abscess|subsolar abscess|foot rot|footrot|interdigital|digital dermatitis|sesamoiditis|splints?|bone spavin|ringbone|sidebone|septic joint|joint ill|hypertrophic osteodystrophy|legg[- ]calv\w*|patellar|osteosarcoma|pododermatitis|bumblefoot|white line disease|sole ulcer)\b/i,
    unless:
      /\b(skull|mandib\w*|maxill\w*|rib|ribs|vertebra\w*|spinal|spine|pelvic canal|penile|penis|tooth|teeth|dental|beak|shell|carapace|plastron|tail|hyoid|nasal|orbital|facial|ear|hip dysplasia in a|elbow incongru\w*|lens|mitral|tricuspid|valve|valvular|renal|retinal|microvascular|portal|follicular|hair|ectodermal|fibrous|skeletal dysplasia|dysplasia of the|pituitary|thymic|hepatic|liver|lung|osteopetrosis|vaginal|uterine|rectal|colonic|prolapse|cervical|atlanto\w*|wobbler|sacro\w*|lumbosacral|intervertebral|spondyl\w*|temporomandibular|incisor|molar|multilobular)\b/i,
    species: [
      "dog",
      "cat",
      "horse",
      "donkey",
      "cattle",
      "sheep",
      "goat",
      "pig",
      "alpaca",
      "llama",
      "rabbit",
      "guinea_pig",
      "ferret",
    ],
    anyOf: [
      "lameness",
      "reluctance to bear weight on hind legs",
      "gait abnormality",
      "stiffness",
      "reluctance to move",
      "non-weight-bearing lameness",
    ],
    add: "lameness",
    weight: 0.8,
  },
  // Mastitis: abnormal milk or a hot, swollen gland.
  {
    rule: "mastitis",
    name: /\bmastitis\b/i,
    anyOf: ["abnormal milk", "mammary swelling", "mammary pain"],
    add: "mammary swelling",
    weight: 0.7,
  },
  // Stomatitis, gingivitis: oral pain or inflamed gums.
  {
    rule: "stomatitis",
    name: /\b(stomatitis|gingivostomatitis|gingivitis|periodontitis|periodontal disease)\b/i,
    anyOf: ["oral pain", "gingivitis", "halitosis", "hypersalivation", "oral ulceration"],
    add: "oral pain",
    weight: 0.6,
  },
  // Vestibular syndromes and otitis media-interna: head tilt.
  {
    rule: "vestibular",
    name: /\b(vestibular|otitis media|otitis interna|head tilt|wry neck)\b/i,
    anyOf: ["head tilt"],
    add: "head tilt",
    weight: 0.8,
  },
  // Hepatic jaundice names.
  {
    rule: "jaundice",
    name: /\b(icterus|jaundice|cholangitis|cholangiohepatitis|cholestasis|biliary obstruction|bile duct obstruction|extrahepatic)\b/i,
    anyOf: ["jaundice"],
    add: "jaundice",
    weight: 0.6,
  },
  // Abortion by name.
  {
    rule: "abortion",
    name: /\b(abortion|enzootic abortion)\b/i,
    anyOf: ["abortion"],
    add: "abortion",
    weight: 0.8,
  },
];

const args = process.argv.slice(2);
/** Description candidates already reviewed and not added (description-links.reviewed.json); --all shows them. */
const reviewed = new Set<string>(
  args.includes("--all")
    ? []
    : (
        JSON.parse(
          readFileSync(
            path.join(path.dirname(fileURLToPath(import.meta.url)), "description-links.reviewed.json"),
            "utf8",
          ),
        ) as { rejected: string[] }
      ).rejected,
);
const outFile = args.includes("--out") ? args[args.indexOf("--out") + 1] : undefined;
const onlyFile = args.includes("--file") ? args[args.indexOf("--file") + 1] : undefined;

const dataDir = path.join(process.cwd(), "db/seed/data");
const signs = JSON.parse(readFileSync(path.join(dataDir, "clinical-signs.json"), "utf8")) as {
  name: string;
  species: string[] | null;
  retired?: boolean;
}[];
const signByName = new Map(signs.map((s) => [s.name, s]));
for (const rule of NAME_RULES) {
  for (const name of [...rule.anyOf, rule.add])
    if (!signByName.has(name)) throw new Error(`rule ${rule.rule}: unknown sign "${name}"`);
}

/** Same sign, or one is a more specific form of the other by name (as the ranker's hierarchy). */
function sameFamily(a: string, b: string): boolean {
  if (a === b) return true;
  const wa = words(a);
  const wb = words(b);
  return containsRun(wa, wb) || containsRun(wb, wa);
}
/** Up to 70 characters either side of the first occurrence of a phrase. */
function around(text: string, phrase: string): string {
  const at = text.toLowerCase().indexOf(phrase.toLowerCase());
  if (at < 0) return "";
  return text.slice(Math.max(0, at - 70), at + phrase.length + 70).replace(/\s+/g, " ");
}
const linksFamily = (condition: Condition, sign: string) =>
  condition.signs.some((l) => sameFamily(l.sign, sign));

const handle = await openDatabase({ pgliteDataDir: "memory://" });
await migrateDatabase(handle);
await loadCatalogue(handle.db);
const lexicon = await loadLexicon(handle.db);
await handle.close();

interface DescriptionCandidate {
  sign: string;
  phrases: string[];
  distance: number;
  significant: boolean;
  /** The text around the first phrase, for review. */
  context: string;
}
interface Entry {
  file: string;
  id: number;
  name: string;
  species: string[];
  links: number;
  description: DescriptionCandidate[];
  name_rules: { rule: string; sign: string; weight: number }[];
  name_contains: { sign: string }[];
}

const files = readdirSync(path.join(dataDir, "conditions"))
  .filter((f) => f.endsWith(".json") && (!onlyFile || f === onlyFile))
  .sort();
const entries: Entry[] = [];
let live = 0;
let hidden = 0;
const byRule: Record<string, number> = {};
const bySign: Record<string, number> = {};
for (const file of files) {
  const conditions = JSON.parse(readFileSync(path.join(dataDir, "conditions", file), "utf8")) as Condition[];
  for (const condition of conditions) {
    if (condition.retired) continue;
    live += 1;
    const speciesOk = (sign: string) => {
      const allowed = signByName.get(sign)?.species;
      return !allowed || condition.species.some((s) => allowed.includes(s));
    };
    // The name first, as a sentence, so a sign in the name ("… colic") is read as present.
    const text = `${condition.name}. ${condition.description}`;
    const extraction = extractLocally(text, lexicon);
    const description: DescriptionCandidate[] = [];
    for (const mention of extraction.symptoms) {
      if (mention.status !== "present") continue;
      const sign = lexicon.symptomById.get(mention.symptomId)?.name;
      if (!sign || linksFamily(condition, sign) || !speciesOk(sign)) continue;
      if (description.some((d) => d.sign === sign)) continue;
      if (reviewed.has(`${condition.id}|${sign}`)) {
        hidden += 1;
        continue;
      }
      description.push({
        sign,
        phrases: mention.keyPhrases,
        distance: mention.distance,
        significant: mention.significant,
        context: around(text, mention.keyPhrases[0] ?? sign),
      });
      bySign[sign] = (bySign[sign] ?? 0) + 1;
    }
    const nameRules: Entry["name_rules"] = [];
    for (const rule of NAME_RULES) {
      if (!rule.name.test(condition.name) || rule.unless?.test(condition.name)) continue;
      if (NOT_A_SIGN_NAME.test(condition.name)) continue;
      if (rule.species && !condition.species.some((s) => rule.species!.includes(s))) continue;
      if (rule.anyOf.some((sign) => linksFamily(condition, sign))) continue;
      if (!speciesOk(rule.add)) continue;
      nameRules.push({ rule: rule.rule, sign: rule.add, weight: rule.weight });
      byRule[rule.rule] = (byRule[rule.rule] ?? 0) + 1;
    }
    const nameContains: Entry["name_contains"] = [];
    const nameWords = words(condition.name);
    if (!NAME_SIGN_SKIP_CONDITION.test(condition.name))
      for (const sign of signs) {
        if (sign.retired || NAME_SIGN_SKIP.has(sign.name) || !speciesOk(sign.name)) continue;
        const signWords = words(sign.name);
        const inName =
          signWords.length > 0 &&
          (nameWords.join(" ") === signWords.join(" ") || containsRun(nameWords, signWords));
        if (inName && !linksFamily(condition, sign.name)) nameContains.push({ sign: sign.name });
      }
    if (description.length || nameRules.length || nameContains.length)
      entries.push({
        file,
        id: condition.id,
        name: condition.name,
        species: condition.species,
        links: condition.signs.length,
        description,
        name_rules: nameRules,
        name_contains: nameContains,
      });
  }
}

const report = {
  live_conditions: live,
  conditions_with_candidates: entries.length,
  description_candidates: entries.reduce((n, e) => n + e.description.length, 0),
  description_reviewed_hidden: hidden,
  name_rule_candidates: entries.reduce((n, e) => n + e.name_rules.length, 0),
  name_contains_candidates: entries.reduce((n, e) => n + e.name_contains.length, 0),
  at_link_limit: entries.filter((e) => e.links >= 20).length,
  name_rules_by_rule: byRule,
  description_by_sign: Object.fromEntries(Object.entries(bySign).sort((a, b) => b[1] - a[1])),
  conditions: entries,
};
const json = JSON.stringify(report, null, 2);
if (outFile) writeFileSync(outFile, `${json}\n`);
else process.stdout.write(`${json}\n`);
