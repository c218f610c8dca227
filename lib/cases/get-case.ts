// One case of the calling vet; another vet's case does not exist for them (404).
import { and, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Database, Transaction } from "@/db";
import { cases } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { caseEtag, caseResourceJson, type CaseJsonRow } from "./case-resource";

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function prepareCaseQueries(db: Database | Transaction) {
  const own = and(
    eq(cases.id, sql.placeholder("caseId")),
    eq(cases.veterinarianId, sql.placeholder("veterinarianId")),
  );
  const text = (column: AnyPgColumn) => sql<string>`${column}::text`;
  return {
    row: db.select().from(cases).where(own).prepare("get_case_row"),
    json: db
      .select({
        id: cases.id,
        version: cases.version,
        notes: cases.notes,
        status: cases.status,
        createdAt: cases.createdAt,
        updatedAt: cases.updatedAt,
        selectedSymptoms: text(cases.selectedSymptoms),
        deSelectedSymptoms: text(cases.deSelectedSymptoms),
        attachmentIds: text(cases.attachmentIds),
        selectedDiagnoses: text(cases.selectedDiagnoses),
        aiExtractedPatient: text(cases.aiExtractedPatient),
        suggestedSymptoms: text(cases.suggestedSymptoms),
        rawAiResponse: text(cases.rawAiResponse),
        sanitizedSymptoms: text(cases.sanitizedSymptoms),
        patient: text(cases.patient),
        soapNotes: text(cases.soapNotes),
        error: text(cases.error),
      })
      .from(cases)
      .where(own)
      .prepare("get_case_json"),
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

type OwnCase = { caseId: string; veterinarianId: string };

/** The one row `query` finds for the vet's case; a malformed id or another vet's case is 404. */
async function findOwnCase<T>(where: OwnCase, query: (where: OwnCase) => Promise<T[]>): Promise<T> {
  if (!UUID_PATTERN.test(where.caseId)) throw notFound(`Case ${where.caseId}`);
  const [row] = await query(where);
  if (!row) throw notFound(`Case ${where.caseId}`);
  return row;
}

export function getCaseRow(db: Database | Transaction, where: OwnCase) {
  return findOwnCase(where, (own) => caseQueries(db).row.execute(own));
}

/** Only the version, for cheap conditional requests (If-None-Match while polling). */
export function getCaseVersion(db: Database, where: OwnCase) {
  return findOwnCase(where, (own) => caseQueries(db).version.execute(own));
}

/** The case as API JSON text with its ETag (GET /v1/cases/{id}, the path pollers hit). */
export async function getCaseResourceJson(
  db: Database,
  where: OwnCase,
): Promise<{ body: string; etag: string }> {
  const row = await findOwnCase(where, (own) => caseQueries(db).json.execute(own) as Promise<CaseJsonRow[]>);
  return { body: caseResourceJson(row), etag: caseEtag(row) };
}
