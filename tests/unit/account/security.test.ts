// @vitest-environment happy-dom
/**
 * /account/security and the re-authentication dialog (issue 29) against a fake API (fetch
 * stubbed): a staff member without a second factor is told why; setting up an authenticator app
 * (the QR code as an image, the key grouped for reading, a first code) shows the recovery codes
 * once, with Copy and "Download as text"; a refusal (409 `last_second_factor`) is said in words;
 * and a change answered 403 `reauth_required` waits for the dialog (password and code), then is
 * sent again, what was typed still there.
 */
import { fakeApi, json } from '../fake-api.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, Fragment } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SecurityView } from '../../../src/shared/schemas/second-factors.ts';
import { $auth } from '../../../src/stores/auth.ts';
import { installReauth } from '../../../src/stores/reauth.ts';
import { setReauthHandler } from '../../../src/platform/api.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const { default: SecurityScreen, groupSecret, recoveryCodesText } = await import('../../../src/islands/account/SecurityScreen.tsx');
const { default: ReauthDialog } = await import('../../../src/islands/shell/ReauthDialog.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const api = fakeApi();
const { on, sent } = api;

const refusal = (status: number, code: string, message: string) => json(status, { error: { code, message } });

const ADMIN = { id: 3, email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', role: 'admin', status: 'active' } as const;
const view = (extra: Partial<SecurityView> = {}): SecurityView => ({ totp: false, passkeys: [], recoveryCodesLeft: 0, required: true, ...extra });
const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jkmn-pq${String(i).padStart(2, '0')}`);
const QR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M0 0h7v7H0z"/></svg>';

beforeEach(() => {
  api.install();
  $auth.set({ status: 'authenticated', user: { ...ADMIN } });
  history.replaceState(null, '', '/account/security?r=/admin/users');
  on('GET', '/api/auth', json(200, { ...ADMIN, secondFactor: true, secondFactorRequired: true }));
});

afterEach(() => {
  cleanup();
  setReauthHandler(null);
  vi.unstubAllGlobals();
});

function open() {
  const user = userEvent.setup();
  render(createElement(Fragment, null, createElement(SecurityScreen), createElement(ReauthDialog)));
  return user;
}

describe('/account/security', () => {
  it('tells staff why, sets up an authenticator app and shows the recovery codes once', async () => {
    on('GET', '/api/account/security', json(200, view()), json(200, view({ totp: true, recoveryCodesLeft: 10 })));
    on('POST', '/api/account/totp', json(200, { secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', otpauthUrl: 'otpauth://totp/Fieldwork:ada', qrSvg: QR }));
    on(
      'POST',
      '/api/account/totp/confirm',
      json(400, { error: { code: 'invalid_code', message: 'That code is not right: try again', fields: { code: ['That code is not right: try again'] } } }),
      json(200, { recoveryCodes: CODES }),
    );
    const user = open();

    expect(await screen.findByText('Set up a second way to sign in to use the admin area')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));

    const qr = await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' });
    // Our server's SVG as a picture, never as markup in the page.
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(QR)}`);
    expect(document.querySelector('main svg path[d="M0 0h7v7H0z"], body > div svg path[d="M0 0h7v7H0z"]')).toBeNull();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Set up your authenticator app');

    const code = screen.getByRole('textbox', { name: 'Authentication code' });
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect((await screen.findByRole('alert')).textContent).toContain('That code is not right: try again');

    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(sent('POST', '/api/account/totp/confirm')).toEqual([{ code: '111111' }, { code: '123456' }]);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download as text' })).toBeTruthy();
    // The signed-in user is asked again: the route rules let the admin area open now.
    await waitFor(() => expect(sent('GET', '/api/auth')).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(await screen.findByText('10 of 10 left')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue to the admin area' }).getAttribute('href')).toBe('/admin/users');
  });

  it('says a refusal in words: the last second factor of a staff account stays', async () => {
    on('GET', '/api/account/security', json(200, view({ totp: true, recoveryCodesLeft: 9 })));
    on('DELETE', '/api/account/totp', refusal(409, 'last_second_factor', 'Add another way to sign in before removing this one: staff accounts need one'));
    const user = open();
    await user.click(await screen.findByRole('button', { name: 'Remove the authenticator app' }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Add another way to sign in before removing this one');
  });

  it('waits for the re-authentication dialog on 403 reauth_required, then sends the change again with what was typed', async () => {
    installReauth();
    on(
      'GET',
      '/api/account/security',
      json(
        200,
        view({ totp: true, recoveryCodesLeft: 10, passkeys: [{ id: 5, name: 'Old laptop', createdAt: '2026-01-02T10:00:00.000Z', lastUsedAt: null }] }),
      ),
    );
    on(
      'PATCH',
      '/api/account/passkeys/5',
      refusal(403, 'reauth_required', "Confirm it's you to continue"),
      json(200, { id: 5, name: 'Work laptop', createdAt: '2026-01-02T10:00:00.000Z', lastUsedAt: null }),
    );
    on('POST', '/api/auth/reauth', refusal(401, 'invalid_credentials', 'Incorrect password'), json(200, { ok: true, until: '2026-01-02T10:15:00.000Z' }));
    const user = open();

    await user.click(await screen.findByRole('button', { name: 'Rename Old laptop' }));
    const name = screen.getByRole('textbox', { name: 'New name for “Old laptop”' });
    await user.clear(name);
    await user.type(name, 'Work laptop');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    // The screen underneath is left as it was.
    expect(name.isConnected && (name as HTMLInputElement).value).toBe('Work laptop');
    const password = within(dialog).getByLabelText('Password');
    await waitFor(() => expect(document.activeElement).toBe(password));
    // The account has an authenticator app (GET /api/account/security): its code is asked too.
    const code = await within(dialog).findByRole('textbox', { name: 'Authentication code' });
    await user.type(password, 'wrong');
    await user.type(code, '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Incorrect password')).toBeTruthy();

    await user.clear(password);
    await user.type(password, 'Str0ng-password!');
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    expect(sent('POST', '/api/auth/reauth')).toEqual([
      { password: 'wrong', code: '123456' },
      { password: 'Str0ng-password!', code: '654321' },
    ]);
    // The same change, sent twice: refused, then after the dialog.
    await waitFor(() => expect(sent('PATCH', '/api/account/passkeys/5')).toEqual([{ name: 'Work laptop' }, { name: 'Work laptop' }]));
  });
});

describe('the screen’s words', () => {
  it('groups the key by four and writes the codes file', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    const text = recoveryCodesText(['aaaa-bbbb', 'cccc-dddd'], 'ada@example.org', new Date('2026-03-01T00:00:00Z'));
    expect(text).toContain('Account: ada@example.org');
    expect(text).toContain('Made: 2026-03-01');
    expect(text.trim().split('\n').slice(-2)).toEqual(['aaaa-bbbb', 'cccc-dddd']);
  });
});
