// One case of the calling vet; another vet's case does not exist for them (404).
import { and, eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "@/db";
import { cases } from "@/db/schema";
import { notFound } from "@/lib/errors";

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function prepareCaseQueries(db: Database | Transaction) {
  const own = and(
    eq(cases.id, sql.placeholder("caseId")),
    eq(cases.veterinarianId, sql.placeholder("veterinarianId")),
  );
  return {
    row: db.select().from(cases).where(own).prepare("get_case_row"),
    version: db
      .select({ id: cases.id, version: cases.version })
      .from(cases)
      .where(own)
      .prepare("get_case_version"),
  };
}

// Building a query with drizzle costs more CPU than running it: the two reads every poll makes are
// built once per database (or transaction) and then only executed.
const prepared = new WeakMap<object, ReturnType<typeof prepareCaseQueries>>();

function caseQueries(db: Database | Transaction) {
  let queries = prepared.get(db);
  if (!queries) {
    queries = prepareCaseQueries(db);
    prepared.set(db, queries);
  }
  return queries;
}

export async function getCaseRow(
  db: Database | Transaction,
  where: { caseId: string; veterinarianId: string },
) {
  if (!UUID_PATTERN.test(where.caseId)) throw notFound(`Case ${where.caseId}`);
  const [row] = await caseQueries(db).row.execute(where);
  if (!row) throw notFound(`Case ${where.caseId}`);
  return row;
}

/** Only the version, for cheap conditional requests (If-None-Match while polling). */
export async function getCaseVersion(db: Database, where: { caseId: string; veterinarianId: string }) {
  if (!UUID_PATTERN.test(where.caseId)) throw notFound(`Case ${where.caseId}`);
  const [row] = await caseQueries(db).version.execute(where);
  if (!row) throw notFound(`Case ${where.caseId}`);
  return row;
}
