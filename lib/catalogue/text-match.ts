// Shared pieces of trigram search: how a query is normalised and how far a phrase is from it.
import { sql, type SQL, type AnyColumn } from "drizzle-orm";

/** Lower case, single spaces: the form every catalogue term is stored in. */
export function normaliseSearchText(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, " ");
}

export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * 0 for an exact phrase; otherwise 1 minus the better of trigram similarity and word similarity,
 * the latter discounted by how little of the phrase the query covers, so "vomit" is nearer
 * "vomiting" than "trying to vomit".
 */
export function termDistance(term: AnyColumn | SQL, query: string): SQL<number> {
  return sql<number>`case when ${term} = ${query} then 0 else 1 - greatest(similarity(${term}, ${query}), word_similarity(${query}, ${term}) * (0.5 + 0.5 * least(1.0, length(${query})::real / greatest(length(${term}), 1)))) end`;
}

/** The closest of an array of phrases (name and synonyms), as a scalar subquery. */
export function closestTermDistance(terms: SQL, query: string): SQL<number> {
  return sql<number>`(select min(${termDistance(sql`t.term`, query)}) from unnest(${terms}) as t(term))`;
}

/** Whether any phrase of an array is worth ranking against the query. */
export function anyTermMatches(terms: SQL, query: string): SQL {
  return sql`exists (select 1 from unnest(${terms}) as t(term) where ${termMatches(sql`t.term`, query)})`;
}

/** Rows worth ranking: similar by trigram, containing the query as a word, or starting with it. */
export function termMatches(term: AnyColumn | SQL, query: string): SQL {
  return sql`(${term} % ${query} or ${query} <% ${term} or ${term} like ${likePrefix(query)})`;
}

export const roundDistance = (value: number) => Math.max(0, Math.round(Number(value) * 10_000) / 10_000);
