import { describe, expect, it } from 'vitest';
import { paginationRange, totalPages } from '../../../src/lib/ui-kit/pagination-range.ts';
import type { PaginationItem } from '../../../src/lib/ui-kit/pagination-range.ts';

/** Items as a compact string: "1 2 [3] 4 … 10". */
function show(items: PaginationItem[]): string {
  return items.map((item) => (item.type === 'ellipsis' ? '…' : item.current ? `[${item.page}]` : String(item.page))).join(' ');
}

describe('totalPages (10 per page, at least 1)', () => {
  it.each([
    [0, 1],
    [1, 1],
    [10, 1],
    [11, 2],
    [100, 10],
    [101, 11],
  ])('%i records → %i pages', (total, pages) => {
    expect(totalPages(total)).toBe(pages);
  });

  it('takes another page size and never drops below one page', () => {
    expect(totalPages(50, 25)).toBe(2);
    expect(totalPages(-5)).toBe(1);
    expect(totalPages(Number.NaN)).toBe(1);
    expect(totalPages(10, 0)).toBe(10);
  });
});

describe('paginationRange (10 per page, 2 siblings)', () => {
  it('page 1 of 10', () => {
    const range = paginationRange({ page: 1, total: 100 });
    expect(show(range.items)).toBe('[1] 2 3 4 5 6 7 … 10');
    expect(range).toMatchObject({ page: 1, totalPages: 10, previous: null, next: 2, from: 1, to: 10 });
  });

  it('page 5 of 10', () => {
    const range = paginationRange({ page: 5, total: 100 });
    expect(show(range.items)).toBe('1 2 3 4 [5] 6 7 … 10');
    expect(range).toMatchObject({ previous: 4, next: 6, from: 41, to: 50 });
  });

  it('page 6 of 10', () => {
    expect(show(paginationRange({ page: 6, total: 100 }).items)).toBe('1 … 4 5 [6] 7 8 9 10');
  });

  it('page 10 of 10', () => {
    const range = paginationRange({ page: 10, total: 100 });
    expect(show(range.items)).toBe('1 … 4 5 6 7 8 9 [10]');
    expect(range).toMatchObject({ previous: 9, next: null, from: 91, to: 100 });
  });

  it('total 0 → 1 page', () => {
    const range = paginationRange({ page: 1, total: 0 });
    expect(range.totalPages).toBe(1);
    expect(show(range.items)).toBe('[1]');
    expect(range).toMatchObject({ page: 1, previous: null, next: null, from: 0, to: 0 });
  });

  it('the middle of many pages shows two siblings each side and both ellipses', () => {
    const range = paginationRange({ page: 50, total: 1000 });
    expect(show(range.items)).toBe('1 … 48 49 [50] 51 52 … 100');
    expect(range.items.filter((item) => item.type === 'ellipsis').map((item) => item.type === 'ellipsis' && item.key)).toEqual([
      'start-ellipsis',
      'end-ellipsis',
    ]);
  });

  it('keeps the same number of items (2 × 2 + 5 = 9) wherever the current page is', () => {
    for (let page = 1; page <= 30; page += 1) expect(paginationRange({ page, total: 300 }).items).toHaveLength(9);
  });

  it('shows every page when there are few', () => {
    expect(show(paginationRange({ page: 2, total: 25 }).items)).toBe('1 [2] 3');
    expect(show(paginationRange({ page: 1, total: 11 }).items)).toBe('[1] 2');
    expect(show(paginationRange({ page: 9, total: 90 }).items)).toBe('1 2 3 4 5 6 7 8 [9]');
  });

  it('never shows an ellipsis for a single skipped page', () => {
    for (let pages = 1; pages <= 40; pages += 1) {
      for (let page = 1; page <= pages; page += 1) {
        const numbers = paginationRange({ page, total: pages * 10 }).items;
        numbers.forEach((item, i) => {
          if (item.type !== 'ellipsis') return;
          const before = numbers[i - 1];
          const after = numbers[i + 1];
          expect(before?.type === 'page' && after?.type === 'page' && after.page - before.page).toBeGreaterThan(2);
        });
        const pagesShown = numbers.flatMap((item) => (item.type === 'page' ? [item.page] : []));
        expect(pagesShown[0]).toBe(1);
        expect(pagesShown.at(-1)).toBe(pages);
        expect(pagesShown).toContain(page);
        expect([...pagesShown].sort((a, b) => a - b)).toEqual(pagesShown);
        expect(new Set(pagesShown).size).toBe(pagesShown.length);
        expect(numbers.filter((item) => item.type === 'page' && item.current)).toHaveLength(1);
      }
    }
  });

  it('clamps the page into range', () => {
    expect(paginationRange({ page: 0, total: 100 }).page).toBe(1);
    expect(paginationRange({ page: -4, total: 100 }).page).toBe(1);
    expect(paginationRange({ page: 99, total: 100 }).page).toBe(10);
    expect(paginationRange({ page: 2.7, total: 100 }).page).toBe(2);
  });

  it('takes other page sizes and sibling counts', () => {
    expect(show(paginationRange({ page: 5, total: 100, siblings: 0 }).items)).toBe('1 … [5] … 10');
    expect(show(paginationRange({ page: 5, total: 100, siblings: 1 }).items)).toBe('1 … 4 [5] 6 … 10');
    const range = paginationRange({ page: 2, total: 45, perPage: 20 });
    expect(range).toMatchObject({ totalPages: 3, from: 21, to: 40 });
    expect(paginationRange({ page: 3, total: 45, perPage: 20 })).toMatchObject({ from: 41, to: 45 });
  });
});
