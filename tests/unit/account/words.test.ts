/**
 * The participant's account in words (src/islands/account/points.ts, mission-history.ts,
 * src/lib/preferences.ts and src/islands/notifications/notification-words.ts): signed points,
 * pages joined without repeats, entry counts, the photos of an entry in form order, the links
 * between history and mission page, the bell's label and badge, which notification links are
 * followed, the mail summary and the preferences as staff read them.
 */
import { describe, expect, it } from 'vitest';
import type { FormDefinition } from '../../../src/shared/forms/definition.ts';
import { appendPage, hasMore, signedPoints, spokenPoints } from '../../../src/islands/account/points.ts';
import { editEntryHref, entriesLabel, entryCounts, entryPhotoIds, numberEntries, probesWaitingLabel } from '../../../src/islands/account/mission-history.ts';
import { mailSummary, preferenceRows } from '../../../src/lib/preferences.ts';
import { entryParam } from '../../../src/shared/mission-entries.ts';
import { notificationsLabel, safeLink, unreadBadge } from '../../../src/islands/notifications/notification-words.ts';

describe('points', () => {
  it('writes amounts signed, with a real minus sign and thousands separators', () => {
    expect(signedPoints(80)).toBe('+80');
    expect(signedPoints(-20)).toBe('\u221220');
    expect(signedPoints(12500)).toBe('+12,500');
    expect(signedPoints(0)).toBe('0');
    expect(spokenPoints(1)).toBe('1 point');
    expect(spokenPoints(-1500)).toBe('minus 1,500 points');
  });

  it('joins pages without showing a row twice, keeping the order they came in', () => {
    const first = [{ id: 9 }, { id: 8 }, { id: 7 }];
    // A newer entry arrived between the two calls: 7 moved onto page 2.
    expect(appendPage(first, [{ id: 7 }, { id: 6 }, { id: 5 }]).map((row) => row.id)).toEqual([9, 8, 7, 6, 5]);
    expect(appendPage([], [{ id: 1 }])).toEqual([{ id: 1 }]);
  });

  it('offers "Show more" while pages shown do not cover the total', () => {
    expect(hasMore(1, 10, 25)).toBe(true);
    expect(hasMore(3, 10, 25)).toBe(false);
    expect(hasMore(1, 10, 10)).toBe(false);
    expect(hasMore(1, 10, undefined)).toBe(false);
  });
});

describe('missions', () => {
  it('lists the non-zero counts, what needs the participant first', () => {
    const counts = entryCounts({ total: 6, approved: 2, waiting: 1, changesRequested: 1, rejected: 0, drafts: 2 });
    expect(counts.map((count) => count.text)).toEqual(['1 changes asked', '1 waiting for review', '2 approved', '2 drafts']);
    expect(counts.map((count) => count.status)).toEqual(['changes_requested', 'submitted', 'approved', 'draft']);
    expect(entryCounts({ total: 1, approved: 0, waiting: 0, changesRequested: 0, rejected: 1, drafts: 0 }).map((count) => count.text)).toEqual([
      '1 not accepted',
    ]);
    expect(entryCounts({ total: 1, approved: 0, waiting: 0, changesRequested: 0, rejected: 0, drafts: 1 })[0]?.text).toBe('1 draft');
  });

  it('says how many questions wait, and nothing when none do', () => {
    expect(probesWaitingLabel(0)).toBeNull();
    expect(probesWaitingLabel(1)).toBe('1 question waiting for your answer');
    expect(probesWaitingLabel(3)).toBe('3 questions waiting for your answer');
    expect(entriesLabel(1)).toBe('1 entry');
    expect(entriesLabel(4)).toBe('4 entries');
  });

  it('numbers entries by age while keeping the list newest first', () => {
    const entries = [
      { id: 30, createdAt: '2026-03-05T10:00:00.000Z' },
      { id: 12, createdAt: '2026-03-01T10:00:00.000Z' },
      { id: 20, createdAt: '2026-03-01T10:00:00.000Z' },
    ];
    expect(numberEntries(entries).map(({ entry, number }) => [entry.id, number])).toEqual([
      [30, 3],
      [12, 1],
      [20, 2],
    ]);
  });

  it('takes an entry’s photos in form order, only from questions the person saw', () => {
    const definition: FormDefinition = {
      schema: 'fieldwork.form/1',
      title: 'Fridge',
      pages: [
        {
          id: 'one',
          title: 'One',
          elements: [
            {
              id: 'has',
              type: 'single_choice',
              title: 'Do you have a fridge?',
              options: [
                { id: 'yes', label: 'Yes' },
                { id: 'no', label: 'No' },
              ],
            },
            { id: 'inside', type: 'photo', title: 'Inside', maxFiles: 3, visibleIf: { ref: 'has', op: 'eq', value: 'yes' } },
          ],
        },
        {
          id: 'two',
          title: 'Two',
          elements: [
            { id: 'outside', type: 'photo', title: 'Outside', maxFiles: 3 },
            { id: 'note', type: 'short_text', title: 'Note' },
          ],
        },
      ],
    };
    // The answer object's key order is not the form's.
    expect(entryPhotoIds(definition, { outside: ['c'], note: 'x', inside: ['a', 'b'], has: 'yes' })).toEqual(['a', 'b', 'c']);
    // A hidden question's photos are not shown (nor offered in the lightbox); a repeated id once.
    expect(entryPhotoIds(definition, { has: 'no', inside: ['a'], outside: ['c', 'c'] })).toEqual(['c']);
    expect(entryPhotoIds(definition, {})).toEqual([]);
  });

  it('opens the mission page on an entry, and reads that back from the address', () => {
    expect(editEntryHref(4, 12)).toBe('/missions/4?entry=12');
    expect(entryParam('?entry=12')).toBe(12);
    expect(entryParam('?x=1&entry=7')).toBe(7);
    for (const bad of ['', '?entry=', '?entry=0', '?entry=-3', '?entry=1e3', '?entry=abc', '?entry=12345678901']) expect(entryParam(bad)).toBeNull();
  });
});

