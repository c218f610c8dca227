// GET /v1/diagnoses/{id} — one condition with its weighted signs, risk factors and source.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseParams, parseQuery } from "@/lib/http/request";
import { emptyQuery, idParam } from "@/lib/catalogue/schemas";
import { getDiagnosis } from "@/lib/catalogue/get-diagnosis";

export const dynamic = "force-dynamic";

export const GET = withAuth<{ id: string }>(
  { anyScope: OPERATION_SCOPES["GET /v1/diagnoses/{id}"] },
  async ({ request, params, db }) => {
    parseQuery(request, emptyQuery);
    return json(await getDiagnosis(db, parseParams(params, idParam).id));
  },
);
