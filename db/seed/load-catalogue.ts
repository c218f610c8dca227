// Loads the clinical catalogue (db/seed/data) into the database: idempotent upserts by stable id,
// skipped entirely when the data is unchanged since the last load (content hash in seed_state).
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { eq, getTableColumns, getTableName, inArray, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Database, Transaction } from "../index";
import { rowsOf } from "../rows";
import {
  animalTypes,
  breedTerms,
  breeds,
  conditionSigns,
  conditionTerms,
  conditionSpecies,
  conditions,
  genderTerms,
  genders,
  seedState,
  symptomCategories,
  symptomTerms,
  symptoms,
} from "../schema";
import { withSpellingVariants } from "./spelling-variants";

const dataDir = fileURLToPath(new URL("./data", import.meta.url));
// Part of the content hash: bump when the loader writes tables differently, so data reloads.
// 4: British/American spelling variants of condition and sign terms are generated (spelling-variants.ts;
// the generated terms are hashed too, so changing its rules needs no bump here). 6: a practice
// alias takes its term from any other breed of the species ("springer spaniel", "basset").
const LOADER_VERSION = "6";

interface AnimalTypeEntry {
  id: number;
  key: string;
  name: string;
  synonyms: string[];
  source: string;
}
interface BreedEntry {
  id: number;
  species: string;
  name: string;
  synonyms: string[];
  mixed: boolean;
  vbo_id: string;
}
interface BreedAliases {
  aliases: { species: string; breed: string; aliases: string[] }[];
  authored_breeds: {
    id: number;
    species: string;
    name: string;
    cross_of: string | null;
    aliases: string[];
    source: string;
  }[];
}
interface GenderData {
  source: string;
  genders: { id: number; key: string; name: string; fhir_code: string }[];
  terms: { gender: string; neutered: boolean | null; species: string[] | null; terms: string[] }[];
}
interface SignEntry {
  id: number;
  name: string;
  category: string;
  synonyms: string[];
  species: string[] | null;
  source: string;
  retired?: boolean;
}
type Prevalence = "very_common" | "common" | "uncommon" | "rare";
const TIERS: Prevalence[] = ["very_common", "common", "uncommon", "rare"];

/** The condition's own tier: the commonest of its per-species tiers. */
function overallPrevalence(prevalence: ConditionEntry["prevalence"]): Prevalence {
  if (typeof prevalence === "string") return prevalence;
  const tiers = Object.values(prevalence);
  return TIERS.find((tier) => tiers.includes(tier)) ?? "rare";
}

interface ConditionEntry {
  id: number;
  name: string;
  synonyms: string[];
  species: string[];
  description: string;
  mondo_id?: string | null;
  /** One tier for every species, or a tier per species key for a multi-species condition. */
  prevalence: Prevalence | Record<string, Prevalence>;
  risk_factors?: Record<string, unknown> | null;
  signs: { sign: string; weight: number }[];
  source: string;
  retired?: boolean;
}

export interface CatalogueData {
  animalTypes: AnimalTypeEntry[];
  categories: { key: string; name: string }[];
  breeds: BreedEntry[];
  breedAliases: BreedAliases;
  genders: GenderData;
  signs: SignEntry[];
  conditions: ConditionEntry[];
  /** The British/American spelling variants added to condition and sign synonyms, as `id:variant`. */
  generatedSpellings: { conditions: string[]; signs: string[] };
  hash: string;
}

/**
 * A link learned from labelled published cases (`case-links.json`, written by
 * scripts/eval/learn-case-links.ts): a sign those cases showed that the condition's authored
 * entry does not list, with the cases it was learned from.
 */
interface CaseLink {
  condition_id: number;
  condition: string;
  sign: string;
  weight: number;
  cases: string[];
}

