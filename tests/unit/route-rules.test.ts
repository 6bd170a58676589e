import { describe, expect, it } from 'vitest';
import { afterSignIn, decideNavigation, isPublicPath, loginRedirect, safeRedirectPath, type AuthState } from '../../src/shared/route-rules.ts';

const unknown: AuthState = { status: 'unknown' };
const anonymous: AuthState = { status: 'unauthenticated' };
const participant: AuthState = { status: 'authenticated', role: 'participant' };
const moderator: AuthState = { status: 'authenticated', role: 'moderator' };
const admin: AuthState = { status: 'authenticated', role: 'admin' };

const go = (path: string, auth: AuthState, extra: { search?: string; from?: string | null; maintenance?: boolean } = {}) =>
  decideNavigation({ path, auth, ...extra });

describe('guest-only routes (docs/product.md §2): an authenticated user goes to /', () => {
  const guest = ['/login', '/register', '/forgot-password', '/onboarding/abcdefghijklmnopqrstuvwxyz012345', '/reset-password/abcdefghijklmnopqrstuvwxyz012345'];
  it.each(guest)('%s sends a signed-in user home', (path) => {
    expect(go(path, participant)).toEqual({ action: 'redirect', to: '/' });
    expect(go(path, admin)).toEqual({ action: 'redirect', to: '/' });
  });
  it.each(guest)('%s lets a visitor without a session stay', (path) => {
    expect(go(path, anonymous)).toEqual({ action: 'stay' });
  });
  it.each(guest)('%s waits while the auth state is unknown', (path) => {
    expect(go(path, unknown)).toEqual({ action: 'wait' });
  });
});

describe('public routes: open to all and exempt from redirects', () => {
  it.each(['/terms', '/privacy', '/contact', '/data-deletion'])('%s', (path) => {
    for (const auth of [unknown, anonymous, participant, admin]) expect(go(path, auth)).toEqual({ action: 'stay' });
    expect(isPublicPath(path)).toBe(true);
  });
  it('no other route is public', () => {
    expect(isPublicPath('/')).toBe(false);
    expect(isPublicPath('/login')).toBe(false);
    expect(isPublicPath('/no-such-page')).toBe(false);
  });
});

describe('routes needing a session', () => {
  it('send a visitor from / to plain /login', () => {
    expect(go('/', anonymous)).toEqual({ action: 'redirect', to: '/login' });
  });

  it('send a visitor elsewhere to /login with r holding the requested path', () => {
    expect(go('/account/edit', anonymous)).toEqual({ action: 'redirect', to: '/login?r=/account/edit' });
    expect(go('/surveys/12', anonymous, { search: '?tab=answers' })).toEqual({ action: 'redirect', to: '/login?r=/surveys/12%3Ftab%3Danswers' });
    expect(go('/update-email/abcdefghijklmnopqrstuvwxyz012345', anonymous).action).toBe('redirect');
  });

  it('send a visitor who came from a public page to plain /login', () => {
    expect(go('/account', anonymous, { from: '/privacy' })).toEqual({ action: 'redirect', to: '/login' });
    expect(go('/account', anonymous, { from: '/login' })).toEqual({ action: 'redirect', to: '/login?r=/account' });
  });

  it('wait while the auth state is unknown, then let a signed-in user stay', () => {
    expect(go('/account', unknown)).toEqual({ action: 'wait' });
    expect(go('/account', participant)).toEqual({ action: 'stay' });
    expect(go('/missions/3', participant)).toEqual({ action: 'stay' });
  });
});

