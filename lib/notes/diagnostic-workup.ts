// Which diagnostics confirm or rule out a condition, by the kind of disease it is: its name first
// (toxicoses, tumours, infections, endocrine disease), else the body system of the signs it
// mostly shows (the catalogue's sign categories, weighted by P(sign | condition)).
import { inArray, sql } from "drizzle-orm";
import type { Database } from "@/db";
import { conditionSigns, symptomCategories, symptoms } from "@/db/schema";

export interface Workup {
  /** Short label of the kind of disease, e.g. "urinary". */
  category: string;
  tests: string[];
}

const MINIMUM_DATABASE = ["haematology (CBC)", "serum biochemistry", "urinalysis"];

const BY_NAME: { pattern: RegExp; workup: Workup }[] = [
  {
    pattern: /toxicos|poison|envenomation|toxic\b|intoxication/i,
    workup: {
      category: "toxicological",
      tests: [
        "detailed exposure history",
        "toxin-specific testing where available",
        "haematology, biochemistry and coagulation profile as indicated",
      ],
    },
  },
  {
    pattern:
      /lymphoma|carcinoma|sarcoma|tumou?r|neoplas|adenoma|mast cell|histiocytoma|melanoma|insulinoma|myeloma|leuka?emia(?! virus)/i,
    workup: {
      category: "neoplastic",
      tests: [
        "fine-needle aspirate cytology or biopsy with histopathology",
        "staging: thoracic radiographs and abdominal ultrasound",
        "haematology and biochemistry",
      ],
    },
  },
  {
    pattern: /hypoadrenocorticism|addison/i,
    workup: {
      category: "endocrine",
      tests: [
        "serum biochemistry with sodium and potassium",
        "basal cortisol screen, then ACTH stimulation test",
      ],
    },
  },
  {
    pattern: /hyperadrenocorticism|cushing/i,
    workup: {
      category: "endocrine",
      tests: [
        "haematology, biochemistry and urinalysis",
        "urine cortisol:creatinine ratio",
        "low-dose dexamethasone suppression or ACTH stimulation test",
        "abdominal ultrasound (adrenals)",
      ],
    },
  },
  {
    pattern: /hypothyroid/i,
    workup: {
      category: "endocrine",
      tests: ["haematology and biochemistry (cholesterol)", "total T4 with TSH and/or free T4"],
    },
  },
  {
    pattern: /hyperthyroid/i,
    workup: {
      category: "endocrine",
      tests: ["total T4", "haematology, biochemistry and urinalysis", "blood pressure"],
    },
  },
  {
    pattern: /diabet/i,
    workup: {
      category: "endocrine",
      tests: [
        "blood glucose and fructosamine",
        "urinalysis for glucosuria and ketonuria, with urine culture",
        "serum biochemistry and electrolytes",
      ],
    },
  },
  {
    pattern: /acromegaly|parathyroid|insulin|thyroid|adrenal/i,
    workup: {
      category: "endocrine",
      tests: [
        "serum biochemistry with glucose and electrolytes",
        "urinalysis",
        "endocrine function tests for the suspected condition (e.g. total T4, ACTH stimulation, fructosamine)",
      ],
    },
  },
  {
    pattern:
      /virus|viral|parvo|distemper|calicivirus|herpes|leptospir|infectious|infection|babesi|ehrlichi|leishmani|heartworm|dirofilari|tuberculosis|strangles|myxomatosis/i,
    workup: {
      category: "infectious",
      tests: ["pathogen-specific testing (antigen or antibody test, PCR)", "haematology and biochemistry"],
    },
  },
];

