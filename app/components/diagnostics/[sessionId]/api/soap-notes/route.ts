// POST /components/diagnostics/{session}/api/soap-notes — SOAP notes for the session's case (stored
// on it), or, in a free-form session, for the posted selection (not stored).
import { freeFormSoap, freeFormSoapInput } from "@/lib/notes/free-form-soap";
import { generateSoapNotes, writeSoapNotes } from "@/lib/notes/generate-soap-notes";
import { parseJsonBody } from "@/lib/http/request";
import { json } from "@/lib/http/with-auth";
import { withComponentSession } from "@/lib/sessions/component-session";

export const dynamic = "force-dynamic";

export const POST = withComponentSession(async ({ request, db, session }) => {
  if (session.caseId) {
    return json(
      await generateSoapNotes(db, { caseId: session.caseId, veterinarianId: session.veterinarianId }),
    );
  }
  const input = await parseJsonBody(request, freeFormSoapInput, 16 * 1024);
  return json(await writeSoapNotes(db, await freeFormSoap(db, input)));
});