/** Reads and cross-checks the seed files; throws on a dangling reference. */
export function readCatalogueData(
  directory = dataDir,
  /** caseLinks false: the authored links only (for cross-validating the learned ones). */
  { caseLinks = true }: { caseLinks?: boolean } = {},
): CatalogueData {
  const hash = createHash("sha256").update(`loader ${LOADER_VERSION}`);
  const read = <T>(file: string): T => {
    const text = readFileSync(path.join(directory, file), "utf8");
    hash.update(file).update(text);
    return JSON.parse(text) as T;
  };
  const conditionFiles = readdirSync(path.join(directory, "conditions"))
    .filter((file) => file.endsWith(".json"))
    .sort();
  const data = {
    animalTypes: read<AnimalTypeEntry[]>("animal-types.json"),
    categories: read<{ categories: { key: string; name: string }[] }>("clinical-sign-categories.json")
      .categories,
    breeds: read<BreedEntry[]>("breeds.json"),
    breedAliases: read<BreedAliases>("breed-aliases.json"),
    genders: read<GenderData>("genders.json"),
    signs: read<SignEntry[]>("clinical-signs.json"),
    conditions: withCaseLinks(
      conditionFiles.flatMap((file) => read<ConditionEntry[]>(path.join("conditions", file))),
      caseLinks ? read<{ links: CaseLink[] }>("case-links.json").links : [],
    ),
  };
  // Each condition and sign also answers to the other spelling of its terms ("haemorrhagic" ↔
  // "hemorrhagic", "tumour" ↔ "tumor"), unless that spelling is another one's term: another
  // condition of one of its species, or any other sign (a sign phrase belongs to one sign).
  const conditions = withSpellingVariants(data.conditions, (condition) => condition.species);
  const signs = withSpellingVariants(data.signs, () => [null]);
  // The generated terms are part of the content: a change to the spelling rules reloads the data.
  hash.update(conditions.generated.join("\n")).update(signs.generated.join("\n"));
  return {
    ...data,
    breedAliases: withGeneratedCrosses(data.breeds, data.breedAliases),
    conditions: conditions.entries,
    signs: signs.entries,
    generatedSpellings: { conditions: conditions.generated, signs: signs.generated },
    hash: hash.digest("hex"),
  };
}

/** The conditions with their learned links added; an authored link of the same sign wins. */
function withCaseLinks(entries: ConditionEntry[], links: CaseLink[]): ConditionEntry[] {
  const byCondition = new Map<number, CaseLink[]>();
  for (const link of links)
    byCondition.set(link.condition_id, [...(byCondition.get(link.condition_id) ?? []), link]);
  const known = new Set(entries.map((entry) => entry.id));
  for (const id of byCondition.keys())
    if (!known.has(id)) throw new Error(`case-links.json: unknown condition ${id}`);
  return entries.map((entry) => {
    const learned = byCondition.get(entry.id);
    if (!learned) return entry;
    const authored = new Set(entry.signs.map((link) => link.sign));
    const added = learned.filter((link) => !authored.has(link.sign));
    return { ...entry, signs: [...entry.signs, ...added.map(({ sign, weight }) => ({ sign, weight }))] };
  });
}

/** Species whose notes describe crosses by a parent breed ("Aussie mix", "pit bull x", "Suffolk cross ewe", "Morgan cross"). */
const CROSS_SPECIES = new Set([
  "dog",
  "cat",
  "horse",
  "donkey",
  "cattle",
  "sheep",
  "goat",
  "pig",
  "rabbit",
  "guinea_pig",
]);
/** Ids of generated crosses: this plus the parent breed's id, so they never move. */
const GENERATED_CROSS_ID_BASE = 5_000_000;

/**
 * Every dog and cat breed with practice aliases gets a cross ("Australian Shepherd cross": "aussie
 * x", "australian shepherd mix") unless one is authored, so a note's "X cross" is recorded as that
 * cross rather than as the pure breed; the ranker counts half the parent's predispositions.
 */
function withGeneratedCrosses(breeds: BreedEntry[], aliases: BreedAliases): BreedAliases {
  const crossed = new Set(
    aliases.authored_breeds.filter((b) => b.cross_of).map((b) => `${b.species}|${b.cross_of}`),
  );
  const byName = new Map(breeds.map((b) => [`${b.species}|${b.name}`, b]));
  const generated: BreedAliases["authored_breeds"] = [];
  for (const entry of aliases.aliases) {
    const key = `${entry.species}|${entry.breed}`;
    const parent = byName.get(key);
    if (!CROSS_SPECIES.has(entry.species) || !parent || parent.mixed || crossed.has(key)) continue;
    crossed.add(key);
    const terms = uniqueLower([parent.name, ...entry.aliases]);
    generated.push({
      id: GENERATED_CROSS_ID_BASE + parent.id,
      species: entry.species,
      name: `${parent.name} cross`,
      cross_of: parent.name,
      aliases: terms.flatMap((t) => [
        `${t} cross`,
        `${t} x`,
        `${t} mix`,
        `${t}-x`,
        `${t}-cross`,
        `${t} crossbreed`,
      ]),
      source:
        "generated: first-cross description of a breed with practice aliases (db/seed/load-catalogue.ts)",
    });
  }
  return { ...aliases, authored_breeds: [...aliases.authored_breeds, ...generated] };
}

