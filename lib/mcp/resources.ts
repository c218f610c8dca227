// MCP resources: the calling vet's cases (vetdx://cases/{id}, listed newest first with the
// protocol's cursor) and catalogue entries (vetdx://symptoms/{id}, vetdx://diagnoses/{id}). Reads
// return the JSON the matching tools return (get_case, get_symptom, get_diagnosis), scoped like
// them; anything else is "resource not found" with no data.
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type CacheHint,
  type McpServer,
  type Resource,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Database } from "@/db";
import type { Identity } from "@/lib/auth/identity";
import type { Scope } from "@/lib/auth/scopes";
import { getDiagnosis } from "@/lib/catalogue/get-diagnosis";
import { getSymptom } from "@/lib/catalogue/get-symptom";
import { toCaseResource } from "@/lib/cases/case-resource";
import { getCaseRow } from "@/lib/cases/get-case";
import { listCases } from "@/lib/cases/list-cases";
import type { CaseResource } from "@/lib/cases/schemas";
import { AppError } from "@/lib/errors";

/** Who is asking, resolved once per request (/mcp) or per session (/sse). */
export interface SurfaceContext {
  db: () => Promise<Database>;
  identity: Identity | undefined;
}

export const CASE_URI_PREFIX = "vetdx://cases/";
const CASE_TEMPLATE = "vetdx://cases/{id}";
const SYMPTOM_TEMPLATE = "vetdx://symptoms/{id}";
const DIAGNOSIS_TEMPLATE = "vetdx://diagnoses/{id}";

/** Scopes, like the matching tools: get_case, list_cases, get_symptom/get_diagnosis. */
export const CASE_READ_SCOPES: readonly Scope[] = ["vetdx/read", "vetdx/user.read"];
export const CASE_LIST_SCOPES: readonly Scope[] = ["vetdx/user.read"];
export const CATALOGUE_SCOPES: readonly Scope[] = ["vetdx/read"];

export const CASES_PER_PAGE = 50;

const HOUR = 60 * 60 * 1000;
/**
 * 2026-07-28 caching hints (ttlMs, cacheScope). Templates and prompts are the same for everyone
 * and change with a deployment; the resource list is the vet's own cases and changes whenever
 * they create one.
 */
export const CACHE_HINTS = {
  "resources/templates/list": { ttlMs: HOUR, cacheScope: "public" },
  "prompts/list": { ttlMs: HOUR, cacheScope: "public" },
  "resources/list": { ttlMs: 10_000, cacheScope: "private" },
} as const satisfies Record<string, CacheHint>;
const CASE_READ_HINT: CacheHint = { ttlMs: 0, cacheScope: "private" };
const CATALOGUE_READ_HINT: CacheHint = { ttlMs: HOUR, cacheScope: "public" };

export function caseUri(caseId: string): string {
  return `${CASE_URI_PREFIX}${caseId}`;
}

/** The identity, if it holds one of `scopes`; a clear error naming them otherwise. */
export function requireScope(context: SurfaceContext, scopes: readonly Scope[], what: string): Identity {
  const identity = context.identity;
  if (!identity) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "Not authenticated");
  if (!scopes.some((scope) => identity.scopes.includes(scope))) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `${what} needs the scope ${scopes.join(" or ")}, which your token does not have.`,
    );
  }
  return identity;
}

export function hasScope(context: SurfaceContext, scopes: readonly Scope[]): boolean {
  return scopes.some((scope) => context.identity?.scopes.includes(scope));
}

/** The vet's own case; unknown, deleted, malformed or another vet's id is "resource not found". */
export async function readOwnCase(context: SurfaceContext, caseId: string): Promise<CaseResource> {
  const identity = requireScope(context, CASE_READ_SCOPES, "Reading a case");
  try {
    const row = await getCaseRow(await context.db(), { caseId, veterinarianId: identity.veterinarianId });
    return toCaseResource(row);
  } catch (error) {
    if (error instanceof AppError && error.kind === "not_found")
      throw new ResourceNotFoundError(caseUri(caseId));
    throw error;
  }
}

function caseTitle(found: CaseResource): string {
  const name = found.patient?.name ?? found.ai_extracted_patient?.name;
  const day = found.created_at.slice(0, 10);
  return `${name ?? "Unnamed patient"} (${day}, ${found.status})`;
}

function caseListEntry(found: CaseResource): Resource {
  return {
    uri: caseUri(found.id),
    name: `case-${found.id}`,
    title: caseTitle(found),
    description: found.notes.length > 120 ? `${found.notes.slice(0, 117)}...` : found.notes,
    mimeType: "application/json",
  };
}

