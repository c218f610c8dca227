// PUT /v1/cases/{id}/diagnosis — sets the vet's working diagnosis (a condition of the patient's species).
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/request";
import { caseEtag, toCaseResource } from "@/lib/cases/case-resource";
import { selectDiagnosis, selectDiagnosisInput } from "@/lib/cases/select-diagnosis";

export const dynamic = "force-dynamic";

export const PUT = withAuth<{ id: string }>(
  { anyScope: OPERATION_SCOPES["PUT /v1/cases/{id}/diagnosis"] },
  async ({ request, params, db, identity }) => {
    const input = await parseJsonBody(request, selectDiagnosisInput, 4 * 1024);
    const row = await selectDiagnosis(
      db,
      { caseId: params.id, veterinarianId: identity.veterinarianId },
      input,
    );
    return json(toCaseResource(row), { headers: { etag: caseEtag(row) } });
  },
);
