// POST/GET /v1/cases/{id}/soap-notes — generate (and store) SOAP notes for a case, or read the stored ones.
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { withAuth, json } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/request";
import { emptyQuery } from "@/lib/catalogue/schemas";
import { generateSoapNotes } from "@/lib/notes/generate-soap-notes";
import { getSoapNotes } from "@/lib/notes/get-soap-notes";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const POST = withAuth<Params>(
  { anyScope: OPERATION_SCOPES["POST /v1/cases/{id}/soap-notes"] },
  async ({ request, params, db, identity }) => {
    parseQuery(request, emptyQuery);
    return json(await generateSoapNotes(db, { caseId: params.id, veterinarianId: identity.veterinarianId }));
  },
);

export const GET = withAuth<Params>(
  { anyScope: OPERATION_SCOPES["GET /v1/cases/{id}/soap-notes"] },
  async ({ request, params, db, identity }) => {
    parseQuery(request, emptyQuery);
    return json(await getSoapNotes(db, { caseId: params.id, veterinarianId: identity.veterinarianId }));
  },
);
