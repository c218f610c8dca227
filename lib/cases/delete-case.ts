// Deletes one of the calling vet's cases (and its component sessions, by cascade).
import { and, eq } from "drizzle-orm";
import type { Database } from "@/db";
import { cases } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { UUID_PATTERN } from "./get-case";

export async function deleteCase(
  db: Database,
  where: { caseId: string; veterinarianId: string },
): Promise<void> {
  if (!UUID_PATTERN.test(where.caseId)) throw notFound(`Case ${where.caseId}`);
  const deleted = await db
    .delete(cases)
    .where(and(eq(cases.id, where.caseId), eq(cases.veterinarianId, where.veterinarianId)))
    .returning({ id: cases.id });
  if (deleted.length === 0) throw notFound(`Case ${where.caseId}`);
}
