import { describe, expect, it } from 'vitest';
import { resolveNavigation } from '../../../src/lib/navigation-target.ts';
import { findRouteRule, ruleRedirect } from '../../../src/shared/build-route-rules.ts';
import type { BuildMeta } from '../../../src/shared/build-manifest.ts';

const base = 'https://fieldwork.example/terms';

describe('navigation checks (docs/product.md §8)', () => {
  it('allows same-site targets', () => {
    expect(resolveNavigation('/privacy', {}, base)).toMatchObject({ kind: 'internal' });
    expect(resolveNavigation('https://fieldwork.example/x?y=1', {}, base).url.pathname).toBe('/x');
  });

  it('refuses an external URL without explicit permission', () => {
    expect(() => resolveNavigation('https://evil.example/', {}, base)).toThrow(/external/);
    expect(() => resolveNavigation('//evil.example/', {}, base)).toThrow(/external/);
    expect(resolveNavigation('https://partner.example/a', { external: true }, base)).toMatchObject({ kind: 'external' });
  });

  it('refuses disallowed protocols, even with permission', () => {
    for (const target of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,hi', 'vbscript:x', 'mailto:a@b.c']) {
      expect(() => resolveNavigation(target, { external: true }, base)).toThrow(/Cannot navigate/);
    }
  });
});

const matcher: BuildMeta['matcher'] = {
  static: { '/old-terms': { redirect: { to: '/terms', statusCode: 301 } } },
  wildcard: { '/legacy': { redirect: { to: '/', statusCode: 302 } }, '/legacy/docs': { redirect: { to: 'https://docs.example/', statusCode: 302 } } },
  dynamic: { '/p/:id': { redirect: { to: '/surveys/1', statusCode: 302 } } },
};

describe('route rules of the build meta', () => {
  it('finds exact, dynamic and the longest wildcard rule', () => {
    expect(findRouteRule(matcher, '/old-terms/')?.redirect?.to).toBe('/terms');
    expect(findRouteRule(matcher, '/p/7')?.redirect?.to).toBe('/surveys/1');
    expect(findRouteRule(matcher, '/p/7/x')).toBeNull();
    expect(findRouteRule(matcher, '/legacy/a/b')?.redirect?.to).toBe('/');
    expect(findRouteRule(matcher, '/legacy/docs/x')?.redirect?.to).toBe('https://docs.example/');
    expect(findRouteRule(matcher, '/legacyx')).toBeNull();
    expect(findRouteRule(null, '/old-terms')).toBeNull();
  });

  it('tells internal from absolute external redirects', () => {
    expect(ruleRedirect(matcher, '/old-terms', 'https://fieldwork.example')).toEqual({ kind: 'internal', to: '/terms' });
    expect(ruleRedirect(matcher, '/legacy/docs', 'https://fieldwork.example')).toEqual({ kind: 'external', to: 'https://docs.example/' });
    expect(ruleRedirect(matcher, '/terms', 'https://fieldwork.example')).toBeNull();
  });
});
