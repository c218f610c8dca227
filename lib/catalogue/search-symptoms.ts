// Ranks clinical signs by trigram similarity of their names and synonyms to a search text, or lists
// them by name. Each ranked sign carries `_distance` (0.0 for an exact phrase).
import { and, asc, eq, inArray, isNull, not, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db";
import { symptomCategories, symptomTerms, symptoms } from "@/db/schema";
import { offsetOf, offsetPage } from "@/lib/http/pagination";
import { ensureAnimalType } from "./ensure-animal-type";
import type { Symptom } from "./schemas";
import { normaliseSearchText, orderByRank, poolFor, rankTerms } from "./text-match";

export interface SymptomSearch {
  q?: string;
  animal_type_id?: number;
  category_id?: number;
  limit: number;
  cursor?: string;
}

export const symptomColumns = {
  id: symptoms.id,
  symptom_name: symptoms.name,
  category_id: symptoms.categoryId,
  category_name: symptomCategories.name,
  synonyms: symptoms.synonyms,
  animal_type_ids: symptoms.animalTypeIds,
};

export function symptomFilters(search: { animal_type_id?: number; category_id?: number }): SQL[] {
  const filters: SQL[] = [not(symptoms.retired)];
  if (search.animal_type_id !== undefined) {
    filters.push(
      sql`(${isNull(symptoms.animalTypeIds)} or ${search.animal_type_id} = any(${symptoms.animalTypeIds}))`,
    );
  }
  if (search.category_id !== undefined) filters.push(eq(symptoms.categoryId, search.category_id));
  return filters;
}

export async function searchSymptoms(db: Database, search: SymptomSearch) {
  await ensureAnimalType(db, search.animal_type_id);
  const offset = offsetOf(search.cursor);
  const filters = symptomFilters(search);

  if (!search.q) {
    const rows = await db
      .select(symptomColumns)
      .from(symptoms)
      .innerJoin(symptomCategories, eq(symptomCategories.id, symptoms.categoryId))
      .where(and(...filters))
      .orderBy(asc(symptoms.name), asc(symptoms.id))
      .limit(search.limit + 1)
      .offset(offset);
    return offsetPage<Symptom>(rows, offset, search.limit);
  }

  const ranked = await rankTerms(db, {
    table: sql`${symptomTerms}`,
    idColumn: sql`${symptomTerms.symptomId}`,
    query: normaliseSearchText(search.q),
    pool: poolFor(offset, search.limit),
  });
  if (ranked.length === 0) return offsetPage<Symptom>([], offset, search.limit);
  const rows = await db
    .select(symptomColumns)
    .from(symptoms)
    .innerJoin(symptomCategories, eq(symptomCategories.id, symptoms.categoryId))
    .where(
      and(
        ...filters,
        inArray(
          symptoms.id,
          ranked.map((entry) => entry.id),
        ),
      ),
    );
  const ordered = orderByRank(ranked, rows, (row) => row.symptom_name);
  return offsetPage<Symptom>(ordered.slice(offset, offset + search.limit + 1), offset, search.limit);
}
