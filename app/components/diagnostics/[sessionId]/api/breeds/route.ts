// GET /components/diagnostics/{session}/api/breeds?animal_type_id=&q= — breed search for the patient form.
import { breedsQuery } from "@/lib/catalogue/schemas";
import { searchBreeds } from "@/lib/catalogue/search-breeds";
import { parseQuery } from "@/lib/http/request";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { json } from "@/lib/http/with-auth";
import { withComponentSession } from "@/lib/sessions/component-session";

export const dynamic = "force-dynamic";

export const GET = withComponentSession(
  { anyScope: OPERATION_SCOPES["GET /v1/breeds"] },
  async ({ request, db }) => json(await searchBreeds(db, parseQuery(request, breedsQuery))),
);
