// /mcp: JSON-RPC over Streamable HTTP with M2M JWTs — tools, tool errors, tenancy, protocol errors
// and the transport's guards (Origin, tokens in URLs, challenges).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { inlineRunner } from "@/inngest/runner";
import { call, machineToken } from "@/test/support";
import { POST } from "./route";

let handle: DatabaseHandle;
let tokenA: string;
let tokenB: string;
let readOnly: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  tokenA = (await machineToken(handle.db, undefined, "Clinic A")).token;
  tokenB = (await machineToken(handle.db, undefined, "Clinic B")).token;
  readOnly = (await machineToken(handle.db, ["vetdx/read"], "Reader")).token;
});
afterAll(async () => {
  await inlineRunner().idle();
  await handle.close();
});

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  host: "vetdx.test",
};

async function rpc(
  body: unknown,
  options: { token?: string; headers?: Record<string, string>; raw?: string } = {},
) {
  const response = await call(POST as never, "/mcp", {
    method: "POST",
    token: options.token ?? tokenA,
    headers: { ...HEADERS, ...options.headers },
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await response.text();
  const json = /^[[{]/.test(text)
    ? JSON.parse(text)
    : JSON.parse(
        text
          .split("\n")
          .find((l) => l.startsWith("data: "))
          ?.slice(6) ?? "null",
      );
  return { status: response.status, headers: response.headers, body: json };
}

const callTool = async (name: string, args: Record<string, unknown> = {}, token = tokenA) =>
  (await rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }, { token }))
    .body.result;

describe("/mcp", () => {
  it("lists tools with input and output schemas and all four annotations", async () => {
    const { status, body } = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(status).toBe(200);
    const tools = body.result.tools as {
      name: string;
      inputSchema: object;
      outputSchema: object;
      annotations: Record<string, unknown>;
    }[];
    expect(tools).toHaveLength(20);
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "whoami",
        "list_animal_types",
        "search_symptoms",
        "create_case",
        "wait_for_case",
      ]),
    );
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: "object" });
      expect(tool.outputSchema).toMatchObject({ type: "object" });
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
        expect(typeof tool.annotations[hint], `${tool.name}.${hint}`).toBe("boolean");
      }
    }
  });

  it("whoami shows the machine veterinarian the JWT resolved to", async () => {
    const result = await callTool("whoami");
    expect(result.structuredContent).toMatchObject({ kind: "machine", name: "Clinic A", auth_method: "jwt" });
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  });

  it("runs a case end to end: create, wait, select and deselect signs, update the patient", async () => {
    const created = (
      await callTool("create_case", {
        notes: "Rex, 6yo MN GSD, 35kg. Vomiting since this morning, lethargic.",
      })
    ).structuredContent;
    expect(created.status).toBe("PENDING");
    const done = (await callTool("wait_for_case", { case_id: created.id, timeout_seconds: 10 }))
      .structuredContent;
    expect(done).toMatchObject({ status: "COMPLETED", timed_out: false });
    const cough = (await callTool("search_symptoms", { q: "coughing", limit: 1 })).structuredContent.data[0];
    const selected = (
      await callTool("select_symptoms", {
        case_id: created.id,
        symptoms: [{ id: cough.id, significant: true }],
      })
    ).structuredContent;
    expect(selected.selected_symptoms).toContainEqual({ id: cough.id, significant: true });
    const deselected = (await callTool("deselect_symptoms", { case_id: created.id, symptom_ids: [cough.id] }))
      .structuredContent;
    expect(deselected.de_selected_symptoms).toContainEqual({ id: cough.id });
    const renamed = (
      await callTool("update_case_patient", { case_id: created.id, patient: { name: "Rexy" } })
    ).structuredContent;
    expect(renamed.patient.name).toBe("Rexy");
    const listed = (await callTool("list_cases", { limit: 5 })).structuredContent;
    expect(listed.data.map((c: { id: string }) => c.id)).toContain(created.id);
  });

  it("ranks differentials, records a diagnosis, writes SOAP notes and opens a component session", async () => {
    const created = (
      await callTool("create_case", {
        notes: "Tom, 12yo MN DSH cat, 3.9kg. Weight loss, polyphagia, vomiting, PU/PD.",
      })
    ).structuredContent;
    await callTool("wait_for_case", { case_id: created.id });
    const ranked = (await callTool("get_differential_diagnoses", { case_id: created.id, limit: 5 }))
      .structuredContent;
    expect(ranked.data.length).toBe(5);
    expect(ranked.data[0]).toMatchObject({
      id: expect.any(Number),
      name: expect.any(String),
      score: expect.any(Number),
    });
    expect(
      ranked.data
        .slice(0, 3)
        .map((d: { name: string }) => d.name)
        .join(),
    ).toMatch(/hyperthyroid/i);
    const chosen = (
      await callTool("select_diagnosis", { case_id: created.id, diagnosis_id: ranked.data[0].id })
    ).structuredContent;
    expect(chosen.selected_diagnoses[0]).toMatchObject({ id: ranked.data[0].id });
    const soap = (await callTool("generate_soap_notes", { case_id: created.id })).structuredContent;
    expect(soap.assessment).toContain(ranked.data[0].name);
    const session = (
      await callTool("create_component_session", {
        case_id: created.id,
        parent_origin: "https://pims.example",
      })
    ).structuredContent;
    expect(session.url).toBe(`http://vetdx.test/components/diagnostics/${session.session_id}`);
    const freeForm = (
      await callTool("get_differential_diagnoses", {
        animal_type_id: 1,
        present_symptom_ids: [ranked.data[0].evidence.supporting[0]?.id ?? 1],
      })
    ).structuredContent;
    expect(freeForm.data.length).toBeGreaterThan(0);
    const missing = await callTool("get_differential_diagnoses", {});
    expect(missing.isError).toBe(true);
  });

  it("answers another vet's case id as not found, as a tool error the model can act on", async () => {
    const created = (await callTool("create_case", { notes: "Cat, sneezing." })).structuredContent;
    const stolen = await callTool("get_case", { case_id: created.id }, tokenB);
    expect(stolen.isError).toBe(true);
    expect(stolen.content[0].text).toMatch(/not found/);
    const edit = await callTool(
      "update_case_patient",
      { case_id: created.id, patient: { name: "Mine" } },
      tokenB,
    );
    expect(edit.isError).toBe(true);
    expect((await callTool("list_cases", {}, tokenB)).structuredContent.data).toEqual([]);
  });

  it.each([
    ["initialize without params", { jsonrpc: "2.0", id: 3, method: "initialize" }],
    [
      "prompts/get with non-string arguments",
      {
        jsonrpc: "2.0",
        id: 4,
        method: "prompts/get",
        params: { name: "work_up_case", arguments: { case_id: 7 } },
      },
    ],
    [
      "resources/read with a numeric uri",
      { jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: 42 } },
    ],
    [
      "completion/complete without an argument value",
      {
        jsonrpc: "2.0",
        id: 6,
        method: "completion/complete",
        params: { ref: { type: "ref/prompt", name: "work_up_case" }, argument: { name: "case_id" } },
      },
    ],
  ])("answers %s with -32602 invalid params, never an internal error", async (_name, message) => {
    const { body } = await rpc(message);
    expect(body.error?.code).toBe(-32602);
    expect(body.id).toBe(message.id);
  });

  it("refuses a batch whole when one request in it has invalid params", async () => {
    const { body } = await rpc([
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: 1 } },
    ]);
    expect(body.map((answer: { error: { code: number } }) => answer.error.code)).toEqual([-32600, -32602]);
  });

  it("reports missing scopes and bad arguments as tool errors", async () => {
    const denied = await callTool("create_case", { notes: "Dog" }, readOnly);
    expect(denied.isError).toBe(true);
    expect(denied.content[0].text).toMatch(/scope/);
    const invalid = await rpc({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "get_symptom", arguments: { id: "x" } },
    });
    expect(invalid.body.error?.code ?? (invalid.body.result?.isError ? -32602 : 0)).toBe(-32602);
  });

  it.each([
    ["invalid JSON", { raw: '{"jsonrpc": "2.0", ' }, -32700],
    ["an invalid request", { raw: JSON.stringify({ jsonrpc: "1.0", id: 1 }) }, -32600],
    [
      "an unknown method",
      { raw: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/frobnicate" }) },
      -32601,
    ],
    [
      "an unknown tool",
      {
        raw: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "nope", arguments: {} },
        }),
      },
      -32602,
    ],
  ])("answers %s with JSON-RPC error %i", async (_name, options, code) => {
    const { body } = await rpc(null, options);
    expect(body.error?.code).toBe(code);
  });

  it("refuses a foreign Origin, another Host, and tokens in the URL", async () => {
    expect(
      (
        await rpc(
          { jsonrpc: "2.0", id: 1, method: "tools/list" },
          { headers: { origin: "https://evil.example" } },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await rpc(
          { jsonrpc: "2.0", id: 1, method: "tools/list" },
          { headers: { host: "rebind.evil.example" } },
        )
      ).status,
    ).toBe(403);
    const inUrl = await call(POST as never, `/mcp?access_token=${tokenA}`, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(inUrl.status).toBe(400);
  });

  it("answers 401 with an OAuth challenge pointing at the resource metadata", async () => {
    const response = await call(POST as never, "/mcp", {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /resource_metadata="http:\/\/vetdx\.test\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    expect(await response.json()).toMatchObject({
      error: "invalid_token",
      error_description: expect.any(String),
    });
    const forged = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { token: `${tokenA}x` });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ error: "invalid_token" });
  });
});
