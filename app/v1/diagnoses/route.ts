// GET /v1/diagnoses?q=&animal_type_id= — conditions ranked by similarity, optionally for one species.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/request";
import { diagnosesQuery } from "@/lib/catalogue/schemas";
import { searchDiagnoses } from "@/lib/catalogue/search-diagnoses";

export const dynamic = "force-dynamic";

export const GET = withAuth({ anyScope: OPERATION_SCOPES["GET /v1/diagnoses"] }, async ({ request, db }) =>
  json(await searchDiagnoses(db, parseQuery(request, diagnosesQuery))),
);
