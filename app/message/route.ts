// POST /message?sessionId= — client messages of the legacy HTTP+SSE MCP transport.
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { getDb } from "@/db";
import { authenticateMcpRequest } from "@/lib/mcp/authenticate";
import { mcpErrorResponse, originRefused } from "@/lib/mcp/challenge";
import { checkMcpOrigin } from "@/lib/mcp/origin";
import { deliverSseMessage } from "@/lib/mcp/sse-transport";

export const dynamic = "force-dynamic";

const MAX_MESSAGE_BYTES = 1024 * 1024;

const rpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });

export async function POST(request: Request): Promise<Response> {
  const refused = checkMcpOrigin(request);
  if (refused) return originRefused(refused);
  try {
    const identity = await authenticateMcpRequest(request, await getDb());
    const sessionId = new URL(request.url).searchParams.get("sessionId") ?? "";
    const body = await request.text();
    if (body.length > MAX_MESSAGE_BYTES) return rpcError(413, -32600, "Message too large");
    let message: JSONRPCMessage;
    try {
      message = JSON.parse(body) as JSONRPCMessage;
    } catch {
      return rpcError(400, -32700, "Parse error");
    }
    if (
      typeof message !== "object" ||
      message === null ||
      (message as { jsonrpc?: unknown }).jsonrpc !== "2.0"
    ) {
      return rpcError(400, -32600, "Invalid Request");
    }
    const delivered = deliverSseMessage(sessionId, identity, message);
    if (delivered === "unknown_session")
      return rpcError(404, -32001, "Unknown or closed session; open /sse again");
    if (delivered === "forbidden")
      return rpcError(403, -32001, "This session belongs to another veterinarian");
    return new Response("Accepted", { status: 202 });
  } catch (error) {
    return mcpErrorResponse(error);
  }
}
