// /cases — the vet's cases: search by patient or notes, filter by status and species, pages of 20;
// rows still in the pipeline update live.
import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db";
import { caseStatuses, type CaseStatus } from "@/db/schema";
import { listAnimalTypes } from "@/lib/catalogue/list-animal-types";
import { searchCases } from "@/lib/cases/search-cases";
import { formatDateTime, IN_PROGRESS_STATUSES, STATUS_LABELS } from "../_components/case-status";
import { CasesTable, type CaseRowView } from "../_components/cases-table";
import { requireVet } from "../session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Cases" };

const PAGE_SIZE = 20;
type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

function statusFilter(value: string): CaseStatus[] | undefined {
  if (value === "in_progress") return IN_PROGRESS_STATUSES;
  return (caseStatuses as readonly string[]).includes(value) ? [value as CaseStatus] : undefined;
}

function pageHref(params: { q: string; status: string; species: string }, page: number): string {
  const query = new URLSearchParams();
  if (params.q) query.set("q", params.q);
  if (params.status) query.set("status", params.status);
  if (params.species) query.set("species", params.species);
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return text ? `/cases?${text}` : "/cases";
}

export default async function CasesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const identity = await requireVet("/cases");
  const raw = await searchParams;
  const q = first(raw.q).slice(0, 200);
  const status = first(raw.status);
  const species = first(raw.species);
  const speciesId = /^\d{1,9}$/.test(species) ? Number(species) : undefined;
  const requestedPage = Number.parseInt(first(raw.page), 10);
  const page = Number.isFinite(requestedPage) && requestedPage > 0 ? Math.min(requestedPage, 10_000) : 1;
  const db = await getDb();
  const [result, animalTypes] = await Promise.all([
    searchCases(db, {
      veterinarianId: identity.veterinarianId,
      query: q,
      status: statusFilter(status),
      animalTypeId: speciesId,
      page,
      pageSize: PAGE_SIZE,
    }),
    listAnimalTypes(db),
  ]);
  const speciesNames = Object.fromEntries(animalTypes.map((type) => [type.id, type.name]));
  const filtered = Boolean(q || statusFilter(status) || speciesId !== undefined);
  const rows: CaseRowView[] = result.data.map((row) => ({
    id: row.id,
    status: row.status,
    patientName: row.patientName,
    animalTypeId: row.animalTypeId,
    excerpt: row.notes.length > 140 ? `${row.notes.slice(0, 140).trimEnd()}…` : row.notes,
    created: formatDateTime(row.createdAt),
    createdIso: row.createdAt.toISOString(),
    errorMessage: row.error?.message ?? null,
  }));
  const params = { q, status, species };
  const firstShown = (result.page - 1) * result.pageSize + 1;

  return (
    <>
      <div className="page-heading">
        <h1>Cases</h1>
        <Link href="/cases/new" className="button">
          New case
        </Link>
      </div>

      <form className="filters card" role="search" aria-label="Search and filter cases" action="/cases">
        <div className="field grow">
          <label htmlFor="q">Search patient or notes</label>
          <input id="q" name="q" type="search" defaultValue={q} placeholder="e.g. Bella, vomiting" />
        </div>
        <div className="field">
          <label htmlFor="status">Status</label>
          <select id="status" name="status" defaultValue={statusFilter(status) ? status : ""}>
            <option value="">Any status</option>
            <option value="in_progress">In progress</option>
            {caseStatuses.map((value) => (
              <option key={value} value={value}>
                {STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="species">Species</label>
          <select id="species" name="species" defaultValue={speciesId !== undefined ? species : ""}>
            <option value="">Any species</option>
            {animalTypes.map((type) => (
              <option key={type.id} value={type.id}>
                {type.name}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-actions">
          <button type="submit" className="button">
            Search
          </button>
          {filtered ? (
            <Link href="/cases" className="button secondary">
              Clear
            </Link>
          ) : null}
        </div>
      </form>

      {result.total === 0 ? (
        <section className="card empty-state" aria-labelledby="empty-title">
          {filtered ? (
            <>
              <h2 id="empty-title">No cases match</h2>
              <p className="muted">Try other words, or clear the filters.</p>
              <Link href="/cases" className="button secondary">
                Clear filters
              </Link>
            </>
          ) : (
            <>
              <h2 id="empty-title">No cases yet</h2>
              <p className="muted">
                Paste your consult notes and VetDx extracts the patient and clinical signs, ranks the
                differentials and drafts SOAP notes. Cases created through the API or an AI assistant appear
                here too.
              </p>
              <Link href="/cases/new" className="button">
                Create your first case
              </Link>
            </>
          )}
        </section>
      ) : result.data.length === 0 ? (
        <section className="card empty-state" aria-labelledby="empty-title">
          <h2 id="empty-title">No cases on this page</h2>
          <Link href={pageHref(params, 1)}>Back to the first page</Link>
        </section>
      ) : (
        <>
          <p className="muted small" aria-live="polite">
            Showing {firstShown}–{firstShown + result.data.length - 1} of {result.total} case
            {result.total === 1 ? "" : "s"}
          </p>
          <CasesTable key={pageHref(params, result.page)} rows={rows} species={speciesNames} />
          {result.pageCount > 1 ? (
            <nav aria-label="Pages" className="pagination">
              {result.page > 1 ? (
                <Link href={pageHref(params, result.page - 1)} rel="prev">
                  ← Newer
                </Link>
              ) : (
                <span aria-hidden="true" />
              )}
              <span>
                Page {result.page} of {result.pageCount}
              </span>
              {result.page < result.pageCount ? (
                <Link href={pageHref(params, result.page + 1)} rel="next">
                  Older →
                </Link>
              ) : (
                <span aria-hidden="true" />
              )}
            </nav>
          ) : null}
        </>
      )}
    </>
  );
}