describe('notifications', () => {
  it('names the bell with the unread count', () => {
    expect(notificationsLabel(3)).toBe('Notifications, 3 unread');
    expect(notificationsLabel(1)).toBe('Notifications, 1 unread');
    expect(notificationsLabel(0)).toBe('Notifications');
    expect(notificationsLabel(null)).toBe('Notifications');
  });

  it('shows a number on the bell only when something is unread, 9+ beyond nine', () => {
    expect(unreadBadge(null)).toBeNull();
    expect(unreadBadge(0)).toBeNull();
    expect(unreadBadge(4)).toBe('4');
    expect(unreadBadge(9)).toBe('9');
    expect(unreadBadge(10)).toBe('9+');
  });

  it('follows only paths on this site', () => {
    expect(safeLink('/account/mission-history/4')).toBe('/account/mission-history/4');
    expect(safeLink('/missions/3?entry=2')).toBe('/missions/3?entry=2');
    for (const bad of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '', null, undefined])
      expect(safeLink(bad)).toBeNull();
  });
});

describe('mail preferences', () => {
  it('sums up the master switch and the kinds (never set is on)', () => {
    expect(mailSummary({ emailNotifications: false, mailProbes: true })).toBe('Off');
    expect(mailSummary({ emailNotifications: true })).toBe('On');
    expect(mailSummary({ emailNotifications: true, mailReminders: false, mailApprovedDigest: false })).toBe('On for 7 of 9 kinds');
    expect(
      mailSummary({
        emailNotifications: true,
        mailChangesRequested: false,
        mailRejected: false,
        mailProbes: false,
        mailApprovedDigest: false,
        mailReminders: false,
        mailNewWork: false,
        mailAnnouncements: false,
        mailPoints: false,
        mailRewards: false,
      }),
    ).toBe('On, every kind off');
  });
});

describe('preferences for staff (issue 28 §12)', () => {
  it('labels each preference in words, defaults for what was never set', () => {
    const winter = new Date('2026-01-15T12:00:00Z');
    expect(preferenceRows({ language: 'en', timeZone: 'America/New_York', colorMode: 'dark', emailNotifications: false }, 'participant', winter)).toEqual([
      { term: 'Email notifications', value: 'Off' },
      { term: 'Language', value: 'English' },
      { term: 'Time zone', value: 'America/New York (UTC-05:00)' },
      { term: 'Colour mode', value: 'Dark' },
    ]);
    expect(preferenceRows({}, 'moderator', winter)).toEqual([
      { term: 'Email notifications', value: 'On' },
      { term: 'Review digest', value: 'Off' },
      { term: 'Language', value: 'English' },
      { term: 'Time zone', value: 'Not set yet' },
      { term: 'Colour mode', value: 'Same as the device' },
    ]);
  });
});
