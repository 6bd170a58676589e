import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ListPage, ListQuery, SortDirection } from '../../shared/list.ts';

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
