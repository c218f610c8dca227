// The differential-diagnosis knowledge base in memory: every live condition with its species,
// authored sign weights P(sign | condition), prevalence prior and risk factors, plus what the
// ranker derives from them (per-species leak probabilities, the sign hierarchy, breed words).
// Loaded once per database and catalogue version (seed_state hash), like lib/ai/lexicon.ts.
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import {
  animalTypes,
  breeds,
  conditionSigns,
  conditionSpecies,
  conditions,
  genders,
  symptomCategories,
  symptoms,
} from "@/db/schema";
import { catalogueCache } from "@/db/seed/catalogue-cache";
import { generalForms } from "@/lib/catalogue/general-forms";
import { bodySites, isStructural, shareSite } from "./body-sites";
import { buildConditionTextIndex, type ConditionTextIndex } from "./condition-text";

export type Prevalence = "very_common" | "common" | "uncommon" | "rare";

export interface RiskFactors {
  /** Lower-case VBO breed names the condition is predisposed in. */
  breeds: string[];
  ageMin: number | null;
  ageMax: number | null;
  sex: "male" | "female" | null;
  neutered: boolean | null;
  /** Surroundings that make the condition likelier (check-data.mjs lists the words). */
  environment: string[];
  /** More likely in an unvaccinated animal. */
  unvaccinated: boolean;
  /** More likely after travel to an endemic region. */
  travel: boolean;
}

export interface KbCondition {
  id: number;
  name: string;
  synonyms: string[];
  prevalence: Prevalence;
  /** Per-species prevalence of a multi-species condition, where it differs from `prevalence`. */
  prevalenceBySpecies: Map<number, Prevalence>;
  animalTypeIds: number[];
  /** symptom id → authored P(sign | condition). */
  signs: Map<number, number>;
  risk: RiskFactors;
}

export interface KbSymptom {
  id: number;
  name: string;
  /** Laboratory or imaging finding rather than a clinical sign. */
  finding: boolean;
  /** More general signs whose name this sign's name contains ("diarrhoea" for "haemorrhagic diarrhoea"). */
  parentIds: number[];
  /** More specific signs that imply this one. */
  childIds: number[];
  /**
   * The general signs a case lists beside this one when it is present (lib/catalogue/general-forms.ts:
   * "productive cough" → coughing), which the ranker does not count twice.
   */
  generalFormIds: number[];
  /** For a structural finding (a mass, an enlarged organ): the others at the same body site or region (lib/diagnosis/body-sites.ts). */
  siteSiblingIds: number[];
}

export interface KbBreed {
  id: number;
  animalTypeId: number;
  name: string;
  /** Lower-case name and synonyms. */
  terms: string[];
  mixed: boolean;
  crossOfBreedId: number | null;
}

export interface KbSpecies {
  animalTypeId: number;
  conditions: KbCondition[];
  /**
   * symptom id → leak: the chance an animal with one of this species' conditions that does not
   * list the sign shows it anyway (higher for non-specific signs such as lethargy).
   */
  leak: Map<number, number>;
  /** symptom id → mean authored weight of the sign over the species' conditions (0 for unlisted signs). */
  meanWeight: Map<number, number>;
  /** Leak for a sign no condition of the species lists. */
  defaultLeak: number;
}

export interface KnowledgeBase {
  /** Catalogue content hash; a changed catalogue gives a new knowledge base. */
  version: string;
  animalTypeIds: Set<number>;
  /** animal type id → key ("dog", "guinea_pig"). */
  speciesKeyById: Map<number, string>;
  species: Map<number, KbSpecies>;
  symptoms: Map<number, KbSymptom>;
  breeds: Map<number, KbBreed>;
  conditionById: Map<number, KbCondition>;
  /** gender id → sex key. */
  sexByGenderId: Map<number, "male" | "female" | "unknown">;
  /** The conditions' names, synonyms and descriptions, indexed for matching a note's words. */
  conditionText: ConditionTextIndex;
}

