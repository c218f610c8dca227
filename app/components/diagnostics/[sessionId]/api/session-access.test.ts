// What a component session may do: no more than the credential that created it (read scopes to
// view, write scopes to change), and nothing once that credential's client, MCP connection or vet
// is revoked or disabled: the API and the page answer 410 with no case data, on every instance
// (the check is in the session lookup, which reads the database on every call).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { veterinarians } from "@/db/schema";
import type { Identity } from "@/lib/auth/identity";
import { exchangeToken } from "@/lib/auth/mcp-oauth/token";
import {
  authorizeWithConsent,
  createTestVet,
  pkcePair,
  registerTestClient,
} from "@/lib/auth/mcp-oauth/testing";
import { SCOPES, type Scope } from "@/lib/auth/scopes";
import { revokeConnection } from "@/lib/connections/revoke-connection";
import { revokeMachineClient } from "@/lib/machine-clients/machine-clients";
import { inlineRunner } from "@/inngest/runner";
import { componentPageHeaders } from "@/lib/sessions/component-headers";
import { createComponentSession } from "@/lib/sessions/create-session";
import { call, machineToken, requestToken, type RouteHandler } from "@/test/support";
import { POST as createCase } from "@/app/v1/cases/route";
import { GET as restCase } from "@/app/v1/cases/[id]/route";
import { POST as mcp } from "@/app/mcp/route";
import { POST as createSession } from "@/app/v1/sessions/route";
import { GET as getCase, PATCH as patchCase } from "./case/route";
import { PUT as putDiagnosis } from "./diagnosis/route";
import { GET as caseDifferentials } from "./differentials/route";
import { POST as soapNotes } from "./soap-notes/route";
import { GET as searchSymptoms } from "./symptoms/route";

let handle: DatabaseHandle;

const ORIGIN = "https://pims.example";
const json = { "content-type": "application/json" };