const uniqueLower = (values: string[]) => [
  ...new Set(values.map((v) => v.trim().toLowerCase()).filter(Boolean)),
];

/**
 * Inserts rows (optionally upserting on `conflict`, every other inserted column updated) with one
 * statement per chunk, its rows as a single JSON parameter that PostgreSQL expands with the
 * table's own row type (`json_populate_recordset`). Building the same rows as drizzle
 * `insert().values()` bound one parameter per value (~300k for the catalogue) and spent most of
 * the load in drizzle and the driver rather than in the database (docs/performance.md).
 */
async function insertRows<T extends PgTable>(
  tx: Transaction,
  table: T,
  rows: T["$inferInsert"][],
  conflict?: PgColumn,
  size = 10_000,
) {
  const first = rows[0];
  if (!first) return;
  // The columns the rows give (a serial id is left to its default), in the table's order.
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(
    ([key]) => key in first,
  );
  const names = columns.map(([, column]) => `"${column.name}"`);
  const list = sql.raw(names.join(", "));
  const onConflict = conflict
    ? sql.raw(
        ` on conflict ("${conflict.name}") do update set ${names
          .filter((name) => name !== `"${conflict.name}"`)
          .map((name) => `${name} = excluded.${name}`)
          .join(", ")}`,
      )
    : sql``;
  for (let start = 0; start < rows.length; start += size) {
    const chunk = rows.slice(start, start + size) as Record<string, unknown>[];
    const json = JSON.stringify(
      chunk.map((row) => Object.fromEntries(columns.map(([key, column]) => [column.name, row[key] ?? null]))),
    );
    await tx.execute(
      sql`insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ${json}::json)${onConflict}`,
    );
  }
}

