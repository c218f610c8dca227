// GET /v1/symptoms?q=&animal_type_id= — clinical signs ranked by trigram similarity, with _distance.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/request";
import { symptomsQuery } from "@/lib/catalogue/schemas";
import { searchSymptoms } from "@/lib/catalogue/search-symptoms";

export const dynamic = "force-dynamic";

export const GET = withAuth({ anyScope: OPERATION_SCOPES["GET /v1/symptoms"] }, async ({ request, db }) =>
  json(await searchSymptoms(db, parseQuery(request, symptomsQuery))),
);
