// Ranks a species' conditions by posterior probability given a patient's signalment and findings.
//
// Naive Bayes over the species' conditions, in log space:
//   log P(c | findings) ∝ log prior(prevalence)
//                       + Σ risk-factor log-likelihood ratios (breed, age, sex, neuter status)
//                       + Σ_present log P(s | c)      P = authored weight, else the sign's leak
//                       + Σ_absent  log (1 − P(s | c))
// The leak is the chance a condition that does not list a sign shows it anyway: one unexplained
// sign costs a condition (more so for a specific sign) without ruling it out. Signs form a small
// hierarchy by name ("haemorrhagic diarrhoea" is a kind of "diarrhoea"): a specific sign implies
// the general one, and a condition listing only the general sign partly explains the specific one.
import type { Database } from "@/db";
import { invalid } from "@/lib/errors";
import {
  loadKnowledgeBase,
  type KbBreed,
  type KbCondition,
  type KbSpecies,
  type KnowledgeBase,
} from "./knowledge-base";
import type { Differential } from "./schemas";
import { TOXIC_AGENTS } from "@/lib/catalogue/toxic-agents";
import { SIGN_CONSEQUENCES } from "./sign-consequences";
import { matchConditionText, noteStems } from "./condition-text";
import { relatedSigns } from "./related-signs";

export interface DifferentialsRequest {
  animal_type_id: number;
  breed_id?: number | null;
  age_years?: number | null;
  gender_id?: number | null;
  neutered?: boolean | null;
  present_symptom_ids: number[];
  absent_symptom_ids?: number[];
  /** Vaccination, travel and environment, as read from the notes. */
  context?: RiskContextInput | null;
  /**
   * The case's notes without the phrases already read as signs (case-differentials.ts), for
   * matching their other words against each condition's text (condition-text.ts).
   */
  notes?: string | null;
}

export interface RiskContextInput {
  vaccinated?: boolean | null;
  travelled?: boolean | null;
  environment?: string[];
  /** The notes name an exposure (toxin, drug, plant, venomous animal, foreign material). */
  exposure?: boolean | null;
  /** The agents the notes name (lib/ai/local/risk-context.ts TOXIC_AGENTS keys). */
  agents?: string[];
}

/** A case's ranking: the list, how much the findings say, and which species it covers. */
export interface RankedDifferentials {
  data: Differential[];
  /** "low": too little is known for the list to mean much; add findings. */
  evidence_level: "sufficient" | "low";
  species: {
    animal_type_id: number | null;
    /** true when the notes named no species and the list spans the plausible ones. */
    inferred: boolean;
  };
  note?: string;
}

export interface RankOptions {
  /** How many differentials to return (default 20). */
  limit?: number;
  /** Overrides of the ranker's constants, for scripts/eval/tune-ranker.ts only. */
  tuning?: Partial<RankTuning>;
}

/**
 * The ranker's free constants. Chosen on the real-world dev set only (scripts/eval/tune-ranker.ts;
 * docs/clinical-accuracy.md says how), never on the held-out test set.
 */
export interface RankTuning {
  /** Relative prior by prevalence tier. */
  priors: Record<KbCondition["prevalence"], number>;
  /**
   * Weight of the summed log-likelihood of the findings. Naive Bayes counts correlated findings
   * (jaundice, hyperbilirubinaemia, elevated liver enzymes) as independent evidence; a weight
   * below 1 tempers that, as a fixed correlation discount.
   */
  likelihoodWeight: number;
  /**
   * Chance that a present characteristic sign goes unmentioned in a note is 1 − this × weight:
   * a condition whose cardinal signs (weight ≥ cardinalWeight) the note does not mention loses a
   * little for each. Laboratory and imaging findings count only when the note reports results of
   * that kind.
   */
  documentation: number;
  cardinalWeight: number;
  /**
   * Softmax temperature of the scores (calibration). Chosen so the top score is calibrated both on
   * dev and on dev with 30 % of its golds' links dropped (ranker-lab --gold-dropout=0.3, which
   * mimics an unseen case). Session 15 chose 1.5 (ECE 0.104 and 0.093). With the links learned from
   * published cases (db/seed/data/case-links.json), cross-validated by batch on dev, 1.3 gives ECE
   * 0.093 and 0.087 against 0.108 and 0.088 for 1.5 (1.7: 0.131), and four fresh batches run
   * before their split had scored below their accuracy (mean top score 0.21-0.28 for top-1
   * 0.26-0.37).
   */
  temperature: number;
  /**
   * The leak of an unlisted sign: leakFloor (+ findingLeakFloor for a laboratory or imaging
   * finding) + leakShare × the sign's mean authored weight over the species' conditions, at most
   * leakCap. Authors list a condition's characteristic signs, not the non-specific ones most sick
   * animals show (tachycardia, dehydration, a stress leucogram), so the floor stands for those.
   */
  leakFloor: number;
  findingLeakFloor: number;
  leakShare: number;
  leakCap: number;
  /**
   * Share of its weight a condition's sign at a body site lends to another present sign at the
   * same site or region (an intestinal mass and thickened intestines; an abdominal mass and
   * splenomegaly): the condition is about the right organ even if not in those words.
   */
  siteShare: number;
  /**
   * Scale of the shares by which a condition listing a sign explains its ordinary consequences
   * (sign-consequences.ts: fever → tachycardia, anaemia → pale membranes); 0 turns it off.
   */
  consequenceShare: number;
  /**
   * Priors for a note that says little: with few informative findings the patient is most likely
   * an ordinary first-opinion case, where prevalence differs by orders of magnitude (acute
   * gastroenteritis against septic peritonitis for a dog that vomited twice). The prior moves from
   * these towards `priors` as the findings' information (nats) grows to commonPriorNats: notes
   * with a full work-up come from a setting where the unusual is much more frequent.
   */
  commonPriors: Record<KbCondition["prevalence"], number>;
  commonPriorNats: number;
  /**
   * Weight (nats per BM25 point) of how well the note's words match the condition's name,
   * synonyms and description (condition-text.ts); 0 turns it off. The sign model sees only the
   * signs the catalogue names; the rest of the words also say which organ and what happened.
   * 0.2 on dev (0.1-0.3 within a case of each other; 0.4 worse), checked on a fresh batch.
   */
  textWeight: number;
  /**
   * Share of its weight a condition's sign lends to a present sign the catalogue's conditions
   * usually list together with it (related-signs.ts: ecchymoses and gingival bleeding, dyspnoea
   * and shallow breathing), times how often they go together; 0 turns it off.
   */
  relatedShare: number;
  /**
   * Nats per log(1 + the number of signs and findings the condition lists): a condition the
   * catalogue describes fully is one vets meet and write up often, and the documentation cost of
   * its many cardinal signs otherwise pushes it below sparse rarities that explain a case's signs
   * only through the leak. 0.9 on the real-world dev part (top-3 +0.011, top-10 +0.009) and on
   * fresh batch P's dev part, unseen when chosen (76 cases: top-3 0.329 → 0.368, top-10 0.50 →
   * 0.566); a re-ranker learned on dev's other batches found the same signal (scripts/eval/
   * rerank-lab.mjs). The gold-dropout proxy disagrees (−0.005), as it must: it removes links from
   * the golds only, so it cannot judge a feature that counts links.
   */
  richness: number;
}

