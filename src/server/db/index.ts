import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { SESSION_CHANGED_CHANNEL, SessionCache, useSessionCache } from './session-cache.ts';
import { openPglite } from './fresh-cluster.ts';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export { schema };
export type Schema = typeof schema;
/** The Drizzle database, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** The rows of a raw SQL query, whichever driver ran it (PGlite and node-postgres both answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A JSON value as the driver hands it: parsed already (`pg` and PGlite parse `json` and `jsonb`), or text, parsed here. */
export function parsedJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export interface Database {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** The embedded engine, when it is PGlite (the server shares it over a socket). */
  readonly pglite?: PGlite;
  /** Answers when the database does; throws otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  /** Embedded PGlite: a data folder, or in memory (tests). */
  | { kind: 'pglite'; dataDir: string | null }
  /** PostgreSQL (or the server's shared PGlite) through `pg`. */
  | { kind: 'postgres'; connection: string | pg.PoolConfig; poolSize?: number };

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * What every embedded database is opened with: the extensions the migrations create (users search:
 * pg_trgm), and 32 MB of shared buffers instead of 128 MB (PostgreSQL's buffers live in the
 * process's memory here, next to the operating system's file cache that holds the same pages:
 * docs/decisions/028-embedded-memory.md).
 */
export const PGLITE_OPTIONS = { extensions: { pg_trgm }, postgresqlconf: ['shared_buffers = 32MB'] } satisfies PGliteOptions;

/** A Database over a PGlite instance (opened here, or a clone of a migrated one in tests). */
export function wrapPglite(client: PGlite): Database {
  const db = drizzlePglite({ client, schema });
  let closed = false;
  // The signed-in lookup's cache, once this instance listens for changes to users and sessions
  // (migration 0010 notifies them; db/session-cache.ts). Until then, and should listening fail, every lookup asks the database.
  const sessionCache = new SessionCache();
  void client
    .listen(SESSION_CHANGED_CHANNEL, (payload) => sessionCache.changed(payload))
    .then(() => useSessionCache(db as unknown as Db, sessionCache))
    .catch(() => {});
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    pglite: client,
    ping: async (timeoutMs = 2000) => {
      if (closed) throw new Error('database closed');
      await withTimeout(client.query('select 1'), timeoutMs, 'PGlite');
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(target: DatabaseTarget, options: { migrate?: boolean; warn?: (message: string) => void } = {}): Promise<Database> {
  const runMigrations = options.migrate ?? true;
  if (target.kind === 'pglite') {
    // A new database's cluster comes from the shipped copy, not initdb (db/fresh-cluster.ts, decision 028).
    const client = await openPglite(target.dataDir, PGLITE_OPTIONS, options.warn);
    const database = wrapPglite(client);
    if (runMigrations) await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: MIGRATIONS_DIR });
    return database;
  }

  const config: pg.PoolConfig = typeof target.connection === 'string' ? { connectionString: target.connection } : target.connection;
  const pool = new pg.Pool({ max: target.poolSize ?? 10, connectionTimeoutMillis: 5000, ...config });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema });
  if (runMigrations) {
    // Several API processes may start at once: one migrates, the others wait for it.
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock(727274)');
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await client.query('select pg_advisory_unlock(727274)').catch(() => {});
      client.release();
    }
  }
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    ping: async (timeoutMs = 2000) => {
      await withTimeout(db.execute(sql`select 1`), timeoutMs, 'PostgreSQL');
    },
    close: async () => {
      if (!pool.ended && !pool.ending) await pool.end();
    },
  };
}
