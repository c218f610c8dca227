// The calling vet's cases, newest first, with keyset cursors; optionally only some statuses.
import { and, desc, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import type { Database } from "@/db";
import { cases, type CaseStatus } from "@/db/schema";
import { decodeCursor, encodeCursor } from "@/lib/http/pagination";
import { invalid } from "@/lib/errors";
import { toCaseResource } from "./case-resource";

export interface ListCases {
  veterinarianId: string;
  status?: CaseStatus[];
  limit: number;
  cursor?: string;
}

export async function listCases(db: Database, options: ListCases) {
  const filters: SQL[] = [eq(cases.veterinarianId, options.veterinarianId)];
  if (options.status?.length) filters.push(inArray(cases.status, options.status));
  const after = decodeCursor<{ createdAt: string; id: string }>(options.cursor, ["createdAt", "id"]);
  if (after) {
    const createdAt = new Date(after.createdAt);
    if (Number.isNaN(createdAt.getTime())) throw invalid("The cursor is not one this API issued");
    filters.push(
      or(lt(cases.createdAt, createdAt), and(eq(cases.createdAt, createdAt), lt(cases.id, after.id)))!,
    );
  }
  const rows = await db
    .select()
    .from(cases)
    .where(and(...filters))
    .orderBy(desc(cases.createdAt), desc(cases.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    data: page.map(toCaseResource),
    next_cursor:
      rows.length > options.limit && last
        ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id })
        : null,
  };
}
