// The diagnostics MCP App on /mcp, through the official SDK client: the view resource (mime type,
// a CSP naming only this server, a small document whose one script is under 150 kB gzipped), the tools that link it and the
// view's data in their results, and what a view gets for bad requests (another vet's case, a
// token without the scope, malformed ids, unknown views).
import { gzipSync } from "node:zlib";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { inlineRunner } from "@/inngest/runner";
import { APP_URL, call, machineToken } from "@/test/support";
import { modelContextOf } from "../components/diagnostics/_mcp-app/app-bridge-host";
import { mcpBackend } from "../components/diagnostics/_mcp-app/mcp-backend";
import { ApiError, type CaseView } from "../components/diagnostics/[sessionId]/_components/component-api";
import { GET as asset } from "../mcp-app/[file]/route";
import { POST } from "./route";

const VIEW_URI = "ui://vetdx/diagnostics.html";
const VIEW_DATA = "vetdx/diagnostics-view";

let handle: DatabaseHandle;
let vetA: Client;
let vetB: Client;
let reader: Client;
let caseId: string;

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "app-view-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://vetdx.test/mcp"), {
      fetch: (url, init) => {
        const headers = new Headers(init?.headers);
        headers.set("host", "vetdx.test");
        return call(POST as never, new URL(String(url)).pathname, { ...init, headers, token });
      },
    }),
  );
  return client;
}

type Result = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};
const callTool = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;

beforeAll(async () => {
  handle = await openTestDatabase();
  vetA = await connect((await machineToken(handle.db, undefined, "Clinic A")).token);
  vetB = await connect((await machineToken(handle.db, undefined, "Clinic B")).token);
  reader = await connect((await machineToken(handle.db, ["vetdx/read"], "Reader A")).token);
  const created = await callTool(vetA, "create_case", {
    notes: "Bella, 4yo FS Labrador, 28kg. Vomiting and diarrhoea for two days, not coughing.",
  });
  caseId = (created.structuredContent as { id: string }).id;
  await callTool(vetA, "wait_for_case", { case_id: caseId, timeout_seconds: 20 });
}, 60_000);
afterAll(async () => {
  await Promise.all([vetA, vetB, reader].map((client) => client?.close()));
  await inlineRunner().idle();
  await handle.close();
});

