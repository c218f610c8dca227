// Ranks conditions (diagnoses) by similarity of their names and synonyms to a search text, or lists
// them by name; optionally only those of one animal type.
import { and, asc, inArray, not, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db";
import { conditionSpecies, conditionTerms, conditions } from "@/db/schema";
import { offsetOf, offsetPage } from "@/lib/http/pagination";
import { ensureAnimalType } from "./ensure-animal-type";
import type { Diagnosis } from "./schemas";
import { normaliseSearchText, orderByRank, poolFor, rankTerms } from "./text-match";

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

  const ranked = await rankTerms(db, {
    table: sql`${conditionTerms}`,
    idColumn: sql`${conditionTerms.conditionId}`,
    query: normaliseSearchText(search.q),
    pool: poolFor(offset, search.limit),
    where:
      search.animal_type_id === undefined
        ? undefined
        : sql`${conditionTerms.conditionId} in (select ${conditionSpecies.conditionId} from ${conditionSpecies} where ${conditionSpecies.animalTypeId} = ${search.animal_type_id})`,
  });
  if (ranked.length === 0) return offsetPage<Diagnosis>([], offset, search.limit);
  const rows = await db
    .select(diagnosisColumns)
    .from(conditions)
    .where(
      and(
        ...filters,
        inArray(
          conditions.id,
          ranked.map((entry) => entry.id),
        ),
      ),
    );
  const ordered = orderByRank(ranked, rows, (row) => row.name);
  return offsetPage<Diagnosis>(ordered.slice(offset, offset + search.limit + 1), offset, search.limit);
}
