import type { Db } from './index.ts';

/**
 * Statements a hot call runs, prepared once per database: Drizzle builds their SQL once, and on
 * PostgreSQL each pooled connection parses and plans them once (docs/decisions/026-prepared-statements.md).
 * `prepare` makes them for a database (Drizzle's `.prepare(name)` with `sql.placeholder`s); the
 * function returned gives a database's set, made on first use.
 */
export function preparedFor<T>(prepare: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let prepared = byDb.get(db);
    if (prepared === undefined) {
      prepared = prepare(db);
      byDb.set(db, prepared);
    }
    return prepared;
  };
}
