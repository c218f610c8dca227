// Sets the vet's working diagnosis on a case: one condition of the patient's species, replacing any
// earlier choice.
import { and, eq, not } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db";
import { cases, conditionSpecies, conditions } from "@/db/schema";
import { AppError, invalid, notFound } from "@/lib/errors";
import { announceCaseUpdate } from "./case-updates";
import { UUID_PATTERN } from "./get-case";
import { touched } from "./touch";

export const selectDiagnosisInput = z.strictObject({
  diagnosis_id: z
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .describe("Condition id from GET /v1/cases/{id}/differentials or GET /v1/diagnoses"),
});
export type SelectDiagnosisInput = z.infer<typeof selectDiagnosisInput>;

export async function selectDiagnosis(
  db: Database,
  where: { caseId: string; veterinarianId: string },
  input: SelectDiagnosisInput,
) {
  return db.transaction(async (tx) => {
    if (!UUID_PATTERN.test(where.caseId)) throw notFound(`Case ${where.caseId}`);
    const [row] = await tx
      .select()
      .from(cases)
      .where(and(eq(cases.id, where.caseId), eq(cases.veterinarianId, where.veterinarianId)))
      .for("update");
    if (!row) throw notFound(`Case ${where.caseId}`);
    if (row.status !== "COMPLETED" && row.status !== "ERROR") {
      throw new AppError(
        "conflict",
        `The case is still being processed (${row.status}); choose a diagnosis once it is COMPLETED`,
      );
    }
    const animalTypeId = (row.patient as { animal_type_id?: number | null } | null)?.animal_type_id ?? null;
    if (animalTypeId === null) {
      throw invalid("Set the patient's species (patient.animal_type_id) before choosing a diagnosis", [
        { path: "patient.animal_type_id", message: "required to choose a diagnosis" },
      ]);
    }
    const [condition] = await tx
      .select({ id: conditions.id, name: conditions.name })
      .from(conditions)
      .where(and(eq(conditions.id, input.diagnosis_id), not(conditions.retired)));
    if (!condition) {
      throw invalid(`Diagnosis ${input.diagnosis_id} does not exist`, [
        { path: "diagnosis_id", message: "unknown diagnosis" },
      ]);
    }
    const [ofSpecies] = await tx
      .select({ id: conditionSpecies.conditionId })
      .from(conditionSpecies)
      .where(
        and(eq(conditionSpecies.conditionId, condition.id), eq(conditionSpecies.animalTypeId, animalTypeId)),
      );
    if (!ofSpecies) {
      throw invalid(`${condition.name} is not a condition of this patient's species`, [
        { path: "diagnosis_id", message: "belongs to another species" },
      ]);
    }
    const [updated] = await tx
      .update(cases)
      .set({
        selectedDiagnoses: [
          { id: condition.id, name: condition.name, selected_at: new Date().toISOString() },
        ],
        ...touched(),
      })
      .where(eq(cases.id, row.id))
      .returning();
    if (!updated) throw new Error("case vanished during update");
    await announceCaseUpdate(tx, row.id);
    return updated;
  });
}
