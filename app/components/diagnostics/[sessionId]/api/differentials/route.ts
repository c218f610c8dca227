// GET /components/diagnostics/{session}/api/differentials — ranked for the session's case;
// POST — ranked from a free-form selection (no case, nothing stored).
import { caseDifferentialsQuery, differentialsForCase } from "@/lib/diagnosis/case-differentials";
import { rankCase } from "@/lib/diagnosis/rank-differentials";
import { differentialsInputSchema } from "@/lib/diagnosis/schemas";
import { notFound } from "@/lib/errors";
import { parseJsonBody, parseQuery } from "@/lib/http/request";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { json } from "@/lib/http/with-auth";
import { withComponentSession } from "@/lib/sessions/component-session";

export const dynamic = "force-dynamic";

export const GET = withComponentSession(
  { anyScope: OPERATION_SCOPES["GET /v1/cases/{id}/differentials"] },
  async ({ request, db, session }) => {
    const { limit } = parseQuery(request, caseDifferentialsQuery);
    if (!session.caseId) throw notFound("A case for this session (it is a free-form session)");
    return json(
      await differentialsForCase(
        db,
        { caseId: session.caseId, veterinarianId: session.veterinarianId },
        { limit },
      ),
    );
  },
);

export const POST = withComponentSession(
  { anyScope: OPERATION_SCOPES["POST /v1/differentials"] },
  async ({ request, db }) => {
    const { limit } = parseQuery(request, caseDifferentialsQuery);
    const input = await parseJsonBody(request, differentialsInputSchema, 16 * 1024);
    return json(await rankCase(db, input, { limit }));
  },
);
