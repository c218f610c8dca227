// POST /mcp — the MCP server (Streamable HTTP, stateless, JSON-RPC 2.0) with VetDx's 20 tools.
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { getDb } from "@/db";
import { caseRunner } from "@/inngest/runner";
import type { Identity } from "@/lib/auth/identity";
import { authenticateMcpRequest } from "@/lib/mcp/authenticate";
import { mcpErrorResponse, mcpRateLimit, originRefused, tooLarge } from "@/lib/mcp/challenge";
import { BodyTooLargeError, readBodyWithin, withBufferedBody } from "@/lib/http/read-body";
import { rateLimitHeaders, withHeaders } from "@/lib/http/rate-limit";
import { registerDiagnosticsView } from "@/lib/mcp/app-view/diagnostics-view";
import { registerTools } from "@/lib/mcp/define-tool";
import { CACHE_HINTS } from "@/lib/mcp/resources";
import { identityOf, registerResourcesAndPrompts } from "@/lib/mcp/resources-and-prompts";
import { CaseEventBus, refuseForeignSubscriptions } from "@/lib/mcp/subscriptions";
import { checkMcpOrigin } from "@/lib/mcp/origin";
import { refuseInvalidParams } from "@/lib/mcp/request-params";
import { MCP_INSTRUCTIONS, MCP_SERVER_INFO } from "@/lib/mcp/server-info";
import { tools } from "@/lib/mcp/tools";

export const dynamic = "force-dynamic";

const MAX_MESSAGE_BYTES = 1024 * 1024;

// A fresh server per request (2026-07-28 is stateless; 2025-era clients get the SDK's stateless
// fallback), built for the caller the route authenticated.
const handler = createMcpHandler(
  ({ authInfo }) => {
    const server = new McpServer(MCP_SERVER_INFO, {
      instructions: MCP_INSTRUCTIONS,
      cacheHints: CACHE_HINTS,
    });
    registerTools(server, tools, {
      db: getDb,
      identity: (authInfo) => (authInfo as { extra?: { identity?: Identity } } | undefined)?.extra?.identity,
      caseRunner: caseRunner(),
    });
    registerDiagnosticsView(server);
    registerResourcesAndPrompts(server, { db: getDb, identity: identityOf(authInfo) }, "stateless");
    return server;
  },
  // subscriptions/listen streams hear case updates from every instance (lib/mcp/subscriptions.ts).
  { legacy: "stateless", bus: new CaseEventBus() },
);

async function mcp(request: Request): Promise<Response> {
  const refused = checkMcpOrigin(request);
  if (refused) return originRefused(refused);
  try {
    const identity = await authenticateMcpRequest(request, await getDb());
    const limit = await mcpRateLimit(identity);
    const body = await readBodyWithin(request, MAX_MESSAGE_BYTES);
    const invalid = refuseInvalidParams(parseJson(request, body));
    if (invalid) return withHeaders(invalid, rateLimitHeaders(limit));
    const foreign = await refuseForeignSubscriptions(body, { db: getDb, identity });
    if (foreign) return withHeaders(foreign, rateLimitHeaders(limit));
    const buffered = withBufferedBody(request, body);
    const token = request.headers.get("authorization")?.slice(7).trim() ?? "";
    const authInfo = {
      token,
      clientId: identity.clientId ?? "",
      scopes: identity.scopes,
      extra: { identity },
    };
    return withHeaders(await handler.fetch(buffered, { authInfo }), rateLimitHeaders(limit));
  } catch (error) {
    if (error instanceof BodyTooLargeError) return tooLarge(error);
    return mcpErrorResponse(error);
  }
}

/** The body as JSON when it is declared and parses as such; undefined otherwise (the SDK answers). */
function parseJson(request: Request, body: Uint8Array): unknown {
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
}

export { mcp as GET, mcp as POST, mcp as DELETE };
