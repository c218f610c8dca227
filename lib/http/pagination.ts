// Opaque cursors for list endpoints: `{data, next_cursor}`. A cursor is base64url JSON, so clients
// treat it as opaque; whatever comes back is checked against the shape the list issued before any
// of it reaches a query, so a forged cursor is a 400, never a failed query.
import { z } from "zod";
import { invalid } from "@/lib/errors";

const MAX_OFFSET = 100_000;

export function encodeCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** The cursor's value when it has the shape `schema` describes; a validation error otherwise. */
export function decodeCursor<Schema extends z.ZodType>(
  cursor: string | undefined,
  schema: Schema,
): z.infer<Schema> | undefined {
  if (cursor === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw invalid("The cursor is not one this API issued", [{ path: "cursor", message: "invalid cursor" }]);
}

export function offsetPage<T>(rows: T[], offset: number, limit: number) {
  const hasMore = rows.length > limit;
  return {
    data: rows.slice(0, limit),
    next_cursor: hasMore ? encodeCursor({ offset: offset + limit }) : null,
  };
}

const offsetCursor = z.strictObject({ offset: z.number().int().min(0).max(MAX_OFFSET) });

export function offsetOf(cursor: string | undefined): number {
  return decodeCursor(cursor, offsetCursor)?.offset ?? 0;
}
