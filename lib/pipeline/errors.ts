// Failures of a pipeline step, with the code and message stored on the case (`error`).
export type PipelineStep = "start" | "extract" | "sanitize" | "complete";

export class PipelineError extends Error {
  override name = "PipelineError";
  constructor(
    readonly code:
      "extraction_timeout" | "extraction_failed" | "invalid_model_output" | "abandoned" | "internal_error",
    message: string,
    readonly retriable = true,
  ) {
    super(message);
  }
}

/** The case's `error` field: never a stack trace or an internal message. */
export function caseErrorFrom(error: unknown, step: PipelineStep | "dispatch") {
  if (error instanceof PipelineError) return { code: error.code, message: error.message, step };
  return { code: "internal_error", message: "Processing failed unexpectedly", step };
}
