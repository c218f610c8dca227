// One case of the calling vet; another vet's case does not exist for them (404).
import { and, eq } from "drizzle-orm";
import type { Database, Transaction } from "@/db";
import { cases } from "@/db/schema";
import { notFound } from "@/lib/errors";

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getCaseRow(
  db: Database | Transaction,
  where: { caseId: string; veterinarianId: string },
) {
  if (!UUID_PATTERN.test(where.caseId)) throw notFound(`Case ${where.caseId}`);
  const [row] = await db
    .select()
    .from(cases)
    .where(and(eq(cases.id, where.caseId), eq(cases.veterinarianId, where.veterinarianId)));
  if (!row) throw notFound(`Case ${where.caseId}`);
  return row;
}

/** Only the version, for cheap conditional requests (If-None-Match while polling). */
export async function getCaseVersion(db: Database, where: { caseId: string; veterinarianId: string }) {
  if (!UUID_PATTERN.test(where.caseId)) throw notFound(`Case ${where.caseId}`);
  const [row] = await db
    .select({ id: cases.id, version: cases.version })
    .from(cases)
    .where(and(eq(cases.id, where.caseId), eq(cases.veterinarianId, where.veterinarianId)));
  if (!row) throw notFound(`Case ${where.caseId}`);
  return row;
}
