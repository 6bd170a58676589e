import { describe, expect, it } from 'vitest';
import type { FormDefinition } from '../../../src/shared/forms/definition.ts';
import {
  bulkResultText,
  compareVersions,
  DEFAULT_FILTERS,
  isFiltered,
  pickOnPage,
  queueQuery,
  readLocation,
  sameAnswer,
  selectAllState,
  stepAfterDecision,
  stepInQueue,
  toggleAll,
  writeLocation,
  type QueuePage,
} from '../../../src/islands/admin/review/logic.ts';

const pageOf = (ids: number[], page = 1, total = ids.length, pageSize = 10): QueuePage => ({ ids, page, pageSize, total });

describe('queue filters', () => {
  it('opens on what waits for review and asks the API for it', () => {
    expect(DEFAULT_FILTERS.status).toBe('submitted');
    expect(isFiltered(DEFAULT_FILTERS)).toBe(false);
    expect(queueQuery(DEFAULT_FILTERS, 1, 10)).toEqual({ page: '1', pageSize: '10', status: 'submitted' });
  });

  it('sends every filter set, and nothing for "all" or blanks', () => {
    expect(queueQuery({ status: 'all', q: '  grace ', from: '2026-03-01', to: '2026-03-31', probesWaiting: true }, 3, 10)).toEqual({
      page: '3',
      pageSize: '10',
      q: 'grace',
      from: '2026-03-01',
      to: '2026-03-31',
      probes: 'waiting',
    });
    expect(queueQuery({ ...DEFAULT_FILTERS, q: '   ', from: 'nope' }, 1, 10)).toEqual({ page: '1', pageSize: '10', status: 'submitted' });
    expect(isFiltered({ ...DEFAULT_FILTERS, probesWaiting: true })).toBe(true);
    expect(isFiltered({ ...DEFAULT_FILTERS, status: 'all' })).toBe(true);
  });

  it('round-trips through the address bar, keeping other parameters, defaults left out', () => {
    const state = {
      filters: { status: 'rejected' as const, q: 'ada', from: '2026-01-02', to: '', probesWaiting: true, language: 'ar' as const },
      page: 2,
      submission: 42,
    };
    const search = writeLocation(state, '?tab=x&page=9');
    expect(new URLSearchParams(search).get('language')).toBe('ar');
    expect(queueQuery(state.filters, 1, 10).language).toBe('ar');
    expect(new URLSearchParams(search).get('tab')).toBe('x');
    expect(readLocation(search)).toEqual(state);
    expect(writeLocation({ filters: { ...DEFAULT_FILTERS }, page: 1, submission: null })).toBe('');
    expect(readLocation('')).toEqual({ filters: DEFAULT_FILTERS, page: 1, submission: null });
  });

  it('reads malformed values as their defaults', () => {
    expect(readLocation('?status=bogus&from=yesterday&page=0&submission=-3&probes=yes&language=fr')).toEqual({
      filters: DEFAULT_FILTERS,
      page: 1,
      submission: null,
    });
    expect(readLocation('?status=all').filters.status).toBe('all');
  });
});

describe('stepInQueue (j and k)', () => {
  it('opens the first row with j and the last with k when nothing is open', () => {
    expect(stepInQueue(pageOf([5, 6, 7]), null, 1)).toEqual({ kind: 'select', id: 5 });
    expect(stepInQueue(pageOf([5, 6, 7]), null, -1)).toEqual({ kind: 'select', id: 7 });
    expect(stepInQueue(pageOf([5, 6, 7]), 99, 1)).toEqual({ kind: 'select', id: 5 });
  });

  it('moves row by row', () => {
    expect(stepInQueue(pageOf([5, 6, 7]), 5, 1)).toEqual({ kind: 'select', id: 6 });
    expect(stepInQueue(pageOf([5, 6, 7]), 7, -1)).toEqual({ kind: 'select', id: 6 });
  });

  it('crosses to the next or previous page at the edges', () => {
    const first = pageOf([1, 2], 1, 5, 2);
    expect(stepInQueue(first, 2, 1)).toEqual({ kind: 'page', page: 2, pick: 'first' });
    expect(stepInQueue(pageOf([3, 4], 2, 5, 2), 3, -1)).toEqual({ kind: 'page', page: 1, pick: 'last' });
  });

  it('says when there is nowhere to go', () => {
    expect(stepInQueue(pageOf([1, 2], 1, 2, 2), 2, 1)).toEqual({ kind: 'none', edge: 'end' });
    expect(stepInQueue(pageOf([1, 2]), 1, -1)).toEqual({ kind: 'none', edge: 'start' });
    expect(stepInQueue(pageOf([]), null, 1)).toEqual({ kind: 'none', edge: 'end' });
  });

  it('picks the first or last row of a page it lands on', () => {
    expect(pickOnPage([4, 5, 6], 'first')).toBe(4);
    expect(pickOnPage([4, 5, 6], 'last')).toBe(6);
    expect(pickOnPage([], 'first')).toBeNull();
  });
});