/** Leak = LEAK_FLOOR + LEAK_SHARE × mean authored weight of the sign over the species' conditions. */
const LEAK_FLOOR = 0.01;
const LEAK_SHARE = 0.5;
const LEAK_CAP = 0.25;

/** Lower-case words and numbers of a name (shared with scripts/catalogue). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** Whether needle occurs as a contiguous run inside the longer haystack. */
export function containsRun(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0 || needle.length >= haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

function parseRiskFactors(raw: unknown): RiskFactors {
  const risk: RiskFactors = {
    breeds: [],
    ageMin: null,
    ageMax: null,
    sex: null,
    neutered: null,
    environment: [],
    unvaccinated: false,
    travel: false,
  };
  if (!raw || typeof raw !== "object") return risk;
  const value = raw as Record<string, unknown>;
  if (Array.isArray(value.breeds)) {
    risk.breeds = value.breeds.filter((b): b is string => typeof b === "string").map((b) => b.toLowerCase());
  }
  const age = value.age_years;
  if (age && typeof age === "object") {
    const { min, max } = age as Record<string, unknown>;
    if (typeof min === "number") risk.ageMin = min;
    if (typeof max === "number") risk.ageMax = max;
  }
  if (value.sex === "male" || value.sex === "female") risk.sex = value.sex;
  if (typeof value.neutered === "boolean") risk.neutered = value.neutered;
  if (Array.isArray(value.environment))
    risk.environment = value.environment.filter((e): e is string => typeof e === "string");
  risk.unvaccinated = value.unvaccinated === true;
  risk.travel = value.travel === true;
  return risk;
}

/** Sign hierarchy from names: a sign whose name contains another sign's whole name is a kind of it. */
const FINDING_CATEGORY_KEYS = new Set(["laboratory", "imaging"]);

function buildSymptoms(
  rows: { id: number; name: string; synonyms: string[]; categoryKey: string }[],
): Map<number, KbSymptom> {
  const forms = generalForms(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      category: row.categoryKey,
      terms: [...new Set([row.name, ...row.synonyms].map((t) => t.toLowerCase()))],
    })),
  );
  const tokenised = rows.map((row) => ({ ...row, words: words(row.name) }));
  const result = new Map<number, KbSymptom>(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        name: row.name,
        finding: FINDING_CATEGORY_KEYS.has(row.categoryKey),
        parentIds: [],
        childIds: [],
        generalFormIds: forms.get(row.id) ?? [],
        siteSiblingIds: [],
      },
    ]),
  );
  const sited = tokenised
    .filter((row) => isStructural(row.name))
    .map((row) => ({ id: row.id, sites: bodySites(row.name) }))
    .filter((row) => row.sites.sites.length > 0);
  for (const a of sited) {
    for (const b of sited) {
      if (a.id !== b.id && shareSite(a.sites, b.sites)) result.get(a.id)?.siteSiblingIds.push(b.id);
    }
  }
  for (const child of tokenised) {
    for (const parent of tokenised) {
      if (parent.id !== child.id && containsRun(child.words, parent.words)) {
        result.get(child.id)?.parentIds.push(parent.id);
        result.get(parent.id)?.childIds.push(child.id);
      }
    }
  }
  return result;
}

function buildSpecies(animalTypeId: number, speciesConditions: KbCondition[]): KbSpecies {
  const sums = new Map<number, number>();
  for (const condition of speciesConditions) {
    for (const [symptomId, weight] of condition.signs)
      sums.set(symptomId, (sums.get(symptomId) ?? 0) + weight);
  }
  const count = Math.max(1, speciesConditions.length);
  const leak = new Map<number, number>();
  const meanWeight = new Map<number, number>();
  for (const [symptomId, sum] of sums) {
    meanWeight.set(symptomId, sum / count);
    leak.set(symptomId, Math.min(LEAK_CAP, LEAK_FLOOR + (LEAK_SHARE * sum) / count));
  }
  return { animalTypeId, conditions: speciesConditions, leak, meanWeight, defaultLeak: LEAK_FLOOR };
}

