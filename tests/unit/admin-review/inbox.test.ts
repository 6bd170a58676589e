/**
 * The review inbox's pure rules: its query and address (filters plus project and mission), moving
 * through loaded rows (past the last one: load more), what leaves the inbox after a decision, the
 * opaque cursor, the query schema's limit and cursor, and the sidebar's count in words.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INBOX_FILTERS,
  inboxPage,
  inboxQuery,
  leavesInbox,
  readInboxLocation,
  stepAfterDecision,
  stepInQueue,
  writeInboxLocation,
} from '../../../src/islands/admin/review/logic.ts';
import { reviewBadgeText, reviewLinkLabel } from '../../../src/lib/review-count.ts';
import { decodeInboxCursor, encodeInboxCursor } from '../../../src/shared/review.ts';
import { BAD_CURSOR_MESSAGE, reviewInboxQuerySchema } from '../../../src/shared/schemas/review.ts';

describe('the inbox query and address', () => {
  it('asks what waits by default, 20 at a time, and spells every filter out', () => {
    expect(inboxQuery(DEFAULT_INBOX_FILTERS, 20)).toEqual({ status: 'submitted', limit: '20' });
    expect(inboxQuery({ status: 'all', q: ' ann ', from: '2026-01-02', to: 'nope', probesWaiting: true, projectId: 3, missionId: 7 }, 5, 'v1.abc')).toEqual({
      status: 'all',
      q: 'ann',
      from: '2026-01-02',
      probes: 'waiting',
      projectId: '3',
      missionId: '7',
      limit: '5',
      cursor: 'v1.abc',
    });
  });

  it('reads and writes the address: defaults left out, other parameters kept, malformed ones dropped', () => {
    expect(readInboxLocation('')).toEqual({ filters: DEFAULT_INBOX_FILTERS, submission: null });
    expect(readInboxLocation('?projectId=3&missionId=7&status=submitted&submission=12&page=4')).toEqual({
      filters: { ...DEFAULT_INBOX_FILTERS, projectId: 3, missionId: 7 },
      submission: 12,
    });
    expect(readInboxLocation('?projectId=0&missionId=99999999999&status=lost').filters).toEqual(DEFAULT_INBOX_FILTERS);
    expect(writeInboxLocation({ filters: DEFAULT_INBOX_FILTERS, submission: null })).toBe('');
    expect(writeInboxLocation({ filters: { ...DEFAULT_INBOX_FILTERS, projectId: 3, missionId: 7 }, submission: 12 }, '?keep=1&page=3')).toBe(
      '?keep=1&projectId=3&missionId=7&submission=12',
    );
    const state = { filters: { ...DEFAULT_INBOX_FILTERS, status: 'all' as const, q: 'bo', projectId: 5, missionId: null }, submission: null };
    expect(readInboxLocation(writeInboxLocation(state))).toEqual(state);
  });
});

describe('moving through the loaded rows', () => {
  it('past the last loaded row asks for more while there are more, and says the end otherwise', () => {
    expect(stepInQueue(inboxPage([1, 2, 3], 10), 3, 1)).toEqual({ kind: 'page', page: 2, pick: 'first' });
    expect(stepInQueue(inboxPage([1, 2, 3], 3), 3, 1)).toEqual({ kind: 'none', edge: 'end' });
    expect(stepInQueue(inboxPage([1, 2, 3], 10), 2, 1)).toEqual({ kind: 'select', id: 3 });
    expect(stepInQueue(inboxPage([1, 2, 3], 10), 1, -1)).toEqual({ kind: 'none', edge: 'start' });
  });

  it('after a decision that takes the entry out: the next row, else more rows, else back to the top', () => {
    expect(stepAfterDecision(inboxPage([1, 2, 3], 10), inboxPage([1, 3], 9), 2)).toEqual({ kind: 'select', id: 3 });
    expect(stepAfterDecision(inboxPage([1, 2, 3], 10), inboxPage([1, 2], 9), 3)).toEqual({ kind: 'page', page: 2, pick: 'first' });
    expect(stepAfterDecision(inboxPage([1, 2, 3], 3), inboxPage([1, 2], 2), 3)).toEqual({ kind: 'select', id: 1, wrapped: true });
    expect(stepAfterDecision(inboxPage([3], 1), inboxPage([], 0), 3)).toEqual({ kind: 'none', edge: 'end' });
  });

  it('an entry leaves the inbox when its status filter no longer keeps it', () => {
    expect(leavesInbox({ status: 'submitted' }, 'approved')).toBe(true);
    expect(leavesInbox({ status: 'submitted' }, 'submitted')).toBe(false);
    expect(leavesInbox({ status: 'all' }, 'rejected')).toBe(false);
  });
});

describe('the cursor', () => {
  it('goes there and back, opaque', () => {
    const cursor = { at: '2026-11-25T08:00:00.123456Z', id: 42 };
    const raw = encodeInboxCursor(cursor);
    expect(raw).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(raw).not.toContain('2026');
    expect(decodeInboxCursor(raw)).toEqual(cursor);
  });

  it('refuses anything it did not make', () => {
    const made = (text: string) => `v1.${Buffer.from(text).toString('base64url')}`;
    for (const bad of [
      '',
      'v1.',
      'v2.' + Buffer.from('2026-11-25T08:00:00.000000Z|1').toString('base64url'),
      made('2026-11-25T08:00:00Z|1'),
      made('2026-02-30T08:00:00.000000Z|1'),
      made('2026-11-25T08:00:00.000000Z|-1'),
      made('2026-11-25T08:00:00.000000Z|01'),
      made('2026-11-25T08:00:00.000000Z|2147483648'),
      made('2026-11-25T08:00:00.000000Z|1|2'),
      'v1.+/==',
    ])
      expect(decodeInboxCursor(bad), bad).toBeNull();
  });

  it('the query schema: limit 1–100 (20), status submitted unless asked, a bad cursor a message on `cursor`', () => {
    expect(reviewInboxQuerySchema.parse({})).toEqual({ status: 'submitted', limit: 20 });
    expect(reviewInboxQuerySchema.parse({ limit: '100', status: 'all', projectId: '3' })).toMatchObject({ limit: 100, status: 'all', projectId: 3 });
    expect(reviewInboxQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
    const bad = reviewInboxQuerySchema.safeParse({ cursor: 'nope' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues).toMatchObject([{ path: ['cursor'], message: BAD_CURSOR_MESSAGE }]);
    const cursor = { at: '2026-11-25T08:00:00.000001Z', id: 7 };
    expect(reviewInboxQuerySchema.parse({ cursor: encodeInboxCursor(cursor) }).cursor).toEqual(cursor);
  });
});

describe('the sidebar count', () => {
  it('a badge and a name that starts with the link’s word', () => {
    expect(reviewBadgeText(0)).toBe('');
    expect(reviewBadgeText(12)).toBe('12');
    expect(reviewBadgeText(250)).toBe('99+');
    expect(reviewLinkLabel('Review', 12)).toBe('Review, 12 waiting');
    expect(reviewLinkLabel('Review', 0)).toBe('Review, none waiting');
    // The name holds what the badge shows (voice control): "99+" beyond 99.
    expect(reviewLinkLabel('Review', 250)).toBe('Review, 99+ waiting');
  });
});
