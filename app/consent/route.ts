// POST /consent — the vet's Allow (read only, or read and write) or Deny; redirects back to the client.
import { getDb } from "@/db";
import { consentCookieValue, decideConsent } from "@/lib/auth/mcp-oauth/consent";
import { AuthorizationPageError, oauthErrorToResponse } from "@/lib/auth/mcp-oauth/errors";
import { readUrlEncodedForm } from "@/lib/auth/mcp-oauth/form";
import { redirectResponse } from "@/lib/auth/mcp-oauth/http";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const form = await readUrlEncodedForm(request).catch(() => {
      throw new AuthorizationPageError("Invalid request", "The consent form could not be read.");
    });
    const requestId = form.get("request_id") ?? "";
    const location = await decideConsent(await getDb(), {
      requestId,
      csrfToken: form.get("csrf_token") ?? "",
      cookieToken: consentCookieValue(request.headers.get("cookie"), requestId),
      decision: form.get("decision") ?? "",
      access: form.get("access") ?? undefined,
    });
    return redirectResponse(location, 303);
  } catch (error) {
    return oauthErrorToResponse(error, "browser", { redirectStatus: 303 });
  }
}
