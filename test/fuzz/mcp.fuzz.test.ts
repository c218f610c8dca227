// Fuzzing /mcp (issue 7.4): generated JSON-RPC envelopes (malformed text, batches, wrong types,
// unknown methods, hostile headers) and tools/call for each of the 20 tools with generated
// arguments. Properties: no 5xx; every answer is JSON-RPC (result or error, never -32603 internal
// error), a tool error result, or RFC 6750 JSON; no stack traces or internal paths; a tool never
// fails "unexpectedly"; a victim vet's case is unchanged and never reaches the attacker.
import { count, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { cases, componentSessions } from "@/db/schema";
import { inlineRunner } from "@/inngest/runner";
import { tools } from "@/lib/mcp/tools";
import { call, machineToken } from "@/test/support";
import { POST, GET, DELETE } from "@/app/mcp/route";
import {
  authorizationHeader,
  caseIdArbitrary,
  CONTENT_TYPES,
  describeRequest,
  expectNoServerError,
  FUZZ_SEED,
  hostileJson,
  hostileKey,
  hostileNumber,
  hostileString,
  InputCounter,
  isOAuthError,
  isProblem,
  MALFORMED_JSON_TEXTS,
  nearValidObject,
  deeplyNested,
  wrongType,
  type Captured,
} from "./arbitraries";

// Per-caller budgets high enough that generated inputs reach the tools instead of the limiter.
// Before lib/env reads it (hoisted above the imports).
vi.hoisted(() => vi.stubEnv("RATE_LIMITS", "mcp-token=1000000/60,mcp-ip=1000000/60"));

const counter = new InputCounter();
/** Calls per tool (a breakdown of the "tools" inputs, not extra inputs). */
const perTool = new InputCounter();
const SECRET = `VICTIM-SECRET-${FUZZ_SEED}`;
const SECRET_NAME = `Victim-Pet-${FUZZ_SEED}`;
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  host: "vetdx.test",
};

let handle: DatabaseHandle;
let victimToken: string;
let attackerToken: string;
let readerToken: string;
let victimVetId: string;
let victimCaseId: string;
let attackerCaseId: string;
let victimRow: unknown;
let victimCaseCount: number;
let victimSessionCount: number;

interface RpcRequest {
  method?: "POST" | "GET" | "DELETE";
  headers: Record<string, string | undefined>;
  body: string;
}

async function send(request: RpcRequest): Promise<Captured & { messages: unknown[] }> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = value;
  const method = request.method ?? "POST";
  const handler = method === "GET" ? GET : method === "DELETE" ? DELETE : POST;
  const response = await call(handler as never, "/mcp", {
    method,
    headers,
    body: method === "POST" ? request.body : undefined,
  });
  const text = await response.text();
  let json: unknown;
  const messages: unknown[] = [];
  try {
    json = text ? JSON.parse(text) : undefined;
    if (json !== undefined) messages.push(...(Array.isArray(json) ? json : [json]));
  } catch {
    // Server-sent events: one JSON-RPC message per `data:` line.
    for (const line of text.split("\n")) {
      if (line.startsWith("data: ")) messages.push(JSON.parse(line.slice(6)));
    }
  }
  return { status: response.status, headers: response.headers, text, json, messages };
}

