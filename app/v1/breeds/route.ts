// GET /v1/breeds?animal_type_id=&q= — breeds of a species, ranked by similarity when q is given.
import { withAuth, json } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/request";
import { breedsQuery } from "@/lib/catalogue/schemas";
import { searchBreeds } from "@/lib/catalogue/search-breeds";

export const dynamic = "force-dynamic";

export const GET = withAuth({ anyScope: ["vetdx/read"] }, async ({ request, db }) =>
  json(await searchBreeds(db, parseQuery(request, breedsQuery))),
);
