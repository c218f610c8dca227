// The diagnostics component as an MCP App (SEP-1865): a ui:// resource with the view's HTML, the
// link that lets tools name it, and the data only the view needs, carried in a tool result's _meta.
import "server-only";
import { registerAppResource, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import type { McpServer } from "@modelcontextprotocol/server";
import type { Database } from "@/db";
import type { Identity } from "@/lib/auth/identity";
import { getEnv } from "@/lib/env";
import { listAnimalTypes } from "@/lib/catalogue/list-animal-types";
import { listGenders } from "@/lib/catalogue/list-genders";
import { getCaseRow } from "@/lib/cases/get-case";
import { componentCaseView } from "@/lib/sessions/component-case-view";
import { isReadOnly } from "@/lib/sessions/component-session";
import { VIEW_DATA_KEY, type DiagnosticsViewData } from "./view-data";
import { diagnosticsViewBundle, viewDocument } from "./view-html";

export const DIAGNOSTICS_VIEW_URI = "ui://vetdx/diagnostics.html";

/** tools/list _meta of a tool whose answer the view shows: the current key and the deprecated flat one. */
export const DIAGNOSTICS_VIEW_TOOL_META = {
  ui: { resourceUri: DIAGNOSTICS_VIEW_URI },
  "ui/resourceUri": DIAGNOSTICS_VIEW_URI,
} as const;

/**
 * The view loads its script from this server and nothing else: no request of its own (every call
 * goes through the host), no font, image or frame from anywhere.
 */
export function diagnosticsViewCsp(appUrl: string) {
  return { connectDomains: [], resourceDomains: [new URL(appUrl).origin], frameDomains: [] };
}

export function registerDiagnosticsView(server: McpServer): void {
  const { APP_URL } = getEnv();
  const ui = { csp: diagnosticsViewCsp(APP_URL), prefersBorder: true };
  registerAppResource(
    server,
    "VetDx diagnostics",
    DIAGNOSTICS_VIEW_URI,
    {
      title: "VetDx diagnostics",
      description:
        "The interactive diagnostics view (patient, signs in the notes, ranked differentials, working diagnosis, SOAP notes) that get_case, wait_for_case and get_differential_diagnoses results open in hosts with MCP Apps.",
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui },
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: RESOURCE_MIME_TYPE,
          text: viewDocument(await diagnosticsViewBundle(), APP_URL),
          _meta: { ui },
        },
      ],
    }),
  );
}

/**
 * What the view needs besides a tool's structured answer: the case with the names of its signs and
 * breed (null for a ranking without a case), the species and sexes for its form, and whether the
 * caller's token may change the case.
 */
export async function diagnosticsViewData(
  db: Database,
  identity: Identity,
  caseId: string | undefined,
): Promise<Record<string, unknown>> {
  const readOnly = isReadOnly(identity.scopes);
  const [view, animalTypes, genders] = await Promise.all([
    caseId
      ? getCaseRow(db, { caseId, veterinarianId: identity.veterinarianId }).then((row) =>
          componentCaseView(db, row, { readOnly }),
        )
      : null,
    listAnimalTypes(db),
    listGenders(db),
  ]);
  const data: DiagnosticsViewData = {
    view,
    animal_types: animalTypes.map(({ id, name }) => ({ id, name })),
    genders: genders.map(({ id, name }) => ({ id, name })),
    read_only: readOnly,
  };
  return { [VIEW_DATA_KEY]: data };
}

/** The `view` of a tool whose answer the diagnostics view shows (a case, or its differentials). */
export const diagnosticsView = {
  meta: DIAGNOSTICS_VIEW_TOOL_META,
  data: (args: { case_id?: string }, context: { db: Database; identity: Identity }) =>
    diagnosticsViewData(context.db, context.identity, args.case_id),
};
