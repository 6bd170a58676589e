// @vitest-environment happy-dom
/**
 * The rewards' changes to the user detail (issue 30 §1, §5) against a fake API (fetch stubbed):
 * "Adjust points" answered 409 `insufficient_points` says so and offers "Allow the balance to go
 * below zero", sent as `allowNegative`; the "Tax form on file" switch records or withdraws it
 * (admins), and is read-only for moderators.
 */
import { fakeApi, json } from '../fake-api.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUserDetail } from '../../../src/shared/users.ts';
import { $auth } from '../../../src/stores/auth.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const { AdjustPointsDialog } = await import('../../../src/islands/admin/users/AdjustPointsDialog.tsx');
const { default: UserDetail } = await import('../../../src/islands/admin/users/UserDetail.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const api = fakeApi();
const { on, sent } = api;

const ADMIN = { id: 3, email: 'ada@example.org', firstName: 'Ada', lastName: 'Admin', role: 'admin', status: 'active' } as const;

const person = (taxFormOnFileAt: string | null): AdminUserDetail => ({
  id: 41,
  email: 'ann@example.org',
  firstName: 'Ann',
  lastName: 'Tester',
  role: 'participant',
  status: 'active',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastActiveAt: null,
  address: null,
  birthYear: null,
  taxFormOnFileAt,
  preferences: {},
  lastSignInAt: null,
  termsAcceptedAt: null,
  sessions: [],
  projects: [],
  entries: [],
  points: { balance: 120, available: 120, pending: 0, held: 0, entries: [] },
  audit: [],
});

beforeEach(() => {
  api.install();
  $auth.set({ status: 'authenticated', user: { ...ADMIN } });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Adjust points', () => {
  it('says a balance would go below zero, then sends allowNegative once the admin allows it', async () => {
    const message = "This would take Ann Tester's available points below zero (120 available): take away less, or allow a negative balance";
    on(
      'POST',
      '/api/admin/users/41/points',
      json(409, { error: { code: 'insufficient_points', message, details: { available: 120 } } }),
      json(201, { id: 9, points: -200, reason: 'Duplicate payout' }),
    );
    const onAdjusted = vi.fn();
    const user = userEvent.setup();
    render(createElement(AdjustPointsDialog, { open: true, onOpenChange: () => {}, userId: 41, name: 'Ann Tester', onAdjusted }));

    const dialog = await screen.findByRole('dialog', { name: 'Adjust points' });
    // Not offered before the API said so.
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await user.type(within(dialog).getByLabelText('Points'), '-200');
    await user.type(within(dialog).getByLabelText('Reason'), 'Duplicate payout');
    await user.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));

    expect((await within(dialog).findByRole('alert')).textContent).toContain(message);
    const allow = within(dialog).getByRole('checkbox', { name: 'Allow the balance to go below zero' });
    await user.click(allow);
    await user.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));

    await waitFor(() => expect(onAdjusted).toHaveBeenCalled());
    expect(sent('POST', '/api/admin/users/41/points')).toEqual([
      { points: -200, reason: 'Duplicate payout' },
      { points: -200, reason: 'Duplicate payout', allowNegative: true },
    ]);
  });
});

describe('Tax form on file', () => {
  it('records a tax form for an admin', async () => {
    history.replaceState(null, '', '/admin/users/41');
    on('GET', '/api/admin/users/41', json(200, person(null)), json(200, person('2026-11-29T10:00:00.000Z')));
    on('PUT', '/api/admin/users/41/tax-form', json(200, { onFile: true, taxFormOnFileAt: '2026-11-29T10:00:00.000Z' }));
    const user = userEvent.setup();
    render(createElement(UserDetail));

    const toggle = await screen.findByRole('switch', { name: 'Tax form on file' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await user.click(toggle);

    await waitFor(() => expect(sent('PUT', '/api/admin/users/41/tax-form')).toEqual([{ onFile: true }]));
    await waitFor(() => expect(screen.getByText(/^Recorded on/)).toBeTruthy());
    expect(screen.getByRole('switch', { name: 'Tax form on file' }).getAttribute('aria-checked')).toBe('true');
  });

  it('is read-only for moderators', async () => {
    $auth.set({ status: 'authenticated', user: { ...ADMIN, role: 'moderator' } });
    history.replaceState(null, '', '/admin/users/41');
    on('GET', '/api/admin/users/41', json(200, person(null)));
    render(createElement(UserDetail));

    const toggle = await screen.findByRole('switch', { name: 'Tax form on file' });
    expect((toggle as HTMLButtonElement).disabled).toBe(true);
  });
});
