// @vitest-environment happy-dom
/**
 * The participant's standing against a fake API (fetch stubbed): the header bell (count fetched
 * once, the menu opening a notification and marking all read), the points section ("Show more"),
 * the missions list, a mission's history (reason, "Edit and resubmit", answering a question, its
 * validation message and a question already answered), the mail switches of the preferences, the
 * mission page opened on an entry sent back with the reviewer's reason, the home balance, and the
 * profile's optional year of birth.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, type ComponentType } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormDefinition } from '../../../src/shared/forms/definition.ts';
import type { NotificationView } from '../../../src/shared/notifications.ts';
import type { PointsEntryView, PointsSummary } from '../../../src/shared/points.ts';
import type { ParticipantMission } from '../../../src/shared/missions.ts';
import type { HistoryEntry, MissionHistory, MissionHistoryItem } from '../../../src/shared/review.ts';
import { $auth } from '../../../src/stores/auth.ts';
import { $account } from '../../../src/stores/account.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const navigateTo = vi.fn(async (_target: string) => {});
vi.mock('../../../src/lib/navigation.ts', () => ({ navigateTo }));
const { default: NotificationsMenu } = await import('../../../src/islands/notifications/NotificationsMenu.tsx');
const { default: PointsSection } = await import('../../../src/islands/account/PointsSection.tsx');
const { pointsPath } = await import('../../../src/islands/account/points.ts');
const { useResource } = await import('../../../src/lib/resource.ts');
const { default: MissionsSection } = await import('../../../src/islands/account/MissionsSection.tsx');
const { default: MissionHistoryScreen } = await import('../../../src/islands/account/MissionHistoryScreen.tsx');
const { default: PreferencesScreen } = await import('../../../src/islands/account/PreferencesScreen.tsx');
const { default: ProfileScreen } = await import('../../../src/islands/account/ProfileScreen.tsx');
const { deviceTimeZone } = await import('../../../src/shared/time-zone.ts');
const { default: MissionScreen } = await import('../../../src/islands/participant/MissionScreen.tsx');
const { default: PointsPill } = await import('../../../src/components/PointsPill.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Call {
  method: string;
  url: string;
  body: unknown;
}

type Route = (call: Call) => Response | Promise<Response>;

let calls: Call[] = [];
let routes: [string, Route][] = [];

const json = (status: number, body: unknown): Response =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Answers `METHOD url` with `route` (the latest registration wins). */
function on(method: string, url: string, route: Route | Response): void {
  routes.unshift([`${method} ${url}`, typeof route === 'function' ? route : () => route.clone()]);
}

const sent = (method: string, url: string) => calls.filter((call) => call.method === method && call.url === url);

