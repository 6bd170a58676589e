import { describe, expect, it } from 'vitest';
import {
  PARAM_PATTERNS,
  ROUTES,
  SHELL_PARAM,
  buildPath,
  matchRoute,
  paramsAreValid,
  shellPath,
  type ParamKind,
  type RouteDef,
  type RoutePattern,
} from '../../src/shared/routes.ts';

/** A well-formed link token: 32 random bytes in base64url, as the server issues them. */
const TOKEN = 'q3Zc9_x-VbN0aLk7Tt2mWpR8sYdEfGhJ1uIoPlKjHg4';
const ID = '42';

const ALL: readonly RouteDef[] = ROUTES;

function sampleValue(kind: ParamKind): string {
  return kind === 'id' ? ID : TOKEN;
}

/** The pattern's `:name` segments, in order. */
function namesIn(pattern: string): string[] {
  return [...pattern.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] ?? '');
}

/** A concrete URL of a route, with the values its parameters would take in real use. */
function concrete(route: RouteDef): { url: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  for (const [name, kind] of Object.entries(route.params ?? {})) params[name] = sampleValue(kind);
  const url = route.pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => params[name] ?? '');
  return { url, params };
}

describe('sample values', () => {
  it('are what the parameter checks accept', () => {
    expect(TOKEN).toHaveLength(43);
    expect(PARAM_PATTERNS.token.test(TOKEN)).toBe(true);
    expect(PARAM_PATTERNS.id.test(ID)).toBe(true);
  });
});

describe('matchRoute on every route of the table', () => {
  it.each(ALL.map((route) => [route.pattern, route] as const))('%s is matched by a concrete URL', (_pattern, route) => {
    const { url, params } = concrete(route);
    const match = matchRoute(url);
    expect(match?.route.pattern).toBe(route.pattern);
    expect(match?.route).toBe(route);
    expect(match?.params).toEqual(params);
    expect(match && paramsAreValid(match)).toBe(true);
  });

  it.each(ALL.filter((route) => route.pattern !== '/').map((route) => [route.pattern, route] as const))('%s tolerates a trailing slash', (_pattern, route) => {
    const { url, params } = concrete(route);
    const match = matchRoute(`${url}/`);
    expect(match?.route.pattern).toBe(route.pattern);
    expect(match?.params).toEqual(params);
    expect(match && paramsAreValid(match)).toBe(true);
  });

  it('matches the root with no parameters', () => {
    const match = matchRoute('/');
    expect(match?.route.pattern).toBe('/');
    expect(match?.params).toEqual({});
  });
});

describe('static segments outrank dynamic ones', () => {
  it('reads /admin/projects/7/surveys/new as the new-survey page, not a survey id', () => {
    const match = matchRoute('/admin/projects/7/surveys/new');
    expect(match?.route.pattern).toBe('/admin/projects/:projectId/surveys/new');
    expect(match?.params).toEqual({ projectId: '7' });
    expect(match && paramsAreValid(match)).toBe(true);
  });

  it('reads /admin/projects/7/missions/new/ as the new-mission page', () => {
    const match = matchRoute('/admin/projects/7/missions/new/');
    expect(match?.route.pattern).toBe('/admin/projects/:projectId/missions/new');
    expect(match?.params).toEqual({ projectId: '7' });
  });

  it('still reads a numeric survey as :surveyId', () => {
    const match = matchRoute('/admin/projects/7/surveys/8');
    expect(match?.route.pattern).toBe('/admin/projects/:projectId/surveys/:surveyId');
    expect(match?.params).toEqual({ projectId: '7', surveyId: '8' });
  });

  it('reads /account/edit/profile as the profile page', () => {
    expect(matchRoute('/account/edit/profile')?.route.pattern).toBe('/account/edit/profile');
  });
});

describe('malformed parameters are a 404', () => {
  /** A URL is served only when it matches and its parameters pass their checks. */
  const served = (pathname: string): boolean => {
    const match = matchRoute(pathname);
    return match !== null && paramsAreValid(match);
  };

  it.each([
    '/surveys/abc',
    '/surveys/0',
    '/surveys/01',
    '/surveys/-1',
    '/surveys/1.5',
    '/surveys/1%2F2',
    '/surveys/%20',
    '/surveys/1234567890123456',
    '/missions/1e3',
    '/onboarding/short',
    '/onboarding/abcdefghijklmno',
    `/onboarding/${'a'.repeat(257)}`,
    `/onboarding/${TOKEN.slice(0, 42)}=`,
    `/reset-password/${TOKEN.slice(0, 40)}.ab`,
    `/update-email/${TOKEN.slice(0, 40)}%2F`,
    '/admin/projects/abc/surveys/new',
    '/admin/projects/7/surveys/new/edit',
    '/admin/projects/7/surveys/0/edit',
  ])('%s is not served', (pathname) => {
    expect(served(pathname)).toBe(false);
  });

  it('still names the route a bad parameter belongs to (so the 404 is the route’s, not a crash)', () => {
    const match = matchRoute('/surveys/abc');
    expect(match?.route.pattern).toBe('/surveys/:id');
    expect(match && paramsAreValid(match)).toBe(false);
  });

  it('decodes a percent-encoded parameter before checking it', () => {
    const match = matchRoute('/surveys/1%2F2');
    expect(match === null || match.params['id'] === '1/2').toBe(true);
    expect(match !== null && paramsAreValid(match)).toBe(false);
  });

  it('does not throw on a malformed percent escape', () => {
    expect(() => matchRoute('/surveys/%E0%A4%A')).not.toThrow();
    const match = matchRoute('/surveys/%E0%A4%A');
    expect(match !== null && paramsAreValid(match)).toBe(false);
  });

  it.each([
    ['id', '1', true],
    ['id', '999999999999999', true],
    ['id', '1000000000000000', false],
    ['token', 'a'.repeat(16), true],
    ['token', 'a'.repeat(15), false],
    ['token', `${'A-_z9'.repeat(51)}x`, true],
    ['token', 'a'.repeat(257), false],
  ] as const)('a %s of %s passes: %s', (kind, value, ok) => {
    expect(PARAM_PATTERNS[kind].test(value)).toBe(ok);
  });
});

