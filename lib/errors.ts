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
export const invalid = (message: string, errors?: FieldError[]) =>
  new AppError("validation", message, { errors });
