// Validates an animal_type_id filter: an id that does not exist is a client error, not an empty list.
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { animalTypes } from "@/db/schema";
import { invalid } from "@/lib/errors";

export async function ensureAnimalType(db: Database, animalTypeId: number | undefined): Promise<void> {
  if (animalTypeId === undefined) return;
  const [row] = await db
    .select({ id: animalTypes.id })
    .from(animalTypes)
    .where(eq(animalTypes.id, animalTypeId));
  if (!row) {
    throw invalid(`Animal type ${animalTypeId} does not exist; GET /v1/animal-types lists them`, [
      { path: "animal_type_id", message: "unknown animal type" },
    ]);
  }
}
