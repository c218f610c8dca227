// Case resource (spec 2.1-2.5) and the request schemas of the cases API, shared by REST (OpenAPI),
// MCP tools and tests.
import { z } from "zod";
import { caseStatuses } from "@/db/schema";
import { cursorParam, limitParam } from "@/lib/catalogue/schemas";
import { soapNotesSchema } from "@/lib/notes/schemas";
import { MENTION_STATUSES } from "@/lib/ai/types";

/** Longest accepted notes, in characters: a long consult with history runs to a few thousand. */
export const MAX_NOTES_LENGTH = 20_000;

export const caseStatusSchema = z.enum(caseStatuses);

const catalogueId = z.number().int().min(1).max(2_147_483_647);

export const createCaseInput = z.strictObject({
  notes: z
    .string({ error: "notes must be a string" })
    .max(MAX_NOTES_LENGTH, `notes must be at most ${MAX_NOTES_LENGTH} characters`)
    .refine((notes) => notes.trim().length > 0, "notes must not be empty")
    .describe("Free-text clinical notes, stored verbatim"),
});
export type CreateCaseInput = z.infer<typeof createCaseInput>;

export const selectedSymptomSchema = z.strictObject({
  id: catalogueId.describe("Symptom id from the catalogue"),
  significant: z.boolean(),
});

export const patientPatchSchema = z
  .strictObject({
    animal_type_id: catalogueId.nullable(),
    breed_id: catalogueId.nullable(),
    name: z.string().trim().max(100).nullable(),
    gender_id: catalogueId.nullable(),
    weight_kg: z.number().positive().max(2000).nullable(),
    neutered: z.boolean().nullable(),
  })
  .partial();

export const updateCaseInput = z
  .strictObject({
    patient: patientPatchSchema.optional().describe("Patient fields to change; others stay"),
    selected_symptoms: z.array(selectedSymptomSchema).max(200).optional().describe("Replaces the selection"),
    de_selected_symptoms: z
      .array(z.strictObject({ id: catalogueId }))
      .max(200)
      .optional()
      .describe("Replaces the list of signs the vet rejected"),
    select_symptoms: z
      .array(z.strictObject({ id: catalogueId, significant: z.boolean().optional() }))
      .max(200)
      .optional()
      .describe("Adds signs to the selection (or updates their significance)"),
    deselect_symptoms: z
      .array(catalogueId)
      .max(200)
      .optional()
      .describe("Moves signs from the selection to de_selected_symptoms"),
  })
  .refine(
    (input) => Object.values(input).some((value) => value !== undefined),
    "send at least one field to change",
  );
export type UpdateCaseInput = z.infer<typeof updateCaseInput>;

export const listCasesQuery = z.strictObject({
  status: z
    .string()
    .max(200)
    .transform((value) => value.split(",").map((s) => s.trim()))
    .pipe(z.array(caseStatusSchema).min(1))
    .optional()
    .describe("Only cases in these statuses, comma-separated"),
  limit: limitParam(20),
  cursor: cursorParam.optional(),
});

const symptomRef = z.object({
  id: z.number().int(),
  symptom_name: z.string(),
  category_name: z.string(),
  _distance: z.number(),
});

export const caseSchema = z
  .object({
    id: z.uuid(),
    notes: z.string(),
    status: caseStatusSchema,
    created_at: z.string().describe("ISO 8601 UTC"),
    updated_at: z.string().describe("ISO 8601 UTC"),
    selected_symptoms: z.array(selectedSymptomSchema),
    de_selected_symptoms: z.array(z.object({ id: z.number().int() })),
    attachment_ids: z.array(z.string()),
    ai_extracted_patient: z
      .object({
        animal_type_id: z.string().nullable(),
        breed: z.string().nullable(),
        name: z.string().nullable(),
        gender: z.string().nullable(),
        weight: z.string().nullable().describe("kilograms, as a string"),
        neutered: z.boolean().nullable(),
      })
      .optional(),
    suggested_symptoms: z
      .array(
        z.object({
          symptom: symptomRef,
          key_phrases: z.array(z.string()),
          status: z.enum(MENTION_STATUSES),
        }),
      )
      .optional(),
    raw_ai_response: z
      .object({ animal: z.record(z.string(), z.unknown()), symptoms: z.array(z.unknown()) })
      .loose()
      .optional(),
    sanitized_symptoms: z
      .array(symptomRef.extend({ key_phrases: z.array(z.string()), significant: z.boolean() }))
      .optional(),
    patient: z
      .object({
        animal_type_id: z.number().int().nullable(),
        breed_id: z.number().int().nullable(),
        name: z.string().nullable(),
        gender_id: z.number().int().nullable(),
        weight_kg: z.number().nullable(),
        neutered: z.boolean().nullable(),
      })
      .optional(),
    error: z.object({ code: z.string(), message: z.string(), step: z.string() }).optional(),
    selected_diagnoses: z
      .array(
        z.object({
          id: z.number().int(),
          name: z.string(),
          selected_at: z.string().describe("ISO 8601 UTC"),
        }),
      )
      .describe("The vet's working diagnosis (at most one; empty until chosen)"),
    soap_notes: soapNotesSchema.optional().describe("The last generated SOAP notes"),
  })
  .meta({ id: "Case" });
export type CaseResource = z.infer<typeof caseSchema>;
