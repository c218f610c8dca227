// The component's own API: the session id in the path is the only credential, it reaches only the
// session's vet and case, unknown sessions are 404 and expired ones 410; plus the page headers
// server.ts applies (frame-ancestors, no referrer, 404/410).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { componentSessions } from "@/db/schema";
import { sha256 } from "@/lib/auth/secrets";
import { inlineRunner } from "@/inngest/runner";
import { componentPageHeaders } from "@/lib/sessions/component-headers";
import { call, machineToken, type RouteHandler } from "@/test/support";
import { POST as createCase } from "@/app/v1/cases/route";
import { GET as restCase } from "@/app/v1/cases/[id]/route";
import { POST as createSession } from "@/app/v1/sessions/route";
import { GET as getCase, PATCH as patchCase } from "./case/route";
import { PUT as putDiagnosis } from "./diagnosis/route";
import { GET as caseDifferentials, POST as freeDifferentials } from "./differentials/route";
import { POST as soapNotes } from "./soap-notes/route";
import { GET as searchSymptoms } from "./symptoms/route";
import { GET as searchBreeds } from "./breeds/route";

let handle: DatabaseHandle;
let tokenA: string;
let tokenB: string;
let caseId: string;
let sessionA: string;
let freeSessionB: string;

const HOST = "http://127.0.0.1:4100";
const json = { "content-type": "application/json" };

async function newSession(token: string, body: Record<string, unknown>) {
  const response = await call(createSession, "/v1/sessions", {
    method: "POST",
    token,
    headers: json,
    body: JSON.stringify({ component: "diagnostics", parent_origin: HOST, ...body }),
  });
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
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  handle = await openTestDatabase();
  tokenA = (await machineToken(handle.db, undefined, "Clinic A")).token;
  tokenB = (await machineToken(handle.db, undefined, "Clinic B")).token;
  const created = await call(createCase, "/v1/cases", {
    method: "POST",
    token: tokenA,
    headers: json,
    body: JSON.stringify({
      notes:
        "Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, lethargic. No diarrhoea.",
    }),
  });
  caseId = ((await created.json()) as { id: string }).id;
  await inlineRunner().idle();
  sessionA = await newSession(tokenA, { case_id: caseId });
  freeSessionB = await newSession(tokenB, {});
});
afterAll(async () => {
  await inlineRunner().idle();
  await handle.close();
});

