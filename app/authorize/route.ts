// GET /authorize — starts the authorization code flow with PKCE and sends the browser to the identity provider.
import { getDb } from "@/db";
import { startAuthorization } from "@/lib/auth/mcp-oauth/authorize";
import { oauthErrorToResponse } from "@/lib/auth/mcp-oauth/errors";
import { redirectResponse } from "@/lib/auth/mcp-oauth/http";
import { clientIp } from "@/lib/http/rate-limit";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const { location } = await startAuthorization(await getDb(), new URL(request.url).searchParams, {
      clientIp: clientIp(request),
    });
    return redirectResponse(location);
  } catch (error) {
    return oauthErrorToResponse(error, "browser");
  }
}