function json(uri: URL, value: unknown) {
  return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(value) }] };
}

/** The single variable of a matched template, as the one string it must be. */
function variable(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

function catalogueId(uri: URL, raw: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > 2_147_483_647)
    throw new ResourceNotFoundError(uri.href);
  return Number(raw);
}

async function readCatalogue<T>(uri: URL, read: () => Promise<T>) {
  try {
    return json(uri, await read());
  } catch (error) {
    if (error instanceof AppError && error.kind === "not_found") throw new ResourceNotFoundError(uri.href);
    throw error;
  }
}

/**
 * A page of the vet's cases for resources/list. The cursor is list_cases' keyset cursor; a cursor
 * this server did not issue is an invalid-params error.
 */
export async function listCaseResources(
  context: SurfaceContext,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  if (!hasScope(context, CASE_LIST_SCOPES) || !context.identity) {
    if (cursor !== undefined) throw invalidCursor();
    return { resources: [] };
  }
  if (cursor !== undefined && (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)))
    throw invalidCursor();
  try {
    const page = await listCases(await context.db(), {
      veterinarianId: context.identity.veterinarianId,
      limit: CASES_PER_PAGE,
      cursor,
    });
    return {
      resources: page.data.map(caseListEntry),
      ...(page.next_cursor && { nextCursor: page.next_cursor }),
    };
  } catch (error) {
    if (error instanceof AppError && error.kind === "validation") throw invalidCursor();
    throw error;
  }
}

function invalidCursor() {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, "The cursor is not one this server issued");
}

/**
 * The static resources other modules registered (the MCP Apps view). McpServer lists them only in
 * its own resources/list handler, which takes no cursor; ours replaces it, so it lists them too.
 */
function staticResources(server: McpServer): Resource[] {
  const registered = (
    server as unknown as {
      _registeredResources: Record<string, { name: string; enabled: boolean; metadata?: object }>;
    }
  )._registeredResources;
  return Object.entries(registered)
    .filter(([, resource]) => resource.enabled)
    .map(([uri, resource]) => ({ uri, name: resource.name, ...resource.metadata }));
}

export function registerResources(server: McpServer, context: SurfaceContext): void {
  server.registerResource(
    "case",
    new ResourceTemplate(CASE_TEMPLATE, { list: undefined }),
    {
      title: "A case",
      description:
        "One of your cases as JSON (what get_case returns). Subscribe to hear when processing moves it on.",
      mimeType: "application/json",
      cacheHint: CASE_READ_HINT,
    },
    async (uri, variables) => json(uri, await readOwnCase(context, variable(variables.id))),
  );
  server.registerResource(
    "symptom",
    new ResourceTemplate(SYMPTOM_TEMPLATE, { list: undefined }),
    {
      title: "A clinical sign",
      description: "One catalogue clinical sign by id (what get_symptom returns).",
      mimeType: "application/json",
      cacheHint: CATALOGUE_READ_HINT,
    },
    async (uri, variables) => {
      requireScope(context, CATALOGUE_SCOPES, "Reading the catalogue");
      const id = catalogueId(uri, variable(variables.id));
      return readCatalogue(uri, async () => getSymptom(await context.db(), id));
    },
  );
  server.registerResource(
    "diagnosis",
    new ResourceTemplate(DIAGNOSIS_TEMPLATE, { list: undefined }),
    {
      title: "A diagnosis",
      description: "One catalogue condition by id with the signs it causes (what get_diagnosis returns).",
      mimeType: "application/json",
      cacheHint: CATALOGUE_READ_HINT,
    },
    async (uri, variables) => {
      requireScope(context, CATALOGUE_SCOPES, "Reading the catalogue");
      const id = catalogueId(uri, variable(variables.id));
      return readCatalogue(uri, async () => getDiagnosis(await context.db(), id));
    },
  );
  // With a params schema the SDK answers malformed params with -32602 (its plain handlers: -32603).
  const listParams = z.looseObject({ cursor: z.string().optional() });
  server.server.setRequestHandler("resources/list", { params: listParams }, async ({ cursor }) => {
    const cases = await listCaseResources(context, cursor);
    return {
      resources: cursor === undefined ? [...staticResources(server), ...cases.resources] : cases.resources,
      ...(cases.nextCursor && { nextCursor: cases.nextCursor }),
    };
  });
}