describe('any path containing /admin: moderator or admin only (docs/product.md §6)', () => {
  const adminPaths = ['/admin', '/admin/users', '/admin/users/4', '/admin/projects/7/missions/9/edit', '/admin/forms/2'];
  it.each(adminPaths)('%s sends a participant home', (path) => {
    expect(go(path, participant)).toEqual({ action: 'redirect', to: '/' });
  });
  it.each(adminPaths)('%s lets moderators and admins in', (path) => {
    expect(go(path, moderator)).toEqual({ action: 'stay' });
    expect(go(path, admin)).toEqual({ action: 'stay' });
  });
  it.each(adminPaths)('%s sends a visitor without a session to sign in first', (path) => {
    expect(go(path, anonymous)).toEqual({ action: 'redirect', to: `/login?r=${path}` });
  });
  it('sends staff without a second factor to set one up, back to the page afterwards (issue 29 §3); the rest of the site stays open', () => {
    const missing = { status: 'authenticated', role: 'moderator', secondFactorMissing: true } as const;
    expect(go('/admin/users/4', missing)).toEqual({ action: 'redirect', to: '/account/security?r=/admin/users/4' });
    expect(go('/account/security', missing)).toEqual({ action: 'stay' });
    expect(go('/', missing)).toEqual({ action: 'stay' });
  });
});

describe('maintenance (docs/product.md §2)', () => {
  it('sends every route to /maintenance while on', () => {
    for (const path of ['/', '/login', '/terms', '/admin', '/no-such-page']) {
      expect(go(path, admin, { maintenance: true })).toEqual({ action: 'redirect', to: '/maintenance' });
    }
    expect(go('/maintenance', anonymous, { maintenance: true })).toEqual({ action: 'stay' });
  });
  it('sends /maintenance home while off', () => {
    expect(go('/maintenance', anonymous)).toEqual({ action: 'redirect', to: '/' });
  });
});

describe('unknown pages', () => {
  it('stay, to show the 404 page', () => {
    expect(go('/no/such/page', anonymous)).toEqual({ action: 'stay' });
  });

  it('include routes whose parameters fail their check, whoever asks', () => {
    expect(go('/admin/projects/seven/missions/9/edit', anonymous)).toEqual({ action: 'stay' });
    expect(go('/surveys/abc', participant)).toEqual({ action: 'stay' });
    expect(go('/login/../surveys/0', unknown)).toEqual({ action: 'stay' });
  });
});

describe('redirect targets are same-site paths only', () => {
  it.each([
    ['/account/edit', '/account/edit'],
    ['/surveys/1?tab=2#q3', '/surveys/1?tab=2#q3'],
    ['/a/../account', '/account'],
  ])('%s is kept as %s', (input, output) => {
    expect(safeRedirectPath(input)).toBe(output);
  });

  it.each(['https://evil.example/', '//evil.example', '/\\evil.example', 'javascript:alert(1)', 'account', '', '/\nfoo', `/${'a'.repeat(3000)}`])(
    '%j is refused',
    (input) => {
      expect(safeRedirectPath(input)).toBeNull();
    },
  );

  it('after sign-in, r leads back unless it is unsafe or a guest page', () => {
    expect(afterSignIn('/account/edit')).toBe('/account/edit');
    expect(afterSignIn(null)).toBe('/');
    expect(afterSignIn('https://evil.example/phish')).toBe('/');
    expect(afterSignIn('/login')).toBe('/');
    expect(afterSignIn('/maintenance')).toBe('/');
  });

  it('after sign-in without a usable r, moderators and admins land on /admin (an explicit r still wins)', () => {
    for (const role of ['moderator', 'admin'] as const) {
      expect(afterSignIn(null, role)).toBe('/admin');
      expect(afterSignIn('', role)).toBe('/admin');
      expect(afterSignIn('https://evil.example/phish', role)).toBe('/admin');
      expect(afterSignIn('//evil.example', role)).toBe('/admin');
      expect(afterSignIn('/login', role)).toBe('/admin');
      expect(afterSignIn('/account/edit', role)).toBe('/account/edit');
      expect(afterSignIn('/', role)).toBe('/');
      expect(afterSignIn('/admin/review?status=submitted', role)).toBe('/admin/review?status=submitted');
    }
    expect(afterSignIn(null, 'participant')).toBe('/');
    expect(afterSignIn('https://evil.example/phish', 'participant')).toBe('/');
  });

  it('loginRedirect keeps the query of the requested page', () => {
    expect(loginRedirect('/surveys/5', 'x=1')).toBe('/login?r=/surveys/5%3Fx%3D1');
    expect(loginRedirect('/', '?x=1')).toBe('/login');
  });
});