describe("diagnostics MCP App", () => {
  it("links the case tools to the view with the current and the deprecated key, and keeps 20 tools", async () => {
    const { tools } = await vetA.listTools();
    expect(tools).toHaveLength(20);
    const linked = tools.filter((tool) => tool._meta?.ui);
    expect(linked.map((tool) => tool.name).sort()).toEqual([
      "get_case",
      "get_differential_diagnoses",
      "wait_for_case",
    ]);
    for (const tool of linked) {
      expect(tool._meta).toMatchObject({ ui: { resourceUri: VIEW_URI }, "ui/resourceUri": VIEW_URI });
      // Visible to the model and the view (the default): hosts without MCP Apps still get the tool.
      expect((tool._meta?.ui as { visibility?: unknown }).visibility).toBeUndefined();
    }
  });

  it("serves the view: a small HTML document with the MCP Apps mime type, naming only this server in its CSP", async () => {
    const { resources } = await vetA.listResources();
    expect(resources.find((resource) => resource.uri === VIEW_URI)).toMatchObject({
      mimeType: "text/html;profile=mcp-app",
    });
    const { contents } = await vetA.readResource({ uri: VIEW_URI });
    expect(contents).toHaveLength(1);
    const [view] = contents as {
      uri: string;
      mimeType: string;
      text: string;
      _meta?: Record<string, unknown>;
    }[];
    expect(view!.mimeType).toBe("text/html;profile=mcp-app");
    expect(view!._meta).toEqual({
      ui: {
        csp: { connectDomains: [], resourceDomains: [APP_URL], frameDomains: [] },
        prefersBorder: true,
      },
    });
    const html = view!.text;
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html.length).toBeLessThan(32 * 1024);
    // One script, from this server; styles inline; nothing else loaded.
    const sources = [...html.matchAll(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="([^"]+)"/gi)].map(
      (m) => m[1],
    );
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatch(new RegExp(`^${APP_URL}/mcp-app/diagnostics-[0-9a-f]{16}\\.js$`));
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    expect(style.length).toBeGreaterThan(0);
    expect(style).not.toMatch(/@import|url\(/);

    const file = new URL(sources[0]!).pathname.split("/").pop()!;
    const script = await call(asset as never, `/mcp-app/${file}`, { params: { file } });
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const code = await script.text();
    const gzipped = gzipSync(html + code).length;
    console.log(
      `MCP App view: ${(code.length / 1024).toFixed(1)} kB script, ${(gzipped / 1024).toFixed(1)} kB gzipped with its document`,
    );
    expect(gzipped).toBeLessThanOrEqual(150 * 1024);
    const unknown = await call(asset as never, "/mcp-app/diagnostics-0000000000000000.js", {
      params: { file: "diagnostics-0000000000000000.js" },
    });
    expect(unknown.status).toBe(404);
  }, 60_000);

  it("answers get_case with text, the case, and the view's data in _meta", async () => {
    const result = await callTool(vetA, "get_case", { case_id: caseId });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
    expect(result.structuredContent).toMatchObject({ id: caseId, status: "COMPLETED" });
    const data = result._meta?.[VIEW_DATA] as {
      view: { case: { id: string; patient: { name: string } }; symptoms: { symptom_name: string }[] };
      animal_types: { id: number; name: string }[];
      genders: unknown[];
      read_only: boolean;
    };
    expect(data.view.case).toMatchObject({ id: caseId, patient: { name: "Bella" } });
    expect(data.view.symptoms.map((s) => s.symptom_name).join()).toMatch(/vomit/i);
    expect(data.animal_types).toContainEqual({ id: 1, name: expect.stringMatching(/dog/i) });
    expect(data.genders.length).toBeGreaterThan(0);
    expect(data.read_only).toBe(false);
  });

  it("gives wait_for_case and a case's differentials the same view data; a ranking without a case has none", async () => {
    const waited = await callTool(vetA, "wait_for_case", { case_id: caseId, timeout_seconds: 1 });
    expect((waited._meta?.[VIEW_DATA] as { view: { case: { id: string } } }).view.case.id).toBe(caseId);
    const ranked = await callTool(vetA, "get_differential_diagnoses", { case_id: caseId, limit: 3 });
    expect((ranked.structuredContent as { data: unknown[] }).data).toHaveLength(3);
    expect((ranked._meta?.[VIEW_DATA] as { view: { case: { id: string } } }).view.case.id).toBe(caseId);
    const free = await callTool(vetA, "get_differential_diagnoses", {
      animal_type_id: 1,
      present_symptom_ids: [],
      limit: 3,
    });
    expect(free._meta?.[VIEW_DATA]).toMatchObject({ view: null, read_only: false });
  });

  it("tells a view opened with a read-only token that it may not change the case", async () => {
    const own = await connect((await machineToken(handle.db, ["vetdx/read"], "Clinic A reader")).token);
    // A new machine client is a new veterinarian: reading A's case is refused; its own view is read-only.
    const foreign = await callTool(own, "get_case", { case_id: caseId });
    expect(foreign.isError).toBe(true);
    const free = await callTool(own, "get_differential_diagnoses", {
      animal_type_id: 1,
      present_symptom_ids: [],
    });
    expect(free._meta?.[VIEW_DATA]).toMatchObject({ read_only: true });
    await own.close();
  });

  it("drives the case from the view's backend through the real tools, and tells the model the vet's choices", async () => {
    const seen: CaseView[] = [];
    const backend = mcpBackend(
      { callServerTool: (params) => vetA.callTool(params) as never },
      caseId,
      (view) => seen.push(view),
    );
    expect((await backend.getCase()).case.id).toBe(caseId);
    const [cough] = await backend.searchSymptoms({ q: "coughing", animalTypeId: 1 });
    expect(cough).toEqual({
      id: expect.any(Number),
      symptom_name: expect.any(String),
      category_name: expect.any(String),
    });
    const selected = await backend.updateCase({ select_symptoms: [{ id: cough!.id, significant: true }] });
    expect(selected.case.selected_symptoms).toContainEqual({ id: cough!.id, significant: true });
    expect(selected.symptoms.map((s) => s.id)).toContain(cough!.id);
    const deselected = await backend.updateCase({ deselect_symptoms: [cough!.id] });
    expect(deselected.case.de_selected_symptoms).toContainEqual({ id: cough!.id });
    const renamed = await backend.updateCase({ patient: { name: "Bella B" } });
    expect(renamed.case.patient?.name).toBe("Bella B");
    const [lab] = await backend.searchBreeds({ q: "labrador", animalTypeId: 1 });
    expect(lab).toEqual({ id: expect.any(Number), name: expect.stringMatching(/labrador/i) });
    const ranked = await backend.differentials(null);
    expect(ranked.length).toBeGreaterThan(0);
    const selection = {
      animal_type_id: 1,
      breed_id: null,
      gender_id: null,
      neutered: null,
      signs: [{ id: cough!.id, significant: false }],
      diagnosis_id: null,
    };
    const free = await backend.differentials(selection);
    expect(free.length).toBeGreaterThan(0);
    const chosen = await backend.selectDiagnosis(ranked[0]!.id);
    expect(chosen.case.selected_diagnoses[0]?.id).toBe(ranked[0]!.id);
    expect((await backend.generateSoap(null)).assessment).toContain(ranked[0]!.name);
    await expect(backend.generateSoap(selection)).rejects.toBeInstanceOf(ApiError);
    expect(seen.at(-1)?.case.id).toBe(caseId);
    expect(modelContextOf(chosen).content[0]!.text).toContain(`Working diagnosis: ${ranked[0]!.name}`);
    expect(modelContextOf(chosen).structuredContent).toMatchObject({
      case_id: caseId,
      working_diagnosis: { id: ranked[0]!.id },
    });
  });

  it("gives the view's backend the tool's error for another vet's case or a missing scope", async () => {
    const foreign = mcpBackend({ callServerTool: (params) => vetB.callTool(params) as never }, caseId);
    await expect(foreign.getCase()).rejects.toThrow(/not found/i);
    const readOnly = mcpBackend({ callServerTool: (params) => reader.callTool(params) as never }, caseId);
    await expect(readOnly.selectDiagnosis(1)).rejects.toThrow(/vetdx\/write/);
  });

  it("refuses another vet's case to the view: a tool error, no case, no view data", async () => {
    for (const [name, args] of [
      ["get_case", { case_id: caseId }],
      ["wait_for_case", { case_id: caseId, timeout_seconds: 1 }],
      ["get_differential_diagnoses", { case_id: caseId }],
    ] as const) {
      const result = await callTool(vetB, name, args);
      expect(result.isError, name).toBe(true);
      expect(result.content[0]!.text).toMatch(/not found/i);
      expect(result.structuredContent).toBeUndefined();
      expect(result._meta?.[VIEW_DATA]).toBeUndefined();
    }
  });

  it("refuses a change from a view whose token lacks the write scope, naming the scope, and changes nothing", async () => {
    const before = await callTool(vetA, "get_case", { case_id: caseId });
    const denied = await callTool(reader, "select_diagnosis", { case_id: caseId, diagnosis_id: 1 });
    expect(denied.isError).toBe(true);
    expect(denied.content[0]!.text).toMatch(/vetdx\/write/);
    const after = await callTool(vetA, "get_case", { case_id: caseId });
    expect(after.structuredContent).toEqual(before.structuredContent);
  });

  it("answers malformed and oversized requests with errors and no view data", async () => {
    const malformed = await callTool(vetA, "get_case", { case_id: "not-a-case" });
    expect(malformed.isError).toBe(true);
    expect(malformed._meta?.[VIEW_DATA]).toBeUndefined();
    const oversized = await callTool(vetA, "get_case", { case_id: "x".repeat(100_000) });
    expect(oversized.isError).toBe(true);
    await expect(vetA.readResource({ uri: "ui://vetdx/other.html" })).rejects.toThrow(/not found/i);
    await expect(vetA.readResource({ uri: `ui://vetdx/${"a".repeat(10_000)}` })).rejects.toThrow();
  });

  it("serves the view only to authenticated callers", async () => {
    const response = await call(POST as never, "/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        host: "vetdx.test",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: VIEW_URI } }),
    });
    expect(response.status).toBe(401);
  });
});
