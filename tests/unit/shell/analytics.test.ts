import { describe, expect, it } from 'vitest';
import { analyticsCookieNames, cookieDomains, createAnalytics, deleteAnalyticsCookies, readAnalyticsId } from '../../../src/app/analytics.ts';
import { CookieJar } from './fakes.ts';

function fakePage(cookies = new CookieJar()) {
  const appended: { src: string; async: boolean }[] = [];
  const doc = {
    get cookie() {
      return cookies.cookie;
    },
    set cookie(text: string) {
      cookies.cookie = text;
    },
    title: 'Home · Fieldwork',
    createElement: () => ({ src: '', async: false }),
    head: { appendChild: (node: { src: string; async: boolean }) => appended.push(node) },
  };
  const win: Record<string, unknown> = {};
  const loc = { href: 'https://app.example.org/terms', pathname: '/terms', hostname: 'app.example.org' };
  return { doc, win, loc, appended, cookies };
}

type Deps = Parameters<typeof createAnalytics>[0];

function analyticsFor(page: ReturnType<typeof fakePage>, id: string | null) {
  return createAnalytics({ id, win: page.win as Deps['win'], doc: page.doc as unknown as Deps['doc'], loc: page.loc });
}

const calls = (win: Record<string, unknown>) => ((win.dataLayer as IArguments[] | undefined) ?? []).map((args) => [...args]);

describe('analytics (docs/product.md §4)', () => {
  it('reads the measurement id from the page and ignores anything else', () => {
    const doc = (content: string | null) => ({ querySelector: () => (content === null ? null : { content }) }) as unknown as Document;
    expect(readAnalyticsId(doc('G-ABC123XYZ'))).toBe('G-ABC123XYZ');
    expect(readAnalyticsId(doc(''))).toBeNull();
    expect(readAnalyticsId(doc('"><script>'))).toBeNull();
    expect(readAnalyticsId(doc(null))).toBeNull();
  });

  it('loads and sends nothing without an id, but still deletes analytics cookies left by others when consent is false', () => {
    const page = fakePage();
    page.cookies.cookie = '_ga=GA1.1.1';
    page.cookies.cookie = '_ga_OLD123=GS1.1.1';
    const analytics = analyticsFor(page, null);
    analytics.setEnabled(true);
    expect(page.cookies.jar.has('_ga')).toBe(true);
    analytics.setEnabled(false);
    expect(page.appended).toEqual([]);
    expect(page.win).toEqual({});
    expect(page.cookies.jar.has('_ga')).toBe(false);
    expect(page.cookies.jar.has('_ga_OLD123')).toBe(false);
  });

  it('loads gtag.js once when statistics consent is given, grants consent, configures the id and sends page views', () => {
    const page = fakePage();
    const analytics = analyticsFor(page, 'G-TEST1234');
    analytics.setEnabled(true);
    analytics.setEnabled(true);
    analytics.setEnabled(false);
    analytics.setEnabled(true);
    expect(page.appended).toEqual([{ src: 'https://www.googletagmanager.com/gtag/js?id=G-TEST1234', async: true }]);
    const log = calls(page.win);
    expect(log[0]).toEqual(['consent', 'default', expect.objectContaining({ analytics_storage: 'denied' })]);
    expect(log).toContainEqual(['consent', 'update', { analytics_storage: 'granted' }]);
    expect(log).toContainEqual(['config', 'G-TEST1234', expect.objectContaining({ send_page_view: false })]);
    expect(log.filter((c) => c[0] === 'event' && c[1] === 'page_view')).toHaveLength(2);
    expect(page.win['ga-disable-G-TEST1234']).toBe(false);
    analytics.pageView();
    expect(calls(page.win).filter((c) => c[1] === 'page_view')).toHaveLength(3);
  });

  it('without consent: disabled, consent denied, and _ga / _ga_* cookies deleted; no script', () => {
    const page = fakePage();
    page.cookies.cookie = '_ga=GA1.1.1';
    page.cookies.cookie = '_ga_TEST1234=GS1.1';
    page.cookies.cookie = 'fw_theme=x';
    const analytics = analyticsFor(page, 'G-TEST1234');
    analytics.setEnabled(false);
    expect(page.appended).toEqual([]);
    expect(page.win['ga-disable-G-TEST1234']).toBe(true);
    expect([...page.cookies.jar.keys()]).toEqual(['fw_theme']);
    expect(page.cookies.writes.some((w) => w.includes('domain=.example.org'))).toBe(true);
    analytics.pageView();
    expect(page.win.dataLayer).toBeUndefined();
  });

  it('finds the analytics cookies and the domains they may live on', () => {
    expect(analyticsCookieNames('a=1; _ga=2; _ga_X=3; _gat=4; x_ga=5')).toEqual(['_ga', '_ga_X']);
    expect(cookieDomains('app.example.org')).toEqual(['.app.example.org', '.example.org']);
    expect(cookieDomains('127.0.0.1')).toEqual([]);
    expect(cookieDomains('localhost')).toEqual([]);
    const jar = new CookieJar();
    jar.cookie = '_ga=1';
    expect(deleteAnalyticsCookies(jar, 'localhost')).toEqual(['_ga']);
    expect(jar.cookie).toBe('');
  });
});
