import { asc, count, desc, eq, isNull, or, sql, type AnyColumn, type InferSelectModel, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { SOURCE_LANGUAGE, type Language } from '../../shared/languages.ts';
import type { ListPage, ListQuery, SortDirection } from '../../shared/list.ts';
import { encodeInboxCursor, type ReviewInboxCursor } from '../../shared/review.ts';
import type { Db } from '../db/index.ts';
import { users } from '../db/schema/index.ts';

/** What a sort key orders by (one or more columns or expressions) and its natural direction. */
export interface SortKey {
  by: AnyColumn | SQL | readonly (AnyColumn | SQL)[];
  dir: SortDirection;
}

/**
 * The ORDER BY of a list query: the sort key's columns in the asked direction (its natural one
 * when `dir` is left out), then `tieBreak` (a unique column) the same way, so a row is never on
 * two pages.
 */
export function listOrder<S extends string>(query: Pick<ListQuery<S>, 'sort' | 'dir'>, keys: Record<S, SortKey>, tieBreak: AnyColumn): SQL[] {
  const key = keys[query.sort];
  const order = (query.dir ?? key.dir) === 'asc' ? asc : desc;
  const by = Array.isArray(key.by) ? key.by : [key.by];
  return [...by.map((column: AnyColumn | SQL) => order(column)), order(tieBreak)];
}

/**
 * Runs one page of a list and its count together and answers the list contract
 * `{ items, total, page, pageSize }`. `rows` gets the LIMIT and OFFSET of the asked page; `count`
 * counts every row the filters keep.
 */
export async function paginate<T>(
  query: Pick<ListQuery, 'page' | 'pageSize'>,
  fetch: { rows: (limit: number, offset: number) => Promise<T[]>; count: () => Promise<number> },
): Promise<ListPage<T>> {
  const [items, total] = await Promise.all([fetch.rows(query.pageSize, (query.page - 1) * query.pageSize), fetch.count()]);
  return { items, total, page: query.page, pageSize: query.pageSize };
}

/**
 * `?language=` of the staff lists of answers (decision 035): responses or entries answered in
 * `language`. A row recorded before answers had a language (null) counts as English, as
 * `answerLanguageOf` reads it. No index: a list already narrows to one survey or mission (and a
 * status) by its own index, and four languages would not narrow much further.
 */
export function answeredIn(column: AnyColumn, language: Language): SQL {
  return (language === SOURCE_LANGUAGE ? or(eq(column, language), isNull(column)) : eq(column, language)) as SQL;
}

/** The number of a `select({ value: count() })`. */
export const countOf = async (rows: Promise<{ value: number }[]>): Promise<number> => (await rows)[0]?.value ?? 0;

/**
 * `rows` for `paginate`: the asked page of a built select (its LIMIT and OFFSET added), each row
 * through `view`.
 */
export const pageOf =
  <R, T>(select: { limit(limit: number): { offset(offset: number): PromiseLike<R[]> } }, view: (row: R) => T) =>
  async (limit: number, offset: number): Promise<T[]> =>
    (await select.limit(limit).offset(offset)).map(view);

/** The user a listed row names, as the staff lists show them. */
export interface ListUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * A whole list of a table whose rows name a user (client reports, data-deletion requests): the
 * asked page of the rows `where` keeps, in `order`, each through `view` with the user its
 * `userId` names (null when none, or the account is gone), and their count.
 */
export function pageWithUser<T extends PgTable, V>(
  db: Db,
  query: Pick<ListQuery, 'page' | 'pageSize'>,
  list: { table: T; userId: AnyColumn; where: SQL | undefined; order: SQL[] },
  view: (row: InferSelectModel<T>, user: ListUser | null) => V,
): Promise<ListPage<V>> {
  const { table, userId, where, order } = list;
  return paginate(query, {
    rows: pageOf(
      db
        .select({ row: table as PgTable, user: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName } })
        .from(table as PgTable)
        .leftJoin(users, eq(users.id, userId))
        .where(where)
        .orderBy(...order),
      ({ row, user }) => view(row as InferSelectModel<T>, user?.id ? user : null),
    ),
    count: () =>
      countOf(
        db
          .select({ value: count() })
          .from(table as PgTable)
          .where(where),
      ),
  });
}

// ---------------------------------------------------------------------------------------------
// Keyset lists: oldest first on (moment, id), paged by an opaque cursor

/** Where a keyset page ends: its last row's moment (UTC, microseconds) and id (`ReviewInboxCursor`, one format for every such list). */
export type MomentCursor = ReviewInboxCursor;

/** A row's moment as a cursor holds it: UTC with microseconds, as the database keeps it (a JavaScript date would drop them). */
export const cursorMoment = (moment: AnyColumn | SQL): SQL<string> => sql<string>`to_char(${moment} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The rows after a cursor's row, oldest first on (moment, id). */
export const afterCursor = (moment: AnyColumn | SQL, id: AnyColumn, cursor: MomentCursor): SQL =>
  sql`(${moment}, ${id}) > (${cursor.at}::timestamptz, ${cursor.id})`;

/**
 * One keyset page from `limit + 1` rows read oldest first: the first `limit`, and the cursor of the
 * page after them (null when nothing follows).
 */
export function keysetPage<R extends { at: string }, T>(
  rows: readonly R[],
  limit: number,
  idOf: (row: R) => number,
  view: (row: R) => T,
): { items: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(view), nextCursor: rows.length > limit && last ? encodeInboxCursor({ at: last.at, id: idOf(last) }) : null };
}
