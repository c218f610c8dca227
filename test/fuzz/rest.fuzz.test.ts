// Fuzzing the REST API (issue 7.4): generated malformed and hostile requests against every /v1
// route handler. Properties: no 5xx; errors are problem+json or RFC 6750 JSON without stack
// traces or internal paths; a victim vet's case (row, version, sessions, case count) is unchanged
// by an attacker's requests and nothing of it ever reaches the attacker; Object.prototype stays
// clean. Deterministic: FUZZ_SEED (see arbitraries.ts) reproduces a run.
import { and, count, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases, componentSessions } from "@/db/schema";
import { inlineRunner } from "@/inngest/runner";
import { call, machineToken, type RouteHandler } from "@/test/support";
import { GET as animalTypes } from "@/app/v1/animal-types/route";
import { GET as breeds } from "@/app/v1/breeds/route";
import { GET as genders } from "@/app/v1/genders/route";
import { GET as symptomCategories } from "@/app/v1/symptom-categories/route";
import { GET as symptoms } from "@/app/v1/symptoms/route";
import { GET as symptom } from "@/app/v1/symptoms/[id]/route";
import { GET as diagnoses } from "@/app/v1/diagnoses/route";
import { GET as diagnosis } from "@/app/v1/diagnoses/[id]/route";
import { GET as listCases, POST as createCase } from "@/app/v1/cases/route";
import { DELETE as deleteCase, GET as getCase, PATCH as patchCase } from "@/app/v1/cases/[id]/route";
import { GET as caseDifferentials } from "@/app/v1/cases/[id]/differentials/route";
import { PUT as caseDiagnosis } from "@/app/v1/cases/[id]/diagnosis/route";
import { GET as getSoapNotes, POST as postSoapNotes } from "@/app/v1/cases/[id]/soap-notes/route";
import { POST as differentials } from "@/app/v1/differentials/route";
import { POST as sessions } from "@/app/v1/sessions/route";
import { GET as openapi } from "@/app/v1/openapi.json/route";
import * as catchAll from "@/app/v1/[...path]/route";
import {
  authorizationHeader,
  capture,
  caseIdArbitrary,
  contentType,
  describeRequest,
  expectNoServerError,
  FUZZ_SEED,
  headerSafe,
  hostileNumericText,
  hostileString,
  InputCounter,
  isOAuthError,
  isProblem,
  jsonBodyText,
  nearValidObject,
  queryString,
  wrongType,
  type Captured,
} from "./arbitraries";

const counter = new InputCounter();
const SECRET = `VICTIM-SECRET-${FUZZ_SEED}`;
const SECRET_NAME = `Victim-Pet-${FUZZ_SEED}`;

let handle: DatabaseHandle;
let victimToken: string;
let attackerToken: string;
let readerToken: string;
let victimCaseId: string;
let victimVetId: string;
let victimEtag: string;
let attackerCaseId: string;
let victimRow: unknown;
let victimCaseCount: number;
let victimSessionCount: number;
let cursors: string[] = [];

async function victimState() {
  const [row] = await handle.db.select().from(cases).where(eq(cases.id, victimCaseId));
  const [{ n: caseCount } = { n: -1 }] = await handle.db
    .select({ n: count() })
    .from(cases)
    .where(eq(cases.veterinarianId, victimVetId));
  const [{ n: sessionCount } = { n: -1 }] = await handle.db
    .select({ n: count() })
    .from(componentSessions)
    .where(eq(componentSessions.caseId, victimCaseId));
  return { row, caseCount, sessionCount };
}

