// Reading requests safely: query strings and JSON bodies parsed by zod, with size and type limits.
import type { z } from "zod";
import { AppError, containsNul, invalid, NUL_MESSAGE } from "@/lib/errors";
import { zodIssuesToFieldErrors } from "@/lib/validation";

export const MAX_JSON_BODY_BYTES = 256 * 1024;

/** Parses the query string; unknown and repeated parameters are errors, not silently ignored. */
export function parseQuery<T extends z.ZodType>(request: Request, schema: T): z.output<T> {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [key, value] of params) {
    if (containsNul(key) || containsNul(value))
      throw invalid(NUL_MESSAGE, [{ path: key.replaceAll("\u0000", ""), message: "contains NUL" }]);
    if (key in raw)
      throw invalid(`Query parameter ${key} is repeated`, [{ path: key, message: "given more than once" }]);
    raw[key] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalid("Invalid query parameters", zodIssuesToFieldErrors(parsed.error));
  return parsed.data;
}

/** Reads a JSON body of at most `maxBytes`, requiring Content-Type application/json. */
export async function parseJsonBody<T extends z.ZodType>(
  request: Request,
  schema: T,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<z.output<T>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(contentType)) {
    throw new AppError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AppError("payload_too_large", `The body exceeds ${maxBytes} bytes`);
  const text = await readLimited(request, maxBytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid("The body is not valid JSON");
  }
  // JSON can carry NUL only as the escape \u0000 (or a raw control character, which JSON.parse refuses).
  if (text.includes("\\u0000")) throw invalid(NUL_MESSAGE);
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalid("Invalid request body", zodIssuesToFieldErrors(parsed.error));
  return parsed.data;
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new AppError("payload_too_large", `The body exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

/** Parses route parameters; a malformed id is a 404 for that path, not a validation error. */
export function parseParams<T extends z.ZodType>(params: unknown, schema: T): z.output<T> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new AppError("not_found", "No resource at this path");
  return parsed.data;
}