describe("the session's case", () => {
  it("reads the case with the names of its signs and breed", async () => {
    const { status, body } = await api(getCase, sessionA, "/case");
    expect(status).toBe(200);
    expect(body.case).toMatchObject({ id: caseId, status: "COMPLETED", selected_diagnoses: [] });
    expect(body.breed).toEqual({ id: expect.any(Number), name: "Labrador Retriever" });
    const names = body.symptoms.map((s: { symptom_name: string }) => s.symptom_name);
    expect(names).toEqual(expect.arrayContaining(["vomiting", "lethargy", "diarrhoea"]));
  });

  it("saves the vet's changes to the case at once", async () => {
    const found = await api(searchSymptoms, sessionA, "/symptoms?q=coughing&animal_type_id=1&limit=3");
    expect(found.status).toBe(200);
    const cough = found.body.data[0];
    const changed = await api(patchCase, sessionA, "/case", {
      method: "PATCH",
      body: {
        select_symptoms: [{ id: cough.id, significant: true }],
        patient: { name: "Bella B", weight_kg: 29 },
      },
    });
    expect(changed.status).toBe(200);
    const rest = await (
      await call(restCase, `/v1/cases/${caseId}`, { token: tokenA, params: { id: caseId } })
    ).json();
    expect(rest.selected_symptoms).toEqual(expect.arrayContaining([{ id: cough.id, significant: true }]));
    expect(rest.patient).toMatchObject({ name: "Bella B", weight_kg: 29 });
  });

  it("refuses bad changes with 400 and nothing saved", async () => {
    const bad = await api(patchCase, sessionA, "/case", {
      method: "PATCH",
      body: { select_symptoms: [{ id: 987654321 }] },
    });
    expect(bad.status).toBe(400);
    const unknownField = await api(patchCase, sessionA, "/case", {
      method: "PATCH",
      body: { notes: "rewrite" },
    });
    expect(unknownField.status).toBe(400);
  });

  it("ranks differentials, sets the diagnosis and generates SOAP notes on the case", async () => {
    const ranked = await api(caseDifferentials, sessionA, "/differentials?limit=5");
    expect(ranked.status).toBe(200);
    expect(ranked.body.data).toHaveLength(5);
    const top = ranked.body.data[0];
    const chosen = await api(putDiagnosis, sessionA, "/diagnosis", {
      method: "PUT",
      body: { diagnosis_id: top.id },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.case.selected_diagnoses).toEqual([
      { id: top.id, name: top.name, selected_at: expect.any(String) },
    ]);
    const notes = await api(soapNotes, sessionA, "/soap-notes", { method: "POST", body: {} });
    expect(notes.status).toBe(200);
    expect(notes.body.assessment).toContain(`Working diagnosis: ${top.name}`);
    const rest = await (
      await call(restCase, `/v1/cases/${caseId}`, { token: tokenA, params: { id: caseId } })
    ).json();
    expect(rest.soap_notes).toEqual(notes.body);
  });
});

describe("a free-form session", () => {
  it("has no case, but ranks and writes notes from the posted selection without storing anything", async () => {
    expect((await api(getCase, freeSessionB, "/case")).status).toBe(404);
    expect(
      (await api(putDiagnosis, freeSessionB, "/diagnosis", { method: "PUT", body: { diagnosis_id: 1 } }))
        .status,
    ).toBe(404);
    const vomiting = (await api(searchSymptoms, freeSessionB, "/symptoms?q=vomiting&limit=1")).body.data[0];
    const ranked = await api(freeDifferentials, freeSessionB, "/differentials?limit=3", {
      method: "POST",
      body: { animal_type_id: 2, present_symptom_ids: [vomiting.id] },
    });
    expect(ranked.status).toBe(200);
    expect(ranked.body.data).toHaveLength(3);
    const notes = await api(soapNotes, freeSessionB, "/soap-notes", {
      method: "POST",
      body: { animal_type_id: 2, signs: [{ id: vomiting.id, significant: true }] },
    });
    expect(notes.status).toBe(200);
    expect(notes.body.subjective).toContain("presented with vomiting");
    const breeds = await api(searchBreeds, freeSessionB, "/breeds?animal_type_id=2&q=siamese&limit=3");
    expect(breeds.body.data[0].name).toMatch(/Siamese/);
  });

  it("refuses a bad free-form body", async () => {
    const bad = await api(freeDifferentials, freeSessionB, "/differentials", {
      method: "POST",
      body: { present_symptom_ids: "x" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("unknown and expired sessions", () => {
  const routes: [string, RouteHandler, string, string?][] = [
    ["GET /case", getCase, "/case"],
    ["PATCH /case", patchCase, "/case", "PATCH"],
    ["GET /differentials", caseDifferentials, "/differentials"],
    ["PUT /diagnosis", putDiagnosis, "/diagnosis", "PUT"],
    ["POST /soap-notes", soapNotes, "/soap-notes", "POST"],
    ["GET /symptoms", searchSymptoms, "/symptoms?q=cough"],
  ];

  it.each(routes)(
    "%s answers 404 for an unknown session and 410 for an expired one, with no data",
    async (_name, handler, path, method) => {
      const unknown = await api(handler, "A".repeat(43), path, { method, body: method ? {} : undefined });
      expect(unknown.status).toBe(404);
      expect(unknown.body).not.toHaveProperty("case");
      const malformed = await api(handler, "short", path, { method, body: method ? {} : undefined });
      expect(malformed.status).toBe(404);

      const expiring = await newSession(tokenA, { case_id: caseId });
      await handle.db
        .update(componentSessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(componentSessions.idHash, sha256(expiring)));
      const expired = await api(handler, expiring, path, { method, body: method ? {} : undefined });
      expect(expired.status).toBe(410);
      expect(expired.body).toEqual({
        type: expect.stringContaining("session-expired"),
        title: "Session expired",
        status: 410,
        detail: expect.any(String),
      });
    },
  );
});

describe("componentPageHeaders", () => {
  it("lets only the session's origins frame the page and sends no referrer", async () => {
    const page = await componentPageHeaders(handle.db, `/components/diagnostics/${sessionA}`);
    expect(page).toEqual({
      status: 200,
      headers: {
        "content-security-policy": expect.stringContaining(`frame-ancestors ${HOST}`),
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
      },
    });
    // The rest is the page policy every HTML page gets: the component shows case notes.
    const csp = page!.headers["content-security-policy"]!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).not.toContain("frame-ancestors 'none'");
  });

  it("lets nobody frame an unknown (404) or expired (410) session", async () => {
    const unknown = await componentPageHeaders(handle.db, `/components/diagnostics/${"B".repeat(43)}`);
    expect(unknown).toMatchObject({
      status: 404,
      headers: { "content-security-policy": expect.stringContaining("frame-ancestors 'none'") },
    });
    const expiring = await newSession(tokenA, {});
    await handle.db
      .update(componentSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(componentSessions.idHash, sha256(expiring)));
    const expired = await componentPageHeaders(handle.db, `/components/diagnostics/${expiring}/`);
    expect(expired).toMatchObject({
      status: 410,
      headers: {
        "content-security-policy": expect.stringContaining("frame-ancestors 'none'"),
        "referrer-policy": "no-referrer",
      },
    });
  });

  it("leaves every other path alone", async () => {
    expect(await componentPageHeaders(handle.db, `/components/diagnostics/${sessionA}/api/case`)).toBeNull();
    expect(await componentPageHeaders(handle.db, "/v1/cases")).toBeNull();
  });
});
