// POST /v1/differentials — ranked differential diagnoses from signalment and sign ids, no case needed.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/request";
import { caseDifferentialsQuery } from "@/lib/diagnosis/case-differentials";
import { rankCase } from "@/lib/diagnosis/rank-differentials";
import { differentialsInputSchema } from "@/lib/diagnosis/schemas";

export const dynamic = "force-dynamic";

export const POST = withAuth(
  { anyScope: OPERATION_SCOPES["POST /v1/differentials"] },
  async ({ request, db }) => {
    const { limit } = parseQuery(request, caseDifferentialsQuery);
    const input = await parseJsonBody(request, differentialsInputSchema, 16 * 1024);
    return json(await rankCase(db, input, { limit }));
  },
);
