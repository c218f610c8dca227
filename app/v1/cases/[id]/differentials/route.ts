// GET /v1/cases/{id}/differentials — ranked differential diagnoses for one of the vet's cases.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/request";
import { caseDifferentialsQuery, differentialsForCase } from "@/lib/diagnosis/case-differentials";

export const dynamic = "force-dynamic";

export const GET = withAuth<{ id: string }>(
  { anyScope: OPERATION_SCOPES["GET /v1/cases/{id}/differentials"] },
  async ({ request, params, db, identity }) => {
    const { limit } = parseQuery(request, caseDifferentialsQuery);
    return json(
      await differentialsForCase(
        db,
        { caseId: params.id, veterinarianId: identity.veterinarianId },
        { limit },
      ),
    );
  },
);
