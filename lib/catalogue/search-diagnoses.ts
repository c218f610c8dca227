// Ranks conditions (diagnoses) by similarity of their names and synonyms to a search text, or lists
// them by name; optionally only those of one animal type.
import { and, asc, not, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db";
import { conditionSpecies, conditions } from "@/db/schema";
import { offsetOf, offsetPage } from "@/lib/http/pagination";
import { ensureAnimalType } from "./ensure-animal-type";
import type { Diagnosis } from "./schemas";
import { anyTermMatches, closestTermDistance, normaliseSearchText, roundDistance } from "./text-match";

export interface DiagnosisSearch {
  q?: string;
  animal_type_id?: number;
  limit: number;
  cursor?: string;
}

export const diagnosisColumns = {
  id: conditions.id,
  name: conditions.name,
  synonyms: conditions.synonyms,
  animal_type_ids: sql<
    number[]
  >`(select coalesce(array_agg(${conditionSpecies.animalTypeId} order by ${conditionSpecies.animalTypeId}), '{}') from ${conditionSpecies} where ${conditionSpecies.conditionId} = ${conditions.id})`,
  description: conditions.description,
  prevalence: conditions.prevalence,
  mondo_id: conditions.mondoId,
};

function speciesFilter(animalTypeId: number | undefined): SQL[] {
  if (animalTypeId === undefined) return [];
  return [
    sql`exists (select 1 from ${conditionSpecies} where ${conditionSpecies.conditionId} = ${conditions.id} and ${conditionSpecies.animalTypeId} = ${animalTypeId})`,
  ];
}

export async function searchDiagnoses(db: Database, search: DiagnosisSearch) {
  await ensureAnimalType(db, search.animal_type_id);
  const offset = offsetOf(search.cursor);
  const filters = [not(conditions.retired), ...speciesFilter(search.animal_type_id)];

  if (!search.q) {
    const rows = await db
      .select(diagnosisColumns)
      .from(conditions)
      .where(and(...filters))
      .orderBy(asc(conditions.name), asc(conditions.id))
      .limit(search.limit + 1)
      .offset(offset);
    return offsetPage<Diagnosis>(rows, offset, search.limit);
  }

  const query = normaliseSearchText(search.q);
  const terms = sql`array_append(array(select lower(s) from unnest(${conditions.synonyms}) as s), lower(${conditions.name}))`;
  const distance = closestTermDistance(terms, query).mapWith(Number).as("distance");
  const rows = await db
    .select({ ...diagnosisColumns, distance })
    .from(conditions)
    .where(and(...filters, anyTermMatches(terms, query)))
    .orderBy(sql`distance`, sql`length(${conditions.name})`, asc(conditions.id))
    .limit(search.limit + 1)
    .offset(offset);
  return offsetPage<Diagnosis>(
    rows.map(({ distance: d, ...diagnosis }) => ({ ...diagnosis, _distance: roundDistance(d) })),
    offset,
    search.limit,
  );
}
