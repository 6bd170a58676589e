import { PGlite } from '@electric-sql/pglite';
import type { Db } from './index.ts';
import { namedStatementClient } from './pglite-statements.ts';

/**
 * Statements a hot call runs, prepared once per database (docs/decisions/026-prepared-statements.md):
 * Drizzle builds their SQL once, and the database parses and plans each once and keeps the plan —
 * on PostgreSQL once per pooled connection (Drizzle names them), on the embedded database once
 * (`namedStatementClient`). `prepare` makes them for a database with Drizzle's `.prepare(name)` and
 * `sql.placeholder`s; the function returned gives a database's set, made on first use.
 *
 * Only statements whose plan suits every value belong here (a row by its key, a participant's own
 * rows): PostgreSQL may keep one generic plan for a named statement, which is wrong for a filter
 * whose best plan depends on the value (a count over a mission of 20 entries or of 200,000).
 */
export function preparedFor<T extends object>(prepare: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let prepared = byDb.get(db);
    if (prepared === undefined) {
      prepared = prepare(db);
      useNamedStatements(db, prepared);
      byDb.set(db, prepared);
    }
    return prepared;
  };
}

/** A Drizzle statement prepared on PGlite: the text and the client it runs through. */
interface PglitePrepared {
  queryString: string;
  client: unknown;
}

/** On the embedded database (not inside a transaction), each prepared statement runs as a named one: one statement, or an object of them. */
function useNamedStatements(db: Db, prepared: object): void {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof PGlite)) return;
  for (const statement of [prepared, ...Object.values(prepared)] as unknown[]) {
    const candidate = statement as Partial<PglitePrepared> | null;
    if (candidate && typeof candidate.queryString === 'string' && candidate.client === client) {
      candidate.client = namedStatementClient(client, candidate.queryString);
    }
  }
}
