// Structured JSON logs (pino). Every line written while a request is handled carries its
// request_id (AsyncLocalStorage, set by server.ts). Credentials never reach a log line: secret
// fields are redacted wherever they appear in a logged object or its headers, one level deep. Nor
// do the values of a failed query: a logged database error is a summary (serializeError).
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

type ErrorLike = Error & Record<string, unknown>;

const isErrorLike = (value: unknown): value is ErrorLike =>
  typeof value === "object" && value !== null && typeof (value as Error).message === "string";

function causeChain(error: ErrorLike): ErrorLike[] {
  const chain = [error];
  for (let cause = error.cause; isErrorLike(cause) && chain.length < 6 && !chain.includes(cause);) {
    chain.push(cause);
    cause = cause.cause;
  }
  return chain;
}

/**
 * A failed query's error: drizzle's DrizzleQueryError (message "Failed query: <sql> params: <values>")
 * and the drivers' errors (PGlite's carry `query` and `params`, postgres.js's `query` and
 * `parameters`; both have a `severity`, and their message and `detail` can quote a value).
 */
const isQueryError = (error: ErrorLike) =>
  "query" in error || "params" in error || "parameters" in error || "severity" in error;

// Names, not values: what a summary keeps of a database error, and where each driver puts it.
const SUMMARY_FIELDS = {
  code: ["code"],
  severity: ["severity"],
  constraint: ["constraint", "constraint_name"],
  table: ["table", "table_name"],
  column: ["column", "column_name"],
  schema: ["schema", "schema_name"],
  routine: ["routine"],
} as const;

/**
 * Errors as log fields: pino's standard serializer, except for an error with a failed query in its
 * cause chain, whose message, stack header and fields would carry the SQL and the values bound to
 * it (notes, emails). Such an error is logged as its class, the messages of the errors in its chain
 * that are not query errors (e.g. a refused connection), the SQLSTATE, the constraint, table and
 * column names, and its stack frames.
 */
export function serializeError(value: unknown): unknown {
  if (!isErrorLike(value)) return value;
  const chain = causeChain(value);
  if (!chain.some(isQueryError)) return pino.stdSerializers.err(value);
  const summary: Record<string, unknown> = {
    type: value.constructor?.name ?? value.name,
    message:
      chain
        .filter((error) => !isQueryError(error))
        .map((error) => error.message)
        .join("; caused by: ") || "database query failed",
  };
  for (const [field, names] of Object.entries(SUMMARY_FIELDS)) {
    for (const error of chain) {
      const found = names.map((name) => error[name]).find((item) => typeof item === "string");
      if (typeof found === "string" && found.length <= 128) {
        summary[field] = found;
        break;
      }
    }
  }
  // V8 starts a stack with `${name}: ${message}`; keep what follows, the frames.
  const header = `${value.name}: ${value.message}`;
  if (typeof value.stack === "string" && value.stack.startsWith(header))
    summary.stack = `${value.name}${value.stack.slice(header.length)}`;
  return summary;
}

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
    serializers: { err: serializeError },
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
