// The database: PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set. One instance per
// process, kept on globalThis because server.ts and the Next.js bundles load this module separately.
// (No "server-only" import: server.ts and the admin CLI load this module outside the react-server graph.)
import { setImmediate as nextTurn } from "node:timers/promises";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { getEnv } from "@/lib/env";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Runs a trivial query; throws when the database is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * LISTEN on a channel: `onNotify` for each NOTIFY, `onListen` whenever the listening connection is
   * (re)established. Resolves to a function that stops listening.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onListen?: () => void,
  ): Promise<() => Promise<void>>;
  /** PGlite only: the data directory as a tarball (tests copy a seeded template this way). */
  dumpDataDir?: () => Promise<Blob>;
}

const globalKey = Symbol.for("vetdx.database");
type Holder = { [globalKey]?: Promise<DatabaseHandle> };

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; "memory://" for an in-memory database (tests). */
  pgliteDataDir?: string;
  /** PGlite only: start from this data-directory tarball. */
  pgliteLoadDataDir?: Blob;
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(options.databaseUrl, {
      max: options.poolSize ?? 5,
      onnotice: () => {},
      connect_timeout: 10,
    });
    const db = drizzle(client, { schema }) as unknown as Database;
    return {
      db,
      kind: "postgres",
      ping: async () => {
        await client`select 1`;
      },
      close: () => client.end({ timeout: 5 }),
      listen: async (channel, onNotify, onListen) => {
        const { unlisten } = await client.listen(channel, onNotify, onListen);
        return unlisten;
      },
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const client = await PGlite.create(options.pgliteDataDir ?? "memory://", {
    extensions: { pg_trgm },
    loadDataDir: options.pgliteLoadDataDir,
  });
  yieldBeforeEachQuery(client);
  const db = drizzle(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
    listen: async (channel, onNotify, onListen) => {
      const unlisten = await client.listen(channel, onNotify);
      onListen?.();
      return unlisten;
    },
    dumpDataDir: async () => (await client.dumpDataDir("none")) as Blob,
  };
}

/**
 * PGlite runs every query synchronously, in WebAssembly on this thread, and its promise settles in a
 * microtask: a request whose queries all go to PGlite runs from start to finish without the event
 * loop polling once. Under load that serves the connections already open in long uninterrupted
 * turns, while new connections wait seconds in the accept queue and sockets are read late. Waiting
 * for the next turn of the loop before each query lets I/O interleave with queries, as it does with
 * a database across a network (docs/performance.md: under 64 connections 2.2-2.5× the requests/s,
 * and a p99 under 0.5 s instead of seconds). Queries inside a transaction go through the
 * transaction's own client.
 */
function yieldBeforeEachQuery(client: PGlite): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  client.query = (async (...args: Parameters<typeof query>) => {
    await nextTurn();
    return query(...args);
  }) as typeof client.query;
  client.exec = (async (...args: Parameters<typeof exec>) => {
    await nextTurn();
    return exec(...args);
  }) as typeof client.exec;
}

/**
 * The process-wide database. The first caller opens it; with PGlite only the process that holds
 * DATA_DIR's lock (the server, or the admin CLI when no server runs) may call this.
 */
export function getDatabaseHandle(): Promise<DatabaseHandle> {
  const holder = globalThis as Holder;
  if (!holder[globalKey]) {
    const env = getEnv();
    holder[globalKey] = openDatabase({
      databaseUrl: env.DATABASE_URL,
      pgliteDataDir: `${env.DATA_DIR}/pglite`,
      poolSize: env.DATABASE_POOL_SIZE,
    });
  }
  return holder[globalKey];
}

/** Installs an already-open database as the process-wide one (tests, the admin CLI). */
export function setDatabaseHandle(handle: DatabaseHandle): void {
  (globalThis as Holder)[globalKey] = Promise.resolve(handle);
}

export async function getDb(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}

export { schema };