export const DEFAULT_TUNING: RankTuning = {
  priors: { very_common: 4, common: 3, uncommon: 1.5, rare: 0.7 },
  likelihoodWeight: 1,
  documentation: 0.3,
  cardinalWeight: 0.8,
  temperature: 1.3,
  leakFloor: 0.01,
  findingLeakFloor: 0,
  leakShare: 0.5,
  leakCap: 0.25,
  siteShare: 0.15,
  consequenceShare: 0.5,
  commonPriors: { very_common: 30, common: 8, uncommon: 1.5, rare: 0.3 },
  commonPriorNats: 8,
  textWeight: 0.2,
  relatedShare: 0.5,
  richness: 0.9,
};

/** Below this much information (nats, summed over present findings) the list is low-evidence. */
const LOW_EVIDENCE_NATS = 4;
/** Likelihood ratios for what the notes say of the animal's surroundings and history. */
const ENVIRONMENT_MATCH_LR = 2;
const INDOOR_OUTDOOR_MISMATCH_LR = 0.4;
const UNVACCINATED_LR = 3;
const VACCINATED_LR = 0.3;
const TRAVEL_LR = 3;
/** Share of first-opinion patients by species, for notes that name none. */
const SPECIES_SHARE: Record<string, number> = {
  dog: 0.42,
  cat: 0.32,
  horse: 0.05,
  rabbit: 0.04,
  cattle: 0.03,
  guinea_pig: 0.015,
  sheep: 0.015,
  ferret: 0.01,
  goat: 0.01,
  pig: 0.01,
  chicken: 0.01,
  parrot: 0.01,
};
const OTHER_SPECIES_SHARE = 0.004;
/**
 * A condition listing only a general sign explains a specific form of it with this share of its
 * weight, over √(number of its specific forms): "pain" has many forms, "diarrhoea" few.
 */
const GENERAL_TO_SPECIFIC = 0.6;
/** Share of a specific sign's weight that a mention of only its general form carries. */
const SPECIFIC_TO_GENERAL = 0.7;
/** Likelihood ratio for a predisposed breed, and for a known pure breed not among the predisposed. */
const BREED_LR = 3;
const BREED_OTHER_LR = 0.85;
/** A cross counts this much of its parent breed (in log space). */
const CROSS_SHARE = 0.5;
const AGE_IN_LR = 1.2;
const AGE_OUT_LR = 0.5;
const AGE_FLOOR_LR = 0.05;
const SEX_MATCH_LR = 1.5;
const SEX_MISMATCH_LR = 0.25;
/** The wrong sex for a sex-limited organ, or the wrong neuter status for a gonad-dependent condition. */
const ORGAN_MISMATCH_LR = 0.02;
const NEUTER_MATCH_LR = 1.3;
const NEUTER_MISMATCH_LR = 0.35;
/** Absent signs: a condition keeps at least this factor however characteristic the sign. */
const ABSENT_FLOOR = 0.05;
/** Unexplained present signs with a leak below this are listed as evidence against. */
const INFORMATIVE_LEAK = 0.1;
const AGAINST_MIN_WEIGHT = 0.25;

