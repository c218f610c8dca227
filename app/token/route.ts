// POST /token — exchanges an authorization code or refresh token for the server's own opaque tokens.
import { getDb } from "@/db";
import { oauthErrorToResponse } from "@/lib/auth/mcp-oauth/errors";
import { readUrlEncodedForm } from "@/lib/auth/mcp-oauth/form";
import { corsHeaders, corsPreflightResponse, NO_STORE_HEADERS } from "@/lib/auth/mcp-oauth/http";
import { exchangeToken } from "@/lib/auth/mcp-oauth/token";
import { clientIp } from "@/lib/http/rate-limit";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const tokens = await exchangeToken(await getDb(), {
      authorization: request.headers.get("authorization"),
      form: await readUrlEncodedForm(request),
      clientIp: clientIp(request),
    });
    return Response.json(tokens, { headers: { ...NO_STORE_HEADERS, ...corsHeaders() } });
  } catch (error) {
    return oauthErrorToResponse(error, "json");
  }
}

export function OPTIONS(): Response {
  return corsPreflightResponse(["POST"]);
}