async function newCase(token: string) {
  const created = await call(createCase, "/v1/cases", {
    method: "POST",
    token,
    headers: json,
    body: JSON.stringify({ notes: "Bella, 4yo FS Labrador, 28 kg. Vomiting since yesterday, lethargic." }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await inlineRunner().idle();
  return id;
}

function postSession(token: string, body: Record<string, unknown>) {
  return call(createSession, "/v1/sessions", {
    method: "POST",
    token,
    headers: json,
    body: JSON.stringify({ component: "diagnostics", parent_origin: ORIGIN, ...body }),
  });
}

async function newSession(token: string, body: Record<string, unknown>) {
  const response = await postSession(token, body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { session_id: string }).session_id;
}

async function api(
  handler: RouteHandler,
  sessionId: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
) {
  const response = await call(handler, `/components/diagnostics/${sessionId}/api${path}`, {
    method: init.method ?? "GET",
    params: { sessionId },
    headers: init.body === undefined ? {} : json,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function mcpTool(token: string, name: string, args: Record<string, unknown>) {
  const response = await call(mcp as never, "/mcp", {
    method: "POST",
    token,
    headers: { ...json, accept: "application/json, text/event-stream", host: "vetdx.test" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const text = await response.text();
  const line = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6) ?? "");
  return (JSON.parse(line) as { result: { isError?: boolean; structuredContent?: { session_id: string } } })
    .result;
}

beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(async () => {
  await inlineRunner().idle();
  await handle.close();
});

describe("what a session may do", () => {
  it("refuses a session to a token with vetdx/tools alone: it could read nothing itself", async () => {
    const clinic = await machineToken(handle.db, SCOPES, "Tools only");
    const caseId = await newCase(clinic.token);
    const narrowed = await requestToken(clinic.client.clientId, clinic.client.clientSecret, "vetdx/tools");
    const toolsOnly = { token: ((await narrowed.json()) as { access_token: string }).access_token };
    for (const body of [{ case_id: caseId }, {}]) {
      const response = await postSession(toolsOnly.token, body);
      expect(response.status).toBe(403);
      expect(response.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
      expect(response.headers.get("www-authenticate")).toContain("vetdx/read");
    }
    const viaMcp = await mcpTool(toolsOnly.token, "create_component_session", { parent_origin: ORIGIN });
    expect(viaMcp.isError).toBe(true);
    expect(JSON.stringify(viaMcp)).toContain("vetdx/read");
  });

  it("lets a read-only creator's session view the case and refuses every change with 403", async () => {
    const clinic = await machineToken(handle.db, SCOPES, "Reader");
    const caseId = await newCase(clinic.token);
    // The same client asks for a token that may only read (and create sessions).
    const narrowed = await requestToken(
      clinic.client.clientId,
      clinic.client.clientSecret,
      "vetdx/read vetdx/tools",
    );
    const reader = ((await narrowed.json()) as { access_token: string }).access_token;
    // Tenant isolation is unchanged: another vet's case is not found.
    const stranger = await newCase((await machineToken(handle.db, SCOPES, "Stranger")).token);
    expect((await postSession(reader, { case_id: stranger })).status).toBe(404);

    const session = await newSession(reader, { case_id: caseId });
    const freeForm = await newSession(reader, {});
    const viewed = await api(getCase, session, "/case");
    expect(viewed.status).toBe(200);
    expect(viewed.body.case.id).toBe(caseId);
    expect(viewed.body.read_only).toBe(true);
    expect((await api(caseDifferentials, session, "/differentials?limit=3")).status).toBe(200);
    expect((await api(searchSymptoms, session, "/symptoms?q=cough")).status).toBe(200);
    expect((await api(searchSymptoms, freeForm, "/symptoms?q=cough")).status).toBe(200);

    const rest = async () =>
      (await call(restCase, `/v1/cases/${caseId}`, { token: clinic.token, params: { id: caseId } })).json();
    const before = await rest();
    const refused = [
      await api(patchCase, session, "/case", { method: "PATCH", body: { patient: { name: "Changed" } } }),
      await api(putDiagnosis, session, "/diagnosis", { method: "PUT", body: { diagnosis_id: 1 } }),
      await api(soapNotes, session, "/soap-notes", { method: "POST", body: {} }),
      await api(soapNotes, freeForm, "/soap-notes", {
        method: "POST",
        body: { animal_type_id: 2, signs: [] },
      }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(answer.body).toMatchObject({ status: 403, type: expect.stringContaining("forbidden") });
      expect(answer.body).not.toHaveProperty("case");
    }
    expect(await rest()).toEqual(before);
  });

  it("marks a writer's session as editable", async () => {
    const writer = await machineToken(handle.db, SCOPES, "Editor");
    const caseId = await newCase(writer.token);
    const session = await newSession(writer.token, { case_id: caseId });
    const viewed = await api(getCase, session, "/case");
    expect(viewed.body.read_only).toBe(false);
    const changed = await api(patchCase, session, "/case", {
      method: "PATCH",
      body: { patient: { name: "Bella C" } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.read_only).toBe(false);
  });
});

async function vetIdOf(clientId: string): Promise<string> {
  const { machineClients } = await import("@/db/schema");
  const [row] = await handle.db
    .select({ id: machineClients.veterinarianId })
    .from(machineClients)
    .where(eq(machineClients.clientId, clientId));
  return row!.id;
}

async function expectEnded(sessionId: string) {
  for (const [handler, path] of [
    [getCase, "/case"],
    [caseDifferentials, "/differentials"],
    [searchSymptoms, "/symptoms?q=cough"],
  ] as const) {
    const answer = await api(handler, sessionId, path);
    expect(answer.status).toBe(410);
    expect(answer.body).not.toHaveProperty("case");
    expect(answer.body).not.toHaveProperty("data");
  }
  const patched = await api(patchCase, sessionId, "/case", {
    method: "PATCH",
    body: { patient: { name: "After revocation" } },
  });
  expect(patched.status).toBe(410);
  const page = await componentPageHeaders(handle.db, `/components/diagnostics/${sessionId}`);
  expect(page).toMatchObject({
    status: 410,
    headers: { "content-security-policy": expect.stringContaining("frame-ancestors 'none'") },
  });
}

async function expectLive(sessionId: string) {
  expect((await api(getCase, sessionId, "/case")).status).toBe(200);
}

describe("revocation ends sessions at once", () => {
  it("ends the sessions of a revoked machine client, and only those", async () => {
    const revoked = await machineToken(handle.db, SCOPES, "Revoked clinic");
    const kept = await machineToken(handle.db, SCOPES, "Kept clinic");
    const session = await newSession(revoked.token, { case_id: await newCase(revoked.token) });
    const other = await newSession(kept.token, { case_id: await newCase(kept.token) });
    await expectLive(session);

    await revokeMachineClient(handle.db, revoked.client.clientId);
    await expectEnded(session);
    await expectLive(other);
  });

  it("ends the sessions made through a revoked MCP connection", async () => {
    const vet = await createTestVet(handle.db, "component-connection@clinic.test");
    const { client_id: clientId } = await registerTestClient(handle.db, { client_name: "Claude" });
    const pkce = pkcePair();
    const location = await authorizeWithConsent(handle.db, {
      clientId,
      vetId: vet.id,
      challenge: pkce.challenge,
      scope: "vetdx/read vetdx/write vetdx/tools",
    });
    const tokens = await exchangeToken(handle.db, {
      authorization: null,
      clientIp: "192.0.2.70",
      form: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: clientId,
        code: location.searchParams.get("code")!,
        code_verifier: pkce.verifier,
        redirect_uri: "http://127.0.0.1:5555/cb",
      }),
    });
    const created = await mcpTool(tokens.access_token, "create_case", {
      notes: "Milo, 3yo MN cat. Sneezing and nasal discharge for two days.",
    });
    const caseId = (created.structuredContent as unknown as { id: string }).id;
    await inlineRunner().idle();
    const made = await mcpTool(tokens.access_token, "create_component_session", {
      case_id: caseId,
      parent_origin: ORIGIN,
    });
    const session = made.structuredContent!.session_id;
    await expectLive(session);

    await revokeConnection(handle.db, { veterinarianId: vet.id, clientId });
    await expectEnded(session);
  });

  it("ends a disabled vet's sessions, the dashboard's own included", async () => {
    const vet = await createTestVet(handle.db, "component-disabled@clinic.test");
    const dashboard: Identity = {
      veterinarianId: vet.id,
      kind: "human",
      email: vet.email,
      name: vet.name,
      role: "vet",
      scopes: [...SCOPES] as Scope[],
      clientId: "vetdx-dashboard",
      authMethod: "session",
    };
    const [row] = await handle.db
      .insert((await import("@/db/schema")).cases)
      .values({ veterinarianId: vet.id, notes: "Rex, dog, coughing.", status: "COMPLETED" })
      .returning();
    const { session_id: session } = await createComponentSession(handle.db, dashboard, {
      component: "diagnostics",
      case_id: row!.id,
      parent_origin: "http://vetdx.test",
    });
    await expectLive(session);

    await handle.db.update(veterinarians).set({ disabledAt: new Date() }).where(eq(veterinarians.id, vet.id));
    await expectEnded(session);
  });

  it("ends a machine client's sessions when its veterinarian is disabled", async () => {
    const clinic = await machineToken(handle.db, SCOPES, "Disabled machine vet");
    const session = await newSession(clinic.token, { case_id: await newCase(clinic.token) });
    await expectLive(session);
    await handle.db
      .update(veterinarians)
      .set({ disabledAt: new Date() })
      .where(eq(veterinarians.id, await vetIdOf(clinic.client.clientId)));
    await expectEnded(session);
  });
});
