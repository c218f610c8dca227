// The official MCP TypeScript SDK client against the running server with an M2M JWT: Streamable
// HTTP (every tool called) and the legacy HTTP+SSE transport.
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import { e2eServer } from "../fixtures/server";

async function m2mToken(): Promise<string> {
  const { client } = e2eServer.demoCredentials();
  const response = await fetch(`${e2eServer.url}/idp/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
    },
    // RFC 8707: a token for the MCP server only (without `resource` it would also open REST).
    body: new URLSearchParams({ grant_type: "client_credentials", resource: `${e2eServer.url}/mcp` }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { text?: string }[];
};

test("Streamable HTTP: 20 tools, each called as the machine veterinarian", async () => {
  const token = await m2mToken();
  const client = new Client({ name: "vetdx-e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${e2eServer.url}/mcp`), {
      authProvider: { token: async () => token },
    }),
  );
  const { tools } = await client.listTools();
  expect(tools).toHaveLength(20);

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
    return result.structuredContent as Record<string, unknown> & { data?: unknown; id?: string };
  };
  const called = new Set<string>();
  const run = async (name: string, args: Record<string, unknown> = {}) => {
    called.add(name);
    return call(name, args);
  };

  expect(await run("whoami")).toMatchObject({ kind: "machine", auth_method: "jwt" });
  const types = (await run("list_animal_types")).data as unknown as { id: number; key: string }[];
  expect(types.find((t) => t.key === "dog")?.id).toBe(1);
  await run("list_breeds", { animal_type_id: 1, q: "gsd", limit: 3 });
  await run("list_genders");
  await run("list_symptom_categories");
  const vomiting = (
    (await run("search_symptoms", { q: "throwing up", limit: 1 })).data as unknown as { id: number }[]
  )[0]!;
  await run("get_symptom", { id: vomiting.id });
  const parvo = (
    (await run("search_diagnoses", { q: "parvo", animal_type_id: 1 })).data as unknown as { id: number }[]
  )[0]!;
  await run("get_diagnosis", { id: parvo.id });
  const created = await run("create_case", {
    notes:
      "Rocky, 4mo ME Rottweiler pup, 9kg, unvaccinated. Vomiting and haemorrhagic diarrhoea, lethargic, not eating.",
  });
  const caseId = String(created.id);
  expect(await run("wait_for_case", { case_id: caseId, timeout_seconds: 20 })).toMatchObject({
    status: "COMPLETED",
  });
  await run("get_case", { case_id: caseId });
  await run("list_cases", { limit: 5 });
  await run("update_case_patient", { case_id: caseId, patient: { name: "Rocky B" } });
  await run("select_symptoms", { case_id: caseId, symptoms: [{ id: vomiting.id, significant: true }] });
  const ranked = (await run("get_differential_diagnoses", { case_id: caseId, limit: 5 })).data as unknown as {
    id: number;
    name: string;
  }[];
  expect(
    ranked
      .slice(0, 3)
      .map((d) => d.name)
      .join(),
  ).toMatch(/parvo/i);
  await run("select_diagnosis", { case_id: caseId, diagnosis_id: ranked[0]!.id });
  await run("generate_soap_notes", { case_id: caseId });
  await run("create_component_session", { case_id: caseId });
  const lethargy = (
    (await call("search_symptoms", { q: "lethargy", limit: 1 })).data as unknown as { id: number }[]
  )[0]!;
  await run("deselect_symptoms", { case_id: caseId, symptom_ids: [lethargy.id] });
  expect([...called].sort()).toEqual(tools.map((t) => t.name).sort());
  await client.close();
});

test("legacy HTTP+SSE transport lists the tools and calls whoami", async () => {
  const token = await m2mToken();
  const client = new Client({ name: "vetdx-e2e-sse", version: "1.0.0" });
  await client.connect(
    new SSEClientTransport(new URL(`${e2eServer.url}/sse`), { authProvider: { token: async () => token } }),
  );
  expect((await client.listTools()).tools).toHaveLength(20);
  const who = (await client.callTool({ name: "whoami", arguments: {} })) as ToolResult;
  expect(who.structuredContent).toMatchObject({ kind: "machine" });
  await client.close();
});
