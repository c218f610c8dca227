// The diagnosis endpoints: differentials for a case and without one, the working diagnosis, SOAP
// notes, for two vets who never see each other's cases, with clear 4xx for bad input and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { inlineRunner } from "@/inngest/runner";
import { call, machineToken, requestToken } from "@/test/support";
import { POST as createCase } from "@/app/v1/cases/route";
import { GET as getCase, PATCH as patchCase } from "@/app/v1/cases/[id]/route";
import { GET as openapi } from "@/app/v1/openapi.json/route";
import { GET as caseDifferentials } from "@/app/v1/cases/[id]/differentials/route";
import { PUT as putDiagnosis } from "@/app/v1/cases/[id]/diagnosis/route";
import { GET as getSoap, POST as postSoap } from "@/app/v1/cases/[id]/soap-notes/route";
import { GET as searchDiagnoses } from "@/app/v1/diagnoses/route";
import { POST as differentials } from "./route";

let handle: DatabaseHandle;
let vetA: string;
let vetB: string;
let readOnly: string;
let caseId: string;

const BELLA =
  "Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, off her food, lethargic. No diarrhoea.";

const jsonHeaders = { "content-type": "application/json" };

async function send(
  handler: Parameters<typeof call>[0],
  path: string,
  init: { method?: string; token: string; id?: string; body?: unknown },
) {
  const response = await call(handler, path, {
    method: init.method ?? "GET",
    token: init.token,
    params: init.id ? { id: init.id } : {},
    headers: init.body === undefined ? {} : jsonHeaders,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

beforeAll(async () => {
  handle = await openTestDatabase();
  const clinicA = await machineToken(handle.db, undefined, "Clinic A");
  vetA = clinicA.token;
  vetB = (await machineToken(handle.db, undefined, "Clinic B")).token;
  // Clinic A's own client, with only the read scope.
  const reader = await requestToken(clinicA.client.clientId, clinicA.client.clientSecret, "vetdx/read");
  readOnly = ((await reader.json()) as { access_token: string }).access_token;
  const created = await send(createCase, "/v1/cases", {
    method: "POST",
    token: vetA,
    body: { notes: BELLA },
  });
  caseId = created.body.id;
  await inlineRunner().idle();
});
afterAll(async () => {
  await inlineRunner().idle();
  await handle.close();
});

describe("GET /v1/cases/{id}/differentials", () => {
  it("ranks the case's differentials with evidence", async () => {
    const { status, body } = await send(caseDifferentials, `/v1/cases/${caseId}/differentials?limit=5`, {
      token: readOnly,
      id: caseId,
    });
    expect(status).toBe(200);
    expect(body.data).toHaveLength(5);
    expect(body.data[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      score: expect.any(Number),
      evidence: { supporting: expect.any(Array), findings: expect.any(Array), against: expect.any(Array) },
    });
    expect(body.species).toEqual({ animal_type_id: 1, inferred: false });
    expect(["sufficient", "low"]).toContain(body.evidence_level);
    const supporting = body.data.flatMap((d: { evidence: { supporting: { symptom_name: string }[] } }) =>
      d.evidence.supporting.map((s) => s.symptom_name),
    );
    expect(supporting).toContain("vomiting");
  });

  it("answers 404 for another vet's case and for a malformed id", async () => {
    expect(
      (await send(caseDifferentials, `/v1/cases/${caseId}/differentials`, { token: vetB, id: caseId }))
        .status,
    ).toBe(404);
    expect(
      (await send(caseDifferentials, "/v1/cases/nope/differentials", { token: vetA, id: "nope" })).status,
    ).toBe(404);
  });

  it("answers 400 for a bad limit or an unknown parameter", async () => {
    expect(
      (
        await send(caseDifferentials, `/v1/cases/${caseId}/differentials?limit=0`, {
          token: vetA,
          id: caseId,
        })
      ).status,
    ).toBe(400);
    expect(
      (await send(caseDifferentials, `/v1/cases/${caseId}/differentials?foo=1`, { token: vetA, id: caseId }))
        .status,
    ).toBe(400);
  });

  it("ranks a case without a species across the plausible species and says so", async () => {
    const created = await send(createCase, "/v1/cases", {
      method: "POST",
      token: vetA,
      body: { notes: "Vomiting since yesterday." },
    });
    await inlineRunner().idle();
    await send(patchCase, `/v1/cases/${created.body.id}`, {
      method: "PATCH",
      token: vetA,
      id: created.body.id,
      body: { patient: { animal_type_id: null } },
    });
    const { status, body } = await send(caseDifferentials, `/v1/cases/${created.body.id}/differentials`, {
      token: vetA,
      id: created.body.id,
    });
    expect(status).toBe(200);
    expect(body.species).toEqual({ animal_type_id: null, inferred: true });
    expect(body.note).toMatch(/no species/);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((d: { animal_type_id?: number }) => typeof d.animal_type_id === "number")).toBe(
      true,
    );
  });
});

describe("POST /v1/differentials", () => {
  it("ranks from signalment and sign ids without a case", async () => {
    const caseBody = (await send(getCase, `/v1/cases/${caseId}`, { token: vetA, id: caseId })).body;
    const present = caseBody.selected_symptoms.map((s: { id: number }) => s.id);
    const { status, body } = await send(differentials, "/v1/differentials?limit=3", {
      method: "POST",
      token: readOnly,
      body: { animal_type_id: 1, age_years: 4, gender_id: 2, neutered: true, present_symptom_ids: present },
    });
    expect(status).toBe(200);
    expect(body.data).toHaveLength(3);
  });

  it("answers 400 for bad input with the offending fields", async () => {
    const missing = await send(differentials, "/v1/differentials", {
      method: "POST",
      token: vetA,
      body: { present_symptom_ids: [] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "animal_type_id" })]),
    );
    const unknown = await send(differentials, "/v1/differentials", {
      method: "POST",
      token: vetA,
      body: { animal_type_id: 1, present_symptom_ids: [987654321] },
    });
    expect(unknown.status).toBe(400);
    const extra = await send(differentials, "/v1/differentials", {
      method: "POST",
      token: vetA,
      body: { animal_type_id: 1, present_symptom_ids: [], x: 1 },
    });
    expect(extra.status).toBe(400);
  });

  it("needs a token with vetdx/read", async () => {
    const response = await call(differentials, "/v1/differentials", {
      method: "POST",
      headers: jsonHeaders,
      body: "{}",
    });
    expect(response.status).toBe(401);
  });
});