function buildRows(data: CatalogueData) {
  const speciesId = new Map(data.animalTypes.map((t) => [t.key, t.id]));
  const idOfSpecies = (key: string) => {
    const id = speciesId.get(key);
    if (id === undefined) throw new Error(`Seed data names unknown species "${key}"`);
    return id;
  };
  const categoryId = new Map(data.categories.map((c, index) => [c.key, index + 1]));

  const aliasesByBreed = new Map<string, string[]>();
  for (const entry of data.breedAliases.aliases) {
    const key = `${entry.species}|${entry.breed}`;
    aliasesByBreed.set(key, [...(aliasesByBreed.get(key) ?? []), ...entry.aliases]);
  }
  const breedRows = data.breeds.map((breed) => ({
    id: breed.id,
    animalTypeId: idOfSpecies(breed.species),
    name: breed.name,
    synonyms: uniqueLower([
      ...breed.synonyms,
      ...(aliasesByBreed.get(`${breed.species}|${breed.name}`) ?? []),
    ]),
    mixed: breed.mixed,
    crossOfBreedId: null as number | null,
    vboId: breed.vbo_id as string | null,
    source: `Vertebrate Breed Ontology ${breed.vbo_id} (CC-BY 4.0)`,
  }));
  const breedIdByName = new Map(data.breeds.map((b) => [`${b.species}|${b.name}`, b.id]));
  for (const authored of data.breedAliases.authored_breeds) {
    breedRows.push({
      id: authored.id,
      animalTypeId: idOfSpecies(authored.species),
      name: authored.name,
      synonyms: uniqueLower(authored.aliases.filter((a) => a.toLowerCase() !== authored.name.toLowerCase())),
      mixed: authored.cross_of !== null || /\bcross/i.test(authored.name),
      crossOfBreedId: authored.cross_of
        ? (breedIdByName.get(`${authored.species}|${authored.cross_of}`) ?? null)
        : null,
      vboId: null,
      source: authored.source,
    });
  }

  const genderId = new Map(data.genders.genders.map((g) => [g.key, g.id]));
  const genderTermRows = data.genders.terms.flatMap((group) =>
    (group.species ?? [null]).flatMap((species) =>
      group.terms.map((term) => ({
        term: term.toLowerCase(),
        genderId: genderId.get(group.gender) ?? 3,
        neutered: group.neutered,
        animalTypeId: species === null ? null : idOfSpecies(species),
      })),
    ),
  );

  const symptomRows = data.signs.map((sign) => {
    const category = categoryId.get(sign.category);
    if (category === undefined) throw new Error(`Sign ${sign.id} has unknown category ${sign.category}`);
    return {
      id: sign.id,
      name: sign.name,
      categoryId: category,
      synonyms: uniqueLower(sign.synonyms),
      animalTypeIds: sign.species ? sign.species.map(idOfSpecies) : null,
      source: sign.source,
      retired: sign.retired ?? false,
    };
  });
  const symptomTermRows = symptomRows.flatMap((row) =>
    uniqueLower([row.name, ...row.synonyms]).map((term) => ({
      symptomId: row.id,
      term,
      isName: term === row.name.toLowerCase(),
    })),
  );

  // A practice alias says what vets mean by a term: "springer spaniel" is the English Springer
  // Spaniel, "basset" the Basset Hound, even where the ontology has a generic breed of that name.
  const aliasOwner = new Map<string, number>();
  for (const entry of data.breedAliases.aliases) {
    const id = breedIdByName.get(`${entry.species}|${entry.breed}`);
    if (id === undefined) continue;
    for (const alias of entry.aliases)
      aliasOwner.set(`${idOfSpecies(entry.species)}|${alias.toLowerCase()}`, id);
  }
  const breedTermRows = breedRows.flatMap((row) =>
    uniqueLower([row.name, ...row.synonyms])
      .filter((term) => (aliasOwner.get(`${row.animalTypeId}|${term}`) ?? row.id) === row.id)
      .map((term) => ({
        breedId: row.id,
        animalTypeId: row.animalTypeId,
        term,
        isName: term === row.name.toLowerCase(),
      })),
  );

  const symptomIdByName = new Map(data.signs.map((s) => [s.name, s.id]));
  const conditionRows = data.conditions.map((condition) => ({
    id: condition.id,
    name: condition.name,
    synonyms: condition.synonyms,
    description: condition.description,
    prevalence: overallPrevalence(condition.prevalence),
    mondoId: condition.mondo_id ?? null,
    riskFactors: condition.risk_factors ?? null,
    source: condition.source,
    retired: condition.retired ?? false,
  }));
  const conditionTermRows = conditionRows.flatMap((row) =>
    uniqueLower([row.name, ...row.synonyms]).map((term) => ({
      conditionId: row.id,
      term,
      isName: term === row.name.toLowerCase(),
    })),
  );
  const conditionSpeciesRows = data.conditions.flatMap((condition) =>
    condition.species.map((species) => ({
      conditionId: condition.id,
      animalTypeId: idOfSpecies(species),
      prevalence: typeof condition.prevalence === "string" ? null : (condition.prevalence[species] ?? null),
    })),
  );
  const conditionSignRows = data.conditions.flatMap((condition) =>
    condition.signs.map((link) => {
      const symptomId = symptomIdByName.get(link.sign);
      if (symptomId === undefined)
        throw new Error(`Condition ${condition.id} links unknown sign "${link.sign}"`);
      return { conditionId: condition.id, symptomId, weight: link.weight };
    }),
  );

  return {
    animalTypeRows: data.animalTypes.map((t) => ({
      id: t.id,
      key: t.key,
      name: t.name,
      synonyms: uniqueLower(t.synonyms),
      source: t.source,
    })),
    categoryRows: data.categories.map((c, index) => ({ id: index + 1, key: c.key, name: c.name })),
    breedRows,
    breedTermRows,
    genderRows: data.genders.genders.map((g) => ({
      id: g.id,
      key: g.key,
      name: g.name,
      fhirCode: g.fhir_code,
    })),
    genderTermRows,
    symptomRows,
    symptomTermRows,
    conditionRows,
    conditionTermRows,
    conditionSpeciesRows,
    conditionSignRows,
  };
}

/** The tables the load fills in bulk; on a fresh load their foreign keys are checked once per table. */
const BULK_TABLES = [
  genderTerms,
  breeds,
  breedTerms,
  symptoms,
  symptomTerms,
  conditions,
  conditionTerms,
  conditionSpecies,
  conditionSigns,
];

/**
 * On a fresh database (every bulk table empty), drops the bulk tables' foreign keys and returns a
 * function that adds them back, definitions and names read from the catalogue
 * (`pg_get_constraintdef`), so each is validated in one pass over the table. Checked per row, as
 * PostgreSQL does on insert, they were ~155k lookups and about a fifth of the load on PGlite. The
 * exclusive locks this takes are harmless on a fresh database: start-up loads before it serves,
 * and a second instance waits on the load's advisory lock. Later loads, which replace rows that a
 * running server may be reading, keep the per-row checks. Runs inside the load's transaction: on
 * any failure the constraints are back as they were.
 */