describe('stepAfterDecision', () => {
  it('opens the row that came after an entry that left the queue', () => {
    expect(stepAfterDecision(pageOf([1, 2, 3]), pageOf([1, 3]), 2)).toEqual({ kind: 'select', id: 3 });
  });

  it('skips rows that also left meanwhile (another moderator)', () => {
    expect(stepAfterDecision(pageOf([1, 2, 3, 4]), pageOf([1, 4]), 2)).toEqual({ kind: 'select', id: 4 });
  });

  it('opens a row that moved up from the next page when the decided one was the page’s last', () => {
    const before = pageOf([1, 2, 3], 1, 5, 3);
    expect(stepAfterDecision(before, pageOf([1, 2, 4], 1, 4, 3), 3)).toEqual({ kind: 'select', id: 4 });
  });

  it('does not skip what is on the next page: those rows move up, and are picked', () => {
    // Page 1 of 10 per page: approving all ten one after the other always finds the next one.
    const before = pageOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 1, 15);
    const after = pageOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 11], 1, 14);
    expect(stepAfterDecision(before, after, 10)).toEqual({ kind: 'select', id: 11 });
  });

  it('follows the row after it when the filter keeps the decided entry', () => {
    expect(stepAfterDecision(pageOf([1, 2, 3]), pageOf([1, 2, 3]), 2)).toEqual({ kind: 'select', id: 3 });
    expect(stepAfterDecision(pageOf([1, 2], 1, 4, 2), pageOf([1, 2], 1, 4, 2), 2)).toEqual({ kind: 'page', page: 2, pick: 'first' });
  });

  it('goes back to the top of the queue for rows skipped on the way, and ends when none are left', () => {
    expect(stepAfterDecision(pageOf([1, 2]), pageOf([1], 1, 1), 2)).toEqual({ kind: 'select', id: 1, wrapped: true });
    expect(stepAfterDecision(pageOf([11], 2, 11), pageOf([], 2, 10), 11)).toEqual({ kind: 'page', page: 1, pick: 'first', wrapped: true });
    expect(stepAfterDecision(pageOf([11, 12], 2, 12), pageOf([11], 2, 11), 12)).toEqual({ kind: 'page', page: 1, pick: 'first', wrapped: true });
    expect(stepAfterDecision(pageOf([1]), pageOf([], 1, 0), 1)).toEqual({ kind: 'none', edge: 'end' });
  });

  it('leaves an entry opened from outside the queue where it is', () => {
    expect(stepAfterDecision(pageOf([1, 2]), pageOf([1, 2]), 77)).toEqual({ kind: 'stay' });
  });
});

describe('bulk selection', () => {
  it('"Select all on this page" is checked, unchecked or mixed, and toggles the page', () => {
    expect(selectAllState([1, 2, 3], new Set())).toBe(false);
    expect(selectAllState([1, 2, 3], new Set([2]))).toBe('indeterminate');
    expect(selectAllState([1, 2, 3], new Set([1, 2, 3]))).toBe(true);
    expect(selectAllState([], new Set())).toBe(false);
    expect([...toggleAll([1, 2, 3], new Set([2]))]).toEqual([1, 2, 3]);
    expect([...toggleAll([1, 2, 3], new Set([1, 2, 3]))]).toEqual([]);
  });

  it('says what the bulk approval did', () => {
    expect(bulkResultText({ approved: 2, skipped: 0 })).toBe('2 approved');
    expect(bulkResultText({ approved: 1, skipped: 2 })).toBe('1 approved, 2 skipped (no longer waiting for review: already decided, still drafts or gone)');
  });
});

