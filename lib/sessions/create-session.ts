// Creates a component session: a 256-bit capability bound to the vet (and optionally one of their
// cases) and to the origins allowed to frame it. Only its hash is stored. The session may do no
// more than its creator: it keeps the creator's scopes (reading needs a read scope, changing the
// case a write scope) and the machine client or MCP connection whose revocation ends it. A creator
// who may not read what the session shows gets no session.
import type { Database } from "@/db";
import { componentSessions } from "@/db/schema";
import { findMachineClient } from "@/lib/machine-clients/machine-clients";
import { AuthError, type Identity } from "@/lib/auth/identity";
import { randomToken, sha256 } from "@/lib/auth/secrets";
import { getCaseRow } from "@/lib/cases/get-case";
import { getEnv } from "@/lib/env";
import { invalid } from "@/lib/errors";
import { OPERATION_SCOPES } from "@/lib/http/operation-scopes";
import type { ComponentSession, CreateSessionInput } from "./schemas";

export async function createComponentSession(
  db: Database,
  identity: Identity,
  input: CreateSessionInput,
): Promise<ComponentSession> {
  const env = getEnv();
  // A case session shows the case; a free-form one searches the catalogue.
  const mayRead = input.case_id
    ? OPERATION_SCOPES["GET /v1/cases/{id}"]
    : OPERATION_SCOPES["GET /v1/symptoms"];
  if (!mayRead.some((scope) => identity.scopes.includes(scope))) {
    throw new AuthError(
      "insufficient_scope",
      `A component session shows ${input.case_id ? "the case" : "the catalogue"}: it needs ${mayRead.join(" or ")} as well as vetdx/tools`,
      { requiredScopes: mayRead },
    );
  }
  if (input.case_id) await getCaseRow(db, { caseId: input.case_id, veterinarianId: identity.veterinarianId });
  let origins = input.parent_origin ? [input.parent_origin] : [];
  if (origins.length === 0 && identity.kind === "machine" && identity.clientId) {
    origins = (await findMachineClient(db, identity.clientId))?.embedOrigins ?? [];
  }
  if (origins.length === 0) {
    throw invalid(
      "No origin may frame this component: send parent_origin (the origin of the page that embeds it), " +
        "or have an operator register one for your client with `npm run admin -- clients create … --embed-origin https://your.site`",
      [{ path: "parent_origin", message: "required when the client has no registered embed origins" }],
    );
  }
  const sessionId = randomToken(32);
  const expiresAt = new Date(Date.now() + env.COMPONENT_SESSION_TTL_SECONDS * 1000);
  await db.insert(componentSessions).values({
    idHash: sha256(sessionId),
    component: input.component,
    veterinarianId: identity.veterinarianId,
    caseId: input.case_id ?? null,
    allowedOrigins: origins,
    clientId: identity.clientId,
    scopes: identity.scopes,
    machineClientId: identity.kind === "machine" ? identity.clientId : null,
    grantId: identity.grantId ?? null,
    expiresAt,
  });
  return {
    session_id: sessionId,
    url: `${env.APP_URL}/components/diagnostics/${sessionId}`,
    expires_at: expiresAt.toISOString(),
  };
}
