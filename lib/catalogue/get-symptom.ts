// One clinical sign by id.
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { symptomCategories, symptoms } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { Symptom } from "./schemas";
import { symptomColumns } from "./search-symptoms";

export async function getSymptom(db: Database, id: number): Promise<Symptom> {
  const [row] = await db
    .select(symptomColumns)
    .from(symptoms)
    .innerJoin(symptomCategories, eq(symptomCategories.id, symptoms.categoryId))
    .where(eq(symptoms.id, id));
  if (!row) throw notFound(`Symptom ${id}`);
  return row;
}