/** Conditions of organs only one sex has: the other sex can hardly have them. */
const SEX_LIMITED_ORGAN =
  /\b(pyometra|metritis|mastitis|mammary|uter\w*|ovar\w*|vulv\w*|vagin\w*|pregnan\w*|pseudopregnancy|dystocia|eclampsia|egg|prostat\w*|testic\w*|scrot\w*|penile|preput\w*|paraphimosis|cryptorchid\w*|milk fever|retained fetal membranes|follicular stasis)\b/i;
/** Conditions of the gonads or needing their hormones: neuter status decides (an ovarian remnant needs a spay). */
const GONAD_DEPENDENT =
  /\b(pyometra|metritis|uter\w*|ovar\w*|pregnan\w*|pseudopregnancy|dystocia|eclampsia|prostat\w*|testic\w*)\b/i;

interface Finding {
  id: number;
  name: string;
  /** A laboratory or imaging finding rather than a clinical sign. */
  finding: boolean;
  /** General signs this one is a form of, with the share of their weight that carries over. */
  parents: { id: number; share: number }[];
  childIds: number[];
  /** Signs at the same body site, with the share of their weight that carries over. */
  siteSiblings: { id: number; share: number }[];
  /** Signs this one ordinarily follows from (fever for tachycardia), with their share. */
  causes: { id: number; share: number }[];
  /** Signs the catalogue's conditions usually list together with this one, with their share. */
  related: { id: number; share: number }[];
  /** The chance a condition that does not list this sign shows it anyway (tuned). */
  leak: number;
  /** The leak by the knowledge base's own constants, for how much a finding says (low evidence). */
  baseLeak: number;
}

function findingsOf(kb: KnowledgeBase, species: KbSpecies, ids: number[], tuning: RankTuning): Finding[] {
  const seen = new Set<number>();
  const findings: Finding[] = [];
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const symptom = kb.symptoms.get(id);
    if (!symptom) continue;
    findings.push({
      id,
      name: symptom.name,
      finding: symptom.finding,
      parents: symptom.parentIds.map((parentId) => ({
        id: parentId,
        share: GENERAL_TO_SPECIFIC / Math.sqrt(Math.max(1, kb.symptoms.get(parentId)?.childIds.length ?? 1)),
      })),
      childIds: symptom.childIds,
      siteSiblings:
        tuning.siteShare > 0
          ? symptom.siteSiblingIds.map((siblingId) => ({ id: siblingId, share: tuning.siteShare }))
          : [],
      causes:
        tuning.consequenceShare > 0
          ? (consequenceCauses(kb).get(id) ?? []).map((c) => ({
              id: c.id,
              share: Math.min(0.95, c.share * tuning.consequenceShare),
            }))
          : [],
      related:
        tuning.relatedShare > 0
          ? (relatedSigns(kb).get(id) ?? []).map((r) => ({
              id: r.id,
              share: r.strength * tuning.relatedShare,
            }))
          : [],
      leak: Math.min(
        tuning.leakCap,
        tuning.leakFloor +
          (symptom.finding ? tuning.findingLeakFloor : 0) +
          tuning.leakShare * (species.meanWeight.get(id) ?? 0),
      ),
      baseLeak: species.leak.get(id) ?? species.defaultLeak,
    });
  }
  return findings;
}

/** P(sign | condition): the authored weight, implied by a listed specific sign, or derived from a general one. */
function signProbability(condition: KbCondition, finding: Finding): { p: number; explained: boolean } {
  const direct = condition.signs.get(finding.id);
  let implied = 0;
  // A general sign ("diarrhoea") reported for a condition known by a specific form of it
  // ("haemorrhagic diarrhoea"): the vet would usually have written the specific form, so the
  // general mention counts at a share of the specific form's weight.
  for (const childId of finding.childIds)
    implied = Math.max(implied, (condition.signs.get(childId) ?? 0) * SPECIFIC_TO_GENERAL);
  if (direct !== undefined) return { p: Math.max(direct, implied), explained: true };
  if (implied > 0) return { p: Math.max(implied, finding.leak), explained: true };
  let derived = 0;
  for (const parent of finding.parents) {
    derived = Math.max(derived, (condition.signs.get(parent.id) ?? 0) * parent.share);
  }
  if (derived > finding.leak) return { p: derived, explained: true };
  for (const sibling of finding.siteSiblings) {
    derived = Math.max(derived, (condition.signs.get(sibling.id) ?? 0) * sibling.share);
  }
  if (derived > finding.leak) return { p: derived, explained: true };
  for (const cause of finding.causes) {
    derived = Math.max(derived, (condition.signs.get(cause.id) ?? 0) * cause.share);
  }
  if (derived > finding.leak) return { p: derived, explained: true };
  for (const related of finding.related) {
    derived = Math.max(derived, (condition.signs.get(related.id) ?? 0) * related.share);
  }
  if (derived > finding.leak) return { p: derived, explained: false };
  return { p: finding.leak, explained: false };
}

const causesByKb = new WeakMap<KnowledgeBase, Map<number, { id: number; share: number }[]>>();

