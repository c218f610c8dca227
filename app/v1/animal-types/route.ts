// GET /v1/animal-types — every species VetDx knows, with stable ids.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/request";
import { emptyQuery } from "@/lib/catalogue/schemas";
import { listAnimalTypes } from "@/lib/catalogue/list-animal-types";

export const dynamic = "force-dynamic";

export const GET = withAuth(
  { anyScope: OPERATION_SCOPES["GET /v1/animal-types"] },
  async ({ request, db }) => {
    parseQuery(request, emptyQuery);
    return json({ data: await listAnimalTypes(db), next_cursor: null });
  },
);
