// GET /sse — the legacy HTTP+SSE MCP transport (2024-11-05) for older clients.
import { getDb } from "@/db";
import { caseRunner } from "@/inngest/runner";
import { authenticateMcpRequest } from "@/lib/mcp/authenticate";
import { mcpErrorResponse, mcpRateLimit, originRefused } from "@/lib/mcp/challenge";
import { clientIp, rateLimitHeaders } from "@/lib/http/rate-limit";
import { checkMcpOrigin } from "@/lib/mcp/origin";
import { claimSseSlots, holdingSlots } from "@/lib/mcp/sse-slots";
import { openSseSession } from "@/lib/mcp/sse-transport";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const refused = checkMcpOrigin(request);
  if (refused) return originRefused(refused);
  try {
    const identity = await authenticateMcpRequest(request, await getDb());
    const limit = await mcpRateLimit(identity);
    const token = request.headers.get("authorization")?.slice(7).trim() ?? "";
    const slots = await claimSseSlots(identity.veterinarianId, clientIp(request));
    return new Response(holdingSlots(openSseSession(identity, token, caseRunner()), slots), {
      headers: {
        ...rateLimitHeaders(limit),
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      },
    });
  } catch (error) {
    return mcpErrorResponse(error);
  }
}
