// GET /components/diagnostics/{session}/api/symptoms?q=&animal_type_id= — catalogue sign search.
import { symptomsQuery } from "@/lib/catalogue/schemas";
import { searchSymptoms } from "@/lib/catalogue/search-symptoms";
import { parseQuery } from "@/lib/http/request";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { json } from "@/lib/http/with-auth";
import { withComponentSession } from "@/lib/sessions/component-session";

export const dynamic = "force-dynamic";

export const GET = withComponentSession(
  { anyScope: OPERATION_SCOPES["GET /v1/symptoms"] },
  async ({ request, db }) => json(await searchSymptoms(db, parseQuery(request, symptomsQuery))),
);
