// Recognises "the database cannot be reached" among the errors postgres.js, PGlite and drizzle
// throw (drizzle wraps the driver's error as `cause`), so callers answer 503 + Retry-After instead
// of 500. Everything else (constraint violations, bad SQL) is a real bug and stays a 500.

/** Socket-level failures (Node) and postgres.js's own connection errors. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);

/** SQLSTATEs of a server that is going away, starting up, full, or refusing this database. */
function unavailableSqlState(code: string, message: string): boolean {
  if (code.startsWith("08")) return true; // connection exception
  if (["57P01", "57P02", "57P03", "53300", "53400"].includes(code)) return true;
  // ALTER DATABASE … ALLOW_CONNECTIONS false
  return code === "55000" && /not currently accepting connections/i.test(message);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    if (typeof current !== "object") return false;
    const { code, message } = current as { code?: unknown; message?: unknown };
    const text = typeof message === "string" ? message : "";
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || unavailableSqlState(code, text)))
      return true;
    if (/PGlite is closed/i.test(text)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client should wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