const USER = { id: 7, email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', role: 'participant', status: 'active' } as const;

beforeEach(() => {
  localStorage.clear();
  calls = [];
  routes = [];
  navigateTo.mockClear();
  $auth.set({ status: 'authenticated', user: { ...USER } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call: Call = { method: String(init.method ?? 'GET'), url, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined };
      calls.push(call);
      const found = routes.find(([key]) => key === `${call.method} ${url}`);
      if (!found) throw new TypeError('Failed to fetch');
      return found[1](call);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open(path: string, component: ComponentType) {
  history.replaceState(null, '', path);
  const user = userEvent.setup();
  render(createElement(component));
  return { user };
}

// ---------------------------------------------------------------------------------------------

const photoForm: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Fridge',
  pages: [
    {
      id: 'fridge',
      title: 'Your fridge',
      elements: [
        { id: 'shelf', type: 'photo', title: 'A photo of your fridge', required: true, maxFiles: 3 },
        { id: 'note', type: 'short_text', title: 'What is on the top shelf?' },
      ],
    },
  ],
};

function notification(id: number, extra: Partial<NotificationView> = {}): NotificationView {
  return {
    id,
    kind: 'changes_requested',
    text: `Changes were asked for your entry to “Fridge photo”: notification ${id}`,
    link: '/account/mission-history/4',
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    read: false,
    ...extra,
  };
}

describe('the header bell', () => {
  it('shows the unread count from one call, opens the menu, opens a notification (marked read) and marks all read', async () => {
    on('GET', '/api/account/notifications?pageSize=1', json(200, { items: [notification(3)], unread: 2 }));
    on(
      'GET',
      '/api/account/notifications?pageSize=10',
      json(200, {
        items: [notification(3), notification(2), notification(1, { read: true, kind: 'approved', text: 'Your entry to “Fridge photo” was approved' })],
        unread: 2,
      }),
    );
    on('POST', '/api/account/notifications/read', (call) => json(200, { unread: (call.body as { ids?: number[] }).ids ? 1 : 0 }));
    const { user } = open('/', NotificationsMenu);

    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(bell.textContent).toContain('2');
    expect(sent('GET', '/api/account/notifications?pageSize=1')).toHaveLength(1);

    bell.focus();
    await user.keyboard('{Enter}');
    // The menu is named by its trigger.
    const menu = await screen.findByRole('menu', { name: 'Notifications, 2 unread' }, { timeout: 5000 });
    const item = await within(menu).findByRole('menuitem', { name: /notification 3/ });
    expect(item.textContent).toContain('Unread:');
    expect(within(menu).getByRole('menuitem', { name: /was approved/ }).textContent).not.toContain('Unread:');

    await user.click(item);
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/account/mission-history/4'));
    expect(sent('POST', '/api/account/notifications/read').map((call) => call.body)).toEqual([{ ids: [3] }]);
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeTruthy();

    // Opening again refreshes the list; "Mark all as read" sends no ids.
    await user.click(screen.getByRole('button', { name: /^Notifications/ }));
    const again = await screen.findByRole('menu');
    await user.click(await within(again).findByRole('menuitem', { name: 'Mark all as read' }));
    await waitFor(() => expect(sent('POST', '/api/account/notifications/read').map((call) => call.body)).toEqual([{ ids: [3] }, {}]));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(sent('GET', '/api/account/notifications?pageSize=10')).toHaveLength(2);
    // The count itself was fetched once for this page load.
    expect(sent('GET', '/api/account/notifications?pageSize=1')).toHaveLength(1);
  });

  it('speaks to staff: their work waits in the admin area', async () => {
    $auth.set({
      status: 'authenticated',
      user: { id: 99, email: 'mona@example.org', firstName: 'Mona', lastName: 'Reviewer', role: 'moderator', status: 'active' },
    });
    on('GET', '/api/account/notifications?pageSize=1', json(200, { items: [], unread: 0 }));
    on('GET', '/api/account/notifications?pageSize=10', json(200, { items: [], unread: 0 }));
    const { user } = open('/admin', NotificationsMenu);
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    const menu = await screen.findByRole('menu', {}, { timeout: 5000 });
    expect(await within(menu).findByText('Nothing for you here yet. Entries waiting for review are in the admin area.')).toBeTruthy();
    expect(within(menu).queryByText(/When a moderator reviews your entries/)).toBeNull();
    expect(within(menu).getByRole('menuitem', { name: 'Entries waiting for review' }).getAttribute('href')).toBe('/admin/review');
    expect(within(menu).queryByRole('menuitem', { name: 'Your missions' })).toBeNull();
  });

  it('is not there for visitors', async () => {
    $auth.set({ status: 'unauthenticated' });
    open('/terms', NotificationsMenu);
    await Promise.resolve();
    expect(screen.queryByRole('button', { name: /Notifications/ })).toBeNull();
    expect(calls).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

function ledger(id: number, extra: Partial<PointsEntryView> = {}): PointsEntryView {
  return {
    id,
    points: 80,
    state: 'available',
    reason: `Mission “Fridge photo”: entry of ${id} Mar`,
    source: 'mission',
    createdAt: '2026-03-05T10:00:00.000Z',
    ...extra,
  };
}

/** The points section as `/account` feeds it: the first page loaded once by the page. */
function AccountPoints() {
  const points = useResource<PointsSummary>(pointsPath(1));
  return createElement(PointsSection, { load: points.load, reload: points.reload });
}

describe('points', () => {
  it('shows balance, pending with why, the history with reasons, and more on demand', async () => {
    const page1 = Array.from({ length: 10 }, (_, index) => ledger(20 - index));
    page1[0] = ledger(20, { state: 'pending', reason: 'Mission “Fridge photo”: entry of 9 Mar' });
    page1[1] = ledger(19, { state: 'voided', reason: 'Mission “Fridge photo”: entry of 8 Mar' });
    page1[2] = ledger(18, { points: -30, source: 'adjustment', reason: 'Adjustment: duplicate entry' });
    on('GET', '/api/account/points?page=1&pageSize=10', json(200, { balance: 1250, pending: 80, entries: page1, total: 12 }));
    on('GET', '/api/account/points?page=2&pageSize=10', json(200, { balance: 1250, pending: 80, entries: [ledger(11), ledger(10), ledger(9)], total: 13 }));
    const { user } = open('/account', AccountPoints);

    const region = await screen.findByRole('region', { name: 'Points' });
    await within(region).findByText('1,250 points');
    expect(within(region).getByText('80 points', { selector: 'dd' })).toBeTruthy();
    expect(within(region).getByText('Pending points become available when your entry is approved.')).toBeTruthy();
    expect(within(region).getByText('Adjustment: duplicate entry')).toBeTruthy();
    expect(within(region).getByText('minus 30 points')).toBeTruthy();
    expect(within(region).getByText('80 points, pending')).toBeTruthy();
    expect(within(region).getByText('80 points, cancelled')).toBeTruthy();
    expect(region.querySelectorAll('[data-points-entry]')).toHaveLength(10);

    await user.click(within(region).getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(region.querySelectorAll('[data-points-entry]')).toHaveLength(12));
    // 11 came on both pages (a newer entry arrived in between): shown once. Everything older is
    // shown, so no "Show more" (the newer one shows on the next visit).
    expect(region.querySelectorAll('[data-points-entry="11"]')).toHaveLength(1);
    expect(within(region).queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('says there are no points yet', async () => {
    on('GET', '/api/account/points?page=1&pageSize=10', json(200, { balance: 0, pending: 0, entries: [], total: 0 }));
    open('/account', AccountPoints);
    expect(await screen.findByText(/No points yet/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('puts the balance and pending beside the home heading, linking to the history', async () => {
    on('GET', '/api/account/points?page=1&pageSize=1', json(200, { balance: 1250, pending: 80, entries: [], total: 3 }));
    open('/', PointsPill);
    const link = await screen.findByRole('link', { name: /Your balance: 1,250 points/ });
    expect(link.getAttribute('href')).toBe('/account#points');
    expect(link.textContent).toContain('80 pending');
  });
});

// ---------------------------------------------------------------------------------------------

describe('missions list', () => {
  it('lists each mission with its counts, highlights questions waiting, and links to its history', async () => {
    const items: MissionHistoryItem[] = [
      {
        missionId: 4,
        title: 'Fridge photo',
        projectName: 'Mornings',
        points: 80,
        pointsPerEntry: false,
        entries: { total: 2, approved: 1, waiting: 0, changesRequested: 1, rejected: 0, drafts: 0 },
        probesWaiting: 1,
        lastActivityAt: new Date().toISOString(),
      },
      {
        missionId: 5,
        title: 'Cooking diary',
        projectName: 'Kitchen',
        points: 30,
        pointsPerEntry: true,
        entries: { total: 1, approved: 0, waiting: 1, changesRequested: 0, rejected: 0, drafts: 0 },
        probesWaiting: 0,
        lastActivityAt: new Date().toISOString(),
      },
    ];
    on('GET', '/api/account/mission-history', json(200, { items }));
    open('/account', MissionsSection);
    const region = await screen.findByRole('region', { name: 'Your missions' });
    expect(region.id).toBe('mission-history');
    const fridge = await within(region).findByRole('listitem', { name: 'Fridge photo' });
    expect(within(fridge).getByRole('link', { name: 'Fridge photo' }).getAttribute('href')).toBe('/account/mission-history/4');
    expect(within(fridge).getByText('1 question waiting for your answer')).toBeTruthy();
    expect(within(fridge).getByText('1 changes asked')).toBeTruthy();
    expect(within(fridge).getByText('1 approved')).toBeTruthy();
    const diary = within(region).getByRole('listitem', { name: 'Cooking diary' });
    expect(within(diary).queryByText(/question/)).toBeNull();
    expect(within(diary).getByText('1 waiting for review')).toBeTruthy();
    // One wording for a mission's points (labels.pointsLabel): "an entry" only where it takes several.
    expect(within(diary).getByText(/30 points an entry/)).toBeTruthy();
    expect(within(fridge).getByText(/80 points ·/)).toBeTruthy();
    expect(region.textContent).not.toMatch(/points each/);
  });
});

// ---------------------------------------------------------------------------------------------

function historyEntry(id: number, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id,
    status: 'approved',
    answers: { shelf: [`m${id}a`, `m${id}b`], note: `Milk ${id}` },
    formVersion: 1,
    definition: photoForm,
    localDate: '2026-03-05',
    createdAt: `2026-03-0${id}T10:00:00.000Z`,
    submittedAt: `2026-03-0${id}T10:05:00.000Z`,
    reviewReason: null,
    reviewedAt: null,
    resubmission: false,
    probes: [],
    points: { points: 80, state: 'available' },
    ...extra,
  };
}

function missionHistory(entries: HistoryEntry[]): MissionHistory {
  return {
    missionId: 4,
    title: 'Fridge photo',
    instructions: 'Take **one clear photo**.',
    projectName: 'Mornings',
    points: 80,
    pointsPerEntry: false,
    review: 'manual',
    entries,
  };
}

describe('a mission’s history', () => {
  it('shows each entry with its state, the reviewer’s reason, points, answers with photos, and "Edit and resubmit"', async () => {
    on(
      'GET',
      '/api/account/mission-history/4',
      json(
        200,
        missionHistory([
          historyEntry(3, {
            status: 'changes_requested',
            reviewReason: 'The photo is blurry. Please take it again in daylight.',
            reviewedAt: '2026-03-06T09:00:00.000Z',
            points: { points: 80, state: 'pending' },
          }),
          historyEntry(2, { status: 'rejected', reviewReason: 'This is not a fridge.', points: { points: 80, state: 'voided' } }),
          historyEntry(1, { resubmission: true }),
        ]),
      ),
    );
    const { user } = open('/account/mission-history/4', MissionHistoryScreen);
    expect(await screen.findByRole('heading', { level: 1, name: 'Fridge photo' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Fridge photo · Mission history · Fieldwork'));

    const third = screen.getByRole('article', { name: 'Entry 3' });
    expect(within(third).getByText('Changes requested')).toBeTruthy();
    expect(within(third).getByText('The photo is blurry. Please take it again in daylight.')).toBeTruthy();
    expect(within(third).getByRole('link', { name: 'Edit and resubmit' }).getAttribute('href')).toBe('/missions/4?entry=3');
    expect(within(third).getByText('pending until the entry is approved')).toBeTruthy();
    expect(within(third).getByText('Milk 3')).toBeTruthy();

    const second = screen.getByRole('article', { name: 'Entry 2' });
    expect(within(second).getByText('Not accepted')).toBeTruthy();
    expect(within(second).getByText('Why it was not accepted')).toBeTruthy();
    expect(within(second).getByText('This is not a fridge.')).toBeTruthy();
    expect(within(second).queryByRole('link', { name: 'Edit and resubmit' })).toBeNull();

    const first = screen.getByRole('article', { name: 'Entry 1' });
    expect(within(first).getByText('Approved')).toBeTruthy();
    expect(within(first).getByText('Sent again')).toBeTruthy();
    expect(within(first).queryByText(/reviewer/)).toBeNull();

    // "Waiting for you" points at the entry sent back.
    expect(screen.getByRole('link', { name: 'Entry 3' }).getAttribute('href')).toBe('#entry-3');

    // Photos: thumbnails that open the lightbox at display size.
    const thumbs = within(third).getAllByRole('img', { name: /^Photo \d of 2$/ });
    expect(thumbs.map((img) => img.getAttribute('src'))).toEqual(['/api/media/m3a/thumbnail', '/api/media/m3b/thumbnail']);
    await user.click(thumbs[1]!.closest('button')!);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('img', { name: 'Photo 2 of 2 of entry 3' }).getAttribute('src')).toBe('/api/media/m3b');
  });

  it('answers a question from the team: the schema’s message first, then the answer shown', async () => {
    on(
      'GET',
      '/api/account/mission-history/4',
      json(
        200,
        missionHistory([
          historyEntry(1, {
            status: 'submitted',
            probes: [{ id: 9, question: 'Is that oat milk?', askedAt: '2026-03-06T09:00:00.000Z', answer: null, answeredAt: null }],
          }),
        ]),
      ),
    );
    on('POST', '/api/account/probes/9/answer', (call) =>
      json(200, {
        id: 9,
        question: 'Is that oat milk?',
        askedAt: '2026-03-06T09:00:00.000Z',
        answer: (call.body as { answer: string }).answer,
        answeredAt: '2026-03-06T10:00:00.000Z',
      }),
    );
    const { user } = open('/account/mission-history/4', MissionHistoryScreen);
    const entry = await screen.findByRole('article', { name: 'Entry 1' });
    expect(within(entry).getByText('Waiting for review')).toBeTruthy();
    expect(screen.getByText(/a question from our team waits for your answer/)).toBeTruthy();

    await user.click(await within(entry).findByRole('button', { name: 'Send answer' }));
    expect(await within(entry).findByText('Required')).toBeTruthy();
    expect(sent('POST', '/api/account/probes/9/answer')).toHaveLength(0);

    await user.type(await within(entry).findByRole('textbox', { name: 'Your answer' }), 'Yes, oat milk.');
    await user.click(await within(entry).findByRole('button', { name: 'Send answer' }));
    expect(await within(entry).findByText('Yes, oat milk.')).toBeTruthy();
    expect(within(entry).queryByRole('textbox', { name: 'Your answer' })).toBeNull();
    expect(sent('POST', '/api/account/probes/9/answer').map((call) => call.body)).toEqual([{ answer: 'Yes, oat milk.' }]);
  });

  it('says so when the question was already answered elsewhere', async () => {
    on(
      'GET',
      '/api/account/mission-history/4',
      json(
        200,
        missionHistory([
          historyEntry(1, { probes: [{ id: 9, question: 'Is that oat milk?', askedAt: '2026-03-06T09:00:00.000Z', answer: null, answeredAt: null }] }),
        ]),
      ),
    );
    on('POST', '/api/account/probes/9/answer', json(409, { error: { code: 'already_answered', message: 'This question is already answered' } }));
    const { user } = open('/account/mission-history/4', MissionHistoryScreen);
    const entry = await screen.findByRole('article', { name: 'Entry 1' });
    await user.type(await within(entry).findByRole('textbox', { name: 'Your answer' }), 'Yes');
    await user.click(await within(entry).findByRole('button', { name: 'Send answer' }));
    expect(await within(entry).findByText(/already answered, perhaps on another device/)).toBeTruthy();
  });

  it('is the not-found page for a mission that is not theirs', async () => {
    on('GET', '/api/account/mission-history/4', json(404, { error: { code: 'not_found', message: 'Not found' } }));
    open('/account/mission-history/4', MissionHistoryScreen);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeTruthy();
  });
});

// ---------------------------------------------------------------------------------------------

describe('mail preferences', () => {
  it('shows the nine switches under the master switch, disabled while it is off, and saves them all', async () => {
    const preferences = {
      emailNotifications: true,
      language: 'en',
      colorMode: 'system',
      mailChangesRequested: true,
      mailRejected: true,
      mailProbes: true,
      mailApprovedDigest: false,
      mailReminders: true,
      mailNewWork: true,
      mailAnnouncements: false,
      mailPoints: true,
      mailRewards: false,
      timeZone: 'Europe/Paris',
    } as const;
    const accountUser = { ...USER, address: null, birthYear: null, preferences, createdAt: '2026-01-01T00:00:00.000Z', pendingEmail: null };
    $account.set({ status: 'ready', data: { user: accountUser, sessions: [] } });
    on('PATCH', '/api/account/preferences', (call) => json(200, { user: { ...accountUser, preferences: call.body } }));
    const { user } = open('/account/edit/preferences', PreferencesScreen);

    const labels = [
      'When changes are asked on an entry',
      'When an entry is rejected',
      'When a moderator asks you a question',
      'A daily summary of approved entries',
      'Reminders two days before a mission closes',
      'When a new survey or mission opens for you',
      'Announcements from your projects',
      'When staff add or remove points',
      'When a reward you asked for moves on (requested, sent, or not)',
    ];
    const switches = labels.map((label) => screen.getByRole('switch', { name: label }));
    expect(switches.map((each) => each.getAttribute('aria-checked'))).toEqual(['true', 'true', 'true', 'false', 'true', 'true', 'false', 'true', 'false']);

    await user.click(screen.getByRole('switch', { name: 'Email notifications' }));
    for (const each of switches) expect((each as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Turn on email notifications to choose which emails you get.')).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Email notifications' }));
    for (const each of switches) expect((each as HTMLButtonElement).disabled).toBe(false);

    await user.click(screen.getByRole('switch', { name: 'Reminders two days before a mission closes' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your preferences are saved.')).toBeTruthy();
    expect(sent('PATCH', '/api/account/preferences').map((call) => call.body)).toEqual([{ ...preferences, mailReminders: false }]);
    cleanup();
    $account.set({ status: 'idle' });
  });

  it('shows the time zone diary days count in; one never set is this device’s, saved with the form', async () => {
    const preferences = { emailNotifications: true, language: 'en', colorMode: 'system' } as const;
    const accountUser = { ...USER, address: null, birthYear: null, preferences, createdAt: '2026-01-01T00:00:00.000Z', pendingEmail: null };
    $account.set({ status: 'ready', data: { user: accountUser, sessions: [] } });
    on('PATCH', '/api/account/preferences', (call) => json(200, { user: { ...accountUser, preferences: call.body } }));
    const { user } = open('/account/edit/preferences', PreferencesScreen);
    const zone = screen.getByRole('combobox', { name: 'Time zone' });
    expect(zone.textContent).toContain(deviceTimeZone().replaceAll('_', ' '));
    expect(screen.getByText('Your calendar day: diary missions that take one entry a day count your days in this zone.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your preferences are saved.')).toBeTruthy();
    expect(sent('PATCH', '/api/account/preferences').map((call) => (call.body as { timeZone?: string }).timeZone)).toEqual([deviceTimeZone()]);
    cleanup();
    $account.set({ status: 'idle' });
  });

  it('staff also get the daily review digest switch, off until they turn it on; participants never see it', async () => {
    const staffUser = { ...USER, role: 'moderator' } as const;
    $auth.set({ status: 'authenticated', user: { ...staffUser } });
    const preferences = { emailNotifications: true, language: 'en', colorMode: 'system', timeZone: 'UTC', mailReviewDigest: false } as const;
    const accountUser = { ...staffUser, address: null, birthYear: null, preferences, createdAt: '2026-01-01T00:00:00.000Z', pendingEmail: null };
    $account.set({ status: 'ready', data: { user: accountUser, sessions: [] } });
    on('PATCH', '/api/account/preferences', (call) => json(200, { user: { ...accountUser, preferences: call.body } }));
    const { user } = open('/account/edit/preferences', PreferencesScreen);
    const digest = screen.getByRole('switch', { name: 'Daily mail when entries have waited for review more than a day' });
    expect(digest.getAttribute('aria-checked')).toBe('false');
    await user.click(digest);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your preferences are saved.')).toBeTruthy();
    expect(sent('PATCH', '/api/account/preferences').map((call) => (call.body as { mailReviewDigest?: boolean }).mailReviewDigest)).toEqual([true]);
    cleanup();
    $account.set({ status: 'idle' });

    // A participant's screen has no such switch, and their save sends none.
    $auth.set({ status: 'authenticated', user: { ...USER } });
    const participantUser = {
      ...USER,
      address: null,
      birthYear: null,
      preferences: { emailNotifications: true, language: 'en', colorMode: 'system', timeZone: 'UTC' } as const,
    };
    $account.set({ status: 'ready', data: { user: { ...participantUser, createdAt: '2026-01-01T00:00:00.000Z', pendingEmail: null }, sessions: [] } });
    open('/account/edit/preferences', PreferencesScreen);
    expect(screen.getByRole('switch', { name: 'Reminders two days before a mission closes' })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Daily mail when entries have waited for review more than a day' })).toBeNull();
    cleanup();
    $account.set({ status: 'idle' });
  });
});

// ---------------------------------------------------------------------------------------------

describe('profile', () => {
  const accountUser = {
    ...USER,
    address: null,
    birthYear: null,
    preferences: { emailNotifications: true, language: 'en', colorMode: 'system' } as const,
    createdAt: '2026-01-01T00:00:00.000Z',
    pendingEmail: null,
  };

  it('takes an optional year of birth: the schema’s messages, then saved as a number, and cleared as null', async () => {
    $account.set({ status: 'ready', data: { user: accountUser, sessions: [] } });
    on('PATCH', '/api/account/profile', (call) => json(200, { user: { ...accountUser, ...(call.body as object) } }));
    const { user } = open('/account/edit/profile', ProfileScreen);
    const year = screen.getByRole('textbox', { name: 'Year of birth' }) as HTMLInputElement;
    expect(year.value).toBe('');
    expect(year.getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByText('Optional. Used only in anonymous age bands for research reports.')).toBeTruthy();

    const nextYear = new Date().getUTCFullYear() + 1;
    await user.type(year, String(nextYear));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Year of birth cannot be in the future')).toBeTruthy();
    await user.clear(year);
    await user.type(year, '19x5');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Enter the year as four digits, like 1985')).toBeTruthy();
    expect(sent('PATCH', '/api/account/profile')).toHaveLength(0);

    await user.clear(year);
    await user.type(year, '1985');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your profile is saved.')).toBeTruthy();
    expect(year.value).toBe('1985');

    await user.clear(year);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(sent('PATCH', '/api/account/profile')).toHaveLength(2));
    expect(sent('PATCH', '/api/account/profile').map((call) => call.body)).toEqual([
      { firstName: 'Ada', lastName: 'Lovelace', birthYear: 1985 },
      { firstName: 'Ada', lastName: 'Lovelace', birthYear: null },
    ]);
    cleanup();
    $account.set({ status: 'idle' });
  });
});

// ---------------------------------------------------------------------------------------------

describe('the mission page after changes were asked', () => {
  function mission(extra: Partial<ParticipantMission> = {}): ParticipantMission {
    return {
      id: 4,
      title: 'Fridge photo',
      instructions: 'Take a photo.',
      points: 80,
      projectName: 'Mornings',
      opensAt: null,
      closesAt: null,
      availability: 'open',
      review: 'manual',
      entries: { min: 1, max: 3, perDay: null },
      form: { version: 1, definition: photoForm },
      myEntries: [
        {
          id: 12,
          status: 'changes_requested',
          answers: { shelf: ['m1'], note: 'Milk' },
          localDate: '2026-03-05',
          createdAt: '2026-03-05T10:00:00.000Z',
          submittedAt: '2026-03-05T10:05:00.000Z',
          seed: 'entry-12',
          revision: 2,
        },
        {
          id: 11,
          status: 'approved',
          answers: { shelf: ['m0'] },
          localDate: '2026-03-04',
          createdAt: '2026-03-04T10:00:00.000Z',
          submittedAt: '2026-03-04T10:05:00.000Z',
          seed: 'entry-11',
          revision: 2,
        },
      ],
      canAddEntry: true,
      ...extra,
    };
  }

  it('opens the entry named in the address, with the reviewer’s reason, and resubmits it', async () => {
    on('GET', '/api/missions/4', json(200, mission()));
    on(
      'GET',
      '/api/account/mission-history/4',
      json(200, missionHistory([historyEntry(12, { id: 12, status: 'changes_requested', reviewReason: 'The photo is blurry.' })])),
    );
    on('PUT', '/api/missions/4/entries/12', json(200, { status: 'changes_requested', savedAt: new Date().toISOString() }));
    on('POST', '/api/missions/4/entries/12/submit', json(200, { status: 'submitted' }));
    const { user } = open('/missions/4?entry=12', MissionScreen);

    expect(await screen.findByRole('heading', { level: 2, name: /^Entry 2/ })).toBeTruthy();
    expect(await screen.findByText('The photo is blurry.')).toBeTruthy();
    const note = (await screen.findByRole('textbox', { name: /What is on the top shelf/ })) as HTMLInputElement;
    expect(note.value).toBe('Milk');
    await user.clear(note);
    await user.type(note, 'Milk and butter');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(sent('POST', '/api/missions/4/entries/12/submit')).toHaveLength(1));
    expect(sent('POST', '/api/missions/4/entries/12/submit')[0]?.body).toEqual({ answers: { shelf: ['m1'], note: 'Milk and butter' }, language: 'en' });
    // Back on the list, the address no longer opens the entry.
    await waitFor(() => expect(location.search).toBe(''));
  });

  it('lists the entry sent back with the reason and "Edit and resubmit" when no entry is named', async () => {
    on('GET', '/api/missions/4', json(200, mission()));
    on(
      'GET',
      '/api/account/mission-history/4',
      json(200, missionHistory([historyEntry(12, { id: 12, status: 'changes_requested', reviewReason: 'The photo is blurry.' })])),
    );
    open('/missions/4', MissionScreen);
    expect(await screen.findByRole('button', { name: 'Edit and resubmit entry 2' })).toBeTruthy();
    expect(await screen.findByText('The photo is blurry.')).toBeTruthy();
  });

  it('asks for no reasons when nothing was sent back', async () => {
    on('GET', '/api/missions/4', json(200, mission({ myEntries: [] })));
    open('/missions/4', MissionScreen);
    expect(await screen.findByRole('button', { name: 'Add an entry' })).toBeTruthy();
    expect(sent('GET', '/api/account/mission-history/4')).toHaveLength(0);
  });
});