const rpcBody = (name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

async function callTool(token: string, name: string, args: unknown) {
  const response = await send({
    headers: { ...HEADERS, authorization: `Bearer ${token}` },
    body: rpcBody(name, args),
  });
  return (
    response.messages[0] as { result: { structuredContent: Record<string, unknown>; isError?: boolean } }
  ).result;
}

function isJsonRpcMessage(message: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return false;
  if ("error" in m) {
    const e = m.error as Record<string, unknown>;
    return typeof e === "object" && e !== null && Number.isInteger(e.code) && typeof e.message === "string";
  }
  return "result" in m;
}

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

async function expectVictimUnchanged(): Promise<void> {
  const state = await victimState();
  expect(state.row).toEqual(victimRow);
  expect(state.caseCount).toBe(victimCaseCount);
  expect(state.sessionCount).toBe(victimSessionCount);
}

beforeAll(async () => {
  handle = await openTestDatabase();
  const victim = await machineToken(handle.db, undefined, "Victim clinic");
  victimToken = victim.token;
  victimVetId = victim.client.veterinarianId;
  attackerToken = (await machineToken(handle.db, undefined, "Attacker clinic")).token;
  readerToken = (await machineToken(handle.db, ["vetdx/read"], "Reader clinic")).token;

  victimCaseId = (
    await callTool(victimToken, "create_case", {
      notes: `Bella, 4yo FS Labrador, 28 kg. Vomiting x3, lethargic. ${SECRET}`,
    })
  ).structuredContent.id as string;
  attackerCaseId = (
    await callTool(attackerToken, "create_case", {
      notes: "Tom, 12yo MN DSH cat, 3.9kg. Weight loss, PU/PD, vomiting.",
    })
  ).structuredContent.id as string;
  await inlineRunner().idle();
  expect(
    (
      await callTool(victimToken, "update_case_patient", {
        case_id: victimCaseId,
        patient: { name: SECRET_NAME },
      })
    ).isError,
  ).toBeFalsy();
  const ddx = await callTool(victimToken, "get_differential_diagnoses", { case_id: victimCaseId, limit: 3 });
  const diagnosisId = (ddx.structuredContent.data as { id: number }[])[0]!.id;
  expect(
    (await callTool(victimToken, "select_diagnosis", { case_id: victimCaseId, diagnosis_id: diagnosisId }))
      .isError,
  ).toBeFalsy();
  expect((await callTool(victimToken, "generate_soap_notes", { case_id: victimCaseId })).isError).toBeFalsy();
  expect(
    (
      await callTool(victimToken, "create_component_session", {
        case_id: victimCaseId,
        parent_origin: "https://pims.example",
      })
    ).isError,
  ).toBeFalsy();
  const state = await victimState();
  victimRow = state.row;
  victimCaseCount = state.caseCount;
  victimSessionCount = state.sessionCount;
  expect(JSON.stringify(victimRow)).toContain(SECRET_NAME);
}, 120_000);

afterAll(async () => {
  await inlineRunner().idle();
  console.log(counter.summary("test/fuzz/mcp.fuzz.test.ts"));
  console.log(
    `[fuzz] tools/call inputs per tool: ${[...perTool.counts].map(([name, n]) => `${name}=${n}`).join(", ")}`,
  );
  await handle?.close();
});

/** The properties every fuzzed /mcp response must have. */
async function check(group: string, request: RpcRequest) {
  counter.hit(group);
  const response = await send(request);
  const input = JSON.stringify(request);
  const label = describeRequest(request);
  expectNoServerError(response, input);
  for (const message of response.messages) {
    const { error, result } = message as { error?: { code?: number }; result?: { isError?: boolean } };
    const outcome =
      typeof error === "object"
        ? `rpc${error.code}`
        : error
          ? response.status
          : result?.isError
            ? "toolError"
            : "result";
    counter.outcome(group, outcome);
    expect(error?.code, `JSON-RPC internal error for ${label}: ${response.text.slice(0, 300)}`).not.toBe(
      -32603,
    );
  }
  if (response.messages.length === 0) counter.outcome(group, response.status);
  if (response.status >= 400) {
    const documented =
      response.messages.every(isJsonRpcMessage) && response.messages.length > 0
        ? true
        : isOAuthError(response) || isProblem(response);
    expect(
      documented,
      `undocumented error ${response.status} for ${label}: ${response.text.slice(0, 300)}`,
    ).toBe(true);
  } else if (response.text) {
    expect(
      response.messages.length > 0 && response.messages.every(isJsonRpcMessage),
      `not JSON-RPC for ${label}: ${response.text.slice(0, 300)}`,
    ).toBe(true);
  }
  expect(
    response.text.includes(SECRET) || response.text.includes(SECRET_NAME),
    `victim data leaked for ${label}`,
  ).toBe(false);
  expect(({} as Record<string, unknown>).polluted, "Object.prototype polluted").toBeUndefined();
  return response;
}

const RUNS = { envelopes: 300, tools: 500 };
const params = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns, endOnFailure: false });

const positiveId = fc.integer({ min: 1, max: 2000 });
const textOrNumber = fc.oneof(positiveId, positiveId.map(String), hostileString);
const query = {
  q: hostileString,
  animal_type_id: textOrNumber,
  category_id: textOrNumber,
  limit: fc.oneof(fc.integer({ min: 1, max: 100 }), hostileNumber),
  cursor: fc.oneof(hostileString, fc.constant("b2Zmc2V0OjE")),
};
const patient = nearValidObject({
  animal_type_id: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant(null)),
  breed_id: fc.oneof(positiveId, fc.constant(null)),
  name: fc.oneof(hostileString, fc.constant(null)),
  gender_id: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant(null)),
  weight_kg: fc.oneof(fc.double({ min: 0, max: 3000 }), fc.constant(null)),
  neutered: fc.oneof(fc.boolean(), fc.constant(null)),
});
const origin = fc.oneof(
  fc.constantFrom("https://pims.example", "http://localhost:3000", "null", "javascript:alert(1)"),
  fc.webUrl(),
  hostileString,
);

