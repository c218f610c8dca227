// `npx tsx --conditions=react-server scripts/mcp-tools-size.ts`: how large tools/list is for a
// model, for a full-scope token and a read-only one (the consent page's two choices), as JSON.
// Tokens are approximated as characters / 4; no tokenizer ships with the project.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import type { Identity } from "@/lib/auth/identity";
import { READ_ONLY_SCOPES, SCOPES, type Scope } from "@/lib/auth/scopes";
import type { CaseRunner } from "@/lib/cases/case-runner";
import { registerTools } from "@/lib/mcp/define-tool";
import { MCP_SERVER_INFO } from "@/lib/mcp/server-info";
import { tools } from "@/lib/mcp/tools";

async function listFor(scopes: readonly Scope[]) {
  const identity: Identity = {
    veterinarianId: "00000000-0000-4000-8000-000000000000",
    kind: "human",
    email: null,
    name: "Size check",
    role: "vet",
    scopes: [...scopes],
    clientId: null,
    authMethod: "oauth",
  };
  const server = new McpServer(MCP_SERVER_INFO);
  registerTools(server, tools, {
    db: () => Promise.reject(new Error("tools/list needs no database")),
    identity: () => identity,
    caseRunner: {} as CaseRunner,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "mcp-tools-size", version: "1.0.0" });
  await client.connect(clientSide);
  const { tools: listed } = await client.listTools();
  await client.close();
  const chars = JSON.stringify(listed).length;
  const perTool = listed
    .map((tool) => ({ name: tool.name, approx_tokens: Math.round(JSON.stringify(tool).length / 4) }))
    .sort((a, b) => b.approx_tokens - a.approx_tokens);
  const descriptions = listed.reduce((sum, tool) => sum + (tool.description?.length ?? 0), 0);
  return {
    scopes,
    tools: listed.length,
    characters: chars,
    approx_tokens: Math.round(chars / 4),
    description_tokens: Math.round(descriptions / 4),
    largest: perTool.slice(0, 5),
  };
}

const report = {
  method: "JSON of tools/list's tools array through the SDK client; tokens ≈ characters / 4",
  full_scope: await listFor(SCOPES),
  read_only: await listFor(READ_ONLY_SCOPES),
};
console.log(JSON.stringify(report, null, 2));
