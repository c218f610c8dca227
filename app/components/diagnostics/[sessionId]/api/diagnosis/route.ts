// PUT /components/diagnostics/{session}/api/diagnosis — sets the working diagnosis on the session's case.
import { selectDiagnosis, selectDiagnosisInput } from "@/lib/cases/select-diagnosis";
import { notFound } from "@/lib/errors";
import { parseJsonBody } from "@/lib/http/request";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { json } from "@/lib/http/with-auth";
import { componentCaseView } from "@/lib/sessions/component-case-view";
import { withComponentSession } from "@/lib/sessions/component-session";

export const dynamic = "force-dynamic";

export const PUT = withComponentSession(
  { anyScope: OPERATION_SCOPES["PUT /v1/cases/{id}/diagnosis"] },
  async ({ request, db, session }) => {
    if (!session.caseId) throw notFound("A case for this session (it is a free-form session)");
    const input = await parseJsonBody(request, selectDiagnosisInput, 4 * 1024);
    const row = await selectDiagnosis(
      db,
      { caseId: session.caseId, veterinarianId: session.veterinarianId },
      input,
    );
    return json(await componentCaseView(db, row, session));
  },
);
