// @vitest-environment happy-dom
/**
 * /admin/rewards (issue 30 §2) against a fake API (fetch stubbed): the catalogue's rows; the reward
 * dialog checks the form with the API's rules before sending (each message at its field), shows
 * the API's field messages at theirs, sends the whole body for a new reward and only what changed
 * for an edit; the settings are saved as one object; moderators read only.
 */
import { fakeApi, json } from '../fake-api.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_REWARD_SETTINGS, type AdminReward } from '../../../src/shared/rewards.ts';
import { $auth } from '../../../src/stores/auth.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const { default: RewardsScreen } = await import('../../../src/islands/admin/rewards/RewardsScreen.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const api = fakeApi();
const { on, sent } = api;

const invalid = (fields: Record<string, string[]>) => json(400, { error: { code: 'validation_failed', message: 'Check the highlighted fields', fields } });

const ADMIN = { id: 3, email: 'ada@example.org', firstName: 'Ada', lastName: 'Admin', role: 'admin', status: 'active' } as const;
const LIST = '/api/admin/rewards?page=1&pageSize=10&sort=title';

const BOOKS: AdminReward = {
  id: 7,
  title: 'Book voucher',
  description: 'For any bookshop',
  kind: 'custom',
  fulfilment: 'manual',
  providerProductId: null,
  currency: 'EUR',
  denominations: null,
  range: { min: 5, max: 50, step: 5 },
  countries: ['BE', 'NL'],
  active: true,
  stock: 12,
  imageMediaId: null,
  imageUrl: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const listOf = (...items: AdminReward[]) => json(200, { items, total: items.length, page: 1, pageSize: 10 });

beforeEach(() => {
  api.install();
  $auth.set({ status: 'authenticated', user: { ...ADMIN } });
  history.replaceState(null, '', '/admin/rewards');
  on('GET', '/api/admin/rewards/settings', json(200, { ...DEFAULT_REWARD_SETTINGS, provider: null }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open() {
  const user = userEvent.setup();
  render(createElement(RewardsScreen));
  return user;
}

/** The message shown for a field: the text of the element its `aria-describedby` names last. */
function errorOf(field: HTMLElement): string | null {
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return ids.length ? (document.getElementById(ids[0] ?? '')?.textContent ?? null) : null;
}

describe('/admin/rewards', () => {
  it('lists the catalogue: kind, delivery, values, countries, active and stock', async () => {
    on('GET', LIST, listOf(BOOKS));
    open();

    const row = (await screen.findByRole('cell', { name: 'Book voucher' })).closest('tr') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Book voucher', 'Custom reward', 'By hand', 'EUR', '5–50 EUR in steps of 5', 'BE, NL', 'Active', '12', 'Edit Book voucher']);
  });

  it('checks a new reward with the API’s rules, shows the API’s messages at their fields, then adds it', async () => {
    on('GET', LIST, listOf(), listOf(BOOKS));
    on(
      'POST',
      '/api/admin/rewards',
      invalid({ currency: ['Enter a currency code (ISO 4217, e.g. EUR)'], imageMediaId: ['No such image: upload it first'] }),
      json(201, { ...BOOKS, id: 8, title: 'Plant a tree', kind: 'donation', stock: null }),
    );
    const user = open();

    await user.click(await screen.findByRole('button', { name: 'New reward' }));
    const dialog = await screen.findByRole('dialog', { name: 'New reward' });
    const countries = within(dialog).getByLabelText(/^Countries/);
    await user.type(countries, 'NL, XX');
    await user.click(within(dialog).getByRole('button', { name: 'Add reward' }));

    // Checked before sending: each message at its own field, nothing sent.
    await waitFor(() => expect(errorOf(within(dialog).getByLabelText('Title'))).toBe('Required'));
    expect(errorOf(within(dialog).getByLabelText('Values'))).toBe('Enter at least one value');
    expect(errorOf(countries)).toBe('Enter country codes (ISO 3166-1, e.g. NL)');
    expect(sent('POST', '/api/admin/rewards')).toEqual([]);

    await user.type(within(dialog).getByLabelText('Title'), 'Plant a tree');
    await user.type(within(dialog).getByLabelText('Values'), '5, 10,2.5');
    await user.clear(countries);
    await user.type(countries, 'nl be');
    await user.click(within(dialog).getByRole('button', { name: 'Add reward' }));

    // The API's own messages: at the currency field, and the image's under the upload button.
    await waitFor(() => expect(errorOf(within(dialog).getByLabelText('Currency'))).toBe('Enter a currency code (ISO 4217, e.g. EUR)'));
    expect(within(dialog).getByText('No such image: upload it first')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Add reward' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const body = {
      title: 'Plant a tree',
      description: '',
      kind: 'gift_card',
      fulfilment: 'manual',
      providerProductId: null,
      currency: 'EUR',
      denominations: [5, 10, 2.5],
      countries: ['NL', 'BE'],
      active: true,
      stock: null,
      imageMediaId: null,
    };
    expect(sent('POST', '/api/admin/rewards')).toEqual([body, body]);
    expect(await screen.findByRole('cell', { name: 'Book voucher' })).toBeTruthy();
  });

  it('checks a range and sends only what changed when a reward is edited', async () => {
    on('GET', LIST, listOf(BOOKS));
    on('PATCH', '/api/admin/rewards/7', json(200, { ...BOOKS, range: { min: 5, max: 100, step: 5 }, stock: null }));
    const user = open();

    await user.click(await screen.findByRole('button', { name: 'Edit Book voucher' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Book voucher' });
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).value).toBe('Book voucher');
    const max = within(dialog).getByLabelText('Maximum');
    await user.clear(max);
    await user.type(max, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Save reward' }));
    expect(await within(dialog).findByText('The minimum must not be above the maximum')).toBeTruthy();
    expect(sent('PATCH', '/api/admin/rewards/7')).toEqual([]);

    await user.clear(max);
    await user.type(max, '100');
    await user.clear(within(dialog).getByLabelText(/^Stock/));
    await user.click(within(dialog).getByRole('button', { name: 'Save reward' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent('PATCH', '/api/admin/rewards/7')).toEqual([{ range: { min: 5, max: 100, step: 5 }, stock: null }]);
  });

  it('warns, on a reward the provider delivers, that this server orders from no provider', async () => {
    const cards = {
      ...BOOKS,
      id: 9,
      title: 'Amazon card',
      kind: 'gift_card' as const,
      fulfilment: 'provider' as const,
      providerProductId: 'OKMHM2X2OHYV',
      stock: null,
    };
    on('GET', LIST, listOf(cards));
    const user = open();
    await user.click(await screen.findByRole('button', { name: 'Edit Amazon card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Amazon card' });
    expect(within(dialog).getByText('No gift-card provider is set up')).toBeTruthy();
    cleanup();

    on('GET', '/api/admin/rewards/settings', json(200, { ...DEFAULT_REWARD_SETTINGS, provider: 'tremendous' }));
    const again = open();
    await again.click(await screen.findByRole('button', { name: 'Edit Amazon card' }));
    const withProvider = await screen.findByRole('dialog', { name: 'Edit Amazon card' });
    expect(within(withProvider).getByLabelText("Provider's product id")).toBeTruthy();
    expect(within(withProvider).queryByText('No gift-card provider is set up')).toBeNull();
  });

  it('saves the settings as one object and shows the API’s message at its field', async () => {
    on('GET', LIST, listOf());
    on(
      'PUT',
      '/api/admin/rewards/settings',
      invalid({ pointsPerUnit: ['Enter a currency code (ISO 4217, e.g. EUR)'] }),
      json(200, { ...DEFAULT_REWARD_SETTINGS, pointsPerUnit: { EUR: 100, USD: 90 }, minimumPoints: 1000, taxForm: { yearlyValue: 600, currency: 'USD' } }),
    );
    const user = open();

    const minimum = await screen.findByLabelText('Minimum redemption (points)');
    await user.clear(minimum);
    await user.type(minimum, '1000');
    await user.click(screen.getByRole('button', { name: 'Add a currency' }));
    const currencies = screen.getAllByLabelText('Currency');
    await user.type(currencies[1] as HTMLElement, 'usd');
    await user.type(screen.getAllByLabelText('Points per unit')[1] as HTMLElement, '90');
    await user.click(screen.getByRole('checkbox', { name: 'Require a tax form above a yearly value' }));
    await user.type(screen.getByLabelText('Yearly value'), '600');
    const taxCurrency = screen.getAllByLabelText('Currency')[2] as HTMLElement;
    await user.clear(taxCurrency);
    await user.type(taxCurrency, 'USD');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('Enter a currency code (ISO 4217, e.g. EUR)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('The settings are saved.')).toBeTruthy();
    const body = { ...DEFAULT_REWARD_SETTINGS, pointsPerUnit: { EUR: 100, USD: 90 }, minimumPoints: 1000, taxForm: { yearlyValue: 600, currency: 'USD' } };
    expect(sent('PUT', '/api/admin/rewards/settings')).toEqual([body, body]);
  });

  it('shows moderators the catalogue and settings without changing them', async () => {
    $auth.set({ status: 'authenticated', user: { ...ADMIN, role: 'moderator' } });
    on('GET', LIST, listOf(BOOKS));
    open();

    expect(await screen.findByRole('cell', { name: 'Book voucher' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New reward' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(((await screen.findByLabelText('Minimum redemption (points)')) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save settings' })).toBeNull();
    expect(screen.getAllByText(/Only admins can change rewards/).length).toBeGreaterThan(0);
  });
});
