// Per-process caches on the bearer-token path, so a polling client costs one query per request
// instead of three: verified access tokens (until they expire) and the client/veterinarian rows a
// token subject resolves to (for a few seconds). Both are per database (tests open many).
//
// Revocation still takes effect at once, on every instance: whatever changes who a subject is
// (revoking a machine client) calls `announceIdentityChange`, which forgets this process's rows and
// sends a PostgreSQL NOTIFY that every other server process follows (`followIdentityChanges`,
// started by server.ts; the admin CLI on PostgreSQL reaches the servers this way too). The short
// lifetime of a cached row bounds the damage should a notification ever be lost.
import { sql } from "drizzle-orm";
import type { JWTPayload } from "jose";
import type { Database, DatabaseHandle } from "@/db";

export const IDENTITY_CHANNEL = "vetdx_identity_changed";
const ROW_TTL_MS = 10_000;
/** A verified token is re-verified at least this often, so a key the provider withdrew stops working. */
const TOKEN_TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/** A size-bounded map whose entries expire; the oldest entry goes first when it is full. */
class ExpiringMap<T> {
  private readonly entries = new Map<string, Entry<T>>();

  get(key: string, now = Date.now()): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: T, expiresAt: number): void {
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt });
  }

  clear(): void {
    this.entries.clear();
  }
}

interface Caches {
  tokens: ExpiringMap<JWTPayload>;
  rows: ExpiringMap<Promise<unknown>>;
}

// On globalThis: server.ts (which follows the notifications) and the Next.js bundles load this
// module separately but share one database object.
const globalKey = Symbol.for("vetdx.identity-caches");
type Holder = { [globalKey]?: WeakMap<object, Caches> };

function cachesFor(db: Database): Caches {
  const holder = globalThis as Holder;
  holder[globalKey] ??= new WeakMap();
  let caches = holder[globalKey].get(db);
  if (!caches) {
    caches = { tokens: new ExpiringMap(), rows: new ExpiringMap() };
    holder[globalKey].set(db, caches);
  }
  return caches;
}

/** The claims of a token verified earlier in this process and not expired since, if any. */
export function cachedTokenClaims(db: Database, token: string): JWTPayload | undefined {
  return cachesFor(db).tokens.get(token);
}

/** Remembers a verified token's claims until it expires (or TOKEN_TTL_MS, whichever is first). */
export function rememberTokenClaims(db: Database, token: string, claims: JWTPayload): void {
  if (typeof claims.exp !== "number") return;
  const now = Date.now();
  cachesFor(db).tokens.set(token, claims, Math.min(claims.exp * 1000, now + TOKEN_TTL_MS));
}

/** The rows `key` resolves to, loaded at most once per ROW_TTL_MS; failed loads are not kept. */
export function cachedIdentityRows<T>(db: Database, key: string, load: () => PromiseLike<T>): Promise<T> {
  const { rows } = cachesFor(db);
  const cached = rows.get(key) as Promise<T> | undefined;
  if (cached) return cached;
  // Promise.resolve runs a drizzle query builder (a thenable that re-runs on every await) once.
  const loading = Promise.resolve(load());
  rows.set(key, loading, Date.now() + ROW_TTL_MS);
  loading.catch(() => {
    if (rows.get(key) === loading) rows.set(key, loading, 0);
  });
  return loading;
}

/** Forgets every cached row of this database in this process. */
export function forgetIdentities(db: Database): void {
  cachesFor(db).rows.clear();
}

/**
 * Call after a committed change to who a subject is (e.g. a revoked client): this process forgets at
 * once, the others when the NOTIFY reaches them.
 */
export async function announceIdentityChange(db: Database, subject: string): Promise<void> {
  forgetIdentities(db);
  await db.execute(sql`select pg_notify(${IDENTITY_CHANNEL}, ${subject})`);
}

/** Follows other processes' announcements; returns a function that stops following. */
export async function followIdentityChanges(handle: DatabaseHandle): Promise<() => Promise<void>> {
  return handle.listen(
    IDENTITY_CHANNEL,
    () => forgetIdentities(handle.db),
    // (Re)connected: anything announced while the connection was down was missed, so forget all.
    () => forgetIdentities(handle.db),
  );
}
