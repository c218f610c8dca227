// POST /register — RFC 7591 dynamic client registration for MCP clients (spec 5.1 step 2).
import { getDb } from "@/db";
import { oauthErrorToResponse } from "@/lib/auth/mcp-oauth/errors";
import { corsHeaders, corsPreflightResponse, NO_STORE_HEADERS } from "@/lib/auth/mcp-oauth/http";
import { readRegistrationBody, registerClient } from "@/lib/auth/mcp-oauth/register-client";
import { clientIp } from "@/lib/http/rate-limit";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readRegistrationBody(request);
    const registration = await registerClient(await getDb(), body, { clientIp: clientIp(request) });
    return Response.json(registration, { status: 201, headers: { ...NO_STORE_HEADERS, ...corsHeaders() } });
  } catch (error) {
    return oauthErrorToResponse(error, "json");
  }
}

export function OPTIONS(): Response {
  return corsPreflightResponse(["POST"]);
}