beforeAll(async () => {
  handle = await openTestDatabase();
  const victim = await machineToken(handle.db, undefined, "Victim clinic");
  victimToken = victim.token;
  victimVetId = victim.client.veterinarianId;
  attackerToken = (await machineToken(handle.db, undefined, "Attacker clinic")).token;
  readerToken = (await machineToken(handle.db, ["vetdx/read"], "Reader clinic")).token;

  const json = { "content-type": "application/json" };
  const post = async (token: string, notes: string) =>
    (
      await capture(
        await call(createCase, "/v1/cases", {
          method: "POST",
          token,
          headers: json,
          body: JSON.stringify({ notes }),
        }),
      )
    ).json as { id: string };
  victimCaseId = (await post(victimToken, `Bella, 4yo FS Labrador, 28 kg. Vomiting x3, lethargic. ${SECRET}`))
    .id;
  attackerCaseId = (await post(attackerToken, "Tom, 12yo MN DSH cat, 3.9kg. Weight loss, PU/PD, vomiting."))
    .id;
  await inlineRunner().idle();
  // Give the victim's case every kind of data: a named patient, a diagnosis, SOAP notes, a session.
  const patch = await call(patchCase, `/v1/cases/${victimCaseId}`, {
    method: "PATCH",
    token: victimToken,
    params: { id: victimCaseId },
    headers: json,
    body: JSON.stringify({ patient: { name: SECRET_NAME } }),
  });
  expect(patch.status).toBe(200);
  const ddx = (
    await capture(
      await call(caseDifferentials, `/v1/cases/${victimCaseId}/differentials`, {
        token: victimToken,
        params: { id: victimCaseId },
      }),
    )
  ).json as { data: { id: number }[] };
  const chosen = await call(caseDiagnosis, `/v1/cases/${victimCaseId}/diagnosis`, {
    method: "PUT",
    token: victimToken,
    params: { id: victimCaseId },
    headers: json,
    body: JSON.stringify({ diagnosis_id: ddx.data[0]!.id }),
  });
  expect(chosen.status).toBe(200);
  const soap = await call(postSoapNotes, `/v1/cases/${victimCaseId}/soap-notes`, {
    method: "POST",
    token: victimToken,
    params: { id: victimCaseId },
  });
  expect(soap.status).toBe(200);
  const session = await call(sessions, "/v1/sessions", {
    method: "POST",
    token: victimToken,
    headers: json,
    body: JSON.stringify({
      component: "diagnostics",
      case_id: victimCaseId,
      parent_origin: "https://pims.example",
    }),
  });
  expect(session.status).toBe(201);
  victimEtag = (
    await call(getCase, `/v1/cases/${victimCaseId}`, { token: victimToken, params: { id: victimCaseId } })
  ).headers.get("etag")!;

  for (const path of ["/v1/symptoms?limit=2", "/v1/breeds?limit=2", "/v1/diagnoses?limit=2"]) {
    const handler = path.startsWith("/v1/symptoms")
      ? symptoms
      : path.startsWith("/v1/breeds")
        ? breeds
        : diagnoses;
    const body = (await capture(await call(handler, path, { token: readerToken }))).json as {
      next_cursor: string;
    };
    cursors.push(body.next_cursor);
  }
  cursors = cursors.filter(Boolean);
  const state = await victimState();
  victimRow = state.row;
  victimCaseCount = state.caseCount;
  victimSessionCount = state.sessionCount;
  expect(JSON.stringify(victimRow)).toContain(SECRET_NAME);
}, 120_000);

afterAll(async () => {
  await inlineRunner().idle();
  console.log(counter.summary("test/fuzz/rest.fuzz.test.ts"));
  await handle?.close();
});

// ---------------------------------------------------------------------------------------------

interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  params?: Record<string, string>;
  authorization?: string;
  contentType?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Attackers: the second vet (every scope), a read-only vet, or malformed and forged credentials. */
const auth = () =>
  fc.oneof(
    { weight: 3, arbitrary: authorizationHeader(attackerToken, victimToken) },
    { weight: 1, arbitrary: authorizationHeader(readerToken, victimToken) },
  );

async function send(handler: RouteHandler, request: FuzzRequest): Promise<Captured> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.authorization !== undefined) headers.authorization = request.authorization;
  if (request.contentType !== undefined) headers["content-type"] = request.contentType;
  const hasBody = request.body !== undefined && !["GET", "HEAD"].includes(request.method);
  return capture(
    await call(handler, `${request.path}${request.query ? `?${request.query}` : ""}`, {
      method: request.method,
      params: request.params,
      headers,
      body: hasBody ? request.body! : undefined,
    }),
  );
}

/** The properties every fuzzed REST response must have. */
async function check(group: string, handler: RouteHandler, request: FuzzRequest): Promise<Captured> {
  counter.hit(group);
  const response = await send(handler, request);
  counter.outcome(group, response.status);
  const input = JSON.stringify(request);
  const label = describeRequest(request);
  expectNoServerError(response, input);
  if (response.status >= 400) {
    const bearer =
      [401, 403].includes(response.status) &&
      isOAuthError(response) &&
      (response.headers.get("www-authenticate") ?? "").startsWith("Bearer ");
    expect(
      isProblem(response) || bearer,
      `undocumented error shape ${response.status} for ${label}: ${response.text.slice(0, 300)}`,
    ).toBe(true);
  } else if (response.status !== 204 && response.status !== 304) {
    expect(response.json, `2xx without JSON for ${label}`).toBeDefined();
  }
  // Tenancy: nothing of the victim's case reaches anyone else.
  expect(
    response.text.includes(SECRET) || response.text.includes(SECRET_NAME),
    `victim data leaked for ${label}`,
  ).toBe(false);
  expect(({} as Record<string, unknown>).polluted, "Object.prototype polluted").toBeUndefined();
  return response;
}

