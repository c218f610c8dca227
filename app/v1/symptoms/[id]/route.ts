// GET /v1/symptoms/{id} — one clinical sign.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseParams, parseQuery } from "@/lib/http/request";
import { emptyQuery, idParam } from "@/lib/catalogue/schemas";
import { getSymptom } from "@/lib/catalogue/get-symptom";

export const dynamic = "force-dynamic";

export const GET = withAuth<{ id: string }>(
  { anyScope: OPERATION_SCOPES["GET /v1/symptoms/{id}"] },
  async ({ request, params, db }) => {
    parseQuery(request, emptyQuery);
    return json(await getSymptom(db, parseParams(params, idParam).id));
  },
);
