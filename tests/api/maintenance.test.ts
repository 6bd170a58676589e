import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.ts';
import { setFlag, unsetFlag } from '../../src/server/services/flags.ts';
import { FLAG_CACHE_TTL_MS } from '../../src/server/services/public-flags.ts';
import { createStaticSite } from '../../src/server/static.ts';
import { BACKENDS, createTestContext, type TestContext } from './harness.ts';
import { signedInUser, writeFixtureDist, type SignedIn } from './helpers.ts';

/** Every kind of page request: guest, signed-in, admin, public, a malformed id, an unknown path. */
const PAGES = ['/', '/login', '/surveys/12', '/surveys/abc', '/admin', '/terms', '/privacy', '/contact', '/data-deletion', '/no/such/page'];

for (const backend of BACKENDS) {
  describe(`maintenance mode [${backend}]`, () => {
    let dist: string;
    let ctx: TestContext;
    let close: () => Promise<void>;
    let admin: SignedIn;
    beforeAll(async () => {
      dist = writeFixtureDist();
      const site = createStaticSite(dist, createLogger('silent'));
      ({ context: ctx, close } = await createTestContext(backend, { pages: site.pages }));
      admin = await signedInUser(ctx, 'admin');
    });
    afterAll(async () => {
      await close();
      fs.rmSync(dist, { recursive: true, force: true });
    });

    const switchOn = () => ctx.json('PUT', '/api/admin/flags/maintenance', { value: true }, admin.headers);
    const switchOff = () => ctx.json('DELETE', '/api/admin/flags/maintenance', undefined, admin.headers);

    it('while off: public pages and the 404 page stay, /maintenance goes home', async () => {
      for (const path of ['/terms', '/privacy', '/contact', '/data-deletion']) expect((await ctx.request(path)).status, path).toBe(200);
      expect((await ctx.request('/no/such/page')).status).toBe(404);
      expect((await ctx.request('/surveys/abc')).status).toBe(404);
      for (const path of ['/maintenance', '/maintenance/']) {
        const res = await ctx.request(path);
        expect(res.status, path).toBe(302);
        expect(res.headers.get('location'), path).toBe('/');
      }
      // The usual rules still apply.
      expect((await ctx.request('/surveys/12')).headers.get('location')).toBe('/login?r=/surveys/12');
    });

    it('an admin switch sends every page to /maintenance at once, for visitors and admins alike', async () => {
      expect((await switchOn()).status).toBe(200);
      for (const path of PAGES) {
        for (const headers of [{}, admin.headers]) {
          const res = await ctx.request(path, { headers });
          expect(res.status, path).toBe(302);
          expect(res.headers.get('location'), path).toBe('/maintenance');
          expect(res.headers.get('cache-control')).toBe('no-store');
        }
      }
      expect((await ctx.request('/terms?x=1', { method: 'HEAD' })).headers.get('location')).toBe('/maintenance');
      expect((await ctx.request('/maintenance/')).status).toBe(200);
      const page = await ctx.request('/maintenance');
      expect(page.status).toBe(200);
      expect(await page.text()).toBe('<h1>/maintenance</h1>');
      expect(page.headers.get('cache-control')).toBe('no-cache');
    });

    it('keeps serving assets and the API during maintenance', async () => {
      for (const path of ['/_astro/app.1a2b3c.js', '/builds/latest.json', '/favicon-dark.svg']) expect((await ctx.request(path)).status, path).toBe(200);
      expect((await ctx.request('/api/health')).status).toBe(200);
      expect(await (await ctx.request('/api/feature-flags?feature=maintenance')).json()).toBe(true);
      expect((await ctx.request('/api/auth', { headers: admin.headers })).status).toBe(200);
    });

    it('switching off with DELETE /api/admin/flags/maintenance brings the site back at once', async () => {
      expect((await switchOff()).status).toBe(200);
      expect((await ctx.request('/terms')).status).toBe(200);
      expect((await ctx.request('/maintenance')).headers.get('location')).toBe('/');
      expect((await ctx.request('/admin', { headers: admin.headers })).status).toBe(200);
    });

    it('sees a change made elsewhere (the CLI, another process) within a second', async () => {
      expect((await ctx.request('/terms')).status).toBe(200);
      await setFlag(ctx.database.db, 'maintenance', true); // as `npm run cli -- maintenance on` does
      expect((await ctx.request('/terms')).status).toBe(200); // still the cached answer
      ctx.clock.advance(FLAG_CACHE_TTL_MS);
      expect((await ctx.request('/terms')).headers.get('location')).toBe('/maintenance');
      expect(await (await ctx.request('/api/feature-flags?feature=maintenance')).json()).toBe(true);
      await unsetFlag(ctx.database.db, 'maintenance');
      ctx.clock.advance(FLAG_CACHE_TTL_MS);
      expect((await ctx.request('/terms')).status).toBe(200);
    });

    it('counts only a truthy value as on', async () => {
      for (const value of [false, 0, '', []]) {
        await ctx.json('PUT', '/api/admin/flags/maintenance', { value }, admin.headers);
        expect((await ctx.request('/terms')).status, JSON.stringify(value)).toBe(200);
      }
      await ctx.json('PUT', '/api/admin/flags/maintenance', { value: 'Back at 14:00' }, admin.headers);
      expect((await ctx.request('/terms')).headers.get('location')).toBe('/maintenance');
      await switchOff();
    });
  });
}
