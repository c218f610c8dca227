// Route-handler wrapper for the component's own API (/components/diagnostics/<session id>/api/…):
// the session id in the path is the only credential. Unknown → 404; expired, or ended because its
// creator's access was withdrawn → 410; a request the creator's scopes do not allow → 403. Budgets:
// per session for every call, a tighter one per session for a costly call (SOAP notes may be a model
// call), and per client address for ids that lead nowhere (probing). The handler gets the
// session's vet and case and nothing else.
import "server-only";
import { getDb, type Database } from "@/db";
import type { RateLimitPolicyName } from "@/lib/env";
import type { Scope } from "@/lib/auth/scopes";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import { errorToResponse, problemResponse, PROBLEM_TYPE_BASE } from "@/lib/http/problem";
import {
  checkRateLimit,
  clientIp,
  peekRateLimit,
  policy,
  rateLimitHeaders,
  RateLimitedError,
  withHeaders,
} from "@/lib/http/rate-limit";
import { findComponentSession } from "./find-session";

export interface ComponentSessionScope {
  veterinarianId: string;
  caseId: string | null;
  allowedOrigins: string[];
  expiresAt: Date;
  /** The creator may not change the case: the component only shows it. */
  readOnly: boolean;
}

const CASE_WRITE: readonly Scope[] = OPERATION_SCOPES["PATCH /v1/cases/{id}"];

/** Whether a session with these scopes may only look (no write scope). */
export function isReadOnly(scopes: readonly string[]): boolean {
  return !CASE_WRITE.some((scope) => scopes.includes(scope));
}

function sessionGone(type: "session-expired" | "session-ended"): Response {
  const body =
    type === "session-expired"
      ? {
          title: "Session expired",
          detail:
            "This diagnostics session has expired; open the component again from your practice software",
        }
      : {
          title: "Session ended",
          detail:
            "The access that opened this diagnostics session was withdrawn; open the component again from your practice software",
        };
  return Response.json(
    { type: `${PROBLEM_TYPE_BASE}${type}`, ...body, status: 410 },
    { status: 410, headers: { "content-type": "application/problem+json", "cache-control": "no-store" } },
  );
}

type RouteContext = { params: Promise<{ sessionId: string }> };

export interface ComponentRouteOptions {
  /** The creator needs one of these scopes: the REST operation's own (lib/http/operation-scopes.ts). */
  anyScope: readonly Scope[];
  /** A costly call's own budget per session, on top of the session's budget for every call. */
  budget?: RateLimitPolicyName;
}

export function withComponentSession(
  options: ComponentRouteOptions,
  handler: (args: { request: Request; db: Database; session: ComponentSessionScope }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    try {
      // An address that keeps naming sessions that do not exist is refused before the lookup.
      const ip = clientIp(request);
      const probing = await peekRateLimit(policy("component-probe-ip"), ip);
      if (probing.limited)
        throw new RateLimitedError(probing, "Too many requests for unknown sessions; slow down");
      const db = await getDb();
      const { sessionId } = await context.params;
      const lookup = await findComponentSession(db, sessionId);
      if (lookup.state !== "active") {
        const probe = await checkRateLimit(policy("component-probe-ip"), ip);
        if (probe.limited)
          throw new RateLimitedError(probe, "Too many requests for unknown sessions; slow down");
        const answer =
          lookup.state === "unknown"
            ? problemResponse(404, "not_found", "This diagnostics session does not exist")
            : sessionGone(lookup.state === "expired" ? "session-expired" : "session-ended");
        return withHeaders(answer, rateLimitHeaders(probe));
      }
      const { idHash, veterinarianId, caseId, allowedOrigins, expiresAt, scopes } = lookup.session;
      // Keyed by the id's hash: the capability itself never reaches the limiter's store.
      const decisions = [await checkRateLimit(policy("component-session"), idHash)];
      if (options.budget) decisions.push(await checkRateLimit(policy(options.budget), idHash));
      const limited = decisions.find((decision) => decision.limited);
      if (limited) throw new RateLimitedError(limited, "Too many requests for this session; slow down");
      if (!options.anyScope.some((scope) => scopes.includes(scope))) {
        return problemResponse(
          403,
          "forbidden",
          `This session may not do this: whoever opened it needs ${options.anyScope.join(" or ")}`,
          { headers: rateLimitHeaders(...decisions) },
        );
      }
      const session = { veterinarianId, caseId, allowedOrigins, expiresAt, readOnly: isReadOnly(scopes) };
      const response = await handler({ request, db, session });
      return withHeaders(response, rateLimitHeaders(...decisions));
    } catch (error) {
      return errorToResponse(error);
    }
  };
}
