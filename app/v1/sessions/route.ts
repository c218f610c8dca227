// POST /v1/sessions — a component session for an iframe (spec 4.2; scope vetdx/tools).
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/request";
import { createComponentSession } from "@/lib/sessions/create-session";
import { createSessionInput } from "@/lib/sessions/schemas";

export const dynamic = "force-dynamic";

export const POST = withAuth(
  { anyScope: OPERATION_SCOPES["POST /v1/sessions"] },
  async ({ request, db, identity }) => {
    const input = await parseJsonBody(request, createSessionInput, 8 * 1024);
    return json(await createComponentSession(db, identity, input), { status: 201 });
  },
);
