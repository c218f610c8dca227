// The vet's cases for the dashboard: search by patient name or notes text, filter by status and
// species, newest first, in numbered pages. Always scoped to the calling vet.
import { and, count, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db";
import { cases, type CaseStatus } from "@/db/schema";
import { UUID_PATTERN } from "./get-case";

export interface SearchCases {
  veterinarianId: string;
  /** Words to find in the patient's name or the notes (case-insensitive, literal). */
  query?: string;
  status?: CaseStatus[];
  /** Animal type id: the patient's, or the one the pipeline extracted while the patient is unset. */
  animalTypeId?: number;
  /** Only these cases (unknown or foreign ids are simply absent). */
  ids?: string[];
  page?: number;
  pageSize?: number;
}

export interface CaseSummary {
  id: string;
  status: CaseStatus;
  notes: string;
  patientName: string | null;
  animalTypeId: number | null;
  createdAt: Date;
  updatedAt: Date;
  error: { code: string; message: string; step: string } | null;
}

export interface CaseSearchResult {
  data: CaseSummary[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

export const MAX_PAGE_SIZE = 100;

/** `%`, `_` and `\` match themselves: the vet searches for text, not patterns. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

const patientName = sql<
  string | null
>`coalesce(${cases.patient}->>'name', ${cases.aiExtractedPatient}->>'name')`;
const animalTypeId = sql<number | null>`coalesce(
  (${cases.patient}->>'animal_type_id')::int,
  case when ${cases.patient} is null then (${cases.rawAiResponse}->'animal'->>'animal_type_id')::int end
)`;

export async function searchCases(db: Database, options: SearchCases): Promise<CaseSearchResult> {
  const pageSize = Math.min(Math.max(Math.trunc(options.pageSize ?? 20), 1), MAX_PAGE_SIZE);
  const page = Math.max(Math.trunc(options.page ?? 1), 1);
  const filters: SQL[] = [eq(cases.veterinarianId, options.veterinarianId)];
  if (options.ids) {
    const ids = options.ids.filter((id) => UUID_PATTERN.test(id));
    if (ids.length === 0) return { data: [], total: 0, page, pageSize, pageCount: 0 };
    filters.push(inArray(cases.id, ids));
  }
  if (options.status?.length) filters.push(inArray(cases.status, options.status));
  if (options.animalTypeId !== undefined) filters.push(sql`${animalTypeId} = ${options.animalTypeId}`);
  for (const word of (options.query ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 8)) {
    const pattern = containsPattern(word);
    filters.push(or(ilike(cases.notes, pattern), sql`${patientName} ilike ${pattern}`)!);
  }
  const where = and(...filters);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({
        id: cases.id,
        status: cases.status,
        notes: cases.notes,
        patientName,
        animalTypeId,
        createdAt: cases.createdAt,
        updatedAt: cases.updatedAt,
        error: cases.error,
      })
      .from(cases)
      .where(where)
      .orderBy(desc(cases.createdAt), desc(cases.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(cases).where(where),
  ]);
  return {
    data: rows.map((row) => ({
      ...row,
      animalTypeId: row.animalTypeId === null ? null : Number(row.animalTypeId),
      error: row.status === "ERROR" ? (row.error as CaseSummary["error"]) : null,
    })),
    total: Number(total),
    page,
    pageSize,
    pageCount: Math.ceil(Number(total) / pageSize),
  };
}
