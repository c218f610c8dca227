// The calling vet's cases, newest first, with keyset cursors; optionally only some statuses.
import { and, desc, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db";
import { cases, type CaseStatus } from "@/db/schema";
import { decodeCursor, encodeCursor } from "@/lib/http/pagination";
import { toCaseResource } from "./case-resource";

export interface ListCases {
  veterinarianId: string;
  status?: CaseStatus[];
  limit: number;
  cursor?: string;
}

// What encodeCursor below issues: the last row's creation time (ISO 8601, UTC) and id. The year 0,
// which the format allows and PostgreSQL refuses, is not a time a case was created.
const keysetCursor = z.strictObject({
  createdAt: z.iso
    .datetime()
    .transform((value) => new Date(value))
    .pipe(z.date().min(new Date("0001-01-01T00:00:00Z"))),
  id: z.guid(),
});

export async function listCases(db: Database, options: ListCases) {
  const filters: SQL[] = [eq(cases.veterinarianId, options.veterinarianId)];
  if (options.status?.length) filters.push(inArray(cases.status, options.status));
  const after = decodeCursor(options.cursor, keysetCursor);
  if (after) {
    const { createdAt, id } = after;
    filters.push(or(lt(cases.createdAt, createdAt), and(eq(cases.createdAt, createdAt), lt(cases.id, id)))!);
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