/** The victim's case, its sessions and the number of their cases are exactly as before. */
async function expectVictimUnchanged(): Promise<void> {
  const state = await victimState();
  expect(state.row).toEqual(victimRow);
  expect(state.caseCount).toBe(victimCaseCount);
  expect(state.sessionCount).toBe(victimSessionCount);
}

const RUNS = {
  catalogue: 200,
  items: 100,
  create: 150,
  list: 100,
  caseItem: 260,
  subResources: 240,
  post: 200,
  catchAll: 60,
  openapi: 30,
};
const params = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns, endOnFailure: false });

const positiveId = fc.integer({ min: 1, max: 2000 });
const patientPatch = nearValidObject({
  animal_type_id: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant(null)),
  breed_id: fc.oneof(positiveId, fc.integer({ min: 100_000, max: 100_200 }), fc.constant(null)),
  name: fc.oneof(hostileString, fc.constant(null)),
  gender_id: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant(null)),
  weight_kg: fc.oneof(fc.double({ min: 0, max: 3000 }), fc.constant(null)),
  neutered: fc.oneof(fc.boolean(), fc.constant(null)),
});
const symptomSelection = fc.array(nearValidObject({ id: positiveId, significant: fc.boolean() }), {
  maxLength: 5,
});
const updateBody = nearValidObject({
  patient: patientPatch,
  selected_symptoms: symptomSelection,
  de_selected_symptoms: fc.array(nearValidObject({ id: positiveId }), { maxLength: 5 }),
  select_symptoms: symptomSelection,
  deselect_symptoms: fc.array(
    fc.oneof({ weight: 9, arbitrary: positiveId }, { weight: 1, arbitrary: wrongType }),
    { maxLength: 5 },
  ),
});
const signalment = nearValidObject({
  animal_type_id: fc.integer({ min: 1, max: 20 }),
  breed_id: fc.oneof(positiveId, fc.constant(null)),
  age_years: fc.oneof(fc.double({ min: -1, max: 120 }), fc.constant(null)),
  gender_id: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant(null)),
  neutered: fc.oneof(fc.boolean(), fc.constant(null)),
  present_symptom_ids: fc.array(
    fc.oneof(
      { weight: 20, arbitrary: fc.integer({ min: 1, max: 400 }) },
      { weight: 1, arbitrary: wrongType },
    ),
    { maxLength: 110 },
  ),
  absent_symptom_ids: fc.array(positiveId, { maxLength: 5 }),
});
const origin = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("https://pims.example", "https://clinic.example:8443") },
  fc.constantFrom(
    "https://pims.example",
    "http://localhost:3000",
    "https://pims.example/path",
    "null",
    "*",
    "javascript:alert(1)",
    "https://a.example, https://b.example",
    "file://",
  ),
  fc.webUrl(),
  hostileString,
);
const sessionBody = nearValidObject({
  component: fc.constantFrom("diagnostics", "diagnostics", "diagnostics", "Diagnostics", "admin"),
  case_id: fc.constant("VICTIM"),
  parent_origin: origin,
});

