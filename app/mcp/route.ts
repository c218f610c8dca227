// POST /mcp — the MCP server (Streamable HTTP, stateless, JSON-RPC 2.0) with VetDx's 20 tools.
import { createMcpHandler } from "mcp-handler";
import { getDb } from "@/db";
import { AuthError, type Identity } from "@/lib/auth/identity";
import { mcpChallengeHeader } from "@/lib/auth/mcp-oauth/verify-access-token";
import { errorToResponse } from "@/lib/http/problem";
import { authenticateMcpRequest } from "@/lib/mcp/authenticate";
import { registerTools } from "@/lib/mcp/define-tool";
import { checkMcpOrigin } from "@/lib/mcp/origin";
import { tools } from "@/lib/mcp/tools";

export const dynamic = "force-dynamic";

const handler = createMcpHandler(
  (server) =>
    registerTools(server, tools, {
      db: getDb,
      identity: (authInfo) => (authInfo as { extra?: { identity?: Identity } } | undefined)?.extra?.identity,
    }),
  {
    serverInfo: { name: "vetdx", version: "1.0.0" },
    instructions:
      "VetDx turns veterinary case notes into a structured patient, clinical signs, ranked differential diagnoses and SOAP notes. " +
      "Create a case with create_case, then wait_for_case; search the catalogue with search_symptoms and search_diagnoses.",
  },
);

function challenge(error: AuthError): Response {
  return Response.json(
    { error: error.error, error_description: error.description },
    {
      status: error.status,
      headers: {
        "www-authenticate": mcpChallengeHeader(error.error === "invalid_request" ? undefined : error),
        "cache-control": "no-store",
      },
    },
  );
}

async function mcp(request: Request): Promise<Response> {
  const refused = checkMcpOrigin(request);
  if (refused) return Response.json({ error: "forbidden", error_description: refused }, { status: 403 });
  try {
    const db = await getDb();
    const identity = await authenticateMcpRequest(request, db);
    const token = request.headers.get("authorization")?.slice(7).trim() ?? "";
    Object.assign(request, { auth: { token, clientId: identity.clientId ?? "", scopes: identity.scopes, extra: { identity } } });
    return await handler(request);
  } catch (error) {
    if (error instanceof AuthError) return challenge(error);
    return errorToResponse(error);
  }
}

export { mcp as GET, mcp as POST, mcp as DELETE };