async function readKnowledgeBase(db: Database, version: string): Promise<KnowledgeBase> {
  const [typeRows, conditionRows, speciesRows, signRows, symptomRows, breedRows, genderRows] =
    await Promise.all([
      db.select({ id: animalTypes.id, key: animalTypes.key }).from(animalTypes),
      db
        .select({
          id: conditions.id,
          name: conditions.name,
          synonyms: conditions.synonyms,
          description: conditions.description,
          prevalence: conditions.prevalence,
          riskFactors: conditions.riskFactors,
        })
        .from(conditions)
        .where(eq(conditions.retired, false)),
      db
        .select({
          conditionId: conditionSpecies.conditionId,
          animalTypeId: conditionSpecies.animalTypeId,
          prevalence: conditionSpecies.prevalence,
        })
        .from(conditionSpecies),
      db
        .select({
          conditionId: conditionSigns.conditionId,
          symptomId: conditionSigns.symptomId,
          weight: conditionSigns.weight,
        })
        .from(conditionSigns),
      db
        .select({
          id: symptoms.id,
          name: symptoms.name,
          synonyms: symptoms.synonyms,
          categoryKey: symptomCategories.key,
        })
        .from(symptoms)
        .innerJoin(symptomCategories, eq(symptomCategories.id, symptoms.categoryId)),
      db
        .select({
          id: breeds.id,
          animalTypeId: breeds.animalTypeId,
          name: breeds.name,
          synonyms: breeds.synonyms,
          mixed: breeds.mixed,
          crossOfBreedId: breeds.crossOfBreedId,
        })
        .from(breeds),
      db.select({ id: genders.id, key: genders.key }).from(genders),
    ]);

  const conditionById = new Map<number, KbCondition>();
  for (const row of conditionRows) {
    conditionById.set(row.id, {
      id: row.id,
      name: row.name,
      synonyms: row.synonyms,
      prevalence: row.prevalence,
      prevalenceBySpecies: new Map(),
      animalTypeIds: [],
      signs: new Map(),
      risk: parseRiskFactors(row.riskFactors),
    });
  }
  for (const row of signRows) {
    // Weights are probabilities; keep them off 0 and 1 so no single sign is decisive.
    conditionById.get(row.conditionId)?.signs.set(row.symptomId, Math.min(0.98, Math.max(0.01, row.weight)));
  }
  const bySpecies = new Map<number, KbCondition[]>();
  for (const row of speciesRows) {
    const condition = conditionById.get(row.conditionId);
    if (!condition) continue;
    condition.animalTypeIds.push(row.animalTypeId);
    if (row.prevalence) condition.prevalenceBySpecies.set(row.animalTypeId, row.prevalence);
    bySpecies.set(row.animalTypeId, [...(bySpecies.get(row.animalTypeId) ?? []), condition]);
  }
  const species = new Map<number, KbSpecies>();
  for (const type of typeRows) species.set(type.id, buildSpecies(type.id, bySpecies.get(type.id) ?? []));

  return {
    version,
    animalTypeIds: new Set(typeRows.map((t) => t.id)),
    speciesKeyById: new Map(typeRows.map((t) => [t.id, t.key])),
    species,
    symptoms: buildSymptoms(symptomRows),
    breeds: new Map(
      breedRows.map((b) => [
        b.id,
        {
          id: b.id,
          animalTypeId: b.animalTypeId,
          name: b.name,
          terms: [...new Set([b.name, ...b.synonyms].map((t) => t.toLowerCase()))],
          mixed: b.mixed,
          crossOfBreedId: b.crossOfBreedId,
        },
      ]),
    ),
    conditionById,
    sexByGenderId: new Map(
      genderRows.map((g) => [g.id, g.key === "male" || g.key === "female" ? g.key : "unknown"] as const),
    ),
    conditionText: buildConditionTextIndex(conditionRows),
  };
}

/** The knowledge base for this database, reloaded when the catalogue changes. */
export const loadKnowledgeBase = catalogueCache("knowledge-base", readKnowledgeBase);
