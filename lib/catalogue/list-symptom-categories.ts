// Lists the categories clinical signs are grouped in.
import { asc } from "drizzle-orm";
import type { Database } from "@/db";
import { symptomCategories } from "@/db/schema";

export async function listSymptomCategories(db: Database) {
  return db
    .select({ id: symptomCategories.id, key: symptomCategories.key, name: symptomCategories.name })
    .from(symptomCategories)
    .orderBy(asc(symptomCategories.id));
}
