// @vitest-environment happy-dom
/**
 * /admin/rewards/redemptions (issue 30 §4) against a fake API (fetch stubbed): the queue asks for
 * its filters oldest first and links the CSV of the same period and status; approve, reject with
 * a reason, mark delivered (manual rewards only) and bulk approve send what the API takes; a 409
 * is said and the page asked for again; a 403 `reauth_required` waits for the re-authentication
 * dialog, then the decision is sent again; moderators read only.
 */
import { fakeApi, json } from '../fake-api.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, Fragment } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminRedemption, AdminReward } from '../../../src/shared/rewards.ts';
import { $auth } from '../../../src/stores/auth.ts';
import { installReauth } from '../../../src/stores/reauth.ts';
import { setReauthHandler } from '../../../src/platform/api.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const { default: RedemptionsQueue } = await import('../../../src/islands/admin/rewards/RedemptionsQueue.tsx');
const { default: ReauthDialog } = await import('../../../src/islands/shell/ReauthDialog.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const api = fakeApi();
const { on, sent } = api;

const refusal = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) => json(status, { error: { code, message, ...extra } });

const ADMIN = { id: 3, email: 'ada@example.org', firstName: 'Ada', lastName: 'Admin', role: 'admin', status: 'active' } as const;
const QUEUE = '/api/admin/redemptions?status=requested&page=1&pageSize=10&sort=requested&dir=asc';
const CATALOGUE = '/api/admin/rewards?pageSize=100&sort=title';

const reward = (id: number, title: string, fulfilment: AdminReward['fulfilment']): AdminReward => ({
  id,
  title,
  description: '',
  kind: 'gift_card',
  fulfilment,
  providerProductId: fulfilment === 'provider' ? 'OKMHM2X2OHYV' : null,
  currency: 'EUR',
  denominations: [10, 25],
  range: null,
  countries: [],
  active: true,
  stock: null,
  imageMediaId: null,
  imageUrl: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
});
const BOOKS = reward(1, 'Book voucher', 'manual');
const AMAZON = reward(2, 'Amazon gift card', 'provider');

const request = (id: number, first: string, what: AdminReward, status: AdminRedemption['status'] = 'requested'): AdminRedemption => ({
  id,
  reward: { id: what.id, title: what.title, kind: what.kind, fulfilment: what.fulfilment },
  value: 10,
  currency: 'EUR',
  points: 1000,
  status,
  reason: null,
  timeline: [{ status: 'requested', at: `2026-11-0${id}T09:00:00.000Z` }],
  needsReview: true,
  createdAt: `2026-11-0${id}T09:00:00.000Z`,
  user: { id: 40 + id, email: `${first.toLowerCase()}@example.org`, firstName: first, lastName: 'Tester' },
});
const page = (...items: AdminRedemption[]) => json(200, { items, total: items.length, page: 1, pageSize: 10 });

beforeEach(() => {
  api.install();
  $auth.set({ status: 'authenticated', user: { ...ADMIN } });
  history.replaceState(null, '', '/admin/rewards/redemptions');
  on('GET', CATALOGUE, json(200, { items: [AMAZON, BOOKS], total: 2, page: 1, pageSize: 100 }));
});

afterEach(() => {
  cleanup();
  setReauthHandler(null);
  vi.unstubAllGlobals();
});

function open() {
  const user = userEvent.setup();
  render(createElement(Fragment, null, createElement(RedemptionsQueue), createElement(ReauthDialog)));
  return user;
}

/** The table row that names this participant. */
const rowOf = async (name: string) => (await screen.findByRole('link', { name })).closest('tr') as HTMLElement;

