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

/** The case as API JSON text with its ETag (GET /v1/cases/{id}, the path pollers hit). */
export async function getCaseResourceJson(
  db: Database,
  where: { caseId: string; veterinarianId: string },
): Promise<{ body: string; etag: string }> {
  if (!UUID_PATTERN.test(where.caseId)) throw notFound(`Case ${where.caseId}`);
  const [row] = (await caseQueries(db).json.execute(where)) as CaseJsonRow[];
  if (!row) throw notFound(`Case ${where.caseId}`);
  return { body: caseResourceJson(row), etag: caseEtag(row) };
}