/** SIGN_CONSEQUENCES by the knowledge base's sign ids: consequence id → its causes. */
function consequenceCauses(kb: KnowledgeBase): Map<number, { id: number; share: number }[]> {
  let causes = causesByKb.get(kb);
  if (causes) return causes;
  const idByName = new Map([...kb.symptoms.values()].map((s) => [s.name, s.id]));
  causes = new Map();
  for (const [consequence, share, names] of SIGN_CONSEQUENCES) {
    const id = idByName.get(consequence);
    if (id === undefined) continue;
    const list = names.flatMap((name) => {
      const causeId = idByName.get(name);
      return causeId === undefined ? [] : [{ id: causeId, share }];
    });
    causes.set(id, [...(causes.get(id) ?? []), ...list]);
  }
  causesByKb.set(kb, causes);
  return causes;
}

interface BreedProfile {
  /** Lower-case names of the breed (or a cross's parent) and the share of its predisposition they carry. */
  sources: { terms: string[]; share: number }[];
  /** Known pure breed (or a cross): a predisposition it lacks counts slightly against. */
  known: boolean;
}

/** Size and coat words that name a variety of a breed ("Miniature Poodle", "Long-haired Dachshund"). */
const VARIETY_WORDS =
  /^(?:(?:miniature|toy|standard|giant|medium|small|large|long|smooth|wire|rough|short|haired|coated|longhaired|shorthaired|wirehaired|-)[\s-]*)+/;
/** A variety carries most, not all, of its breed's predisposition. */
const VARIETY_SHARE = 0.8;

function breedProfile(kb: KnowledgeBase, breed: KbBreed | undefined): BreedProfile {
  if (!breed) return { sources: [], known: false };
  const parent = breed.crossOfBreedId !== null ? kb.breeds.get(breed.crossOfBreedId) : undefined;
  if (parent) return { sources: [{ terms: parent.terms, share: CROSS_SHARE }], known: true };
  if (breed.mixed) return { sources: [], known: false };
  return { sources: [{ terms: breed.terms, share: 1 }], known: true };
}

function isVarietyOf(term: string, riskBreed: string): boolean {
  // VBO style "Dachshund, Miniature" / "Dachshund (Miniature Long Haired)", or "Miniature Poodle".
  if (term.startsWith(`${riskBreed},`) || term.startsWith(`${riskBreed} (`)) return true;
  if (!term.endsWith(` ${riskBreed}`)) return false;
  const prefix = term.slice(0, term.length - riskBreed.length - 1);
  return prefix.replace(VARIETY_WORDS, "") === "";
}

/** Share (0-1) of a predisposition the breed carries: the breed itself, a variety of it, a cross. */
function breedShare(profile: BreedProfile, riskBreeds: string[]): number {
  let best = 0;
  for (const source of profile.sources) {
    for (const riskBreed of riskBreeds) {
      for (const term of source.terms) {
        if (term === riskBreed) best = Math.max(best, source.share);
        else if (isVarietyOf(term, riskBreed)) best = Math.max(best, VARIETY_SHARE * source.share);
      }
    }
  }
  return best;
}

function ageLogLr(condition: KbCondition, age: number): number {
  const { ageMin, ageMax } = condition.risk;
  if (ageMin === null && ageMax === null) return 0;
  let distance = 0;
  let bound = 0;
  if (ageMin !== null && age < ageMin) {
    distance = ageMin - age;
    bound = ageMin;
  } else if (ageMax !== null && age > ageMax) {
    distance = age - ageMax;
    bound = ageMax;
  }
  if (distance === 0) return Math.log(AGE_IN_LR);
  // Soft: just outside the range costs a little, far outside costs more, never to zero.
  const scale = Math.max(1, 0.5 * bound);
  return Math.log(Math.max(AGE_FLOOR_LR, AGE_OUT_LR * Math.exp(-distance / scale)));
}

/**
 * Poisonings, overdoses and envenomations need an exposure: without one in the note (a toxin or
 * foreign material named, scavenging, a drug given) they are less likely than their signs alone
 * suggest; with one, more.
 */
const EXPOSURE_CONDITION =
  /\b(toxicosis|toxicity|poisoning|intoxication|overdose|envenom\w*|toxic\b|ingestion|iatrogenic|drug reaction|adverse drug)/i;
const NO_EXPOSURE_LR = 0.35;
/** Signs that report an exposure. */
const EXPOSURE_SIGNS = new Set(["toxin exposure", "foreign body ingestion", "pica"]);
const EXPOSURE_LR = 2;
/**
 * The note names the very agent of this poisoning ("ate rat bait", a dog's spot-on put on a cat):
 * the history a vet reads first. Another poisoning is then much less likely than its signs alone
 * suggest: the owner named what the animal met.
 */
const AGENT_MATCH_LR = 12;
const OTHER_AGENT_LR = 0.2;

function exposureLogLr(condition: KbCondition, exposed: boolean, agents: string[]): number {
  if (!EXPOSURE_CONDITION.test(condition.name)) return 0;
  if (agents.length > 0) {
    const text = [condition.name, ...condition.synonyms].join(" | ");
    const named = TOXIC_AGENTS.some((a) => agents.includes(a.key) && a.condition.test(text));
    return Math.log(named ? AGENT_MATCH_LR : OTHER_AGENT_LR);
  }
  return Math.log(exposed ? EXPOSURE_LR : NO_EXPOSURE_LR);
}

