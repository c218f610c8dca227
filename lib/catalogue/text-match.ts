// Trigram search shared by symptoms, breeds and diagnoses. Each searchable phrase (a name or a
// synonym) is a row of a *_terms table with a GiST trigram index; a search takes the phrases
// nearest the query by trigram distance and by word distance (KNN, index-ordered), scores them,
// and keeps each entry's best phrase.
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db";
import { rowsOf } from "@/db/rows";

/** Lower case, single spaces: the form every catalogue phrase is stored in. */
export function normaliseSearchText(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, " ");
}

/** Entries whose best phrase is farther than this are not matches at all. */
export const MAX_DISTANCE = 0.8;

/**
 * 0 for an exact phrase; otherwise 1 minus the better of trigram similarity and word similarity,
 * the latter discounted by how little of the phrase the query covers, so "vomit" is nearer
 * "vomiting" than "trying to vomit".
 */
function termDistance(term: SQL, query: string): SQL<number> {
  return sql<number>`case when ${term} = ${query} then 0 else 1 - greatest(similarity(${term}, ${query}), word_similarity(${query}, ${term}) * (0.5 + 0.5 * least(1.0, length(${query})::real / greatest(length(${term}), 1)))) end`;
}

export interface RankedEntry {
  id: number;
  distance: number;
  /** The query equals the entry's own name (not only a synonym). */
  exactName: boolean;
}

/**
 * The entries of a *_terms table nearest the query, best first. `pool` bounds how many phrases
 * each KNN pass reads; `where` filters phrases inside the index scan (e.g. by species).
 */
export async function rankTerms(
  db: Database,
  options: { table: SQL; idColumn: SQL; query: string; pool: number; where?: SQL },
): Promise<RankedEntry[]> {
  const { table, idColumn, query, pool } = options;
  const where = options.where ? sql`where ${options.where}` : sql``;
  const result = await db.execute(sql`
    select id, min(distance) as distance, bool_or(is_name and term = ${query}) as exact_name
    from (
      select c.id, c.term, c.is_name, ${termDistance(sql`c.term`, query)} as distance
      from (
        (select ${idColumn} as id, term, is_name from ${table} ${where} order by term <-> ${query} limit ${pool})
        union
        (select ${idColumn} as id, term, is_name from ${table} ${where} order by term <->> ${query} limit ${pool})
      ) as c
    ) as scored
    group by id
    having min(distance) <= ${MAX_DISTANCE}
    order by distance, exact_name desc, id`);
  return rowsOf<{ id: number; distance: number | string; exact_name: boolean }>(result).map((row) => ({
    id: Number(row.id),
    distance: roundDistance(Number(row.distance)),
    exactName: Boolean(row.exact_name),
  }));
}

export const roundDistance = (value: number) => Math.max(0, Math.round(value * 10_000) / 10_000);

/** Orders fetched rows as ranked (ties: own-name match, then shorter name) and pages them. */
export function orderByRank<T extends { id: number }>(
  ranked: RankedEntry[],
  rows: T[],
  nameOf: (row: T) => string,
): (T & { _distance: number })[] {
  const rank = new Map(ranked.map((entry) => [entry.id, entry]));
  return rows
    .filter((row) => rank.has(row.id))
    .map((row) => ({ ...row, _distance: rank.get(row.id)!.distance }))
    .sort((a, b) => {
      const ra = rank.get(a.id)!;
      const rb = rank.get(b.id)!;
      return (
        ra.distance - rb.distance ||
        Number(rb.exactName) - Number(ra.exactName) ||
        nameOf(a).length - nameOf(b).length ||
        a.id - b.id
      );
    });
}

/** How many phrases each KNN pass reads to fill a page at `offset` even after filtering. */
export function poolFor(offset: number, limit: number): number {
  return Math.min(2000, Math.max(60, (offset + limit + 1) * 3));
}
