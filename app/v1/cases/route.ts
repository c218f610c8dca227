// POST /v1/cases — create a case from notes (201, PENDING). GET /v1/cases — the vet's cases.
import { caseRunner } from "@/inngest/runner";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/request";
import { createCase } from "@/lib/cases/create-case";
import { listCases } from "@/lib/cases/list-cases";
import { createCaseInput, listCasesQuery, MAX_NOTES_LENGTH } from "@/lib/cases/schemas";

export const dynamic = "force-dynamic";

// Notes up to MAX_NOTES_LENGTH characters, up to 4 bytes each in UTF-8, plus the JSON around them.
const MAX_BODY_BYTES = MAX_NOTES_LENGTH * 4 + 1024;

export const POST = withAuth(
  { anyScope: OPERATION_SCOPES["POST /v1/cases"] },
  async ({ request, db, identity }) => {
    const input = await parseJsonBody(request, createCaseInput, MAX_BODY_BYTES);
    const created = await createCase(db, identity, input, caseRunner());
    return json(created, { status: 201, headers: { location: `/v1/cases/${created.id}` } });
  },
);

export const GET = withAuth(
  { anyScope: OPERATION_SCOPES["GET /v1/cases"] },
  async ({ request, db, identity }) => {
    const query = parseQuery(request, listCasesQuery);
    return json(await listCases(db, { veterinarianId: identity.veterinarianId, ...query }));
  },
);
