import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createStaticSite } from '../../src/server/static.ts';
import { createTestContext } from './harness.ts';
import { writeFixtureDist } from './helpers.ts';

/** The directives of a CSP header, each with its sources. */
function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name ?? '', sources]),
  );
}

const GA_HOSTS = ['googletagmanager.com', 'google-analytics.com', 'analytics.google.com'];

describe('the page CSP and Google Analytics', () => {
  let dist: string;
  beforeAll(() => {
    dist = writeFixtureDist();
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  async function pageCspWith(env: NodeJS.ProcessEnv): Promise<{ page: Map<string, string[]>; api: string | null }> {
    const site = createStaticSite(dist, createLogger('silent'));
    const { context, close } = await createTestContext('pglite', { pages: site.pages, env });
    try {
      const page = await context.request('/terms');
      expect(page.status).toBe(200);
      const api = (await context.request('/api/health')).headers.get('content-security-policy');
      return { page: directives(page.headers.get('content-security-policy')), api };
    } finally {
      await close();
    }
  }

  it('allows no analytics host without PUBLIC_GA_ID', async () => {
    const { page } = await pageCspWith({});
    for (const [name, sources] of page) for (const host of GA_HOSTS) expect(sources.join(' '), name).not.toContain(host);
    expect(page.get('script-src')).toEqual(["'self'", "'sha256-AAAA'"]);
    expect(page.get('connect-src')).toEqual(["'self'"]);
    expect(page.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  });

  it('allows exactly what gtag.js needs when PUBLIC_GA_ID is set', async () => {
    const { page, api } = await pageCspWith({ PUBLIC_GA_ID: 'G-TEST12345' });
    expect(page.get('script-src')).toEqual(["'self'", "'sha256-AAAA'", 'https://www.googletagmanager.com']);
    expect(page.get('connect-src')).toEqual(["'self'", 'https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com']);
    expect(page.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https://*.google-analytics.com', 'https://*.googletagmanager.com']);
    // Everything else stays as strict as before.
    expect(page.get('default-src')).toEqual(["'self'"]);
    expect(page.get('object-src')).toEqual(["'none'"]);
    expect(page.get('frame-ancestors')).toEqual(["'none'"]);
    expect(api).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
  });

  it('refuses a malformed measurement id at start', () => {
    for (const id of ['UA-12345-1', 'G-', 'g-abc123', 'G-ABC 123']) {
      expect(() => loadConfig({ PUBLIC_GA_ID: id }), id).toThrow(ConfigError);
    }
    expect(loadConfig({ PUBLIC_GA_ID: 'G-ABC123XYZ' }).gaId).toBe('G-ABC123XYZ');
    expect(loadConfig({}).gaId).toBeUndefined();
  });

  it('sends no referrer from /data-deletion when it holds a link token', async () => {
    const site = createStaticSite(dist, createLogger('silent'));
    const { context, close } = await createTestContext('pglite', { pages: site.pages });
    try {
      expect((await context.request('/data-deletion?token=abc')).headers.get('referrer-policy')).toBe('no-referrer');
      expect((await context.request('/data-deletion')).headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    } finally {
      await close();
    }
  });
});
