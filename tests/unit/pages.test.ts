import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { paramNames, parentRoute, routeFor, shellStaticPaths, staticAncestor } from '../../src/lib/pages.ts';
import { ROUTES, SHELL_PARAM, matchRoute, shellPath } from '../../src/shared/routes.ts';
import type { RouteDef, RoutePattern } from '../../src/shared/routes.ts';

const PAGES_DIR = fileURLToPath(new URL('../../src/pages', import.meta.url));
const ALL: readonly RouteDef[] = ROUTES;
const PATTERNS = ROUTES.map((route) => route.pattern);

describe('routeFor', () => {
  it.each(ROUTES.map((route) => [route.pattern, route] as const))('%s gives its table entry', (pattern, route) => {
    expect(routeFor(pattern)).toBe(route);
  });

  it('throws for a pattern not in the table, naming it', () => {
    expect(() => routeFor('/no-such-page' as RoutePattern)).toThrow('/no-such-page');
  });
});

describe('paramNames', () => {
  it.each([
    ['/', []],
    ['/login', []],
    ['/surveys/:id', ['id']],
    ['/admin/projects/:projectId/surveys/:surveyId/edit', ['projectId', 'surveyId']],
    ['/admin/projects/:projectId/missions/new', ['projectId']],
  ])('%s → %j', (pattern, names) => {
    expect(paramNames(pattern)).toEqual(names);
  });

  it.each(ALL.map((route) => [route.pattern, route] as const))('agrees with the parameter kinds of %s', (pattern, route) => {
    expect(paramNames(pattern).sort()).toEqual(Object.keys(route.params ?? {}).sort());
  });
});

describe('shellStaticPaths', () => {
  it('gives one shell with every parameter set to the shell value', () => {
    expect(shellStaticPaths('/surveys/:id')).toEqual([{ params: { id: SHELL_PARAM } }]);
    expect(shellStaticPaths('/admin/projects/:projectId/surveys/:surveyId/edit')).toEqual([{ params: { projectId: '_', surveyId: '_' } }]);
  });

  it('gives one path without parameters for a static route', () => {
    expect(shellStaticPaths('/login')).toEqual([{ params: {} }]);
  });

  it.each(PATTERNS.map((pattern) => [pattern] as const))('the shell of %s is the URL shellPath names', (pattern) => {
    const [only, ...rest] = shellStaticPaths(pattern);
    expect(rest).toEqual([]);
    const url = pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => only?.params[name] ?? `<missing ${name}>`);
    expect(url).toBe(shellPath(pattern));
    expect(matchRoute(url)?.route.pattern).toBe(pattern);
  });

  it('throws for a pattern not in the table', () => {
    expect(() => shellStaticPaths('/surveys/:surveyId' as RoutePattern)).toThrow('/surveys/:surveyId');
  });
});

describe('parentRoute', () => {
  it.each([
    ['/admin/projects/:projectId/surveys/:surveyId/edit', '/admin/projects/:projectId/surveys/:surveyId'],
    ['/admin/projects/:projectId/surveys/:surveyId', '/admin/projects/:projectId'],
    ['/admin/projects/:projectId/surveys/new', '/admin/projects/:projectId'],
    ['/admin/projects/:projectId', '/admin/projects'],
    ['/admin/projects', '/admin'],
    ['/admin/review', '/admin'],
    ['/admin/tools/points-bulk-update', '/admin/tools'],
    ['/account/edit/address', '/account/edit'],
    ['/account/mission-history/:missionId', '/account/mission-history'],
    ['/surveys/:id', '/'],
    ['/login', '/'],
    ['/admin', '/'],
  ])('of %s is %s', (pattern, parent) => {
    expect(parentRoute(pattern)?.pattern).toBe(parent);
  });

  it('is null for the root', () => {
    expect(parentRoute('/')).toBeNull();
  });

  it.each(PATTERNS.filter((p) => p !== '/').map((pattern) => [pattern] as const))('of %s is a shorter route of the table', (pattern) => {
    const parent = parentRoute(pattern);
    expect(parent).not.toBeNull();
    expect(ALL).toContain(parent);
    const prefix = parent?.pattern === '/' ? '/' : `${parent?.pattern}/`;
    expect(pattern.startsWith(prefix)).toBe(true);
  });
});

describe('staticAncestor', () => {
  it.each([
    ['/admin/projects/:projectId/surveys/:surveyId/edit', '/admin/projects'],
    ['/admin/projects/:projectId/missions/new', '/admin/projects'],
    ['/admin/forms/:id', '/admin/forms'],
    ['/admin/users/:userId', '/admin/users'],
    ['/account/mission-history/:missionId', '/account/mission-history'],
    ['/account/edit/profile', '/account/edit'],
    ['/onboarding/:token', '/'],
    ['/surveys/:id', '/'],
  ])('of %s is %s', (pattern, ancestor) => {
    expect(staticAncestor(pattern)?.pattern).toBe(ancestor);
  });

  it('is null for the root', () => {
    expect(staticAncestor('/')).toBeNull();
  });

  it.each(PATTERNS.filter((p) => p !== '/').map((pattern) => [pattern] as const))('of %s needs no URL values', (pattern) => {
    const ancestor = staticAncestor(pattern);
    expect(ancestor).not.toBeNull();
    expect(ancestor?.params).toBeUndefined();
    expect(ancestor?.pattern).not.toContain(':');
  });
});

describe('the pages folder', () => {
  /** Astro's file for a pattern: `:name` becomes `[name]`, either `x.astro` or `x/index.astro`. */
  const candidates = (pattern: string): string[] => {
    const rel = pattern.replace(/:([A-Za-z]+)/g, '[$1]').slice(1);
    return rel === '' ? ['index.astro'] : [`${rel}.astro`, `${rel}/index.astro`];
  };

  it.each(PATTERNS.map((pattern) => [pattern] as const))('has a page for %s', (pattern) => {
    const found = candidates(pattern).filter((rel) => fs.existsSync(path.join(PAGES_DIR, rel)));
    expect(found).toHaveLength(1);
  });
});
