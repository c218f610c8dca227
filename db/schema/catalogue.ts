// The clinical catalogue: species, breeds, sexes, clinical signs and conditions. Ids are stable
// integers from db/seed/data and never change once published.
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

export const animalTypes = pgTable("animal_types", {
  id: integer("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
  synonyms: text("synonyms").array().notNull(),
  source: text("source").notNull(),
});

export const breeds = pgTable(
  "breeds",
  {
    id: integer("id").primaryKey(),
    animalTypeId: integer("animal_type_id")
      .notNull()
      .references(() => animalTypes.id),
    name: text("name").notNull(),
    synonyms: text("synonyms").array().notNull(),
    /** Mixed-breed and cross entries ("Mixed Breed", "Labrador Retriever cross"). */
    mixed: boolean("mixed").notNull().default(false),
    crossOfBreedId: integer("cross_of_breed_id"),
    vboId: text("vbo_id"),
    source: text("source").notNull(),
  },
  (table) => [index("breeds_animal_type_idx").on(table.animalTypeId)],
);

/** Every searchable phrase of a breed (name and synonyms), with its species for filtered search. */
export const breedTerms = pgTable(
  "breed_terms",
  {
    breedId: integer("breed_id")
      .notNull()
      .references(() => breeds.id, { onDelete: "cascade" }),
    animalTypeId: integer("animal_type_id").notNull(),
    term: text("term").notNull(),
    isName: boolean("is_name").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.breedId, table.term] }),
    index("breed_terms_trgm_idx").using("gist", sql`${table.term} gist_trgm_ops`),
  ],
);

export const genders = pgTable("genders", {
  id: integer("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
  fhirCode: text("fhir_code").notNull(),
});

/** Words for sex and neuter status ("spayed", "gelding", "MN"), species-specific where they are. */
export const genderTerms = pgTable(
  "gender_terms",
  {
    id: serial("id").primaryKey(),
    term: text("term").notNull(),
    genderId: integer("gender_id")
      .notNull()
      .references(() => genders.id),
    neutered: boolean("neutered"),
    /** Null when the term applies to every species. */
    animalTypeId: integer("animal_type_id").references(() => animalTypes.id),
  },
  (table) => [
    uniqueIndex("gender_terms_term_species_unique").on(table.term, sql`coalesce(${table.animalTypeId}, 0)`),
  ],
);

export const symptomCategories = pgTable("symptom_categories", {
  id: integer("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
});

export const symptoms = pgTable(
  "symptoms",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    categoryId: integer("category_id")
      .notNull()
      .references(() => symptomCategories.id),
    synonyms: text("synonyms").array().notNull(),
    /** Species that show the sign; null when any species can. */
    animalTypeIds: integer("animal_type_ids").array(),
    source: text("source").notNull(),
    retired: boolean("retired").notNull().default(false),
  },
  (table) => [uniqueIndex("symptoms_name_unique").on(sql`lower(${table.name})`)],
);

/** Every searchable phrase of a sign (its name and each synonym), trigram-indexed. */
export const symptomTerms = pgTable(
  "symptom_terms",
  {
    symptomId: integer("symptom_id")
      .notNull()
      .references(() => symptoms.id, { onDelete: "cascade" }),
    term: text("term").notNull(),
    isName: boolean("is_name").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.symptomId, table.term] }),
    // GiST, not GIN: searches take the nearest phrases by `<->` / `<->>` (KNN), which only GiST
    // orders by; a filter with `%` made the planner scan and score every phrase (~70 ms).
    index("symptom_terms_trgm_idx").using("gist", sql`${table.term} gist_trgm_ops`),
  ],
);

export const conditions = pgTable("conditions", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  synonyms: text("synonyms").array().notNull(),
  description: text("description").notNull(),
  prevalence: text("prevalence", { enum: ["very_common", "common", "uncommon", "rare"] }).notNull(),
  mondoId: text("mondo_id"),
  riskFactors: jsonb("risk_factors"),
  source: text("source").notNull(),
  retired: boolean("retired").notNull().default(false),
});

/** Every searchable phrase of a condition (name and synonyms). */
export const conditionTerms = pgTable(
  "condition_terms",
  {
    conditionId: integer("condition_id")
      .notNull()
      .references(() => conditions.id, { onDelete: "cascade" }),
    term: text("term").notNull(),
    isName: boolean("is_name").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.conditionId, table.term] }),
    index("condition_terms_trgm_idx").using("gist", sql`${table.term} gist_trgm_ops`),
  ],
);

export const conditionSpecies = pgTable(
  "condition_species",
  {
    conditionId: integer("condition_id")
      .notNull()
      .references(() => conditions.id, { onDelete: "cascade" }),
    animalTypeId: integer("animal_type_id")
      .notNull()
      .references(() => animalTypes.id),
    /** Prevalence in this species when it differs from the condition's (a multi-species condition). */
    prevalence: text("prevalence", { enum: ["very_common", "common", "uncommon", "rare"] }),
  },
  (table) => [
    primaryKey({ columns: [table.conditionId, table.animalTypeId] }),
    index("condition_species_animal_idx").on(table.animalTypeId),
  ],
);

/** Authored P(sign | condition) weights the differential ranker uses. */
export const conditionSigns = pgTable(
  "condition_signs",
  {
    conditionId: integer("condition_id")
      .notNull()
      .references(() => conditions.id, { onDelete: "cascade" }),
    symptomId: integer("symptom_id")
      .notNull()
      .references(() => symptoms.id),
    weight: real("weight").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.conditionId, table.symptomId] }),
    index("condition_signs_symptom_idx").on(table.symptomId),
  ],
);

/** Content hash of the seed data last loaded, so unchanged data is not reloaded on every start. */
export const seedState = pgTable("seed_state", {
  name: text("name").primaryKey(),
  hash: text("hash").notNull(),
  loadedAt: timestamp("loaded_at", { withTimezone: true }).notNull().defaultNow(),
});
