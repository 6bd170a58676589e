/**
 * Sliding sessions (docs/api.md, "Sessions"): a participant's session used more than a day after
 * its last renewal lives 30 days from then, a staff member's used more than 5 minutes after its
 * last renewal 60 minutes from then, and the browser's cookie with it, whether the renewing request is
 * a page load (src/server/static.ts) or an API call.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.ts';
import { createStaticSite } from '../../src/server/static.ts';
import { BACKENDS, ORIGIN, createTestContext, type TestContext } from './harness.ts';
import { PASSWORD, freshIp, signedInUser, writeFixtureDist } from './helpers.ts';

const DAY = 24 * 60 * 60 * 1000;
/** The production staff limits (the harness lengthens them for the other suites). */
const STAFF_LIMITS = { STAFF_SESSION_HOURS: '12', STAFF_SESSION_IDLE_MINUTES: '60' };

/** A browser's cookie jar for the session cookie: it sends the cookie until its Max-Age runs out. */
class Browser {
  private cookie: { value: string; expiresAt: number } | null = null;
  private readonly ctx: TestContext;
  constructor(ctx: TestContext) {
    this.ctx = ctx;
  }

  /** Keeps the session cookie an answer sets, as a browser does. */
  private keep(res: Response): void {
    const header = res.headers.getSetCookie().find((c) => c.startsWith('fw_session='));
    if (!header) return;
    const value = /^fw_session=([^;]*)/.exec(header)?.[1] ?? '';
    const maxAge = Number(/; Max-Age=(\d+)/.exec(header)?.[1] ?? 0);
    this.cookie = value && maxAge > 0 ? { value, expiresAt: this.ctx.clock.now().getTime() + maxAge * 1000 } : null;
  }

  async request(pathname: string, init: RequestInit = {}): Promise<Response> {
    const alive = this.cookie && this.cookie.expiresAt > this.ctx.clock.now().getTime() ? this.cookie : null;
    const res = await this.ctx.request(pathname, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...(alive ? { Cookie: `fw_session=${alive.value}` } : {}) },
    });
    this.keep(res);
    return res;
  }
}

for (const backend of BACKENDS) {
  describe(`sliding sessions reach the browser [${backend}]`, () => {
    let ctx: TestContext;
    let close: () => Promise<void>;
    let dist: string;
    beforeAll(async () => {
      dist = writeFixtureDist();
      ({ context: ctx, close } = await createTestContext(backend, {
        pages: createStaticSite(dist, createLogger('silent')).pages,
        env: { TRUST_PROXY: '1', ...STAFF_LIMITS },
      }));
    });
    afterAll(async () => {
      await close();
      fs.rmSync(dist, { recursive: true, force: true });
    });

    it('a page load that renews the session sends the cookie again, with 30 days from now, kept out of shared caches', async () => {
      const { headers } = await signedInUser(ctx);
      ctx.clock.advance(2 * DAY);
      const page = await ctx.request('/', { headers });
      expect(page.status).toBe(200);
      expect(page.headers.getSetCookie()).toEqual([`${headers.Cookie}; Max-Age=${(30 * DAY) / 1000}; Path=/; HttpOnly; SameSite=Lax`]);
      expect(page.headers.get('cache-control')).toBe('private, no-cache');
      // Renewed: the next requests of the day renew nothing and set no cookie.
      const [again, api] = [await ctx.request('/', { headers }), await ctx.request('/api/auth', { headers })];
      expect([again.status, api.status]).toEqual([200, 200]);
      expect([...again.headers.getSetCookie(), ...api.headers.getSetCookie()]).toEqual([]);
      expect(again.headers.get('cache-control')).toBe('no-cache');
      // A redirect decided on a renewed session carries it too.
      ctx.clock.advance(2 * DAY);
      const away = await ctx.request('/login', { headers });
      expect(away.status).toBe(302);
      expect(away.headers.getSetCookie()).toHaveLength(1);
    });

    it('a staff session renewed by a page load or an API call more than 5 minutes after the last sends the cookie with 60 minutes', async () => {
      const { headers } = await signedInUser(ctx, 'moderator');
      const expected = [`${headers.Cookie}; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax`];
      ctx.clock.advance(6 * 60 * 1000);
      const page = await ctx.request('/admin', { headers });
      expect(page.status).toBe(200);
      expect(page.headers.getSetCookie()).toEqual(expected);
      ctx.clock.advance(6 * 60 * 1000);
      const api = await ctx.request('/api/account', { headers });
      expect(api.status).toBe(200);
      expect(api.headers.getSetCookie()).toEqual(expected);
    });

    it('someone who comes back every 29 days, by page loads or API calls, stays signed in', async () => {
      const { email } = await signedInUser(ctx);
      const browser = new Browser(ctx);
      const signIn = await browser.request('/api/auth/login', {
        method: 'POST',
        headers: { Origin: ORIGIN, 'Content-Type': 'application/json', 'X-Forwarded-For': freshIp() },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(signIn.status).toBe(200);
      for (const visit of ['/', '/api/auth', '/', '/surveys/12']) {
        ctx.clock.advance(29 * DAY);
        const res = await browser.request(visit);
        expect(res.status, `${visit} after another 29 days`).toBe(200);
      }
    });
  });
}
