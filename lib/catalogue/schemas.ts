// Catalogue resource and query schemas: the single description REST (OpenAPI), MCP tools and
// tests share. Field names are the API's snake_case.
import { z } from "zod";

const id = z.coerce.number().int().min(1).max(2_147_483_647);
export const searchText = z.string().trim().min(1).max(200);
export const limitParam = (fallback: number) => z.coerce.number().int().min(1).max(100).default(fallback);
export const cursorParam = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, "is not a cursor this API issued");

export const distance = z
  .number()
  .min(0)
  .max(1)
  .describe("Match distance: 0.0 for an exact phrase match, up to 1.0 for the weakest match");

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    next_cursor: z
      .string()
      .nullable()
      .describe("Pass as `cursor` to get the next page; null on the last page"),
  });
}

export const animalTypeSchema = z
  .object({
    id: z.number().int().describe("Stable animal type id"),
    key: z.string().describe("Machine-readable key, e.g. guinea_pig"),
    name: z.string(),
    synonyms: z.array(z.string()).describe("Words vets and owners use for the species"),
  })
  .meta({ id: "AnimalType" });

export const breedSchema = z
  .object({
    id: z.number().int(),
    animal_type_id: z.number().int(),
    name: z.string(),
    synonyms: z.array(z.string()).describe("Synonyms and abbreviations, e.g. gsd, alsatian"),
    mixed: z.boolean().describe("Mixed-breed or cross entry"),
    cross_of_breed_id: z.number().int().nullable(),
    _distance: distance.optional(),
  })
  .meta({ id: "Breed" });

export const genderSchema = z
  .object({
    id: z.number().int(),
    key: z.enum(["male", "female", "unknown"]),
    name: z.string(),
    terms: z
      .array(
        z.object({
          term: z.string(),
          neutered: z
            .boolean()
            .nullable()
            .describe("true: neutered; false: entire; null: the term does not say"),
          animal_type_id: z
            .number()
            .int()
            .nullable()
            .describe("Species the term belongs to; null for every species"),
        }),
      )
      .describe("Words for this sex and its neuter status, e.g. spayed, gelding, MN"),
  })
  .meta({ id: "Gender" });

export const symptomCategorySchema = z
  .object({ id: z.number().int(), key: z.string(), name: z.string() })
  .meta({ id: "SymptomCategory" });

export const symptomSchema = z
  .object({
    id: z.number().int(),
    symptom_name: z.string(),
    category_id: z.number().int(),
    category_name: z.string(),
    synonyms: z.array(z.string()),
    animal_type_ids: z.array(z.number().int()).nullable().describe("Species showing the sign; null for all"),
    _distance: distance.optional(),
  })
  .meta({ id: "Symptom" });

export const diagnosisSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    synonyms: z.array(z.string()),
    animal_type_ids: z.array(z.number().int()),
    description: z.string(),
    prevalence: z.enum(["very_common", "common", "uncommon", "rare"]),
    mondo_id: z.string().nullable(),
    _distance: distance.optional(),
  })
  .meta({ id: "Diagnosis" });

export const diagnosisDetailSchema = diagnosisSchema
  .extend({
    signs: z.array(
      z.object({
        id: z.number().int(),
        symptom_name: z.string(),
        weight: z.number().describe("Authored probability that an animal with the condition shows the sign"),
      }),
    ),
    risk_factors: z.record(z.string(), z.unknown()).nullable(),
    source: z.string().describe("Where the entry's knowledge comes from"),
  })
  .meta({ id: "DiagnosisDetail" });

export const breedsQuery = z.strictObject({
  animal_type_id: id.optional().describe("Only breeds of this animal type"),
  q: searchText.optional().describe("Search text, matched by trigram similarity against names and synonyms"),
  limit: limitParam(50),
  cursor: cursorParam.optional(),
});

export const symptomsQuery = z.strictObject({
  q: searchText
    .optional()
    .describe('Search text: clinical terms, lay phrases or shorthand ("v+", "throwing up")'),
  animal_type_id: id.optional().describe("Only signs this animal type can show"),
  category_id: id.optional(),
  limit: limitParam(20),
  cursor: cursorParam.optional(),
});

export const diagnosesQuery = z.strictObject({
  q: searchText.optional(),
  animal_type_id: id.optional().describe("Only conditions of this animal type"),
  limit: limitParam(20),
  cursor: cursorParam.optional(),
});

export const emptyQuery = z.strictObject({});
export const idParam = z.strictObject({ id });

export type AnimalType = z.infer<typeof animalTypeSchema>;
export type Breed = z.infer<typeof breedSchema>;
export type Gender = z.infer<typeof genderSchema>;
export type Symptom = z.infer<typeof symptomSchema>;
export type Diagnosis = z.infer<typeof diagnosisSchema>;
export type DiagnosisDetail = z.infer<typeof diagnosisDetailSchema>;
