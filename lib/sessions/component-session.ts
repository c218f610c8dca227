// Route-handler wrapper for the component's own API (/components/diagnostics/<session id>/api/…):
// the session id in the path is the only credential. Unknown → 404, expired → 410; the handler
// gets the session's vet and case and nothing else.
import "server-only";
import { getDb, type Database } from "@/db";
import { errorToResponse, problemResponse, PROBLEM_TYPE_BASE } from "@/lib/http/problem";
import { findComponentSession } from "./find-session";

export interface ComponentSessionScope {
  veterinarianId: string;
  caseId: string | null;
  allowedOrigins: string[];
  expiresAt: Date;
}

function sessionExpired(): Response {
  const body = {
    type: `${PROBLEM_TYPE_BASE}session-expired`,
    title: "Session expired",
    status: 410,
    detail: "This diagnostics session has expired; open the component again from your practice software",
  };
  return Response.json(body, {
    status: 410,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store" },
  });
}

type RouteContext = { params: Promise<{ sessionId: string }> };

export function withComponentSession(
  handler: (args: { request: Request; db: Database; session: ComponentSessionScope }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    try {
      const db = await getDb();
      const { sessionId } = await context.params;
      const lookup = await findComponentSession(db, sessionId);
      if (lookup.state === "unknown")
        return problemResponse(404, "not_found", "This diagnostics session does not exist");
      if (lookup.state === "expired") return sessionExpired();
      const { veterinarianId, caseId, allowedOrigins, expiresAt } = lookup.session;
      return await handler({ request, db, session: { veterinarianId, caseId, allowedOrigins, expiresAt } });
    } catch (error) {
      return errorToResponse(error);
    }
  };
}