function contextLogLr(condition: KbCondition, context: RiskContextInput | null | undefined): number {
  if (!context) return 0;
  const risk = condition.risk;
  let logLr = 0;
  const environment = context.environment ?? [];
  if (risk.environment.length > 0 && environment.length > 0) {
    if (risk.environment.some((e) => environment.includes(e))) logLr += Math.log(ENVIRONMENT_MATCH_LR);
    else if (
      (risk.environment.includes("outdoor") && environment.includes("indoor")) ||
      (risk.environment.includes("indoor") && environment.includes("outdoor"))
    )
      logLr += Math.log(INDOOR_OUTDOOR_MISMATCH_LR);
  }
  if (risk.unvaccinated && context.vaccinated === false) logLr += Math.log(UNVACCINATED_LR);
  if (risk.unvaccinated && context.vaccinated === true) logLr += Math.log(VACCINATED_LR);
  if (risk.travel && context.travelled === true) logLr += Math.log(TRAVEL_LR);
  return logLr;
}

function riskLogLr(
  condition: KbCondition,
  profile: BreedProfile,
  age: number | null,
  sex: "male" | "female" | null,
  neutered: boolean | null,
): number {
  const risk = condition.risk;
  let logLr = 0;
  if (risk.breeds.length > 0 && profile.known) {
    const share = breedShare(profile, risk.breeds);
    const otherShare = profile.sources.reduce((max, s) => Math.max(max, s.share), 0);
    logLr += share > 0 ? share * Math.log(BREED_LR) : otherShare * Math.log(BREED_OTHER_LR);
  }
  if (age !== null) logLr += ageLogLr(condition, age);
  if (risk.sex !== null && sex !== null) {
    const sexLimited = SEX_LIMITED_ORGAN.test(condition.name);
    if (risk.sex === sex) logLr += Math.log(sexLimited ? 2 * SEX_MATCH_LR : SEX_MATCH_LR);
    else logLr += Math.log(sexLimited ? ORGAN_MISMATCH_LR : SEX_MISMATCH_LR);
  }
  if (risk.neutered !== null && neutered !== null) {
    if (risk.neutered === neutered) logLr += Math.log(NEUTER_MATCH_LR);
    else logLr += Math.log(GONAD_DEPENDENT.test(condition.name) ? ORGAN_MISMATCH_LR : NEUTER_MISMATCH_LR);
  }
  return logLr;
}

function validate(kb: KnowledgeBase, input: DifferentialsRequest): KbSpecies {
  const species = kb.species.get(input.animal_type_id);
  if (!species) {
    throw invalid(`Animal type ${input.animal_type_id} does not exist; GET /v1/animal-types lists them`, [
      { path: "animal_type_id", message: "unknown animal type" },
    ]);
  }
  validateSigns(kb, input);
  return species;
}

function validateSigns(
  kb: KnowledgeBase,
  input: Omit<DifferentialsRequest, "animal_type_id"> & { animal_type_id: number | null },
) {
  const errors: { path: string; message: string }[] = [];
  const check = (field: "present_symptom_ids" | "absent_symptom_ids", ids: number[]) => {
    ids.forEach((id, index) => {
      if (!kb.symptoms.has(id))
        errors.push({ path: `${field}.${index}`, message: `unknown symptom id ${id}` });
    });
  };
  check("present_symptom_ids", input.present_symptom_ids);
  check("absent_symptom_ids", input.absent_symptom_ids ?? []);
  if (errors.length > 0) {
    const ids = [...new Set(errors.map((e) => e.message.replace("unknown symptom id ", "")))].join(", ");
    throw invalid(`Unknown symptom ids: ${ids}`, errors);
  }
  if (input.breed_id != null) {
    const breed = kb.breeds.get(input.breed_id);
    if (!breed || (input.animal_type_id !== null && breed.animalTypeId !== input.animal_type_id)) {
      throw invalid(`Breed ${input.breed_id} is not a breed of animal type ${input.animal_type_id}`, [
        { path: "breed_id", message: "unknown breed for this animal type" },
      ]);
    }
  }
  if (input.gender_id != null && !kb.sexByGenderId.has(input.gender_id)) {
    throw invalid(`Gender ${input.gender_id} does not exist`, [
      { path: "gender_id", message: "unknown gender" },
    ]);
  }
}

/** The species' conditions, most probable first, with normalised posterior scores and evidence. */
export async function rankDifferentials(
  db: Database,
  input: DifferentialsRequest,
  options: RankOptions = {},
): Promise<Differential[]> {
  const kb = await loadKnowledgeBase(db);
  return rankWithKnowledgeBase(kb, input, options);
}

export function rankWithKnowledgeBase(
  kb: KnowledgeBase,
  input: DifferentialsRequest,
  options: RankOptions = {},
): Differential[] {
  return rankDetailed(kb, input, options).data;
}

/** Differentials for a case whose species may be unknown (animal_type_id null). */
export async function rankCase(
  db: Database,
  input: Omit<DifferentialsRequest, "animal_type_id"> & { animal_type_id: number | null },
  options: RankOptions = {},
): Promise<RankedDifferentials> {
  const kb = await loadKnowledgeBase(db);
  return rankDetailed(kb, input, options);
}

interface Scored {
  condition: KbCondition;
  animalTypeId: number;
  logScore: number;
}

