/**
 * Pagination (docs/product.md §9): 10 per page, 2 siblings on each side of the current page, at least
 * one page. The first and last pages are always shown; a gap of one page shows that page, a
 * longer gap an ellipsis, so the number of items stays the same as the current page moves
 * (2 × siblings + 5 = 9 once there are more than 9 pages).
 */
import { PAGINATION_MIN_PAGES, PAGINATION_PER_PAGE, PAGINATION_SIBLINGS } from '../../shared/ui-constants.ts';

export type PaginationItem = { type: 'page'; page: number; current: boolean } | { type: 'ellipsis'; key: 'start-ellipsis' | 'end-ellipsis' };

export interface PaginationOptions {
  /** 1-based; clamped into [1, totalPages]. */
  page: number;
  /** Number of records (not pages). */
  total: number;
  perPage?: number;
  siblings?: number;
}

export interface PaginationRange {
  /** The current page after clamping. */
  page: number;
  totalPages: number;
  items: PaginationItem[];
  /** Previous and next page numbers, or null at the ends. */
  previous: number | null;
  next: number | null;
  /** 1-based positions of the first and last records on this page (0 and 0 when empty). */
  from: number;
  to: number;
}

function wholeOr(value: number, fallback: number, min: number): number {
  return Number.isFinite(value) ? Math.max(min, Math.floor(value)) : fallback;
}

/** Pages needed for `total` records, never fewer than one. */
export function totalPages(total: number, perPage: number = PAGINATION_PER_PAGE): number {
  const size = wholeOr(perPage, PAGINATION_PER_PAGE, 1);
  const count = wholeOr(total, 0, 0);
  return Math.max(PAGINATION_MIN_PAGES, Math.ceil(count / size));
}

function range(start: number, end: number): number[] {
  return end < start ? [] : Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

export function paginationRange({ page, total, perPage = PAGINATION_PER_PAGE, siblings = PAGINATION_SIBLINGS }: PaginationOptions): PaginationRange {
  const size = wholeOr(perPage, PAGINATION_PER_PAGE, 1);
  const around = wholeOr(siblings, PAGINATION_SIBLINGS, 0);
  const count = totalPages(total, size);
  const current = Math.min(count, wholeOr(page, 1, 1));
  const records = wholeOr(total, 0, 0);

  // One boundary page at each end (1 and count), `around` siblings each side of the current page.
  const siblingsStart = Math.max(Math.min(current - around, count - around * 2 - 2), 3);
  const siblingsEnd = Math.min(Math.max(current + around, around * 2 + 3), count - 2);

  const numbers: (number | 'start-ellipsis' | 'end-ellipsis')[] = [1];
  if (siblingsStart > 3) numbers.push('start-ellipsis');
  else if (count > 2) numbers.push(2);
  numbers.push(...range(siblingsStart, siblingsEnd));
  if (siblingsEnd < count - 2) numbers.push('end-ellipsis');
  else if (count - 1 > 2) numbers.push(count - 1);
  if (count > 1) numbers.push(count);

  const items: PaginationItem[] = numbers.map((entry) =>
    typeof entry === 'number' ? { type: 'page', page: entry, current: entry === current } : { type: 'ellipsis', key: entry },
  );
  const from = records === 0 ? 0 : (current - 1) * size + 1;
  const to = Math.min(records, current * size);
  return {
    page: current,
    totalPages: count,
    items,
    previous: current > 1 ? current - 1 : null,
    next: current < count ? current + 1 : null,
    from,
    to,
  };
}
