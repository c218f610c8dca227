// POST {auth_url}/oauth2/token — client-credentials tokens for machine clients (spec 4.4, 2.7).
import { getDb } from "@/db";
import { getEnv } from "@/lib/env";
import { handleTokenRequest } from "@/lib/auth/token-endpoint";
import { errorToResponse, problemResponse } from "@/lib/http/problem";
import { clientIp } from "@/lib/http/rate-limit";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  const env = getEnv();
  if (!env.embeddedIdentityProvider)
    return problemResponse(404, "not_found", "Tokens are issued by the configured identity provider");
  try {
    return await handleTokenRequest(await getDb(), request, {
      issuer: env.AUTH_URL,
      audience: env.OIDC_AUDIENCE ?? env.APP_URL,
      clientIp: clientIp(request),
    });
  } catch (error) {
    return errorToResponse(error);
  }
}
