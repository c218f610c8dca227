// /mcp resources with the official MCP client (2026-07-28 and 2025-era): the vet's cases as
// vetdx://cases/{id} (listed with cursors, read like get_case), catalogue templates, caching hints,
// and the bad input: foreign, deleted and unknown cases, forged cursors, missing scopes.
import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { inlineRunner } from "@/inngest/runner";
import type { Scope } from "@/lib/auth/scopes";
import { cases } from "@/db/schema";
import { deleteCase } from "@/lib/cases/delete-case";
import { CASES_PER_PAGE } from "@/lib/mcp/resources";
import { connectMcpClient } from "@/test/mcp-client";
import { call, machineToken } from "@/test/support";
import { POST } from "./route";

let handle: DatabaseHandle;
let vetA: { token: string; veterinarianId: string };
let vetB: { token: string; veterinarianId: string };

async function vet(name: string, scopes?: readonly Scope[]) {
  const { client, token } = await machineToken(handle.db, scopes, name);
  return { token, veterinarianId: client.veterinarianId };
}

const connect = connectMcpClient;

async function rpcError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected an MCP error").toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

const caseIds: string[] = [];

beforeAll(async () => {
  handle = await openTestDatabase();
  vetA = await vet("Clinic A");
  vetB = await vet("Clinic B");
  // Stored directly, a minute apart: the list, not case creation, is under test here.
  const rows = await handle.db
    .insert(cases)
    .values(
      Array.from({ length: CASES_PER_PAGE + 2 }, (_, i) => ({
        veterinarianId: vetA.veterinarianId,
        notes: `Bella, 3y FS Labrador, vomiting for ${i + 1} days.`,
        aiExtractedPatient: {
          animal_type_id: "1",
          breed: "Labrador",
          name: "Bella",
          gender: "female",
          weight: "30",
          neutered: true,
        },
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      })),
    )
    .returning({ id: cases.id });
  caseIds.push(...rows.map((row) => row.id));
});
afterAll(async () => {
  await inlineRunner().idle();
  await handle.close();
});

describe("/mcp resources", () => {
  it("lists the vet's cases newest first, paginated with the protocol's cursor", async () => {
    const client = await connect(vetA.token);
    // The client aggregates every page when asked without a cursor; one page at a time here.
    const first = (await client.request({ method: "resources/list", params: {} })) as {
      resources: { uri: string }[];
      nextCursor?: string;
    };
    const cases = first.resources.filter((r) => r.uri.startsWith("vetdx://cases/"));
    expect(cases).toHaveLength(CASES_PER_PAGE);
    expect(cases[0]).toMatchObject({
      uri: `vetdx://cases/${caseIds.at(-1)}`,
      mimeType: "application/json",
      title: expect.stringContaining("Bella"),
    });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listResources({ cursor: first.nextCursor });
    expect(second.resources.map((r) => r.uri)).toEqual(
      caseIds
        .slice(0, 2)
        .reverse()
        .map((id) => `vetdx://cases/${id}`),
    );
    expect(second.nextCursor).toBeUndefined();
    await client.close();
  });

  it("shows another vet none of them", async () => {
    const client = await connect(vetB.token);
    const { resources } = await client.listResources(undefined, { cacheMode: "bypass" });
    expect(resources.filter((r) => r.uri.startsWith("vetdx://cases/"))).toEqual([]);
    await client.close();
  });

  it("refuses a forged cursor with invalid params", async () => {
    const client = await connect(vetA.token);
    for (const cursor of [
      "not a cursor!",
      Buffer.from('{"createdAt":"2024-01-01T00:00:00Z","id":"x"}').toString("base64url"),
      "A".repeat(5000),
    ]) {
      const error = await rpcError(client.listResources({ cursor }));
      expect(error.code).toBe(-32602);
    }
    await client.close();
  });

  it("reads a case as the JSON get_case returns", async () => {
    const client = await connect(vetA.token);
    const uri = `vetdx://cases/${caseIds[0]}`;
    const { contents } = await client.readResource({ uri }, { cacheMode: "bypass" });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ uri, mimeType: "application/json" });
    const body = JSON.parse((contents[0] as { text: string }).text);
    const tool = await client.callTool({ name: "get_case", arguments: { case_id: caseIds[0] } });
    expect(tool.isError, JSON.stringify(tool.content)).toBeFalsy();
    expect(body).toEqual(tool.structuredContent);
    await client.close();
  });

  it("answers resource not found, with no data, for another vet's, a deleted or an unknown case", async () => {
    const [extra] = await handle.db
      .insert(cases)
      .values({ veterinarianId: vetA.veterinarianId, notes: "Max, cat, sneezing." })
      .returning({ id: cases.id });
    await deleteCase(handle.db, { caseId: extra!.id, veterinarianId: vetA.veterinarianId });
    const asB = await connect(vetB.token);
    const asA = await connect(vetA.token);
    for (const [client, id] of [
      [asB, caseIds[0]],
      [asA, extra!.id],
      [asA, "00000000-0000-4000-8000-000000000000"],
      [asA, "not-a-uuid"],
    ] as const) {
      const uri = `vetdx://cases/${id}`;
      const error = await rpcError(client.readResource({ uri }, { cacheMode: "bypass" }));
      expect(error.code).toBe(-32602);
      expect(error.data).toEqual({ uri });
      expect(JSON.stringify(error)).not.toContain("Bella");
    }
    await Promise.all([asA.close(), asB.close()]);
  });

  it("reads catalogue entries through their templates", async () => {
    const client = await connect(vetA.token);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      "vetdx://cases/{id}",
      "vetdx://diagnoses/{id}",
      "vetdx://symptoms/{id}",
    ]);
    const symptom = await client.readResource({ uri: "vetdx://symptoms/1" });
    expect(JSON.parse((symptom.contents[0] as { text: string }).text)).toMatchObject({ id: 1 });
    const found = await client.callTool({ name: "search_diagnoses", arguments: { q: "parvo", limit: 1 } });
    const parvo = (found.structuredContent as { data: { id: number }[] }).data[0]!;
    const diagnosis = await client.readResource({ uri: `vetdx://diagnoses/${parvo.id}` });
    expect(JSON.parse((diagnosis.contents[0] as { text: string }).text)).toMatchObject({
      id: parvo.id,
      signs: expect.any(Array),
    });
    for (const uri of ["vetdx://symptoms/999999999", "vetdx://diagnoses/0", "vetdx://symptoms/1e3"]) {
      expect((await rpcError(client.readResource({ uri }))).code).toBe(-32602);
    }
    await client.close();
  });

  it("needs the read scope to read a case, and lists no cases without vetdx/user.read", async () => {
    const writer = await vet("Writer only", ["vetdx/write"]);
    const client = await connect(writer.token);
    const error = await rpcError(client.readResource({ uri: `vetdx://cases/${caseIds[0]}` }));
    expect(error.message).toContain("vetdx/read or vetdx/user.read");
    expect(
      (await client.listResources()).resources.filter((r) => r.uri.startsWith("vetdx://cases/")),
    ).toEqual([]);
    await client.close();
  });

  it("carries caching hints on 2026-07-28 list and read results", async () => {
    const rpc = async (method: string, params: Record<string, unknown> = {}) => {
      const response = await call(POST as never, "/mcp", {
        method: "POST",
        token: vetA.token,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: "vetdx.test",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(typeof params.uri === "string" && { "mcp-name": params.uri }),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method,
          params: {
            ...params,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      });
      return (await response.json()).result;
    };
    expect(await rpc("resources/templates/list")).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
    expect(await rpc("prompts/list")).toMatchObject({ ttlMs: 3_600_000, cacheScope: "public" });
    expect(await rpc("resources/list")).toMatchObject({ ttlMs: 10_000, cacheScope: "private" });
    expect(await rpc("resources/read", { uri: `vetdx://cases/${caseIds[0]}` })).toMatchObject({
      ttlMs: 0,
      cacheScope: "private",
    });
    expect(await rpc("resources/read", { uri: "vetdx://symptoms/1" })).toMatchObject({
      cacheScope: "public",
    });
  });

  it("serves 2025-era clients the same resources", async () => {
    const client = await connect(vetA.token, "legacy");
    const { resources } = await client.listResources();
    expect(resources.filter((r) => r.uri.startsWith("vetdx://cases/")).length).toBeGreaterThan(0);
    const error = await rpcError(client.readResource({ uri: `vetdx://cases/${caseIds[0]}x` }));
    expect(error.code).toBe(-32602);
    await client.close();
  });
});

