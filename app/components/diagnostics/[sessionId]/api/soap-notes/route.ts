// POST /components/diagnostics/{session}/api/soap-notes — SOAP notes for the session's case (stored
// on it), or, in a free-form session, for the posted selection (not stored).
import { freeFormSoap, freeFormSoapInput } from "@/lib/notes/free-form-soap";
import { generateSoapNotes, writeSoapNotes } from "@/lib/notes/generate-soap-notes";
import { parseJsonBody } from "@/lib/http/request";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { json } from "@/lib/http/with-auth";
import { withComponentSession } from "@/lib/sessions/component-session";

export const dynamic = "force-dynamic";

// Writing notes needs the write scope even in a free-form session (nothing stored): it is the
// costly call, a model call when AI_MODEL is set, with its own budget.
export const POST = withComponentSession(
  { anyScope: OPERATION_SCOPES["POST /v1/cases/{id}/soap-notes"], budget: "component-soap" },
  async ({ request, db, session }) => {
    if (session.caseId) {
      return json(
        await generateSoapNotes(db, { caseId: session.caseId, veterinarianId: session.veterinarianId }),
      );
    }
    const input = await parseJsonBody(request, freeFormSoapInput, 16 * 1024);
    return json(await writeSoapNotes(db, await freeFormSoap(db, input)));
  },
);