async function deferForeignKeysOnFreshLoad(tx: Transaction): Promise<() => Promise<void>> {
  const names = BULK_TABLES.map((table) => getTableName(table));
  const [empty] = rowsOf<{ fresh: boolean }>(
    await tx.execute(
      sql.raw(`select ${names.map((name) => `not exists (select 1 from "${name}")`).join(" and ")} as fresh`),
    ),
  );
  if (!empty?.fresh) return async () => {};
  const keys = rowsOf<{ table: string; name: string; definition: string }>(
    await tx.execute(sql`
      select c.relname as "table", k.conname as "name", pg_get_constraintdef(k.oid) as "definition"
      from pg_constraint k join pg_class c on c.oid = k.conrelid
      where k.contype = 'f'
        and k.conrelid in (${sql.join(
          names.map((name) => sql`to_regclass(${name}::text)`),
          sql`, `,
        )})
      order by k.oid`),
  );
  for (const key of keys)
    await tx.execute(
      sql`alter table ${sql.identifier(key.table)} drop constraint ${sql.identifier(key.name)}`,
    );
  return async () => {
    for (const key of keys)
      await tx.execute(
        sql`alter table ${sql.identifier(key.table)} add constraint ${sql.identifier(key.name)} ${sql.raw(key.definition)}`,
      );
  };
}

async function writeCatalogue(tx: Transaction, rows: ReturnType<typeof buildRows>) {
  const restoreForeignKeys = await deferForeignKeysOnFreshLoad(tx);
  await insertRows(tx, animalTypes, rows.animalTypeRows, animalTypes.id);
  await insertRows(tx, symptomCategories, rows.categoryRows, symptomCategories.id);
  await insertRows(tx, genders, rows.genderRows, genders.id);
  await tx.delete(genderTerms);
  await insertRows(tx, genderTerms, rows.genderTermRows);
  await insertRows(tx, breeds, rows.breedRows, breeds.id);
  await tx.delete(breedTerms);
  await insertRows(tx, breedTerms, rows.breedTermRows);
  await insertRows(tx, symptoms, rows.symptomRows, symptoms.id);
  await tx.delete(symptomTerms);
  await insertRows(tx, symptomTerms, rows.symptomTermRows);
  await insertRows(tx, conditions, rows.conditionRows, conditions.id);
  await tx.delete(conditionTerms);
  await insertRows(tx, conditionTerms, rows.conditionTermRows);
  const conditionIds = rows.conditionRows.map((c) => c.id);
  if (conditionIds.length) {
    await tx.delete(conditionSpecies).where(inArray(conditionSpecies.conditionId, conditionIds));
    await tx.delete(conditionSigns).where(inArray(conditionSigns.conditionId, conditionIds));
  }
  await insertRows(tx, conditionSpecies, rows.conditionSpeciesRows);
  await insertRows(tx, conditionSigns, rows.conditionSignRows);
  await restoreForeignKeys();
  await tx.execute(sql`analyze symptom_terms, breed_terms, condition_terms`);
}

export interface LoadResult {
  loaded: boolean;
  counts: Record<string, number>;
}

/** Loads the catalogue unless the same data is already loaded. Safe to run on every start. */
export async function loadCatalogue(db: Database, data = readCatalogueData()): Promise<LoadResult> {
  const rows = buildRows(data);
  const counts = {
    animal_types: rows.animalTypeRows.length,
    breeds: rows.breedRows.length,
    gender_terms: rows.genderTermRows.length,
    symptoms: rows.symptomRows.length,
    symptom_terms: rows.symptomTermRows.length,
    conditions: rows.conditionRows.length,
    condition_sign_links: rows.conditionSignRows.length,
  };
  const [state] = await db.select().from(seedState).where(eq(seedState.name, "catalogue"));
  if (state?.hash === data.hash) return { loaded: false, counts };
  const loaded = await db.transaction(async (tx) => {
    // Two instances starting together on PostgreSQL load once: the second waits, then finds the
    // same data loaded.
    await tx.execute(sql`select pg_advisory_xact_lock(7240302)`);
    const [current] = await tx.select().from(seedState).where(eq(seedState.name, "catalogue"));
    if (current?.hash === data.hash) return false;
    await writeCatalogue(tx, rows);
    await tx
      .insert(seedState)
      .values({ name: "catalogue", hash: data.hash, loadedAt: new Date() })
      .onConflictDoUpdate({ target: seedState.name, set: { hash: data.hash, loadedAt: new Date() } });
    return true;
  });
  return { loaded, counts };
}
