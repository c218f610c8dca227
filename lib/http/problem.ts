// Errors to responses: RFC 6750 for authentication, RFC 9457 problem+json for everything else, and a
// generic 500 (details only in the server log) for anything unexpected. An unreachable database
// is a 503 with Retry-After, not a 500: it recovers on its own.
import { AppError, isNulTextError, NUL_MESSAGE, type FieldError } from "@/lib/errors";
import { AuthError, IdentityProviderUnavailableError } from "@/lib/auth/identity";
import { logger } from "@/lib/logger";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "./database-unavailable";
import { rateLimitHeaders, RateLimitedError } from "./rate-limit";

export const PROBLEM_TYPE_BASE = "https://vetdx.app/problems/";

const titles: Record<string, string> = {
  validation: "Invalid request",
  forbidden: "Forbidden",
  not_found: "Not found",
  conflict: "Conflict",
  precondition_failed: "Precondition failed",
  unsupported_media_type: "Unsupported media type",
  payload_too_large: "Request body too large",
  rate_limited: "Too many requests",
  unavailable: "Service unavailable",
  internal: "Internal server error",
  method_not_allowed: "Method not allowed",
};

export function problemResponse(
  status: number,
  slug: string,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
): Response {
  const body: Record<string, unknown> = {
    type: `${PROBLEM_TYPE_BASE}${slug.replaceAll("_", "-")}`,
    title: titles[slug] ?? slug,
    status,
    detail,
  };
  if (extra.errors?.length) body.errors = extra.errors;
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...extra.headers },
  });
}

const quote = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

/** RFC 6750 section 3: the challenge and a JSON body `{error, error_description}`. */
export function bearerErrorResponse(error: AuthError, realm = "vetdx"): Response {
  const parts = [`realm=${quote(realm)}`];
  // Without any credentials the challenge carries no error code (RFC 6750 section 3.1).
  if (error.options.tokenPresent !== false || error.error !== "invalid_token") {
    parts.push(`error=${quote(error.error)}`, `error_description=${quote(error.description)}`);
  }
  if (error.options.requiredScopes?.length)
    parts.push(`scope=${quote(error.options.requiredScopes.join(" "))}`);
  return new Response(JSON.stringify({ error: error.error, error_description: error.description }), {
    status: error.status,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      "www-authenticate": `Bearer ${parts.join(", ")}`,
    },
  });
}

export function errorToResponse(error: unknown): Response {
  if (isNulTextError(error)) return problemResponse(400, "validation", NUL_MESSAGE);
  if (error instanceof AuthError) return bearerErrorResponse(error);
  if (error instanceof AppError) {
    const headers: Record<string, string> =
      error instanceof RateLimitedError ? rateLimitHeaders(error.decision) : {};
    if (error.details.retryAfterSeconds !== undefined)
      headers["retry-after"] = String(error.details.retryAfterSeconds);
    return problemResponse(error.status, error.kind, error.message, {
      errors: error.details.errors,
      headers,
    });
  }
  if (error instanceof IdentityProviderUnavailableError) {
    logger.warn({ err: error }, "identity provider unavailable");
    return problemResponse(503, "unavailable", "The identity provider cannot be reached; try again shortly", {
      headers: { "retry-after": "5" },
    });
  }
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error }, "database unreachable");
    return problemResponse(503, "unavailable", "The database cannot be reached; try again shortly", {
      headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
    });
  }
  logger.error({ err: error }, "unhandled error");
  return problemResponse(500, "internal", "Something went wrong on our side; the error has been logged");
}
