// The HTTP side of {auth_url}/oauth2/token: client authentication (HTTP Basic as spec 4.4, or
// client_secret_post), form parsing, brute-force limiting and RFC 6749 error responses.
import type { Database } from "@/db";
import { containsNul, NUL_MESSAGE } from "@/lib/errors";
import {
  checkRateLimit,
  FAILED_AUTHENTICATIONS,
  rateLimitHeaders,
  refundRateLimit,
  type RateLimitDecision,
} from "@/lib/http/rate-limit";
import { issueClientCredentialsToken, OAuthError } from "./client-credentials";

const MAX_FORM_BYTES = 8 * 1024;

const noStore = { "cache-control": "no-store", pragma: "no-cache" };

export function oauthErrorResponse(error: OAuthError, extraHeaders: Record<string, string> = {}): Response {
  return Response.json(
    { error: error.error, error_description: error.description },
    { status: error.status, headers: { ...noStore, ...extraHeaders } },
  );
}

function decodeBasic(header: string): { clientId: string; clientSecret: string } {
  const encoded = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header)?.[1];
  if (!encoded) throw new OAuthError("invalid_client", "Malformed Basic authorization header");
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new OAuthError("invalid_client", "Malformed Basic authorization header");
  // RFC 6749 section 2.3.1: both parts are form-urlencoded before base64.
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")),
    };
  } catch {
    throw new OAuthError("invalid_client", "Malformed Basic authorization header");
  }
}

async function readForm(request: Request): Promise<URLSearchParams> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    throw new OAuthError("invalid_request", "Send the request as application/x-www-form-urlencoded");
  }
  const body = await request.arrayBuffer();
  if (body.byteLength > MAX_FORM_BYTES)
    throw new OAuthError("invalid_request", "The request body is too large");
  const form = new URLSearchParams(new TextDecoder().decode(body));
  for (const key of new Set(form.keys())) {
    if (form.getAll(key).length > 1) throw new OAuthError("invalid_request", `Parameter ${key} is repeated`);
  }
  return form;
}

function tooManyFailures(decision: RateLimitDecision): Response {
  return oauthErrorResponse(
    new OAuthError("invalid_request", "Too many failed attempts; try again later", 429),
    rateLimitHeaders(decision),
  );
}

export async function handleTokenRequest(
  db: Database,
  request: Request,
  options: { issuer: string; audience: string; clientIp: string },
): Promise<Response> {
  // The attempt counts before the secret is checked, so parallel guesses cannot all get past the
  // budget; one that does not fail client authentication gives its point back.
  const attempt = await checkRateLimit(FAILED_AUTHENTICATIONS, options.clientIp);
  if (attempt.limited) return tooManyFailures(attempt);
  let failedAuthentication = false;
  const authorization = request.headers.get("authorization");
  try {
    const form = await readForm(request);
    const credentials = authorization
      ? decodeBasic(authorization)
      : { clientId: form.get("client_id") ?? "", clientSecret: form.get("client_secret") ?? "" };
    if (containsNul([...form.entries()]) || containsNul(credentials))
      throw new OAuthError("invalid_request", NUL_MESSAGE);
    if (authorization && (form.has("client_secret") || form.has("client_assertion"))) {
      throw new OAuthError("invalid_request", "Use one client authentication method, not two");
    }
    if (!credentials.clientId || !credentials.clientSecret) {
      throw new OAuthError("invalid_client", "Client authentication is required (HTTP Basic)");
    }
    const token = await issueClientCredentialsToken(
      db,
      {
        ...credentials,
        grantType: form.get("grant_type"),
        scope: form.get("scope"),
        resource: form.get("resource"),
      },
      options,
    );
    return Response.json(token, { headers: noStore });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    if (error.error === "invalid_client") {
      failedAuthentication = true;
      return oauthErrorResponse(error, { "www-authenticate": 'Basic realm="vetdx", charset="UTF-8"' });
    }
    return oauthErrorResponse(error);
  } finally {
    if (!failedAuthentication) await refundRateLimit(FAILED_AUTHENTICATIONS, options.clientIp);
  }
}
