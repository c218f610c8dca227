// An in-memory view of the catalogue (lexicon, knowledge base…), built once per database and
// rebuilt when the loaded catalogue changes (its content hash in seed_state).
import { eq } from "drizzle-orm";
import type { Database } from "../index";
import { seedState } from "../schema";

export function catalogueCache<T extends { version: string }>(
  build: (db: Database, version: string) => Promise<T>,
): (db: Database) => Promise<T> {
  const cache = new WeakMap<Database, Promise<T>>();
  return async (db) => {
    const [state] = await db
      .select({ hash: seedState.hash })
      .from(seedState)
      .where(eq(seedState.name, "catalogue"));
    const version = state?.hash ?? "unseeded";
    const cached = cache.get(db);
    if (cached && (await cached).version === version) return cached;
    const loading = build(db, version);
    cache.set(db, loading);
    loading.catch(() => cache.delete(db));
    return loading;
  };
}
