// @vitest-environment happy-dom
/**
 * The sign-in page's second step (issue 29 §2) against a fake API (fetch stubbed): a password
 * that needs a second step shows the code field in place (named "Authentication code", the
 * one-time-code hint, focused), a wrong code is announced, a right one (with "Trust this
 * browser") signs in; "Use a recovery code" switches the field; a pending sign-in that ended
 * starts over at the password.
 */
import { fakeApi, json } from '../fake-api.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { $auth } from '../../../src/stores/auth.ts';

const navigateTo = vi.fn(async (_to: string, _options?: unknown) => {});
vi.mock('../../../src/lib/navigation.ts', () => ({ navigateTo }));
const { default: LoginForm } = await import('../../../src/islands/auth/LoginForm.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const api = fakeApi();
const { on, sent } = api;

const USER = { id: 7, email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', role: 'participant', status: 'active' };

beforeEach(() => {
  api.install();
  navigateTo.mockClear();
  $auth.set({ status: 'unauthenticated' });
  history.replaceState(null, '', '/login');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function passwordStep() {
  const user = userEvent.setup();
  render(createElement(LoginForm));
  await user.type(screen.getByLabelText('Email'), 'ada@example.org');
  await user.type(screen.getByLabelText('Password'), 'Str0ng-password!');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('the second step of sign-in', () => {
  it('asks for the authentication code in place, announces a wrong one, and signs in with a right one', async () => {
    on('POST', '/api/auth/login', json(200, { ok: true, next: 'second_factor', methods: ['totp', 'passkey', 'recovery'], canTrustBrowser: true }));
    on(
      'POST',
      '/api/auth/second-factor',
      json(401, { error: { code: 'invalid_code', message: 'That code is not right: try again' } }),
      json(200, { ok: true }),
    );
    on('GET', '/api/auth', json(200, USER));
    const user = await passwordStep();

    const code = await screen.findByRole('textbox', { name: 'Authentication code' });
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.getByRole('button', { name: 'Use a passkey' })).toBeTruthy();

    // Checked before sending: digits only.
    await user.type(code, '12ab');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Enter the 6 digits your authenticator app shows')).toBeTruthy();
    expect(sent('POST', '/api/auth/second-factor')).toEqual([]);

    await user.clear(code);
    await user.type(code, '000 000');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toContain('That code is not right: try again');
    expect(document.activeElement).toBe(code);

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('checkbox', { name: 'Trust this browser for 30 days' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/', { replace: true }));
    expect(sent('POST', '/api/auth/second-factor')).toEqual([{ code: '000000' }, { code: '123456', trustBrowser: true }]);
    expect($auth.get()).toMatchObject({ status: 'authenticated' });
  });

  it('switches to a recovery code, and starts over when the pending sign-in has ended', async () => {
    // A staff account: "Trust this browser" is not offered.
    on('POST', '/api/auth/login', json(200, { ok: true, next: 'second_factor', methods: ['totp', 'recovery'], canTrustBrowser: false }));
    on('POST', '/api/auth/second-factor', json(401, { error: { code: 'unauthenticated', message: 'Your sign-in has expired' } }));
    const user = await passwordStep();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    await screen.findByRole('textbox', { name: 'Authentication code' });
    expect(screen.queryByRole('checkbox', { name: 'Trust this browser for 30 days' })).toBeNull();

    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByRole('textbox', { name: 'Recovery code' });
    await waitFor(() => expect(document.activeElement).toBe(field));
    await user.type(field, 'abcd-efgh-jkmn-pqrs');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect((await screen.findByRole('alert')).textContent).toContain('Your sign-in timed out or was stopped');
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(sent('POST', '/api/auth/second-factor')).toEqual([{ recoveryCode: 'abcd-efgh-jkmn-pqrs' }]);
    expect(navigateTo).not.toHaveBeenCalled();
  });
});
