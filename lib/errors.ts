// The one error type domain code throws. lib/http/problem.ts turns it into a response; anything
// else becomes a generic 500 with the details only in the server log.

export type ErrorKind =
  | "validation"
  | "not_found"
  | "conflict"
  | "precondition_failed"
  | "unsupported_media_type"
  | "payload_too_large"
  | "rate_limited"
  | "unavailable";

const statusOf: Record<ErrorKind, number> = {
  validation: 400,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  unsupported_media_type: 415,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
};

export interface FieldError {
  /** Dotted path of the offending field or query parameter. */
  path: string;
  message: string;
}

export class AppError extends Error {
  override name = "AppError";
  readonly status: number;
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: { errors?: FieldError[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.status = statusOf[kind];
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} was not found`);

export const NUL_MESSAGE = "Text must not contain NUL (U+0000) characters";

/** Whether a value (string, array or object, however deep) contains a NUL character. */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === "string") {
      if (current.includes("\u0000")) return true;
    } else if (Array.isArray(current)) {
      pending.push(...current);
    } else if (current && typeof current === "object") {
      for (const [key, nested] of Object.entries(current)) {
        if (key.includes("\u0000")) return true;
        pending.push(nested);
      }
    }
  }
  return false;
}

/**
 * PostgreSQL refuses NUL in text and jsonb (codes 22021, 22P05). Inputs are checked before they get
 * there; this recognises any that slip through so they answer 400, not 500.
 */
export function isNulTextError(error: unknown): boolean {
  // drizzle wraps the driver's error: look down the cause chain.
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (code === "22021" || code === "22P05") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
export const invalid = (message: string, errors?: FieldError[]) =>
  new AppError("validation", message, { errors });
