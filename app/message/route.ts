// POST /message?sessionId= — client messages of the legacy HTTP+SSE MCP transport.
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { getDb } from "@/db";
import { authenticateMcpRequest } from "@/lib/mcp/authenticate";
import { mcpErrorResponse, mcpRateLimit, originRefused } from "@/lib/mcp/challenge";
import { BodyTooLargeError, readBodyWithin } from "@/lib/http/read-body";
import { rateLimitHeaders, withHeaders } from "@/lib/http/rate-limit";
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
    const limit = await mcpRateLimit(identity);
    const sessionId = new URL(request.url).searchParams.get("sessionId") ?? "";
    let body: string;
    try {
      body = new TextDecoder().decode(await readBodyWithin(request, MAX_MESSAGE_BYTES));
    } catch (error) {
      if (error instanceof BodyTooLargeError) return rpcError(413, -32600, "Message too large");
      throw error;
    }
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
    const delivered = await deliverSseMessage(sessionId, identity, message);
    if (delivered === "unknown_session")
      return rpcError(404, -32001, "Unknown or closed session; open /sse again");
    if (delivered === "forbidden")
      return rpcError(403, -32001, "This session belongs to another veterinarian");
    return withHeaders(new Response("Accepted", { status: 202 }), rateLimitHeaders(limit));
  } catch (error) {
    return mcpErrorResponse(error);
  }
}