/** What a species' conditions are scored against: the patient and the findings, read once. */
interface ScoringContext {
  kb: KnowledgeBase;
  species: KbSpecies;
  input: Omit<DifferentialsRequest, "animal_type_id">;
  speciesLogPrior: number;
  tuning: RankTuning;
  present: Finding[];
  absent: Finding[];
  profile: BreedProfile;
  sex: "male" | "female" | null;
  age: number | null;
  neutered: boolean | null;
  /** Relative prior by prevalence tier for this note (RankTuning.commonPriors). */
  priors: RankTuning["priors"];
  priorTotal: number;
  mentioned: Set<number>;
  reportsFindings: boolean;
  exposed: boolean;
  /** condition id → BM25 match of the note's words with its text. */
  textScores: Map<number, number>;
}

function scoringContext(
  kb: KnowledgeBase,
  species: KbSpecies,
  input: Omit<DifferentialsRequest, "animal_type_id">,
  speciesLogPrior: number,
  tuning: RankTuning,
  textScores: Map<number, number>,
): ScoringContext {
  const presentIds = new Set(input.present_symptom_ids);
  const present = findingsOf(kb, species, input.present_symptom_ids, tuning);
  // A sign reported both present and absent counts as present.
  const absent = findingsOf(
    kb,
    species,
    (input.absent_symptom_ids ?? []).filter((id) => !presentIds.has(id)),
    tuning,
  );
  const breed = input.breed_id != null ? kb.breeds.get(input.breed_id) : undefined;
  const profile = breedProfile(kb, breed && breed.animalTypeId === species.animalTypeId ? breed : undefined);
  const sexKey = input.gender_id != null ? kb.sexByGenderId.get(input.gender_id) : undefined;
  // Priors are normalised within the species, so a species with many rare conditions does not
  // outweigh one with a few common ones when a list spans species.
  const blend =
    tuning.commonPriorNats > 0 ? Math.max(0, 1 - information(present) / tuning.commonPriorNats) : 0;
  const priors = Object.fromEntries(
    Object.entries(tuning.priors).map(([tier, flat]) => [
      tier,
      Math.exp(
        (1 - blend) * Math.log(flat) +
          blend * Math.log(tuning.commonPriors[tier as KbCondition["prevalence"]]),
      ),
    ]),
  ) as RankTuning["priors"];
  const priorTotal = species.conditions.reduce((sum, c) => sum + priors[prevalenceIn(c, species)], 0) || 1;
  return {
    kb,
    species,
    input,
    speciesLogPrior,
    tuning,
    present,
    absent,
    profile,
    sex: sexKey === "male" || sexKey === "female" ? sexKey : null,
    age: input.age_years ?? null,
    neutered: input.neutered ?? null,
    priors,
    priorTotal,
    mentioned: new Set([...present, ...absent].map((f) => f.id)),
    reportsFindings: present.some((f) => f.finding),
    exposed:
      input.context?.exposure === true ||
      present.some((f) => EXPOSURE_SIGNS.has(f.name)) ||
      (input.context?.environment ?? []).some((e) => e === "scavenging" || e === "raw_diet"),
    textScores,
  };
}

const prevalenceIn = (c: KbCondition, species: KbSpecies) =>
  c.prevalenceBySpecies.get(species.animalTypeId) ?? c.prevalence;

/** A condition's log score, part by part (their sum is the log posterior up to a shared constant). */
function scoreParts(ctx: ScoringContext, condition: KbCondition) {
  const { kb, tuning } = ctx;
  let present = 0;
  for (const finding of ctx.present) present += Math.log(signProbability(condition, finding).p);
  let absent = 0;
  for (const finding of ctx.absent) {
    absent += Math.log(Math.max(ABSENT_FLOOR, 1 - signProbability(condition, finding).p));
  }
  let documentation = 0;
  if (tuning.documentation > 0) {
    for (const [symptomId, weight] of condition.signs) {
      if (weight < tuning.cardinalWeight || ctx.mentioned.has(symptomId)) continue;
      const symptom = kb.symptoms.get(symptomId);
      if (!symptom || symptom.childIds.some((id) => ctx.mentioned.has(id))) continue;
      if (symptom.parentIds.some((id) => ctx.mentioned.has(id))) continue;
      if (symptom.finding && !ctx.reportsFindings) continue;
      documentation += Math.log(1 - tuning.documentation * weight);
    }
  }
  return {
    prior: ctx.speciesLogPrior + Math.log(ctx.priors[prevalenceIn(condition, ctx.species)] / ctx.priorTotal),
    risk: riskLogLr(condition, ctx.profile, ctx.age, ctx.sex, ctx.neutered),
    context:
      contextLogLr(condition, ctx.input.context) +
      exposureLogLr(condition, ctx.exposed, ctx.input.context?.agents ?? []),
    present: tuning.likelihoodWeight * present,
    absent: tuning.likelihoodWeight * absent,
    documentation: tuning.likelihoodWeight * documentation,
    text: tuning.textWeight * (ctx.textScores.get(condition.id) ?? 0),
    richness: tuning.richness * Math.log1p(condition.signs.size),
  };
}

const sumParts = (parts: Record<string, number>) => Object.values(parts).reduce((a, b) => a + b, 0);

