// Shared zod helpers: issue lists as field errors, and the web origin type.
import { z } from "zod";
import type { FieldError } from "@/lib/errors";

export function zodIssuesToFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const prefix = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: prefix ? `${prefix}.${key}` : key,
        message: "is not a known field",
      }));
    }
    return [{ path: prefix || "(root)", message: issue.message }];
  });
}

/** An http(s) origin such as https://partner.example or http://localhost:3000, normalised. */
export const originSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === "https:" || url.protocol === "http:") &&
        url.origin === value.replace(/\/$/, "") &&
        !url.username &&
        !url.password
      );
    } catch {
      return false;
    }
  }, "must be an origin: scheme, host and optional port, e.g. https://clinic.example")
  .transform((value) => new URL(value).origin);
