// An in-memory view of the catalogue (lexicon, knowledge base…), built once per database and
// rebuilt when the loaded catalogue changes (its content hash in seed_state). The cache lives on
// globalThis under its name, because server.ts and the Next.js bundles load this module
// separately: the server warms it at start-up and route handlers find it built.
import { eq } from "drizzle-orm";
import type { Database } from "../index";
import { seedState } from "../schema";

export function catalogueCache<T extends { version: string }>(
  name: string,
  build: (db: Database, version: string) => Promise<T>,
): (db: Database) => Promise<T> {
  const cache = sharedWeakMap<Database, Promise<T>>(`catalogue-cache:${name}`);
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

/** A WeakMap shared by every copy of the modules in this process, found by name. */
export function sharedWeakMap<K extends object, V>(name: string): WeakMap<K, V> {
  const key = Symbol.for(`vetdx.${name}`);
  const holder = globalThis as unknown as Record<symbol, WeakMap<K, V> | undefined>;
  return (holder[key] ??= new WeakMap<K, V>());
}