/** Log posterior (up to a constant shared by every species) of each of a species' conditions. */
function scoreSpecies(
  kb: KnowledgeBase,
  species: KbSpecies,
  input: Omit<DifferentialsRequest, "animal_type_id">,
  speciesLogPrior: number,
  tuning: RankTuning,
  textScores: Map<number, number>,
): { scored: Scored[]; present: Finding[]; absent: Finding[] } {
  const ctx = scoringContext(kb, species, input, speciesLogPrior, tuning, textScores);
  const scored = species.conditions.map((condition) => ({
    condition,
    animalTypeId: species.animalTypeId,
    logScore: sumParts(scoreParts(ctx, condition)),
  }));
  return { scored, present: ctx.present, absent: ctx.absent };
}

/** For scripts/eval only: one condition's score parts and per-sign log-likelihoods. */
export function explainScore(
  kb: KnowledgeBase,
  input: Omit<DifferentialsRequest, "animal_type_id"> & { animal_type_id: number | null },
  conditionId: number,
  animalTypeId: number | null | undefined,
  tuning: Partial<RankTuning> = {},
): { parts: Record<string, number>; signs: string } {
  const species = kb.species.get(animalTypeId ?? -1);
  const condition = kb.conditionById.get(conditionId);
  if (!species || !condition) return { parts: {}, signs: "" };
  const full = { ...DEFAULT_TUNING, ...tuning };
  const ctx = scoringContext(kb, species, input, 0, full, textScoresFor(kb, input, full));
  const signs = ctx.present
    .map((f) => `${f.name} ${Math.log(signProbability(condition, f).p).toFixed(1)}`)
    .join(", ");
  return { parts: scoreParts(ctx, condition), signs };
}

function textScoresFor(
  kb: KnowledgeBase,
  input: Pick<DifferentialsRequest, "notes">,
  tuning: RankTuning,
): Map<number, number> {
  if (tuning.textWeight <= 0 || !input.notes) return new Map();
  return matchConditionText(kb.conditionText, noteStems(input.notes));
}

/**
 * A case lists a specific sign's general form beside it ("productive cough" and coughing): the
 * specific sign carries the evidence, so its general form is not counted again.
 */
function withoutImpliedGenerals(kb: KnowledgeBase, ids: number[]): number[] {
  const implied = new Set(ids.flatMap((id) => kb.symptoms.get(id)?.generalFormIds ?? []));
  return ids.filter((id) => !implied.has(id));
}

/** How much the present findings say, in nats: rare findings for the species say more. */
function information(present: Finding[]): number {
  return present.reduce((sum, f) => sum + Math.min(3, -Math.log(Math.max(f.baseLeak, 1e-6))), 0);
}

export function rankDetailed(
  kb: KnowledgeBase,
  input: Omit<DifferentialsRequest, "animal_type_id"> & { animal_type_id: number | null },
  options: RankOptions = {},
): RankedDifferentials {
  const limit = Math.max(0, Math.floor(options.limit ?? 20));
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const known =
    input.animal_type_id !== null ? validate(kb, { ...input, animal_type_id: input.animal_type_id }) : null;
  if (known === null) validateSigns(kb, input);
  input = { ...input, present_symptom_ids: withoutImpliedGenerals(kb, input.present_symptom_ids) };

  // The species to rank: the patient's, or (unknown, or a species without conditions of its own)
  // every species weighted by how often it is seen in practice.
  const inferred = known === null || known.conditions.length === 0;
  const speciesList: { species: KbSpecies; logPrior: number }[] = inferred
    ? [...kb.species.values()]
        .filter((sp) => sp.conditions.length > 0)
        .map((sp) => {
          const key = kb.speciesKeyById.get(sp.animalTypeId) ?? "";
          return { species: sp, logPrior: Math.log(SPECIES_SHARE[key] ?? OTHER_SPECIES_SHARE) };
        })
    : [{ species: known, logPrior: 0 }];

  const all: Scored[] = [];
  const evidence = new Map<string, { present: Finding[]; absent: Finding[] }>();
  const textScores = textScoresFor(kb, input, tuning);
  let nats = 0;
  for (const { species, logPrior } of speciesList) {
    const { scored, present, absent } = scoreSpecies(kb, species, input, logPrior, tuning, textScores);
    all.push(...scored);
    evidence.set(String(species.animalTypeId), { present, absent });
    nats = Math.max(nats, information(present));
  }
  const evidenceLevel: RankedDifferentials["evidence_level"] =
    nats < LOW_EVIDENCE_NATS ? "low" : "sufficient";
  const result: RankedDifferentials = {
    data: [],
    evidence_level: evidenceLevel,
    species: { animal_type_id: inferred ? null : input.animal_type_id, inferred },
  };
  if (inferred) {
    result.note =
      known === null
        ? "The notes name no species: differentials span the plausible species, each labelled with its species (animal_type_id). Set the patient's species for a focused list."
        : "This species has no conditions of its own in the catalogue: differentials span related species, each labelled with its species (animal_type_id).";
  }
  if (evidenceLevel === "low") {
    const lowNote =
      "Too little is known for a confident list: add examination findings or first-line results.";
    result.note = result.note ? `${result.note} ${lowNote}` : lowNote;
  }
  if (all.length === 0) return result;

  const maxLog = all.reduce((max, s) => Math.max(max, s.logScore), -Infinity);
  let total = 0;
  for (const s of all) total += Math.exp((s.logScore - maxLog) / tuning.temperature);
  all.sort((a, b) => b.logScore - a.logScore || a.condition.name.localeCompare(b.condition.name));
  // One entry per condition: a multi-species condition appears once, for its likeliest species.
  const seen = new Set<number>();
  for (const s of all) {
    if (result.data.length >= limit) break;
    if (seen.has(s.condition.id)) continue;
    seen.add(s.condition.id);
    const { present, absent } = evidence.get(String(s.animalTypeId))!;
    result.data.push({
      id: s.condition.id,
      name: s.condition.name,
      score: Math.exp((s.logScore - maxLog) / tuning.temperature) / total,
      ...(inferred ? { animal_type_id: s.animalTypeId } : {}),
      evidence: evidenceFor(s.condition, present, absent),
    });
  }
  return result;
}