describe('unknown paths', () => {
  it.each([
    '/nope',
    '/Login',
    '/login/extra',
    '/surveys',
    '/surveys/',
    '/surveys/42/extra',
    '/admin/nope',
    '/admin/reviews',
    '/account/edit/nope',
    '/admin/projects/7/surveys',
  ])('%s matches nothing', (pathname) => {
    expect(matchRoute(pathname)).toBeNull();
  });
});

describe('shellPath', () => {
  it('sets every parameter to the shell value', () => {
    expect(SHELL_PARAM).toBe('_');
    expect(shellPath('/surveys/:id')).toBe('/surveys/_');
    expect(shellPath('/admin/projects/:projectId/surveys/:surveyId/edit')).toBe('/admin/projects/_/surveys/_/edit');
  });

  it('leaves a static pattern as it is', () => {
    expect(shellPath('/login')).toBe('/login');
    expect(shellPath('/')).toBe('/');
  });

  it.each(ALL.map((route) => [route.pattern] as const))('the shell of %s is served by that same route', (pattern) => {
    const shell = shellPath(pattern);
    expect(shell).not.toContain(':');
    expect(matchRoute(shell)?.route.pattern).toBe(pattern);
  });
});

describe('buildPath', () => {
  it('fills parameters', () => {
    expect(buildPath('/surveys/:id', { id: 42 })).toBe('/surveys/42');
    expect(buildPath('/admin/projects/:projectId/surveys/:surveyId/edit', { projectId: 7, surveyId: '8' })).toBe('/admin/projects/7/surveys/8/edit');
  });

  it('returns a static pattern unchanged', () => {
    expect(buildPath('/login')).toBe('/login');
    expect(buildPath('/')).toBe('/');
  });

  it('encodes values so they stay one segment', () => {
    expect(buildPath('/onboarding/:token', { token: 'a/b c?d#e' })).toBe('/onboarding/a%2Fb%20c%3Fd%23e');
    const match = matchRoute(buildPath('/onboarding/:token', { token: 'a/b' }));
    expect(match?.route.pattern).toBe('/onboarding/:token');
    expect(match?.params).toEqual({ token: 'a/b' });
  });

  it('throws on a missing parameter, naming it', () => {
    expect(() => buildPath('/surveys/:id')).toThrow(/"id"/);
    expect(() => buildPath('/admin/projects/:projectId/surveys/:surveyId', { projectId: 7 })).toThrow(/"surveyId"/);
  });

  it.each(ALL.map((route) => [route.pattern, route] as const))('round-trips %s through matchRoute', (pattern, route) => {
    const { params } = concrete(route);
    const url = buildPath(pattern as RoutePattern, params);
    expect(matchRoute(url)?.route.pattern).toBe(pattern);
    expect(matchRoute(url)?.params).toEqual(params);
  });
});

describe('the route table', () => {
  it('has each pattern once', () => {
    const patterns = ALL.map((route) => route.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it('has no two patterns of the same shape (they would shadow each other)', () => {
    const shells = ALL.map((route) => shellPath(route.pattern));
    expect(new Set(shells).size).toBe(shells.length);
  });

  it.each(ALL.map((route) => [route.pattern, route] as const))('%s has access, layout and title', (_pattern, route) => {
    expect(['guest', 'public', 'maintenance', 'auth', 'admin']).toContain(route.access);
    expect(['default', 'auth', 'admin', 'formbuilder']).toContain(route.layout);
    expect(typeof route.title).toBe('string');
    expect(route.title.trim()).not.toBe('');
  });

  it.each(ALL.map((route) => [route.pattern, route] as const))('%s gives a kind to every parameter and only to them', (pattern, route) => {
    expect(Object.keys(route.params ?? {}).sort()).toEqual(namesIn(pattern).sort());
    for (const kind of Object.values(route.params ?? {})) expect(Object.keys(PARAM_PATTERNS)).toContain(kind);
  });

  it('starts every pattern with a slash and ends none with one (except the root)', () => {
    for (const route of ALL) {
      expect(route.pattern.startsWith('/')).toBe(true);
      if (route.pattern !== '/') expect(route.pattern.endsWith('/')).toBe(false);
    }
  });

  it('puts every /admin page in the admin area', () => {
    for (const route of ALL.filter((r) => r.pattern === '/admin' || r.pattern.startsWith('/admin/'))) {
      expect(route.access).toBe('admin');
    }
  });
});
