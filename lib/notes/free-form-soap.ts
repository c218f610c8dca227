// SOAP notes for a free-form selection (a component session without a case): the vet's species,
// signalment, signs and chosen condition. Nothing is stored.
import { and, eq, not } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db";
import { conditions } from "@/db/schema";
import { differentialsInputSchema } from "@/lib/diagnosis/schemas";
import { invalid } from "@/lib/errors";
import type { SoapInput } from "./soap-context";

const id = z.number().int().min(1).max(2_147_483_647);

export const freeFormSoapInput = differentialsInputSchema
  .omit({ present_symptom_ids: true, absent_symptom_ids: true })
  .extend({
    signs: z
      .array(z.strictObject({ id, significant: z.boolean() }))
      .max(100)
      .describe("The signs the vet picked"),
    diagnosis_id: id.nullable().optional().describe("The condition the vet chose, if any"),
  });
export type FreeFormSoapInput = z.infer<typeof freeFormSoapInput>;

export async function freeFormSoap(db: Database, input: FreeFormSoapInput): Promise<SoapInput> {
  let diagnosis: SoapInput["diagnosis"] = null;
  if (input.diagnosis_id != null) {
    const [row] = await db
      .select({ id: conditions.id, name: conditions.name })
      .from(conditions)
      .where(and(eq(conditions.id, input.diagnosis_id), not(conditions.retired)));
    if (!row)
      throw invalid(`Diagnosis ${input.diagnosis_id} does not exist`, [
        { path: "diagnosis_id", message: "unknown diagnosis" },
      ]);
    diagnosis = row;
  }
  return {
    notes: "",
    patient: {
      name: null,
      animal_type_id: input.animal_type_id,
      breed_id: input.breed_id ?? null,
      gender_id: input.gender_id ?? null,
      neutered: input.neutered ?? null,
      weight_kg: null,
      age_years: input.age_years ?? null,
    },
    present: input.signs.map((s) => ({ id: s.id, significant: s.significant, key_phrases: [] })),
    denied: [],
    historical: [],
    diagnosis,
    ranking: {
      animal_type_id: input.animal_type_id,
      breed_id: input.breed_id ?? null,
      gender_id: input.gender_id ?? null,
      neutered: input.neutered ?? null,
      age_years: input.age_years ?? null,
      present_symptom_ids: input.signs.map((s) => s.id),
    },
  };
}