function evidenceFor(
  condition: KbCondition,
  present: Finding[],
  absent: Finding[],
): Differential["evidence"] {
  const supporting: { id: number; symptom_name: string; p: number }[] = [];
  const findings: { id: number; symptom_name: string; p: number }[] = [];
  const unexplained: { id: number; symptom_name: string; p: number }[] = [];
  for (const finding of present) {
    const { p, explained } = signProbability(condition, finding);
    if (explained)
      (finding.finding ? findings : supporting).push({ id: finding.id, symptom_name: finding.name, p });
    else if (finding.baseLeak < INFORMATIVE_LEAK)
      unexplained.push({ id: finding.id, symptom_name: finding.name, p: finding.baseLeak });
  }
  const missing: { id: number; symptom_name: string; p: number }[] = [];
  for (const finding of absent) {
    const { p, explained } = signProbability(condition, finding);
    if (explained && p >= AGAINST_MIN_WEIGHT) missing.push({ id: finding.id, symptom_name: finding.name, p });
  }
  const strip = (items: { id: number; symptom_name: string; p: number }[], order: 1 | -1) =>
    items
      .sort((a, b) => order * (b.p - a.p) || a.id - b.id)
      .map(({ id, symptom_name }) => ({ id, symptom_name }));
  return {
    supporting: strip(supporting, 1),
    // Laboratory and imaging findings the condition explains, the most characteristic first.
    findings: strip(findings, 1),
    // Absent signs the condition usually shows (most characteristic first), then the most specific
    // present signs it leaves unexplained.
    against: [...strip(missing, 1), ...strip(unexplained, -1)],
  };
}

/** What a re-ranker sees of one candidate: its score parts and how it accounts for the findings. */
export interface CandidateFeatures {
  parts: Record<string, number>;
  /** Present findings the condition explains (listed, or implied through their general or specific form). */
  explained: number;
  explainedFindings: number;
  /** Present informative findings (leak < INFORMATIVE_LEAK) it leaves unexplained. */
  unexplainedInformative: number;
  present: number;
  /** Its cardinal signs (weight ≥ cardinalWeight) and how many the note reports present. */
  cardinal: number;
  cardinalPresent: number;
  /** How many signs it lists. */
  signs: number;
  /** Sum of its weights over the present findings it lists directly. */
  directWeight: number;
  prevalence: KbCondition["prevalence"];
  species: number;
}

/** For scripts/eval only: features of candidates already ranked, each for its own species. */
export function candidateFeatures(
  kb: KnowledgeBase,
  input: Omit<DifferentialsRequest, "animal_type_id"> & { animal_type_id: number | null },
  candidates: { id: number; animalTypeId: number }[],
  tuning: Partial<RankTuning> = {},
): CandidateFeatures[] {
  const full = { ...DEFAULT_TUNING, ...tuning };
  input = { ...input, present_symptom_ids: withoutImpliedGenerals(kb, input.present_symptom_ids) };
  const textScores = textScoresFor(kb, input, full);
  const contexts = new Map<number, ScoringContext>();
  return candidates.map(({ id, animalTypeId }) => {
    const species = kb.species.get(animalTypeId)!;
    let ctx = contexts.get(animalTypeId);
    if (!ctx) {
      ctx = scoringContext(kb, species, input, 0, full, textScores);
      contexts.set(animalTypeId, ctx);
    }
    const condition = kb.conditionById.get(id)!;
    let explained = 0,
      explainedFindings = 0,
      unexplainedInformative = 0,
      directWeight = 0;
    for (const finding of ctx.present) {
      const { explained: yes } = signProbability(condition, finding);
      if (yes) {
        explained++;
        if (finding.finding) explainedFindings++;
      } else if (finding.baseLeak < INFORMATIVE_LEAK) unexplainedInformative++;
      directWeight += condition.signs.get(finding.id) ?? 0;
    }
    let cardinal = 0,
      cardinalPresent = 0;
    const presentIds = new Set(ctx.present.map((f) => f.id));
    for (const [signId, weight] of condition.signs) {
      if (weight < full.cardinalWeight) continue;
      cardinal++;
      if (presentIds.has(signId)) cardinalPresent++;
    }
    return {
      parts: scoreParts(ctx, condition),
      explained,
      explainedFindings,
      unexplainedInformative,
      present: ctx.present.length,
      cardinal,
      cardinalPresent,
      signs: condition.signs.size,
      directWeight,
      prevalence: prevalenceIn(condition, species),
      species: condition.prevalenceBySpecies.size,
    };
  });
}
