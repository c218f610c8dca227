// Lists breeds of an animal type, or ranks them by similarity to a search text.
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db";
import { breeds } from "@/db/schema";
import { offsetOf, offsetPage } from "@/lib/http/pagination";
import { ensureAnimalType } from "./ensure-animal-type";
import type { Breed } from "./schemas";
import { anyTermMatches, closestTermDistance, normaliseSearchText, roundDistance } from "./text-match";

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

  const query = normaliseSearchText(search.q);
  const terms = sql`array_append(${breeds.synonyms}, lower(${breeds.name}))`;
  const distance = closestTermDistance(terms, query).mapWith(Number).as("distance");
  const rows = await db
    .select({ ...columns, distance })
    .from(breeds)
    .where(and(...filters, anyTermMatches(terms, query)))
    .orderBy(sql`distance`, sql`length(${breeds.name})`, asc(breeds.id))
    .limit(search.limit + 1)
    .offset(offset);
  return offsetPage<Breed>(
    rows.map(({ distance: d, ...breed }) => ({ ...breed, _distance: roundDistance(d) })),
    offset,
    search.limit,
  );
}