describe("/mcp resources and prompts: malformed and unauthenticated requests", () => {
  const post = (body: unknown, token?: string) =>
    call(POST as never, "/mcp", {
      method: "POST",
      token,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        host: "vetdx.test",
      },
      body: JSON.stringify(body),
    });

  it("answers 401 with a challenge and no data without a token", async () => {
    for (const [method, params] of [
      ["resources/list", {}],
      ["resources/read", { uri: `vetdx://cases/${caseIds[0]}` }],
      ["prompts/get", { name: "work_up_case", arguments: { case_id: caseIds[0] } }],
      [
        "completion/complete",
        { ref: { type: "ref/prompt", name: "work_up_case" }, argument: { name: "case_id", value: "" } },
      ],
    ] as const) {
      const response = await post({ jsonrpc: "2.0", id: 1, method, params });
      expect(response.status, method).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect(await response.text()).not.toContain(caseIds[0]!);
    }
  });

  it("refuses malformed params with an error and no data", async () => {
    for (const [method, params] of [
      ["resources/read", { uri: 5 }],
      ["resources/read", { uri: "not a uri" }],
      ["resources/list", { cursor: 12 }],
      ["prompts/get", { name: "work_up_case", arguments: { case_id: 7 } }],
      [
        "completion/complete",
        { ref: { type: "ref/prompt", name: "work_up_case" }, argument: { name: "case_id" } },
      ],
    ] as const) {
      const response = await post({ jsonrpc: "2.0", id: 1, method, params }, vetA.token);
      const text = await response.text();
      const body = JSON.parse(
        text.startsWith("{")
          ? text
          : (text
              .split("\n")
              .find((l) => l.startsWith("data: "))
              ?.slice(6) ?? "{}"),
      );
      expect(body.error, `${method} ${JSON.stringify(params)}: ${text}`).toMatchObject({
        code: expect.any(Number),
      });
      expect(body.result).toBeUndefined();
      expect(text).not.toContain("Bella");
      // The SDK's own handlers answer a params shape they refuse with -32603 and zod's issues.
      if (method === "resources/list") expect(body.error.code).toBe(-32602);
    }
  });
});
