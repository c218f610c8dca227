// One condition by id, with the signs it causes and their weights.
import { asc, eq } from "drizzle-orm";
import type { Database } from "@/db";
import { conditionSigns, conditions, symptoms } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { DiagnosisDetail } from "./schemas";
import { diagnosisColumns } from "./search-diagnoses";

export async function getDiagnosis(db: Database, id: number): Promise<DiagnosisDetail> {
  const [row] = await db
    .select({ ...diagnosisColumns, risk_factors: conditions.riskFactors, source: conditions.source })
    .from(conditions)
    .where(eq(conditions.id, id));
  if (!row) throw notFound(`Diagnosis ${id}`);
  const signs = await db
    .select({ id: symptoms.id, symptom_name: symptoms.name, weight: conditionSigns.weight })
    .from(conditionSigns)
    .innerJoin(symptoms, eq(symptoms.id, conditionSigns.symptomId))
    .where(eq(conditionSigns.conditionId, id))
    .orderBy(asc(conditionSigns.weight), asc(symptoms.id));
  return {
    ...row,
    risk_factors: (row.risk_factors as Record<string, unknown> | null) ?? null,
    signs: signs.reverse(),
  };
}
