// GET/PATCH /components/diagnostics/{session}/api/case — the session's case, and the vet's changes
// to its patient and sign selection (saved immediately; spec 6 rule 3).
import { getCaseRow } from "@/lib/cases/get-case";
import { updateCase } from "@/lib/cases/update-case";
import { updateCaseInput } from "@/lib/cases/schemas";
import { notFound } from "@/lib/errors";
import { parseJsonBody } from "@/lib/http/request";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { json } from "@/lib/http/with-auth";
import { componentCaseView } from "@/lib/sessions/component-case-view";
import { withComponentSession, type ComponentSessionScope } from "@/lib/sessions/component-session";

export const dynamic = "force-dynamic";

function caseOf(session: ComponentSessionScope) {
  if (!session.caseId) throw notFound("A case for this session (it is a free-form session)");
  return { caseId: session.caseId, veterinarianId: session.veterinarianId };
}

export const GET = withComponentSession(
  { anyScope: OPERATION_SCOPES["GET /v1/cases/{id}"] },
  async ({ db, session }) =>
    json(await componentCaseView(db, await getCaseRow(db, caseOf(session)), session)),
);

export const PATCH = withComponentSession(
  { anyScope: OPERATION_SCOPES["PATCH /v1/cases/{id}"] },
  async ({ request, db, session }) => {
    const where = caseOf(session);
    const input = await parseJsonBody(request, updateCaseInput, 64 * 1024);
    return json(await componentCaseView(db, await updateCase(db, where, input), session));
  },
);
