// Lists every animal type, in id order.
import { asc } from "drizzle-orm";
import type { Database } from "@/db";
import { animalTypes } from "@/db/schema";
import type { AnimalType } from "./schemas";

export async function listAnimalTypes(db: Database): Promise<AnimalType[]> {
  return db
    .select({
      id: animalTypes.id,
      key: animalTypes.key,
      name: animalTypes.name,
      synonyms: animalTypes.synonyms,
    })
    .from(animalTypes)
    .orderBy(asc(animalTypes.id));
}