describe('/admin/rewards/redemptions', () => {
  it('asks for the filters in the address bar, oldest first, and links the CSV of that period and status', async () => {
    history.replaceState(null, '', '/admin/rewards/redemptions?status=approved&rewardId=1&q=ann&from=2026-11-01&to=2026-11-30&page=2');
    const path = '/api/admin/redemptions?status=approved&rewardId=1&q=ann&from=2026-11-01&to=2026-11-30&page=2&pageSize=10&sort=requested&dir=asc';
    on('GET', path, json(200, { items: [request(1, 'Ann', BOOKS, 'approved')], total: 11, page: 2, pageSize: 10 }));
    open();

    expect(await rowOf('Ann Tester')).toBeTruthy();
    expect(sent('GET', path)).toHaveLength(1);
    const csv = screen.getByRole('link', { name: 'Download CSV' });
    expect(csv.getAttribute('href')).toBe('/api/admin/redemptions.csv?from=2026-11-01&to=2026-11-30&status=approved');
    expect((screen.getByLabelText('Requested from') as HTMLInputElement).value).toBe('2026-11-01');
    expect(screen.getByText('Showing 11–11 of 11')).toBeTruthy();
  });

  it('approves a request with the status it showed, and shows it approved', async () => {
    on('GET', QUEUE, page(request(1, 'Ann', BOOKS)), page(request(1, 'Ann', BOOKS, 'approved')));
    on('POST', '/api/admin/redemptions/1/approve', json(200, request(1, 'Ann', BOOKS, 'approved')));
    const user = open();

    const row = await rowOf('Ann Tester');
    await user.click(within(row).getByRole('button', { name: 'Approve the request of Ann Tester' }));
    await user.click(within(row).getByRole('button', { name: 'Approve' }));

    await waitFor(() => expect(within(row).getByText('Approved')).toBeTruthy());
    expect(sent('POST', '/api/admin/redemptions/1/approve')).toEqual([{ expectedStatus: 'requested' }]);
    // Approved, it can still be sent or rejected, no longer approved.
    expect(within(row).queryByRole('button', { name: /^Approve/ })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Mark delivered for Ann Tester' })).toBeTruthy();
  });

  it('says a request that moved on (409) and shows it as it is now', async () => {
    on('GET', QUEUE, page(request(1, 'Ann', BOOKS)), page(request(1, 'Ann', BOOKS, 'cancelled')));
    on(
      'POST',
      '/api/admin/redemptions/1/approve',
      refusal(409, 'conflict', 'This request changed meanwhile: it is cancelled now', { current: { status: 'cancelled' } }),
    );
    const user = open();

    const row = await rowOf('Ann Tester');
    await user.click(within(row).getByRole('button', { name: 'Approve the request of Ann Tester' }));
    await user.click(within(row).getByRole('button', { name: 'Approve' }));

    expect((await screen.findByRole('alert')).textContent).toContain('This request changed meanwhile: it is cancelled now');
    await waitFor(() => expect(within(row).getByText('Cancelled')).toBeTruthy());
    expect(sent('GET', QUEUE)).toHaveLength(2);
  });

  it('rejects with a reason the participant reads (required)', async () => {
    on('GET', QUEUE, page(request(1, 'Ann', BOOKS)), page(request(1, 'Ann', BOOKS, 'rejected')));
    on('POST', '/api/admin/redemptions/1/reject', json(200, { ...request(1, 'Ann', BOOKS, 'rejected'), reason: 'Duplicate account' }));
    const user = open();

    await user.click(within(await rowOf('Ann Tester')).getByRole('button', { name: 'Reject the request of Ann Tester' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject the request' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Say why')).toBeTruthy();
    expect(sent('POST', '/api/admin/redemptions/1/reject')).toEqual([]);

    await user.type(within(dialog).getByLabelText('Reason'), 'Duplicate account');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent('POST', '/api/admin/redemptions/1/reject')).toEqual([{ reason: 'Duplicate account', expectedStatus: 'requested' }]);
  });

  it('marks a manual reward delivered with its code; a provider reward has no such button', async () => {
    on('GET', QUEUE, page(request(1, 'Ann', BOOKS), request(2, 'Bob', AMAZON)), page(request(1, 'Ann', BOOKS, 'delivered'), request(2, 'Bob', AMAZON)));
    on(
      'POST',
      '/api/admin/redemptions/1/deliver',
      refusal(400, 'validation_failed', 'Check the highlighted fields', { fields: { link: ['Give an https:// link'] } }),
      json(200, request(1, 'Ann', BOOKS, 'delivered')),
    );
    const user = open();

    expect(within(await rowOf('Bob Tester')).queryByRole('button', { name: /Mark delivered/ })).toBeNull();
    await user.click(within(await rowOf('Ann Tester')).getByRole('button', { name: 'Mark delivered for Ann Tester' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark delivered' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark delivered' }));
    // Neither a code nor a link: said at the code, nothing sent.
    expect(await within(dialog).findByText('Give a code or a link')).toBeTruthy();
    expect(sent('POST', '/api/admin/redemptions/1/deliver')).toEqual([]);

    await user.type(within(dialog).getByLabelText(/^Code/), 'BOOK-1234');
    await user.type(within(dialog).getByLabelText('Link'), 'https://example.org/redeem');
    await user.click(within(dialog).getByRole('button', { name: 'Mark delivered' }));
    // The API's field message beside its field.
    const link = within(dialog).getByLabelText('Link');
    await waitFor(() => expect(link.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText('Give an https:// link')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Mark delivered' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent('POST', '/api/admin/redemptions/1/deliver')).toEqual([
      { code: 'BOOK-1234', link: 'https://example.org/redeem' },
      { code: 'BOOK-1234', link: 'https://example.org/redeem' },
    ]);
    await waitFor(() => expect(within(screen.getByRole('link', { name: 'Ann Tester' }).closest('tr') as HTMLElement).getByText('Delivered')).toBeTruthy());
  });

  it('approves the selected requests at once and says which were skipped', async () => {
    on('GET', QUEUE, page(request(1, 'Ann', BOOKS), request(2, 'Bob', AMAZON), request(3, 'Cy', BOOKS)), page(request(3, 'Cy', BOOKS)));
    on('POST', '/api/admin/redemptions/approve', json(200, { approved: [1], skipped: [{ id: 2, reason: 'conflict' }] }));
    const user = open();

    await user.click(within(await rowOf('Ann Tester')).getByRole('checkbox', { name: 'Select the request of Ann Tester' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select the request of Bob Tester' }));
    await user.click(screen.getByRole('button', { name: 'Approve 2 selected' }));
    await user.click(screen.getByRole('button', { name: 'Approve 2' }));

    expect((await screen.findByText(/requests? approved/)).textContent).toBe('1 request approved. 1 skipped: #2 changed meanwhile.');
    expect(sent('POST', '/api/admin/redemptions/approve')).toEqual([{ ids: [1, 2], expectedStatus: 'requested' }]);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Ann Tester' })).toBeNull());
  });

  it('waits for the re-authentication dialog on 403 reauth_required, then sends the decision again', async () => {
    installReauth();
    on('GET', '/api/account/security', json(200, { totp: false, passkeys: [], recoveryCodesLeft: 0, required: false }));
    on('GET', QUEUE, page(request(1, 'Ann', BOOKS)), page(request(1, 'Ann', BOOKS, 'approved')));
    on(
      'POST',
      '/api/admin/redemptions/1/approve',
      refusal(403, 'reauth_required', "Confirm it's you to continue"),
      json(200, request(1, 'Ann', BOOKS, 'approved')),
    );
    on('POST', '/api/auth/reauth', json(200, { ok: true, until: '2026-11-29T10:15:00.000Z' }));
    const user = open();

    const row = await rowOf('Ann Tester');
    await user.click(within(row).getByRole('button', { name: 'Approve the request of Ann Tester' }));
    await user.click(within(row).getByRole('button', { name: 'Approve' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.type(within(dialog).getByLabelText('Password'), 'Str0ng-password!');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await waitFor(() => expect(within(row).getByText('Approved')).toBeTruthy());
    expect(sent('POST', '/api/admin/redemptions/1/approve')).toEqual([{ expectedStatus: 'requested' }, { expectedStatus: 'requested' }]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows moderators the queue without the decisions', async () => {
    $auth.set({ status: 'authenticated', user: { ...ADMIN, role: 'moderator' } });
    on('GET', QUEUE, page(request(1, 'Ann', BOOKS)));
    open();

    const row = await rowOf('Ann Tester');
    expect(within(row).queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByText(/Only admins decide on requests/)).toBeTruthy();
  });
});