const BY_SYSTEM: Record<string, Workup> = {
  digestive: {
    category: "digestive",
    tests: [
      "haematology and biochemistry with electrolytes",
      "faecal analysis (parasitology)",
      "abdominal radiographs and/or ultrasound",
    ],
  },
  oral: { category: "oral", tests: ["oral examination under sedation or anaesthesia", "dental radiographs"] },
  respiratory: {
    category: "respiratory",
    tests: [
      "thoracic radiographs",
      "airway sampling (tracheal wash or BAL) with cytology and culture if indicated",
    ],
  },
  cardiovascular: {
    category: "cardiovascular",
    tests: ["thoracic radiographs", "echocardiography", "ECG", "blood pressure"],
  },
  skin: {
    category: "dermatological",
    tests: [
      "skin scrapings and coat brushings",
      "tape-strip cytology",
      "dermatophyte culture or PCR if indicated",
    ],
  },
  musculoskeletal: {
    category: "musculoskeletal",
    tests: ["orthopaedic examination", "radiographs of the affected region"],
  },
  neurological: {
    category: "neurological",
    tests: [
      "neurological examination to localise the lesion",
      "haematology and biochemistry",
      "advanced imaging (MRI) and CSF analysis if indicated",
    ],
  },
  behaviour: {
    category: "behavioural",
    tests: ["behavioural history", "haematology and biochemistry to exclude medical causes"],
  },
  ocular: {
    category: "ophthalmic",
    tests: ["fluorescein staining", "Schirmer tear test", "tonometry", "fundic examination"],
  },
  ear: { category: "aural", tests: ["otoscopic examination", "ear cytology (culture if refractory)"] },
  urinary: {
    category: "urinary",
    tests: [
      "urinalysis with sediment and culture (cystocentesis)",
      "serum biochemistry (urea, creatinine, SDMA)",
      "abdominal imaging",
    ],
  },
  reproductive: {
    category: "reproductive",
    tests: ["reproductive examination", "abdominal ultrasound", "haematology and biochemistry"],
  },
  haemolymphatic: {
    category: "haematological",
    tests: [
      "haematology with blood smear review",
      "coagulation profile",
      "lymph node aspirate cytology if enlarged",
    ],
  },
  metabolic: {
    category: "metabolic",
    tests: ["serum biochemistry", "urinalysis", "diet and husbandry history"],
  },
  production: {
    category: "production",
    tests: ["herd or flock history and production records", "metabolic profile of affected animals"],
  },
  general: { category: "systemic", tests: MINIMUM_DATABASE },
};

/** The workup for each condition id. */
export async function workupsFor(
  db: Database,
  conditions: { id: number; name: string }[],
): Promise<Map<number, Workup>> {
  const result = new Map<number, Workup>();
  const needSystem: number[] = [];
  for (const condition of conditions) {
    const named = BY_NAME.find((rule) => rule.pattern.test(condition.name));
    if (named) result.set(condition.id, named.workup);
    else needSystem.push(condition.id);
  }
  if (needSystem.length === 0) return result;
  const weights = await db
    .select({
      conditionId: conditionSigns.conditionId,
      category: symptomCategories.key,
      weight: sql<number>`sum(${conditionSigns.weight})`.mapWith(Number),
    })
    .from(conditionSigns)
    .innerJoin(symptoms, sql`${symptoms.id} = ${conditionSigns.symptomId}`)
    .innerJoin(symptomCategories, sql`${symptomCategories.id} = ${symptoms.categoryId}`)
    .where(inArray(conditionSigns.conditionId, needSystem))
    .groupBy(conditionSigns.conditionId, symptomCategories.key);
  for (const id of needSystem) {
    // Non-specific signs (lethargy, inappetence) say little about where the disease is.
    const systems = weights
      .filter((w) => w.conditionId === id)
      .map((w) => ({ ...w, weight: w.category === "general" ? w.weight * 0.4 : w.weight }))
      .sort((a, b) => b.weight - a.weight || a.category.localeCompare(b.category));
    const top = systems[0]?.category;
    result.set(id, (top && BY_SYSTEM[top]) || { category: "systemic", tests: MINIMUM_DATABASE });
  }
  return result;
}