describe("PUT /v1/cases/{id}/diagnosis", () => {
  it("sets the working diagnosis from the differentials and shows it on the case", async () => {
    const ranked = (
      await send(caseDifferentials, `/v1/cases/${caseId}/differentials?limit=3`, { token: vetA, id: caseId })
    ).body.data;
    const { status, headers, body } = await send(putDiagnosis, `/v1/cases/${caseId}/diagnosis`, {
      method: "PUT",
      token: vetA,
      id: caseId,
      body: { diagnosis_id: ranked[1].id },
    });
    expect(status).toBe(200);
    expect(headers.get("etag")).toMatch(/^"[0-9a-f-]{36}\.\d+"$/);
    expect(body.selected_diagnoses).toEqual([
      { id: ranked[1].id, name: ranked[1].name, selected_at: expect.any(String) },
    ]);
    expect(
      (await send(getCase, `/v1/cases/${caseId}`, { token: vetA, id: caseId })).body.selected_diagnoses[0].id,
    ).toBe(ranked[1].id);
  });

  it("refuses another species' condition, bad bodies, read-only tokens and another vet", async () => {
    const found = await send(
      searchDiagnoses,
      "/v1/diagnoses?q=feline%20infectious%20peritonitis&animal_type_id=2",
      { token: vetA },
    );
    const fip = found.body.data.find((d: { animal_type_ids: number[] }) => !d.animal_type_ids.includes(1));
    const other = await send(putDiagnosis, `/v1/cases/${caseId}/diagnosis`, {
      method: "PUT",
      token: vetA,
      id: caseId,
      body: { diagnosis_id: fip.id },
    });
    expect(other.status).toBe(400);
    expect(other.body.detail).toMatch(/species/);
    expect(
      (
        await send(putDiagnosis, `/v1/cases/${caseId}/diagnosis`, {
          method: "PUT",
          token: vetA,
          id: caseId,
          body: { diagnosis_id: "x" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await send(putDiagnosis, `/v1/cases/${caseId}/diagnosis`, {
          method: "PUT",
          token: readOnly,
          id: caseId,
          body: { diagnosis_id: 1 },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await send(putDiagnosis, `/v1/cases/${caseId}/diagnosis`, {
          method: "PUT",
          token: vetB,
          id: caseId,
          body: { diagnosis_id: 1 },
        })
      ).status,
    ).toBe(404);
  });
});

describe("/v1/cases/{id}/soap-notes", () => {
  it("answers 404 before notes exist, then generates, stores and returns them", async () => {
    const created = await send(createCase, "/v1/cases", {
      method: "POST",
      token: vetA,
      body: { notes: BELLA },
    });
    const id = created.body.id;
    await inlineRunner().idle();
    expect((await send(getSoap, `/v1/cases/${id}/soap-notes`, { token: vetA, id })).status).toBe(404);
    const generated = await send(postSoap, `/v1/cases/${id}/soap-notes`, { method: "POST", token: vetA, id });
    expect(generated.status).toBe(200);
    expect(generated.body).toEqual({
      subjective: expect.stringContaining("Bella"),
      objective: expect.stringContaining("28.5 kg"),
      assessment: expect.stringContaining("Differential diagnoses"),
      plan: expect.stringContaining("Discuss with owner"),
      text: expect.stringContaining("S: Subjective"),
      generator: "local-soap-v1",
      generated_at: expect.any(String),
    });
    expect(generated.body.subjective).toContain("vomiting");
    expect(generated.body.subjective).toContain("No diarrhoea");
    expect((await send(getSoap, `/v1/cases/${id}/soap-notes`, { token: readOnly, id })).body).toEqual(
      generated.body,
    );
    expect((await send(getCase, `/v1/cases/${id}`, { token: vetA, id })).body.soap_notes).toEqual(
      generated.body,
    );
  });

  it("is another vet's 404 and a read-only token's 403", async () => {
    expect(
      (await send(postSoap, `/v1/cases/${caseId}/soap-notes`, { method: "POST", token: vetB, id: caseId }))
        .status,
    ).toBe(404);
    expect((await send(getSoap, `/v1/cases/${caseId}/soap-notes`, { token: vetB, id: caseId })).status).toBe(
      404,
    );
    expect(
      (
        await send(postSoap, `/v1/cases/${caseId}/soap-notes`, {
          method: "POST",
          token: readOnly,
          id: caseId,
        })
      ).status,
    ).toBe(403);
  });
});

describe("OpenAPI", () => {
  it("describes the new operations", async () => {
    const { body } = await send(openapi, "/v1/openapi.json", { token: vetA });
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        "/v1/cases/{id}/differentials",
        "/v1/differentials",
        "/v1/cases/{id}/diagnosis",
        "/v1/cases/{id}/soap-notes",
      ]),
    );
    expect(body.paths["/v1/cases/{id}/soap-notes"]).toHaveProperty("post");
    expect(body.paths["/v1/cases/{id}/soap-notes"]).toHaveProperty("get");
  });
});
