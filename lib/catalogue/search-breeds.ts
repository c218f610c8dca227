// Lists breeds of an animal type, or ranks them by similarity to a search text.
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db";
import { breedTerms, breeds } from "@/db/schema";
import { offsetOf, offsetPage } from "@/lib/http/pagination";
import { ensureAnimalType } from "./ensure-animal-type";
import type { Breed } from "./schemas";
import { normaliseSearchText, orderByRank, poolFor, rankTerms } from "./text-match";

export interface BreedSearch {
  animal_type_id?: number;
  q?: string;
  limit: number;
  cursor?: string;
}

const columns = {
  id: breeds.id,
  animal_type_id: breeds.animalTypeId,
  name: breeds.name,
  synonyms: breeds.synonyms,
  mixed: breeds.mixed,
  cross_of_breed_id: breeds.crossOfBreedId,
};

export async function searchBreeds(db: Database, search: BreedSearch) {
  await ensureAnimalType(db, search.animal_type_id);
  const offset = offsetOf(search.cursor);
  const filters: SQL[] = [];
  if (search.animal_type_id !== undefined) filters.push(eq(breeds.animalTypeId, search.animal_type_id));

  if (!search.q) {
    const rows = await db
      .select(columns)
      .from(breeds)
      .where(and(...filters))
      .orderBy(asc(breeds.name), asc(breeds.id))
      .limit(search.limit + 1)
      .offset(offset);
    return offsetPage<Breed>(rows, offset, search.limit);
  }

  const ranked = await rankTerms(db, {
    table: sql`${breedTerms}`,
    idColumn: sql`${breedTerms.breedId}`,
    query: normaliseSearchText(search.q),
    pool: poolFor(offset, search.limit),
    where:
      search.animal_type_id === undefined ? undefined : eq(breedTerms.animalTypeId, search.animal_type_id),
  });
  if (ranked.length === 0) return offsetPage<Breed>([], offset, search.limit);
  const rows = await db
    .select(columns)
    .from(breeds)
    .where(
      inArray(
        breeds.id,
        ranked.map((entry) => entry.id),
      ),
    );
  const ordered = orderByRank(ranked, rows, (row) => row.name);
  return offsetPage<Breed>(ordered.slice(offset, offset + search.limit + 1), offset, search.limit);
}
