#!/usr/bin/env node
// Checks the catalogue seed files (shape, uniqueness, references, minimum counts) and prints
// a JSON summary; exits 1 listing every problem. Plain Node so data authors need no build.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const dataDir = join(dirname(fileURLToPath(import.meta.url)), "data");
const problems = [];
const problem = (message) => problems.push(message);
const readJson = (file) => JSON.parse(readFileSync(join(dataDir, file), "utf8"));
const normalise = (text) => text.trim().toLowerCase().replace(/\s+/g, " ");

const animalTypes = readJson("animal-types.json");
const speciesKeys = new Set(animalTypes.map((t) => t.key));
const categoryKeys = new Set(readJson("clinical-sign-categories.json").categories.map((c) => c.key));

function checkIds(entries, label, min, max) {
  const seen = new Set();
  for (const entry of entries) {
    if (!Number.isInteger(entry.id) || entry.id < min || entry.id > max)
      problem(`${label}: id ${entry.id} of "${entry.name}" outside ${min}-${max}`);
    if (seen.has(entry.id)) problem(`${label}: duplicate id ${entry.id}`);
    seen.add(entry.id);
  }
}

function checkSpeciesList(list, where) {
  for (const key of list ?? []) if (!speciesKeys.has(key)) problem(`${where}: unknown species "${key}"`);
}

// Clinical signs
const signs = existsSync(join(dataDir, "clinical-signs.json")) ? readJson("clinical-signs.json") : [];
checkIds(signs, "clinical-signs", 1, 1999);
const phraseOwner = new Map();
let synonymCount = 0;
for (const sign of signs) {
  const where = `sign ${sign.id} "${sign.name}"`;
  if (typeof sign.name !== "string" || sign.name !== sign.name.trim() || !sign.name)
    problem(`${where}: bad name`);
  if (!categoryKeys.has(sign.category)) problem(`${where}: unknown category "${sign.category}"`);
  if (!Array.isArray(sign.synonyms)) problem(`${where}: synonyms must be an array`);
  if (sign.species !== null && !Array.isArray(sign.species))
    problem(`${where}: species must be null or a list`);
  checkSpeciesList(sign.species, where);
  if (typeof sign.source !== "string" || sign.source.length < 5) problem(`${where}: missing source`);
  for (const phrase of [sign.name, ...(sign.synonyms ?? [])]) {
    const key = normalise(phrase);
    const owner = phraseOwner.get(key);
    if (owner !== undefined && owner !== sign.id)
      problem(`${where}: phrase "${phrase}" also belongs to sign ${owner}`);
    phraseOwner.set(key, sign.id);
  }
  synonymCount += new Set((sign.synonyms ?? []).map(normalise)).size;
}
const signNames = new Map(signs.map((s) => [s.name, s]));

// Conditions
const conditionsDir = join(dataDir, "conditions");
const conditions = existsSync(conditionsDir)
  ? readdirSync(conditionsDir)
      .filter((f) => f.endsWith(".json"))
      .flatMap((f) => readJson(join("conditions", f)).map((c) => ({ ...c, file: f })))
  : [];
checkIds(conditions, "conditions", 1000, 9999);
// Mondo ids are checked against the shared reference copy when it is present (authoring machines).
const mondoFile = fileURLToPath(
  new URL("../../../shared/data/reference/derived/mondo_nonhuman_animal_terms.tsv", import.meta.url),
);
const mondoIds = existsSync(mondoFile)
  ? new Set(
      readFileSync(mondoFile, "utf8")
        .split("\n")
        .map((line) => line.split("\t")[0]),
    )
  : null;
