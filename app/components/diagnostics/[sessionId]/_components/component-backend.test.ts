// The component's HTTP backend against the component's real API routes (fetch handed to the route
// handlers, a real database): each method reaches its route with the body the route expects, and a
// session's end arrives as an ApiError with its status. Another backend (MCP tools) must match this.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { componentSessions } from "@/db/schema";
import { sha256 } from "@/lib/auth/secrets";
import { revokeMachineClient } from "@/lib/machine-clients/machine-clients";
import { inlineRunner } from "@/inngest/runner";
import { call, machineToken, type RouteHandler } from "@/test/support";
import { POST as createCase } from "@/app/v1/cases/route";
import { POST as createSession } from "@/app/v1/sessions/route";
import { GET as getCase, PATCH as patchCase } from "../api/case/route";
import { PUT as putDiagnosis } from "../api/diagnosis/route";
import { GET as caseDifferentials, POST as freeDifferentials } from "../api/differentials/route";
import { POST as soapNotes } from "../api/soap-notes/route";
import { GET as searchSymptoms } from "../api/symptoms/route";
import { GET as searchBreeds } from "../api/breeds/route";
import { ApiError } from "./component-api";
import { httpBackend, type FreeFormSelection } from "./component-backend";

const ROUTES: Record<string, RouteHandler> = {
  "GET /case": getCase,
  "PATCH /case": patchCase,
  "PUT /diagnosis": putDiagnosis,
  "GET /differentials": caseDifferentials,
  "POST /differentials": freeDifferentials,
  "POST /soap-notes": soapNotes,
  "GET /symptoms": searchSymptoms,
  "GET /breeds": searchBreeds,
};
const HOST = "http://127.0.0.1:4100";
const json = { "content-type": "application/json" };

let handle: DatabaseHandle;
let token: string;
let caseId: string;
let caseSession: string;
let freeSession: string;

async function newSession(body: Record<string, unknown>) {
  const response = await call(createSession, "/v1/sessions", {
    method: "POST",
    token,
    headers: json,
    body: JSON.stringify({ component: "diagnostics", parent_origin: HOST, ...body }),
  });
  return ((await response.json()) as { session_id: string }).session_id;
}

beforeAll(async () => {
  handle = await openTestDatabase();
  token = (await machineToken(handle.db)).token;
  const created = await call(createCase, "/v1/cases", {
    method: "POST",
    token,
    headers: json,
    body: JSON.stringify({
      notes: "Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday.",
    }),
  });
  caseId = ((await created.json()) as { id: string }).id;
  await inlineRunner().idle();
  caseSession = await newSession({ case_id: caseId });
  freeSession = await newSession({});
  // The browser's fetch of a same-origin component URL, answered by the route handler for it.
  vi.stubGlobal("fetch", async (input: string, init: RequestInit) => {
    const url = new URL(input, HOST);
    const [, sessionId, path] = /^\/components\/diagnostics\/([^/]+)\/api(\/[a-z-]+)$/.exec(url.pathname)!;
    const handler = ROUTES[`${init.method} ${path}`];
    if (!handler) throw new Error(`no route for ${init.method} ${url.pathname}`);
    return call(handler, `${url.pathname}${url.search}`, { ...init, params: { sessionId: sessionId! } });
  });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await inlineRunner().idle();
  await handle.close();
});

describe("httpBackend on a case session", () => {
  it("reads and changes the case, ranks it, sets the diagnosis and writes its notes", async () => {
    const backend = httpBackend(caseSession);
    const view = await backend.getCase();
    expect(view.case).toMatchObject({ id: caseId, status: "COMPLETED" });

    const dog = view.case.patient!.animal_type_id!;
    const [cough] = await backend.searchSymptoms({ q: "coughing", animalTypeId: dog });
    const changed = await backend.updateCase({
      select_symptoms: [{ id: cough!.id, significant: true }],
      patient: { name: "Bella B" },
    });
    expect(changed.case.selected_symptoms).toContainEqual({ id: cough!.id, significant: true });
    expect(changed.case.patient?.name).toBe("Bella B");
    const removed = await backend.updateCase({ deselect_symptoms: [cough!.id] });
    expect(removed.case.selected_symptoms.map((s) => s.id)).not.toContain(cough!.id);

    const differentials = await backend.differentials(null);
    expect(differentials).toHaveLength(10);
    const chosen = await backend.selectDiagnosis(differentials[0]!.id);
    expect(chosen.case.selected_diagnoses[0]).toMatchObject({ id: differentials[0]!.id });
    const notes = await backend.generateSoap(null);
    expect(notes.assessment).toContain(`Working diagnosis: ${differentials[0]!.name}`);

    const breeds = await backend.searchBreeds({ q: "labrador", animalTypeId: dog });
    expect(breeds[0]).toEqual({ id: expect.any(Number), name: expect.stringMatching(/Labrador/) });
  });
});

describe("httpBackend on a free-form session", () => {
  it("ranks and writes notes from the selection it is given", async () => {
    const backend = httpBackend(freeSession);
    const [vomiting] = await backend.searchSymptoms({ q: "vomiting", animalTypeId: null });
    const selection: FreeFormSelection = {
      animal_type_id: 2,
      breed_id: null,
      gender_id: null,
      neutered: null,
      signs: [{ id: vomiting!.id, significant: true }],
      diagnosis_id: null,
    };
    expect((await backend.differentials(selection)).length).toBeGreaterThan(0);
    expect((await backend.generateSoap(selection)).subjective).toContain("presented with vomiting");
    await expect(backend.getCase()).rejects.toMatchObject({ status: 404 });
  });
});

describe("httpBackend when the session ends", () => {
  it("rejects with ApiError 410 once the session has expired, 404 for an unknown one", async () => {
    const expiring = await newSession({ case_id: caseId });
    await handle.db
      .update(componentSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(componentSessions.idHash, sha256(expiring)));
    const expired = httpBackend(expiring).updateCase({ patient: { name: "Late" } });
    await expect(expired).rejects.toBeInstanceOf(ApiError);
    await expect(expired).rejects.toMatchObject({ status: 410 });
    await expect(httpBackend("A".repeat(43)).differentials(null)).rejects.toMatchObject({ status: 404 });
  });

  it("tells an ended session (its client revoked) from an expired one by the problem type", async () => {
    const revoked = await machineToken(handle.db, undefined, "Revoked clinic");
    const created = await call(createCase, "/v1/cases", {
      method: "POST",
      token: revoked.token,
      headers: json,
      body: JSON.stringify({ notes: "Max, 6yo MN cat. Sneezing." }),
    });
    const { id } = (await created.json()) as { id: string };
    const response = await call(createSession, "/v1/sessions", {
      method: "POST",
      token: revoked.token,
      headers: json,
      body: JSON.stringify({ component: "diagnostics", parent_origin: HOST, case_id: id }),
    });
    const { session_id } = (await response.json()) as { session_id: string };
    await revokeMachineClient(handle.db, revoked.client.clientId);
    await expect(httpBackend(session_id).getCase()).rejects.toMatchObject({
      status: 410,
      type: expect.stringMatching(/\/session-ended$/),
    });
  });
});