/** Near-valid arguments for each tool; `case_id` is filled in per run. */
function toolArguments(caseId: fc.Arbitrary<string>): Record<string, fc.Arbitrary<Record<string, unknown>>> {
  return {
    whoami: nearValidObject({}),
    list_animal_types: nearValidObject({}),
    list_genders: nearValidObject({}),
    list_symptom_categories: nearValidObject({}),
    list_breeds: nearValidObject({
      animal_type_id: query.animal_type_id,
      q: query.q,
      limit: query.limit,
      cursor: query.cursor,
    }),
    search_symptoms: nearValidObject(query),
    get_symptom: nearValidObject({ id: textOrNumber }),
    search_diagnoses: nearValidObject({
      q: query.q,
      animal_type_id: query.animal_type_id,
      limit: query.limit,
      cursor: query.cursor,
    }),
    get_diagnosis: nearValidObject({ id: textOrNumber }),
    create_case: nearValidObject({ notes: fc.oneof(hostileString, fc.constant("Dog, vomiting")) }),
    get_case: nearValidObject({ case_id: caseId }),
    list_cases: nearValidObject({
      status: fc.array(fc.oneof(fc.constantFrom("PENDING", "COMPLETED", "ERROR"), hostileString), {
        maxLength: 8,
      }),
      limit: query.limit,
      cursor: query.cursor,
    }),
    wait_for_case: nearValidObject({
      case_id: caseId,
      timeout_seconds: fc.oneof(fc.constant(1), hostileNumber),
    }),
    update_case_patient: nearValidObject({ case_id: caseId, patient }),
    select_symptoms: nearValidObject({
      case_id: caseId,
      symptoms: fc.array(nearValidObject({ id: positiveId, significant: fc.boolean() }), { maxLength: 4 }),
    }),
    deselect_symptoms: nearValidObject({
      case_id: caseId,
      symptom_ids: fc.array(fc.oneof(positiveId, wrongType), { maxLength: 4 }),
    }),
    get_differential_diagnoses: nearValidObject({
      case_id: caseId,
      animal_type_id: fc.integer({ min: 1, max: 20 }),
      breed_id: fc.oneof(positiveId, fc.constant(null)),
      age_years: fc.oneof(fc.double({ min: -1, max: 120 }), fc.constant(null)),
      present_symptom_ids: fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 20 }),
      absent_symptom_ids: fc.array(positiveId, { maxLength: 4 }),
      limit: query.limit,
    }),
    select_diagnosis: nearValidObject({ case_id: caseId, diagnosis_id: textOrNumber }),
    generate_soap_notes: nearValidObject({ case_id: caseId }),
    create_component_session: nearValidObject({ case_id: caseId, parent_origin: origin }),
  };
}