const definition: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Fridge',
  pages: [
    {
      id: 'one',
      title: 'Your fridge',
      elements: [
        { id: 'intro', type: 'statement', title: 'Hello', body: 'Open your fridge.' },
        { id: 'shelf', type: 'photo', title: 'A photo of your fridge', maxFiles: 3 },
        { id: 'note', type: 'short_text', title: 'What is on the top shelf?' },
        {
          id: 'foods',
          type: 'multiple_choice',
          title: 'What do you keep?',
          options: [
            { id: 'milk', label: 'Milk' },
            { id: 'eggs', label: 'Eggs' },
            { id: 'jam', label: 'Jam' },
          ],
        },
        { id: 'why', type: 'long_text', title: 'Why no milk?', visibleIf: { not: { ref: 'foods', op: 'includes_any', value: ['milk'] } } },
        {
          id: 'rank',
          type: 'ranking',
          title: 'Rank them',
          options: [
            { id: 'a', label: 'A' },
            { id: 'b', label: 'B' },
          ],
        },
      ],
    },
  ],
};

describe('compareVersions', () => {
  it('lists each question of either version in form order with both answers, statements left out', () => {
    const before = { shelf: ['p1'], note: 'Milk and eggs', foods: ['milk', 'eggs'], rank: ['a', 'b'] };
    const after = { shelf: ['p2'], note: 'Milk, eggs and butter', foods: ['eggs', 'milk'], rank: ['a', 'b'] };
    const comparison = compareVersions(definition, before, after, { today: '2026-03-05' });
    expect(comparison.rows.map((row) => [row.element.id, row.change])).toEqual([
      ['shelf', 'changed'],
      ['note', 'changed'],
      ['foods', 'same'],
      ['rank', 'same'],
    ]);
    expect(comparison.rows[1]).toMatchObject({ before: 'Milk and eggs', after: 'Milk, eggs and butter' });
    expect(comparison.changed).toBe(2);
  });

  it('marks answers added and removed, and a blank answer as none', () => {
    const comparison = compareVersions(definition, { note: 'Jam', foods: ['milk'] }, { note: '   ', foods: ['milk'], shelf: ['p1'] });
    const change = Object.fromEntries(comparison.rows.map((row) => [row.element.id, row.change]));
    expect(change).toMatchObject({ shelf: 'added', note: 'removed', foods: 'same' });
    expect(comparison.changed).toBe(2);
  });

  it('counts only what the participant saw: a question hidden by a condition in one version shows as added or removed', () => {
    const before = { foods: ['eggs'], why: 'I am vegan' };
    const after = { foods: ['milk'], why: 'I am vegan' };
    const rows = compareVersions(definition, before, after).rows;
    const why = rows.find((row) => row.element.id === 'why');
    expect(why).toMatchObject({ before: 'I am vegan', after: undefined, change: 'removed' });
  });

  it('keeps a ranking’s order and photos’ order as part of the answer', () => {
    const rows = compareVersions(definition, { rank: ['a', 'b'], shelf: ['p1', 'p2'] }, { rank: ['b', 'a'], shelf: ['p2', 'p1'] }).rows;
    expect(rows.find((row) => row.element.id === 'rank')?.change).toBe('changed');
    expect(rows.find((row) => row.element.id === 'shelf')?.change).toBe('changed');
  });

  it('finds no change between identical versions', () => {
    const answers = { shelf: ['p1'], note: 'x', foods: ['jam'], why: 'no' };
    expect(compareVersions(definition, answers, { ...answers }).changed).toBe(0);
  });
});

describe('sameAnswer', () => {
  it('compares objects by content whatever their key order, and an "Other" answer by its text', () => {
    expect(sameAnswer({ type: 'matrix' }, { r1: 'c1', r2: 'c2' }, { r2: 'c2', r1: 'c1' })).toBe(true);
    expect(sameAnswer({ type: 'matrix' }, { r1: 'c1' }, { r1: 'c2' })).toBe(false);
    expect(sameAnswer({ type: 'single_choice' }, { other: 'Tea' }, { other: 'Coffee' })).toBe(false);
    expect(sameAnswer({ type: 'number' }, 3, 3)).toBe(true);
    expect(sameAnswer({ type: 'number' }, 3, undefined)).toBe(false);
    expect(sameAnswer({ type: 'number' }, undefined, undefined)).toBe(true);
  });
});
