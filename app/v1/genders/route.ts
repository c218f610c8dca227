// GET /v1/genders — sexes with the neuter terms of each species.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/request";
import { emptyQuery } from "@/lib/catalogue/schemas";
import { listGenders } from "@/lib/catalogue/list-genders";

export const dynamic = "force-dynamic";

export const GET = withAuth({ anyScope: OPERATION_SCOPES["GET /v1/genders"] }, async ({ request, db }) => {
  parseQuery(request, emptyQuery);
  return json({ data: await listGenders(db), next_cursor: null });
});