// Risk factors a note can reveal: signalment, and the animal's surroundings and history.
const RISK_KEYS = ["breeds", "age_years", "sex", "neutered", "environment", "unvaccinated", "travel"];
const ENVIRONMENTS = [
  "outdoor", // roams or lives outdoors
  "indoor", // kept indoors only
  "multi_animal", // shelter, cattery, kennel, large herd or flock, show or sale contact
  "pasture", // grazing animals at grass
  "housed", // housed livestock
  "rural", // farm, woodland, wildlife or livestock contact
  "warm_climate", // tropical or endemic warm regions
  "water", // swimming, ponds, standing water
  "scavenging", // access to rubbish, carcasses, toxins
  "raw_diet", // raw meat or unpasteurised milk
  "poor_husbandry", // inadequate diet, heat, light or hygiene (exotics, livestock)
];
const nameSpecies = new Set();
const perSpecies = Object.fromEntries([...speciesKeys].map((k) => [k, 0]));
let linkCount = 0;
for (const condition of conditions) {
  const where = `condition ${condition.id} "${condition.name}" (${condition.file})`;
  if (!Array.isArray(condition.species) || condition.species.length === 0)
    problem(`${where}: species required`);
  checkSpeciesList(condition.species, where);
  for (const key of condition.species ?? []) {
    const pair = `${normalise(condition.name)}|${key}`;
    if (nameSpecies.has(pair)) problem(`${where}: duplicate name for species ${key}`);
    nameSpecies.add(pair);
    if (!condition.retired) perSpecies[key] = (perSpecies[key] ?? 0) + 1;
  }
  if (typeof condition.description !== "string" || condition.description.length < 20)
    problem(`${where}: description too short`);
  const tiers = ["very_common", "common", "uncommon", "rare"];
  if (condition.prevalence && typeof condition.prevalence === "object") {
    // Per-species tiers of a multi-species condition: one for each of its species.
    for (const key of condition.species ?? [])
      if (!tiers.includes(condition.prevalence[key])) problem(`${where}: no prevalence for species ${key}`);
    for (const key of Object.keys(condition.prevalence))
      if (!(condition.species ?? []).includes(key))
        problem(`${where}: prevalence for unlisted species ${key}`);
  } else if (!tiers.includes(condition.prevalence))
    problem(`${where}: bad prevalence "${condition.prevalence}"`);
  if (condition.mondo_id != null && mondoIds && !mondoIds.has(condition.mondo_id))
    problem(`${where}: mondo_id ${condition.mondo_id} not in the Mondo non-human-animal terms`);
  if (typeof condition.source !== "string" || condition.source.length < 10)
    problem(`${where}: missing source`);
  if (!Array.isArray(condition.synonyms)) problem(`${where}: synonyms must be an array`);
  const links = condition.signs ?? [];
  if (links.length < 3 || links.length > 20) problem(`${where}: ${links.length} signs (3-20 expected)`);
  const linked = new Set();
  for (const link of links) {
    if (!signNames.has(link.sign)) problem(`${where}: unknown sign "${link.sign}"`);
    if (linked.has(link.sign)) problem(`${where}: sign "${link.sign}" linked twice`);
    linked.add(link.sign);
    if (!(link.weight > 0 && link.weight < 1))
      problem(`${where}: weight ${link.weight} for "${link.sign}" not in (0,1)`);
    linkCount += 1;
  }
  const rf = condition.risk_factors;
  if (rf) {
    for (const key of Object.keys(rf))
      if (!RISK_KEYS.includes(key)) problem(`${where}: unknown risk factor ${key}`);
    if (rf.sex && !["male", "female"].includes(rf.sex)) problem(`${where}: bad sex ${rf.sex}`);
    for (const env of rf.environment ?? [])
      if (!ENVIRONMENTS.includes(env)) problem(`${where}: unknown environment "${env}"`);
    for (const key of ["unvaccinated", "travel", "neutered"])
      if (rf[key] !== undefined && typeof rf[key] !== "boolean")
        problem(`${where}: ${key} must be a boolean`);
    if (rf.age_years && typeof rf.age_years !== "object") problem(`${where}: age_years must be {min?, max?}`);
  }
}

// Coverage floors (issue 13): at least 2,500 conditions, and for each species enough that a
// first-opinion presenting problem finds its common causes.
const minimums = {
  signs: 700,
  averageSynonyms: 3,
  conditions: 2500,
  perSpecies: {
    dog: 700,
    cat: 450,
    horse: 300,
    rabbit: 120,
    cattle: 200,
    sheep: 150,
    goat: 120,
    pig: 100,
    guinea_pig: 80,
    ferret: 100,
    hamster: 50,
    rat: 50,
    mouse: 40,
    chinchilla: 50,
    gerbil: 25,
    budgerigar: 70,
    parrot: 100,
    chicken: 100,
    duck: 60,
    goose: 50,
    turkey: 80,
    bearded_dragon: 40,
    tortoise: 40,
    snake: 50,
    leopard_gecko: 30,
    donkey: 100,
    alpaca: 80,
    llama: 80,
    other: 100,
  },
};
// Links learned from labelled published cases (scripts/eval/learn-case-links.ts)
const caseLinks = existsSync(join(dataDir, "case-links.json")) ? readJson("case-links.json").links : [];
const conditionById = new Map(conditions.map((c) => [c.id, c]));
const learnedPairs = new Set();
for (const link of caseLinks) {
  const where = `case-links: condition ${link.condition_id} "${link.sign}"`;
  const condition = conditionById.get(link.condition_id);
  if (!condition) problem(`${where}: unknown condition`);
  else if (condition.name !== link.condition)
    problem(`${where}: names "${link.condition}", not "${condition.name}"`);
  else if (condition.signs.some((s) => s.sign === link.sign))
    problem(`${where}: the condition already lists it`);
  if (!signNames.has(link.sign)) problem(`${where}: unknown sign`);
  if (!(link.weight > 0 && link.weight < 1)) problem(`${where}: weight ${link.weight} not in (0,1)`);
  if (!Array.isArray(link.cases) || link.cases.length === 0) problem(`${where}: no cases`);
  const pair = `${link.condition_id}|${link.sign}`;
  if (learnedPairs.has(pair)) problem(`${where}: learned twice`);
  learnedPairs.add(pair);
}

const summary = {
  signs: signs.length,
  average_synonyms: Number((synonymCount / Math.max(signs.length, 1)).toFixed(2)),
  conditions: conditions.length,
  condition_sign_links: linkCount,
  learned_case_links: caseLinks.length,
  conditions_per_species: perSpecies,
};
if (signs.length < minimums.signs) problem(`only ${signs.length} signs (minimum ${minimums.signs})`);
if (summary.average_synonyms < minimums.averageSynonyms)
  problem(`average synonyms ${summary.average_synonyms} < 3`);
if (conditions.length < minimums.conditions)
  problem(`only ${conditions.length} conditions (minimum ${minimums.conditions})`);
for (const [key, min] of Object.entries(minimums.perSpecies))
  if ((perSpecies[key] ?? 0) < min)
    problem(`only ${perSpecies[key] ?? 0} ${key} conditions (minimum ${min})`);

console.log(JSON.stringify(summary, null, 2));
if (problems.length) {
  console.error(`${problems.length} problem(s):\n- ${problems.slice(0, 200).join("\n- ")}`);
  process.exit(1);
}
