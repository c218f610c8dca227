// Differential-diagnosis request and response schemas: the single description REST (OpenAPI), MCP
// tools and tests share. Field names are the API's snake_case.
import { z } from "zod";

const id = z.number().int().min(1).max(2_147_483_647);
/** Surroundings the catalogue's risk factors use (db/seed/check-data.mjs keeps the same list). */
export const ENVIRONMENTS = [
  "outdoor",
  "indoor",
  "multi_animal",
  "pasture",
  "housed",
  "rural",
  "water",
  "scavenging",
  "raw_diet",
  "poor_husbandry",
  "warm_climate",
] as const;

export const differentialsInputSchema = z.strictObject({
  animal_type_id: id.describe("Animal type (species) of the patient; only its conditions are ranked"),
  breed_id: id
    .nullable()
    .optional()
    .describe("Breed of the patient; a predisposed breed raises a condition, a cross counts partly"),
  age_years: z
    .number()
    .min(0)
    .max(100)
    .nullable()
    .optional()
    .describe("Age in years, e.g. 0.25 for 3 months"),
  gender_id: id.nullable().optional().describe("Sex: 1 male, 2 female, 3 unknown"),
  neutered: z.boolean().nullable().optional().describe("true: neutered; false: entire; null: not known"),
  present_symptom_ids: z.array(id).max(100).describe("Clinical signs the patient shows (symptom ids)"),
  absent_symptom_ids: z
    .array(id)
    .max(100)
    .optional()
    .describe("Clinical signs examined for and found absent; they lower conditions that usually show them"),
  context: z
    .strictObject({
      vaccinated: z
        .boolean()
        .nullable()
        .optional()
        .describe("false: unvaccinated; true: vaccinations up to date"),
      travelled: z
        .boolean()
        .nullable()
        .optional()
        .describe("true: recent travel to or import from another region"),
      exposure: z
        .boolean()
        .nullable()
        .optional()
        .describe(
          "true: the notes name an exposure to a toxin, drug, plant, venomous animal or foreign material",
        ),
      environment: z
        .array(z.enum(ENVIRONMENTS))
        .max(ENVIRONMENTS.length)
        .optional()
        .describe("The animal's surroundings, e.g. outdoor, multi_animal, pasture, scavenging"),
    })
    .nullable()
    .optional()
    .describe("Risk context: vaccination, travel and environment"),
});

export type DifferentialsInput = z.infer<typeof differentialsInputSchema>;

const evidenceSign = z.object({
  id: z.number().int().describe("Symptom id"),
  symptom_name: z.string(),
});

export const differentialSchema = z
  .object({
    id: z.number().int().describe("Condition (diagnosis) id"),
    name: z.string(),
    score: z
      .number()
      .min(0)
      .max(1)
      .describe("Posterior probability of the condition among the species' conditions, given the findings"),
    animal_type_id: z
      .number()
      .int()
      .optional()
      .describe("The species this differential is for, when the notes named none and the list spans species"),
    evidence: z
      .object({
        supporting: z
          .array(evidenceSign)
          .describe("Present signs the condition explains, the most characteristic first"),
        findings: z
          .array(evidenceSign)
          .optional()
          .describe(
            "Present laboratory and imaging findings the condition explains, the most characteristic first",
          ),
        against: z
          .array(evidenceSign)
          .describe(
            "Absent signs the condition usually shows, then specific present signs it does not explain",
          ),
      })
      .describe("The findings behind the score"),
  })
  .meta({ id: "Differential" });

export type Differential = z.infer<typeof differentialSchema>;

export const differentialsOutputSchema = z.object({
  data: z.array(differentialSchema).describe("Differential diagnoses, the most probable first"),
  evidence_level: z
    .enum(["sufficient", "low"])
    .optional()
    .describe(
      '"low" when too little is known for the list to mean much: add examination findings or results',
    ),
  species: z
    .object({
      animal_type_id: z.number().int().nullable(),
      inferred: z
        .boolean()
        .describe("true when the notes named no species and the list spans the plausible ones"),
    })
    .optional()
    .describe("The species the list is for"),
  note: z.string().optional().describe("Why the list is low-evidence or spans species, in words"),
});
