// GET /callback — the identity provider's answer: sign-in completed, then the consent screen or the code.
import { getDb } from "@/db";
import { completeUpstreamSignIn } from "@/lib/auth/mcp-oauth/callback";
import { oauthErrorToResponse } from "@/lib/auth/mcp-oauth/errors";
import { continueToClientResponse, htmlPageResponse } from "@/lib/auth/mcp-oauth/pages";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const outcome = await completeUpstreamSignIn(await getDb(), new URL(request.url).searchParams);
    if (outcome.kind === "redirect") return continueToClientResponse(outcome.location);
    return htmlPageResponse(outcome.html, 200, { ...outcome.headers, "set-cookie": outcome.cookie });
  } catch (error) {
    return oauthErrorToResponse(error, "browser");
  }
}
