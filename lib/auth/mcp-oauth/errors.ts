// The MCP authorization server's errors and the one mapper that turns any of them into a response:
// JSON RFC 6749/7591 bodies for /token and /register, a local HTML page for browser-facing problems
// that must not be redirected, and a redirect to the client for authorization errors (RFC 6749
// 4.1.2.1 with RFC 9207 `iss`). Anything unexpected is logged and answered generically.
import { isNulTextError, NUL_MESSAGE } from "@/lib/errors";
import { rateLimitHeaders, type RateLimitDecision } from "@/lib/http/rate-limit";
import { logger } from "@/lib/logger";
import { authorizationResponseUrl, corsHeaders, NO_STORE_HEADERS } from "./http";
import { htmlPageResponse, renderMessagePage } from "./pages";

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "server_error"
  | "temporarily_unavailable"
  | "invalid_redirect_uri"
  | "invalid_client_metadata";

/** An error answered as JSON `{error, error_description}` (token and registration endpoints). */
export class OAuthServerError extends Error {
  override name = "OAuthServerError";
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** `rateLimit`: the spent budget behind a 429, answered with Retry-After and the RateLimit headers. */
    readonly options: { status?: number; rateLimit?: RateLimitDecision; basicChallenge?: boolean } = {},
  ) {
    super(description);
  }

  get status(): number {
    return this.options.status ?? (this.error === "invalid_client" ? 401 : 400);
  }
}

/** A problem with the client or its redirect URI (or our own state): shown locally, never redirected. */
export class AuthorizationPageError extends Error {
  override name = "AuthorizationPageError";
  constructor(
    readonly title: string,
    readonly description: string,
    readonly status = 400,
    readonly rateLimit?: RateLimitDecision,
  ) {
    super(description);
  }
}

/** An authorization error reported to a client whose redirect URI has been verified. */
export class AuthorizationRedirectError extends Error {
  override name = "AuthorizationRedirectError";
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly target: { redirectUri: string; state: string | null | undefined },
  ) {
    super(description);
  }
}

/** The redirect a client receives for an authorization error. */
export function authorizationErrorLocation(error: AuthorizationRedirectError): string {
  return authorizationResponseUrl(error.target.redirectUri, {
    error: error.error,
    error_description: error.description,
    state: error.target.state ?? undefined,
  });
}

/** Maps any error of the authorization server to a response; `surface` decides how the unexpected look. */
export function oauthErrorToResponse(
  error: unknown,
  surface: "json" | "browser",
  options: { redirectStatus?: 302 | 303 } = {},
): Response {
  if (error instanceof OAuthServerError) {
    const headers: Record<string, string> = { ...NO_STORE_HEADERS, ...corsHeaders() };
    if (error.options.basicChallenge) headers["www-authenticate"] = 'Basic realm="vetdx", charset="UTF-8"';
    if (error.options.rateLimit) Object.assign(headers, rateLimitHeaders(error.options.rateLimit));
    return Response.json(
      { error: error.error, error_description: error.description },
      {
        status: error.status,
        headers,
      },
    );
  }
  if (error instanceof AuthorizationRedirectError) {
    return new Response(null, {
      status: options.redirectStatus ?? 302,
      headers: { location: authorizationErrorLocation(error), ...NO_STORE_HEADERS },
    });
  }
  if (error instanceof AuthorizationPageError) {
    return htmlPageResponse(
      renderMessagePage(error.title, error.description),
      error.status,
      error.rateLimit ? rateLimitHeaders(error.rateLimit) : {},
    );
  }
  if (isNulTextError(error)) {
    return surface === "json"
      ? Response.json(
          { error: "invalid_request", error_description: NUL_MESSAGE },
          { status: 400, headers: { ...NO_STORE_HEADERS, ...corsHeaders() } },
        )
      : htmlPageResponse(renderMessagePage("Invalid request", NUL_MESSAGE), 400);
  }
  logger.error({ err: error }, "MCP authorization server error");
  if (surface === "json") {
    return Response.json(
      { error: "server_error", error_description: "Something went wrong on our side; try again" },
      { status: 500, headers: { ...NO_STORE_HEADERS, ...corsHeaders() } },
    );
  }
  return htmlPageResponse(
    renderMessagePage(
      "Something went wrong",
      "Something went wrong on our side. Go back to your app and try again.",
    ),
    500,
  );
}
