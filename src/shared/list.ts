/**
 * The one list contract (`docs/api.md`, "Lists"): every paginated list call takes
 * `?q=&page=&pageSize=&sort=&dir=` and answers `{ items, total, page, pageSize }`. The server
 * builds each list's query schema with `listQuerySchema` and answers with `paginate()`
 * (`src/server/services/list.ts`); the screens read `ListPage`.
 */
import { MESSAGES } from './messages.ts';
import { z } from './zod.ts';

/** Rows per page: 10 unless asked, at most 100. */
export const PAGE_SIZE = { default: 10, max: 100 } as const;
/** A search is at most this long. */
export const LIST_SEARCH_MAX = 200;

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * A list's query: `q` (a search, trimmed; what it looks in is the list's own), `page` from 1,
 * `pageSize` 1–100 (10), `sort` one of the list's keys (the first one by default), `dir` `asc` or
 * `desc` (left out: the sort key's natural direction). Extend it for a list's own filters.
 */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(sorts: S) {
  return z.object({
    q: z.string().trim().max(LIST_SEARCH_MAX, MESSAGES.tooLong).optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE.max).default(PAGE_SIZE.default),
    sort: z.enum(sorts, { error: MESSAGES.invalidEnumValue }).default(sorts[0] as S[0]),
    dir: z.enum(SORT_DIRECTIONS, { error: MESSAGES.invalidEnumValue }).optional(),
  });
}

/** What a list query holds once parsed. */
export interface ListQuery<S extends string = string> {
  q?: string | undefined;
  page: number;
  pageSize: number;
  sort: S;
  dir?: SortDirection | undefined;
}

/** One page of a list: the rows, how many there are in all, and which page this is. */
export interface ListPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
