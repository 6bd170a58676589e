/**
 * `GET /api/auth` on the lean path (src/server/lean.ts, `authListener`) answers as the application
 * does, header for header: both served by Node on loopback, the lean path in front of the
 * application and the application alone, asked the same things.
 */
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/index.ts';
import { authListener } from '../../src/server/lean.ts';
import { createLogger } from '../../src/server/logger.ts';
import { BACKENDS, createTestContext, type TestContext } from './harness.ts';
import { signedInUser } from './helpers.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Headers that differ between any two answers. */
const VARYING = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

async function serve(listener: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** One answer as it left the server (node:http, not fetch: no header folded or hidden). */
function ask(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${path}`, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const kept = Object.entries(res.headers).filter(([name, value]) => !VARYING.has(name) && value !== undefined) as [string, string | string[]][];
        resolve({ status: res.statusCode ?? 0, headers: Object.fromEntries(kept), body });
      });
      expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
    });
    request.on('error', reject);
  });
}

for (const backend of BACKENDS) {
  describe(`GET /api/auth on the lean path [${backend}]`, () => {
    let ctx: TestContext;
    let close: () => Promise<void>;
    let lean: { url: string; close: () => Promise<void> };
    let app: { url: string; close: () => Promise<void> };
    beforeAll(async () => {
      ({ context: ctx, close } = await createTestContext(backend));
      const application = getRequestListener(ctx.app.fetch, { autoCleanupIncoming: false });
      const deps = { ...ctx, logger: createLogger('silent') };
      lean = await serve(authListener(deps, application));
      app = await serve(application);
    });
    afterAll(async () => {
      await lean.close();
      await app.close();
      await close();
    });

    /** The same request to both, with the same answer. */
    async function same(path: string, headers: Record<string, string> = {}): Promise<Answer> {
      const [fromLean, fromApp] = [await ask(lean.url, path, headers), await ask(app.url, path, headers)];
      expect(fromLean).toEqual(fromApp);
      return fromLean;
    }

    it('signed in, signed out, unknown, expired or disabled: the same status, body and headers as the application', async () => {
      const signedOut = await same('/api/auth');
      expect(signedOut.status).toBe(401);
      expect(JSON.parse(signedOut.body)).toEqual({ error: { code: 'unauthenticated', message: 'Sign in to continue' } });
      expect(signedOut.headers).toMatchObject({ 'cache-control': 'no-store', 'content-type': 'application/json', 'x-frame-options': 'DENY' });
      expect((await same('/api/auth', { Cookie: 'fw_session=unknown' })).status).toBe(401);

      const person = await signedInUser(ctx);
      const signedIn = await same('/api/auth', person.headers);
      expect(signedIn.status).toBe(200);
      expect(JSON.parse(signedIn.body)).toEqual({
        id: person.id,
        email: person.email,
        firstName: 'Robin',
        lastName: 'Hale',
        role: 'participant',
        status: 'active',
        secondFactor: false,
        secondFactorRequired: false,
        language: 'en',
      });
      expect(signedIn.headers['content-length']).toBe(String(Buffer.byteLength(signedIn.body)));
      expect(signedIn.headers['set-cookie']).toBeUndefined();
      // Anything but the plain call is the application's, and answers alike.
      expect((await same('/api/auth?x=1', person.headers)).status).toBe(200);

      await ctx.database.db.update(users).set({ status: 'disabled' }).where(eq(users.id, person.id));
      expect((await same('/api/auth', person.headers)).status).toBe(401);
      const later = await signedInUser(ctx);
      ctx.clock.advance(31 * DAY);
      expect((await same('/api/auth', later.headers)).status).toBe(401);
    });

    it('a call that renews the session sends its cookie again, as the application does', async () => {
      const [one, two] = [await signedInUser(ctx), await signedInUser(ctx)];
      ctx.clock.advance(2 * DAY);
      const [fromLean, fromApp] = [await ask(lean.url, '/api/auth', one.headers), await ask(app.url, '/api/auth', two.headers)];
      expect(fromLean.headers['set-cookie']).toEqual([`${one.headers.Cookie}; Max-Age=${(30 * DAY) / 1000}; Path=/; HttpOnly; SameSite=Lax`]);
      const withoutCookie = (answer: Answer) => ({
        ...answer,
        body: JSON.parse(answer.body).id ? 'user' : answer.body,
        headers: { ...answer.headers, 'set-cookie': 'x', 'content-length': 'x' },
      });
      expect(withoutCookie(fromLean)).toEqual(withoutCookie(fromApp));
      expect(fromApp.headers['set-cookie']).toEqual([`${two.headers.Cookie}; Max-Age=${(30 * DAY) / 1000}; Path=/; HttpOnly; SameSite=Lax`]);
    });
  });
}
