// tools/list follows the token's scopes: a read-only connection (consent page: read only) is offered
// only the read-only tools; a write tool called anyway is a tool error naming the scope, and changes
// nothing. A full-scope token still sees all 20 tools.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db";
import { openTestDatabase } from "@/db/testing";
import { inlineRunner } from "@/inngest/runner";
import { POST as tokenRoute } from "@/app/token/route";
import {
  authorizeWithConsent,
  createTestVet,
  pkcePair,
  registerTestClient,
} from "@/lib/auth/mcp-oauth/testing";
import { Client, SSEClientTransport } from "@modelcontextprotocol/client";
import { connectMcpClient } from "@/test/mcp-client";
import { APP_URL, call, machineToken } from "@/test/support";
import { POST as postMessage } from "../message/route";
import { GET as openSse } from "../sse/route";
import { POST } from "./route";

let handle: DatabaseHandle;
let full: string;

const WRITE_TOOLS = [
  "create_case",
  "update_case_patient",
  "select_symptoms",
  "deselect_symptoms",
  "select_diagnosis",
  "generate_soap_notes",
  "create_component_session",
];

beforeAll(async () => {
  handle = await openTestDatabase();
  full = (await machineToken(handle.db, undefined, "Full clinic")).token;
});
afterAll(async () => {
  await inlineRunner().idle();
  await handle.close();
});

async function rpc(method: string, params: Record<string, unknown>, token: string) {
  const response = await call(POST as never, "/mcp", {
    method: "POST",
    token,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      host: "vetdx.test",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await response.text();
  const line = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((l) => l.startsWith("data: "))
        ?.slice(6) ?? "null");
  return JSON.parse(line).result;
}
const toolNames = async (token: string) =>
  ((await rpc("tools/list", {}, token)).tools as { name: string }[]).map((tool) => tool.name);
const callTool = (token: string, name: string, args: Record<string, unknown> = {}) =>
  rpc("tools/call", { name, arguments: args }, token);

/** An opaque token from the real authorization server after the vet chose `access` on the consent page. */
async function consentedToken(access: "read" | "read_write", vetId: string) {
  const client = await registerTestClient(handle.db);
  const pkce = pkcePair();
  const location = await authorizeWithConsent(handle.db, {
    clientId: client.client_id,
    vetId,
    challenge: pkce.challenge,
    scope: "vetdx/read vetdx/user.read vetdx/write vetdx/user.write vetdx/tools",
    access,
  });
  const response = await call(tokenRoute, "/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: client.client_id,
      code: location.searchParams.get("code")!,
      code_verifier: pkce.verifier,
      redirect_uri: "http://127.0.0.1:5555/cb",
    }),
  });
  return (await response.json()) as { access_token: string; scope: string };
}

describe("tools/list by scope", () => {
  it("shows a full-scope token all 20 tools", async () => {
    const names = await toolNames(full);
    expect(names).toHaveLength(20);
    expect(names).toEqual(expect.arrayContaining(WRITE_TOOLS));
  });

  it("read-only consent: the token lacks the write scopes, tools/list hides write tools, a write call is refused", async () => {
    const vet = await createTestVet(handle.db);
    const reader = await consentedToken("read", vet.id);
    expect(reader.scope.split(" ").sort()).toEqual(["vetdx/read", "vetdx/user.read"]);
    const names = await toolNames(reader.access_token);
    expect(names).toHaveLength(13);
    for (const tool of WRITE_TOOLS) expect(names).not.toContain(tool);
    expect(names).toEqual(
      expect.arrayContaining([
        "whoami",
        "get_case",
        "list_cases",
        "wait_for_case",
        "get_differential_diagnoses",
      ]),
    );
    const refused = await callTool(reader.access_token, "create_case", { notes: "Dog, vomiting." });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/needs the scope vetdx\/write or vetdx\/user\.write/);
    expect((await callTool(reader.access_token, "list_cases")).structuredContent.data).toEqual([]);

    // The same vet choosing read and write gets every tool, and sees only their own cases.
    const writer = await consentedToken("read_write", vet.id);
    expect(await toolNames(writer.access_token)).toHaveLength(20);
    const created = (await callTool(writer.access_token, "create_case", { notes: "Cat, sneezing." }))
      .structuredContent;
    const listed = (await callTool(reader.access_token, "list_cases")).structuredContent.data;
    expect(listed.map((c: { id: string }) => c.id)).toEqual([created.id]);
  });

  it("a read-only token of another vet sees neither the write tools nor this vet's cases", async () => {
    const owner = await consentedToken("read_write", (await createTestVet(handle.db)).id);
    const other = await consentedToken("read", (await createTestVet(handle.db)).id);
    const created = (await callTool(owner.access_token, "create_case", { notes: "Rabbit, anorexia." }))
      .structuredContent;
    const stolen = await callTool(other.access_token, "get_case", { case_id: created.id });
    expect(stolen.isError).toBe(true);
    expect(stolen.content[0].text).toMatch(/not found/);
    const edit = await callTool(other.access_token, "select_diagnosis", {
      case_id: created.id,
      diagnosis_id: 1,
    });
    expect(edit.isError).toBe(true);
    expect(edit.content[0].text).toMatch(/scope/);
    expect(
      (await callTool(owner.access_token, "get_case", { case_id: created.id })).structuredContent
        .selected_diagnoses,
    ).toEqual([]);
  });

  it("narrows by each scope: vetdx/user.read alone lists only the case readers and whoami", async () => {
    const { token } = await machineToken(handle.db, ["vetdx/user.read"], "Lister");
    expect((await toolNames(token)).sort()).toEqual(["get_case", "list_cases", "wait_for_case", "whoami"]);
    const { token: tools } = await machineToken(handle.db, ["vetdx/tools"], "Embedder");
    expect((await toolNames(tools)).sort()).toEqual(["create_component_session", "whoami"]);
  });
  it("filters the same way for the official client on both eras of /mcp and on the legacy /sse", async () => {
    const { token } = await machineToken(handle.db, ["vetdx/read", "vetdx/user.read"], "Reader");
    const sse = new Client({ name: "vetdx-test", version: "1.0.0" });
    await sse.connect(
      new SSEClientTransport(new URL(`${APP_URL}/sse`), {
        fetch: (url, init) => {
          const path = new URL(String(url));
          const route = path.pathname === "/sse" ? openSse : postMessage;
          const headers = new Headers(init?.headers);
          headers.set("host", "vetdx.test");
          return call(route as never, `${path.pathname}${path.search}`, { ...init, headers, token });
        },
      }),
    );
    const clients = [await connectMcpClient(token, "modern"), await connectMcpClient(token, "legacy"), sse];
    for (const client of clients) {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toHaveLength(13);
      expect(names).not.toContain("generate_soap_notes");
      const refused = (await client.callTool({ name: "create_case", arguments: { notes: "Dog." } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toMatch(/scope vetdx\/write/);
      await client.close();
    }
  });
});
