// Security headers for every response server.ts sends, applied as defaults when the response head
// is written: a route that sets its own policy keeps it (the component page's per-session
// frame-ancestors and no-referrer, the identity provider's and the consent page's CSP). Next.js
// only adds a route's header when none is set yet, so these must not be set before it runs.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";

export interface SecurityHeaderOptions {
  appUrl: string;
  /** The identity provider's base URL: the dashboard's sign-in continues there. */
  authUrl: string;
  /** Next.js development mode needs eval and a websocket for hot reloading. */
  dev?: boolean;
}

/**
 * For HTML pages: compatible with Next.js (its inline bootstrap scripts and style attributes).
 * `frameAncestors` is who may frame the page: nobody, except the component page of a live session.
 * With a `scriptNonce` (a page rendered per request, whose request carries the same policy: Next.js
 * puts the nonce on its scripts) only scripts with that nonce run, and those they load
 * ('strict-dynamic'); without one, inline scripts are allowed.
 */
export function htmlContentSecurityPolicy(
  options: SecurityHeaderOptions,
  frameAncestors = "'none'",
  scriptNonce?: string,
): string {
  const authOrigin = new URL(options.authUrl).origin;
  const appOrigin = new URL(options.appUrl).origin;
  const formAction = ["'self'", ...(authOrigin === appOrigin ? [] : [authOrigin])].join(" ");
  return [
    "default-src 'self'",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    `script-src 'self' ${scriptNonce ? `'nonce-${scriptNonce}' 'strict-dynamic'` : "'unsafe-inline'"}${options.dev ? " 'unsafe-eval'" : ""}`,
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${formAction}`,
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");
}

/** For everything else (JSON, event streams, files): nothing may run or frame it. */
export const NON_HTML_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

export interface SecurityHeaderDefaults {
  html: string;
  hsts?: string;
  options: SecurityHeaderOptions;
}

export function securityHeaderDefaults(options: SecurityHeaderOptions): SecurityHeaderDefaults {
  return {
    options,
    html: htmlContentSecurityPolicy(options),
    // Only over https: a browser would otherwise pin a plain-http development host.
    hsts: options.appUrl.startsWith("https://") ? "max-age=31536000" : undefined,
  };
}

/**
 * The defaults for one request. A browser asking for a page (Accept: text/html) gets a page policy
 * with a fresh script nonce, put on the request too, where Next.js takes the nonce for the scripts
 * it renders. The identity provider's pages set their own policy.
 */
export function withScriptNonce(
  req: IncomingMessage,
  defaults: SecurityHeaderDefaults,
): SecurityHeaderDefaults {
  if (!req.headers.accept?.includes("text/html") || /^\/idp(\/|\?|$)/.test(req.url ?? "")) return defaults;
  const html = htmlContentSecurityPolicy(defaults.options, "'none'", randomBytes(16).toString("base64"));
  req.headers["content-security-policy"] = html;
  return { ...defaults, html };
}

function headerNamesOf(headers: unknown): Map<string, unknown> {
  const names = new Map<string, unknown>();
  if (Array.isArray(headers)) {
    // Either [name, value, name, value] or [[name, value], ...].
    if (headers.every((item) => Array.isArray(item))) {
      for (const [name, value] of headers as [string, unknown][])
        names.set(String(name).toLowerCase(), value);
    } else {
      for (let i = 0; i + 1 < headers.length; i += 2)
        names.set(String(headers[i]).toLowerCase(), headers[i + 1]);
    }
  } else if (headers && typeof headers === "object") {
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders))
      names.set(name.toLowerCase(), value);
  }
  return names;
}

/** The defaults to add, given the headers the response already has. */
export function missingSecurityHeaders(
  present: Map<string, unknown>,
  defaults: SecurityHeaderDefaults,
): Record<string, string> {
  const added: Record<string, string> = {};
  if (!present.has("x-content-type-options")) added["x-content-type-options"] = "nosniff";
  if (!present.has("referrer-policy")) added["referrer-policy"] = "strict-origin-when-cross-origin";
  let csp = present.get("content-security-policy");
  if (csp === undefined) {
    const html = /^text\/html\b/i.test(String(present.get("content-type") ?? ""));
    csp = added["content-security-policy"] = html ? defaults.html : NON_HTML_CONTENT_SECURITY_POLICY;
  }
  // X-Frame-Options cannot list origins: only add it where no origin may frame the response.
  if (!present.has("x-frame-options") && /frame-ancestors 'none'/.test(String(csp)))
    added["x-frame-options"] = "DENY";
  if (defaults.hsts && !present.has("strict-transport-security"))
    added["strict-transport-security"] = defaults.hsts;
  return added;
}

/** Adds the missing security headers when `res` writes its head (explicitly or implicitly). */
export function applySecurityHeaders(res: ServerResponse, defaults: SecurityHeaderDefaults): void {
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadWithSecurityHeaders(this: ServerResponse, ...args: unknown[]) {
    const headersArgument = typeof args[1] === "string" ? args[2] : args[1];
    const present = headerNamesOf(headersArgument);
    for (const name of this.getHeaderNames()) if (!present.has(name)) present.set(name, this.getHeader(name));
    for (const [name, value] of Object.entries(missingSecurityHeaders(present, defaults))) {
      if (!this.headersSent) this.setHeader(name, value);
    }
    return (writeHead as (...rest: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}
