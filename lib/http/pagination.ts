// Opaque cursors for list endpoints: `{data, next_cursor}`. Catalogue lists page by offset; the
// cursor is base64url JSON so clients treat it as opaque.
import { invalid } from "@/lib/errors";

export function encodeCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export function decodeCursor<T extends Record<string, string | number>>(
  cursor: string | undefined,
  keys: (keyof T)[],
): T | undefined {
  if (cursor === undefined) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as T;
    if (typeof value === "object" && value !== null && keys.every((key) => key in value)) return value;
  } catch {
    // fall through
  }
  throw invalid("The cursor is not one this API issued", [{ path: "cursor", message: "invalid cursor" }]);
}

export function offsetPage<T>(rows: T[], offset: number, limit: number) {
  const hasMore = rows.length > limit;
  return {
    data: rows.slice(0, limit),
    next_cursor: hasMore ? encodeCursor({ offset: offset + limit }) : null,
  };
}

export function offsetOf(cursor: string | undefined): number {
  const decoded = decodeCursor<{ offset: number }>(cursor, ["offset"]);
  const offset = decoded?.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > 100_000)
    throw invalid("The cursor is out of range");
  return offset;
}