describe("/mcp fuzzing", () => {
  it("covers every tool the server lists", () => {
    expect(Object.keys(toolArguments(fc.uuid())).sort()).toEqual(tools.map((t) => t.name).sort());
    expect(tools).toHaveLength(20);
  });

  it(`tools/call with generated arguments for each of the 20 tools: ${RUNS.tools} inputs`, async () => {
    // wait_for_case on a pending case would wait: the attacker's only case is finished.
    const caseId = caseIdArbitrary([victimCaseId], [attackerCaseId]);
    const argumentsFor = toolArguments(caseId);
    const names = Object.keys(argumentsFor);
    const callArbitrary = fc
      .constantFrom(...names)
      .chain((name) =>
        fc.tuple(
          fc.constant(name),
          fc.oneof(
            { weight: 8, arbitrary: argumentsFor[name]! as fc.Arbitrary<unknown> },
            { weight: 1, arbitrary: hostileJson },
            { weight: 1, arbitrary: fc.constant(undefined) },
          ),
        ),
      );
    await fc.assert(
      fc.asyncProperty(
        callArbitrary,
        fc.oneof(
          { weight: 5, arbitrary: fc.constant(`Bearer ${attackerToken}`) },
          { weight: 1, arbitrary: fc.constant(`Bearer ${readerToken}`) },
          { weight: 1, arbitrary: authorizationHeader(attackerToken, victimToken) },
        ),
        fc.oneof(hostileJson, fc.integer(), fc.string()),
        async ([name, args], authorization, id) => {
          const body = JSON.stringify({
            jsonrpc: "2.0",
            id: typeof id === "number" || typeof id === "string" ? id : 1,
            method: "tools/call",
            params: { name, arguments: args },
          });
          const response = await check("tools", { headers: { ...HEADERS, authorization }, body });
          perTool.hit(name);
          for (const message of response.messages) {
            const result = (message as { result?: { isError?: boolean; content?: { text?: string }[] } })
              .result;
            if (result?.isError) {
              expect(
                result.content?.[0]?.text,
                `tool ${name} failed unexpectedly with ${describeRequest({ args })}`,
              ).not.toMatch(/unexpectedly/);
            }
          }
          await expectVictimUnchanged();
        },
      ),
      params(RUNS.tools),
    );
    // Every tool was called, most more than a few times.
    for (const name of names) expect(perTool.counts.get(name) ?? 0, name).toBeGreaterThan(5);
    await inlineRunner().idle();
    await expectVictimUnchanged();
  }, 180_000);

  // Regression: U+0000 reaching PostgreSQL failed the tool "unexpectedly" (NUL is now refused at the edges).
  it.each([
    ["search_symptoms", { q: "\u0000" }],
    ["list_breeds", { q: "a\u0000" }],
    ["search_diagnoses", { q: "a\u0000" }],
    ["create_case", { notes: "a\u0000b" }],
  ])("NUL: %s %j is an ordinary tool result", async (name, args) => {
    const raw = await call(POST as never, "/mcp", {
      method: "POST",
      token: attackerToken,
      headers: HEADERS,
      body: rpcBody(name as string, args),
    });
    expect(await raw.text()).not.toMatch(/unexpectedly/);
  });

  it(`generated JSON-RPC envelopes, batches and transport headers: ${RUNS.envelopes} inputs`, async () => {
    const method = fc.oneof(
      fc.constantFrom(
        "initialize",
        "tools/list",
        "tools/call",
        "ping",
        "resources/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "notifications/initialized",
        "notifications/cancelled",
        "completion/complete",
        "logging/setLevel",
        "tasks/list",
      ),
      hostileString,
    );
    const message = fc.record(
      {
        jsonrpc: fc.oneof({ weight: 6, arbitrary: fc.constant("2.0") }, { weight: 1, arbitrary: wrongType }),
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), hostileNumber, hostileJson),
        method: fc.oneof({ weight: 6, arbitrary: method }, { weight: 1, arbitrary: wrongType }),
        params: fc.oneof(
          hostileJson,
          fc.record(
            {
              name: fc.oneof(fc.constantFrom(...tools.map((t) => t.name)), hostileString),
              arguments: hostileJson,
            },
            { requiredKeys: [] },
          ),
          fc.dictionary(hostileKey, hostileJson, { maxKeys: 3 }),
        ),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
      { weight: 2, arbitrary: fc.array(message, { maxLength: 4 }).map((m) => JSON.stringify(m)) },
      { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON_TEXTS) },
      { weight: 1, arbitrary: deeplyNested },
      { weight: 1, arbitrary: hostileString },
    );
    const headers = fc.record(
      {
        "content-type": fc.oneof(
          { weight: 5, arbitrary: fc.constant("application/json") },
          { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        ),
        accept: fc.oneof(
          { weight: 5, arbitrary: fc.constant(HEADERS.accept) },
          {
            weight: 1,
            arbitrary: fc.constantFrom("application/json", "text/event-stream", "*/*", "text/html", ""),
          },
        ),
        host: fc.oneof(
          { weight: 8, arbitrary: fc.constant("vetdx.test") },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              "localhost",
              "evil.example",
              "vetdx.test.evil.example",
              "[::1]:80",
              "",
            ),
          },
        ),
        origin: fc.oneof(
          { weight: 6, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: fc.constant("http://vetdx.test") },
          { weight: 1, arbitrary: fc.constantFrom("https://evil.example", "null", "not a url") },
        ),
        "mcp-protocol-version": fc.option(
          fc.constantFrom("2025-06-18", "2025-03-26", "1999-01-01", "latest", ""),
          { freq: 2 },
        ),
        "mcp-session-id": fc.option(
          fc.constantFrom("abc", "00000000-0000-4000-8000-000000000000", "\u00ff"),
          { freq: 5 },
        ),
        authorization: fc.oneof(
          { weight: 4, arbitrary: fc.constant(`Bearer ${attackerToken}`) },
          { weight: 1, arbitrary: authorizationHeader(readerToken, victimToken) },
        ),
      },
      { requiredKeys: ["authorization"] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 8, arbitrary: fc.constant("POST" as const) },
          { weight: 1, arbitrary: fc.constantFrom("GET" as const, "DELETE" as const) },
        ),
        headers,
        body,
        async (verb, requestHeaders, text) => {
          const cleaned = Object.fromEntries(
            Object.entries(requestHeaders).map(([k, v]) => [k, v ?? undefined]),
          );
          await check("envelopes", { method: verb, headers: cleaned, body: text });
          await expectVictimUnchanged();
        },
      ),
      params(RUNS.envelopes),
    );
  }, 120_000);
});
