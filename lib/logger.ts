// Structured JSON logs (pino). Every line written while a request is handled carries its
// request_id (AsyncLocalStorage, set by server.ts). Credentials never reach a log line: secret
// fields are redacted wherever they appear in a logged object or its headers, one level deep.
import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { getEnv } from "@/lib/env";

export interface RequestContext {
  requestId: string;
}

const SECRET_FIELDS = [
  "password",
  "client_secret",
  "clientSecret",
  "secret",
  "access_token",
  "refresh_token",
  "id_token",
  "token",
  "code_verifier",
  "client_assertion",
  "authorization",
  "cookie",
  "set-cookie",
  "csrfToken",
  "apiKey",
];
const SECRET_HEADERS = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"];

/** `parent` + `field` as a redaction path (bracket notation for names with a hyphen). */
const at = (parent: string, field: string) =>
  /^[A-Za-z_$][\w$]*$/.test(field) ? (parent ? `${parent}.${field}` : field) : `${parent}["${field}"]`;

/** Every secret field at the top level, one and two levels down, and in any `headers` object. */
export const REDACTED_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [at("", field), at("*", field), at("*.*", field)]),
  ...SECRET_HEADERS.flatMap((field) => [at("headers", field), at("*.headers", field)]),
];

const contextKey = Symbol.for("vetdx.request-context");
type ContextHolder = { [contextKey]?: AsyncLocalStorage<RequestContext> };

/** One store per process, shared by server.ts and the Next.js bundles (which load this module separately). */
export const requestContext: AsyncLocalStorage<RequestContext> = ((globalThis as ContextHolder)[
  contextKey
] ??= new AsyncLocalStorage<RequestContext>());

/** Options shared by the process logger and tests that capture its output. */
export function loggerOptions(level: pino.LevelWithSilentOrString): pino.LoggerOptions {
  return {
    level,
    base: { service: "vetdx" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    mixin: () => {
      const context = requestContext.getStore();
      return context ? { request_id: context.requestId } : {};
    },
  };
}

const globalKey = Symbol.for("vetdx.logger");
type Holder = { [globalKey]?: pino.Logger };

export const logger: pino.Logger = ((globalThis as Holder)[globalKey] ??= pino(
  loggerOptions(getEnv().LOG_LEVEL),
));

const accessKey = Symbol.for("vetdx.access-logger");
type AccessHolder = { [accessKey]?: pino.Logger };

/**
 * The one-line-per-request access log (server.ts). Its fields are fixed and hold nothing secret
 * (method, the path without its query, status, duration, request id), so it skips the redaction
 * pass, which costs more than the rest of the line on a busy server.
 */
export const accessLogger: pino.Logger = ((globalThis as AccessHolder)[accessKey] ??= pino({
  level: getEnv().LOG_LEVEL,
  base: { service: "vetdx" },
}));
