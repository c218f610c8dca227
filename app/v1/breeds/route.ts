// GET /v1/breeds?animal_type_id=&q= — breeds of a species, ranked by similarity when q is given.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/request";
import { breedsQuery } from "@/lib/catalogue/schemas";
import { searchBreeds } from "@/lib/catalogue/search-breeds";

export const dynamic = "force-dynamic";

export const GET = withAuth({ anyScope: OPERATION_SCOPES["GET /v1/breeds"] }, async ({ request, db }) =>
  json(await searchBreeds(db, parseQuery(request, breedsQuery))),
);
