// Raw `db.execute` results differ by driver (PGlite: {rows}; postgres.js: an array): one accessor.
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
