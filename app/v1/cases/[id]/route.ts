// GET/PATCH/DELETE /v1/cases/{id} — one of the vet's cases. GET answers If-None-Match with 304 while
// the case is unchanged (cheap polling); PATCH honours If-Match.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/request";
import { emptyQuery } from "@/lib/catalogue/schemas";
import { caseEtag, toCaseResource } from "@/lib/cases/case-resource";
import { deleteCase } from "@/lib/cases/delete-case";
import { getCaseResourceJson, getCaseVersion } from "@/lib/cases/get-case";
import { updateCase } from "@/lib/cases/update-case";
import { updateCaseInput } from "@/lib/cases/schemas";
import { invalid } from "@/lib/errors";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = withAuth<Params>(
  { anyScope: OPERATION_SCOPES["GET /v1/cases/{id}"] },
  async ({ request, params, db, identity }) => {
    parseQuery(request, emptyQuery);
    const where = { caseId: params.id, veterinarianId: identity.veterinarianId };
    const ifNoneMatch = request.headers.get("if-none-match");
    if (ifNoneMatch) {
      const etag = caseEtag(await getCaseVersion(db, where));
      if (ifNoneMatch.split(",").some((tag) => tag.trim() === etag)) {
        return new Response(null, { status: 304, headers: { etag, "cache-control": "no-cache" } });
      }
    }
    const { body, etag } = await getCaseResourceJson(db, where);
    return new Response(body, {
      headers: { "content-type": "application/json", etag, "cache-control": "no-cache" },
    });
  },
);

function expectedVersion(request: Request, caseId: string): number | undefined {
  const ifMatch = request.headers.get("if-match");
  if (!ifMatch) return undefined;
  const match = /^"([0-9a-f-]{36})\.(\d+)"$/.exec(ifMatch.trim());
  if (!match || match[1] !== caseId) throw invalid("If-Match must be an ETag this API issued for this case");
  return Number(match[2]);
}

export const PATCH = withAuth<Params>(
  { anyScope: OPERATION_SCOPES["PATCH /v1/cases/{id}"] },
  async ({ request, params, db, identity }) => {
    const input = await parseJsonBody(request, updateCaseInput, 64 * 1024);
    const row = await updateCase(db, { caseId: params.id, veterinarianId: identity.veterinarianId }, input, {
      expectedVersion: expectedVersion(request, params.id),
    });
    return json(toCaseResource(row), { headers: { etag: caseEtag(row) } });
  },
);

export const DELETE = withAuth<Params>(
  { anyScope: OPERATION_SCOPES["DELETE /v1/cases/{id}"] },
  async ({ params, db, identity }) => {
    await deleteCase(db, { caseId: params.id, veterinarianId: identity.veterinarianId });
    return new Response(null, { status: 204 });
  },
);