describe("REST fuzzing", () => {
  it(`catalogue lists (animal-types, breeds, genders, symptom-categories, symptoms, diagnoses): ${RUNS.catalogue} inputs`, async () => {
    const endpoints: Record<string, [RouteHandler, string[]]> = {
      "/v1/animal-types": [animalTypes, []],
      "/v1/breeds": [breeds, ["animal_type_id", "q", "limit", "cursor"]],
      "/v1/genders": [genders, []],
      "/v1/symptom-categories": [symptomCategories, []],
      "/v1/symptoms": [symptoms, ["q", "animal_type_id", "category_id", "limit", "cursor"]],
      "/v1/diagnoses": [diagnoses, ["q", "animal_type_id", "limit", "cursor"]],
    };
    const value = fc.oneof(
      hostileString,
      fc.constantFrom(...cursors),
      fc.constantFrom(...cursors).map((c) => `${c}A`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...Object.keys(endpoints))
          .chain((path) => fc.tuple(fc.constant(path), queryString(endpoints[path]![1], value))),
        auth(),
        async ([path, query], authorization) => {
          await check("catalogue", endpoints[path]![0], { method: "GET", path, query, authorization });
        },
      ),
      params(RUNS.catalogue),
    );
  });

  it(`catalogue items (symptoms/{id}, diagnoses/{id}): ${RUNS.items} inputs`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/v1/symptoms", "/v1/diagnoses"),
        fc.oneof(positiveId.map(String), hostileNumericText),
        queryString([]),
        auth(),
        async (base, id, query, authorization) => {
          await check("items", base === "/v1/symptoms" ? symptom : diagnosis, {
            method: "GET",
            path: `${base}/x`,
            params: { id },
            query,
            authorization,
          });
        },
      ),
      params(RUNS.items),
    );
  });

  it(`POST /v1/cases: ${RUNS.create} inputs`, async () => {
    const notes = fc.oneof(
      hostileString,
      fc
        .tuple(
          fc.constantFrom("Dog, 5yo MN, vomiting and lethargy. ", "Horse, lame left fore. "),
          hostileString,
        )
        .map(([a, b]) => a + b),
      fc.constantFrom("Dog vomiting", "Cat, 3yo, coughing since Monday", `x`.repeat(20_001)),
    );
    await fc.assert(
      fc.asyncProperty(
        jsonBodyText(nearValidObject({ notes }, { strayKeys: true })),
        contentType("application/json"),
        auth(),
        async (body, type, authorization) => {
          await check("create", createCase, {
            method: "POST",
            path: "/v1/cases",
            query: "",
            body,
            contentType: type,
            authorization,
          });
          await expectVictimUnchanged();
        },
      ),
      params(RUNS.create),
    );
    await inlineRunner().idle();
    await expectVictimUnchanged();
  }, 120_000);

  it(`GET /v1/cases: ${RUNS.list} inputs`, async () => {
    const status = fc.oneof(
      fc.constantFrom("PENDING", "COMPLETED,ERROR", "COMPLETED,", ",", "completed", "PENDING,".repeat(40)),
      hostileString,
    );
    await fc.assert(
      fc.asyncProperty(
        queryString(["status", "limit", "cursor"], fc.oneof(status, hostileString)),
        auth(),
        async (query, authorization) => {
          await check("list", listCases, { method: "GET", path: "/v1/cases", query, authorization });
        },
      ),
      params(RUNS.list),
    );
  });

  it(`GET/PATCH/DELETE /v1/cases/{id}: ${RUNS.caseItem} inputs`, async () => {
    const etagHeader = fc.oneof(
      fc.constant(victimEtag),
      fc.constant(`${victimEtag}, "x"`),
      fc.constant(`"${attackerCaseId}.1"`),
      fc.constant("*"),
      hostileString.map(headerSafe),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "PATCH", "DELETE"),
        caseIdArbitrary([victimCaseId], [attackerCaseId]),
        jsonBodyText(updateBody),
        contentType("application/json"),
        fc.record({ "if-match": etagHeader, "if-none-match": etagHeader }, { requiredKeys: [] }),
        queryString([]),
        auth(),
        async (method, id, body, type, conditional, query, authorization) => {
          // Deleting the attacker's own case would only shrink what later inputs can reach.
          const target = method === "DELETE" && id === attackerCaseId ? victimCaseId : id;
          const handler = method === "GET" ? getCase : method === "PATCH" ? patchCase : deleteCase;
          await check("caseItem", handler, {
            method,
            path: "/v1/cases/x",
            params: { id: target },
            query,
            body,
            contentType: type,
            headers: conditional,
            authorization,
          });
          await expectVictimUnchanged();
        },
      ),
      params(RUNS.caseItem),
    );
  });

  it(`cases/{id}/differentials, /diagnosis, /soap-notes: ${RUNS.subResources} inputs`, async () => {
    const routes: Record<string, [string, string, RouteHandler]> = {
      "GET differentials": ["GET", "differentials", caseDifferentials],
      "PUT diagnosis": ["PUT", "diagnosis", caseDiagnosis],
      "GET soap-notes": ["GET", "soap-notes", getSoapNotes],
      "POST soap-notes": ["POST", "soap-notes", postSoapNotes],
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(routes)),
        caseIdArbitrary([victimCaseId], [attackerCaseId]),
        jsonBodyText(nearValidObject({ diagnosis_id: positiveId })),
        contentType("application/json"),
        queryString(["limit"], hostileNumericText),
        auth(),
        async (route, id, body, type, query, authorization) => {
          const [method, sub, handler] = routes[route]!;
          await check("subResources", handler, {
            method,
            path: `/v1/cases/x/${sub}`,
            params: { id },
            query,
            body,
            contentType: type,
            authorization,
          });
          await expectVictimUnchanged();
        },
      ),
      params(RUNS.subResources),
    );
  });

  it(`POST /v1/differentials and /v1/sessions: ${RUNS.post} inputs`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        jsonBodyText(signalment),
        jsonBodyText(sessionBody),
        caseIdArbitrary([victimCaseId], [attackerCaseId]),
        contentType("application/json"),
        queryString(["limit"], hostileNumericText),
        auth(),
        async (isSession, ddxBody, rawSessionBody, caseId, type, query, authorization) => {
          if (isSession) {
            const body = rawSessionBody.replace('"VICTIM"', JSON.stringify(caseId));
            await check("post", sessions, {
              method: "POST",
              path: "/v1/sessions",
              query: "",
              body,
              contentType: type,
              authorization,
            });
          } else {
            await check("post", differentials, {
              method: "POST",
              path: "/v1/differentials",
              query,
              body: ddxBody,
              contentType: type,
              authorization,
            });
          }
          await expectVictimUnchanged();
        },
      ),
      params(RUNS.post),
    );
  });

  it(`/v1/[...path] and /v1/openapi.json: ${RUNS.catchAll + RUNS.openapi} inputs`, async () => {
    const segment = fc.oneof(
      hostileString.map((s) =>
        Array.from(s.slice(0, 300))
          .map((c) => (/^[\w.~-]$/.test(c) ? c : encodeURIComponent(c.replace(/[\ud800-\udfff]/g, "\ufffd"))))
          .join(""),
      ),
      fc.constantFrom("..", "%2e%2e", "%2F", "cases", "admin", "%zz", "%00", victimCaseId),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        jsonBodyText(),
        auth(),
        async (method, segments, body, authorization) => {
          const handler = catchAll[method as keyof typeof catchAll] as RouteHandler;
          const response = await check("catchAll", handler, {
            method,
            path: `/v1/${segments.join("/")}`,
            query: "",
            body,
            authorization,
          });
          expect(response.status).toBe(404);
        },
      ),
      params(RUNS.catchAll),
    );
    await fc.assert(
      fc.asyncProperty(queryString([]), auth(), async (query, authorization) => {
        const response = await check("openapi", openapi as RouteHandler, {
          method: "GET",
          path: "/v1/openapi.json",
          query,
          authorization,
        });
        expect(response.status).toBe(200);
      }),
      params(RUNS.openapi),
    );
  });

  // Regression: U+0000 reaching PostgreSQL was a 500 (NUL is now refused at the edges). Minimal inputs.
  const json = { "content-type": "application/json" };
  it.each([
    ["GET /v1/symptoms?q=%00", () => call(symptoms, "/v1/symptoms?q=%00", { token: readerToken })],
    ["GET /v1/breeds?q=%00", () => call(breeds, "/v1/breeds?q=%00", { token: readerToken })],
    ["GET /v1/diagnoses?q=%00", () => call(diagnoses, "/v1/diagnoses?q=%00", { token: readerToken })],
    [
      'POST /v1/cases {"notes":"a\\u0000b"}',
      () =>
        call(createCase, "/v1/cases", {
          method: "POST",
          token: attackerToken,
          headers: json,
          body: '{"notes":"a\\u0000b"}',
        }),
    ],
    [
      'PATCH /v1/cases/{own id} {"patient":{"name":"a\\u0000b"}}',
      () =>
        call(patchCase, "/v1/cases/x", {
          method: "PATCH",
          token: attackerToken,
          params: { id: attackerCaseId },
          headers: json,
          body: '{"patient":{"name":"a\\u0000b"}}',
        }),
    ],
  ])("NUL: %s is not a 5xx", async (_name, request) => {
    expect((await request()).status).toBeLessThan(500);
  });

  it("leaves the victim's case exactly as it was", async () => {
    await inlineRunner().idle();
    await expectVictimUnchanged();
    const [own] = await handle.db
      .select({ n: count() })
      .from(componentSessions)
      .where(
        and(eq(componentSessions.caseId, victimCaseId), eq(componentSessions.veterinarianId, victimVetId)),
      );
    expect(own?.n).toBe(victimSessionCount);
    expect(counter.total).toBeGreaterThanOrEqual(Object.values(RUNS).reduce((a, b) => a + b, 0));
  });
});
