// GET /v1/symptom-categories — the categories clinical signs are grouped in.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/request";
import { emptyQuery } from "@/lib/catalogue/schemas";
import { listSymptomCategories } from "@/lib/catalogue/list-symptom-categories";

export const dynamic = "force-dynamic";

export const GET = withAuth(
  { anyScope: OPERATION_SCOPES["GET /v1/symptom-categories"] },
  async ({ request, db }) => {
    parseQuery(request, emptyQuery);
    return json({ data: await listSymptomCategories(db), next_cursor: null });
  },
);
