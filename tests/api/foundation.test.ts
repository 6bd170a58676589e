import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/server/context.ts';
import { users } from '../../src/server/db/schema/index.ts';
import { createSession, SESSION_TTL_MS } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import { eq } from 'drizzle-orm';
import { BACKENDS, ORIGIN, createTestContext, describeEachBackend } from './harness.ts';

describeEachBackend('health', (ctx) => {
  it('answers 200 with the database status', async () => {
    const res = await ctx().request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', db: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe.each(BACKENDS)('health when the database is gone [%s]', (backend) => {
  it('answers 503', async () => {
    const { context, close } = await createTestContext(backend);
    await context.database.close();
    const res = await context.request('/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'error', db: 'error' });
    await close();
  });
});

describeEachBackend('GET /api/auth', (ctx) => {
  it('is 401 without a session', async () => {
    const res = await ctx().request('/api/auth');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'unauthenticated', message: 'Sign in to continue' } });
  });

  it('is 401 with a made-up session cookie', async () => {
    const res = await ctx().request('/api/auth', { headers: { Cookie: 'fw_session=not-a-real-token' } });
    expect(res.status).toBe(401);
  });

  it('returns the signed-in user, never the password hash', async () => {
    const { database, clock, request } = ctx();
    const user = await createActiveUser(database.db, {
      email: 'Dana@Example.org',
      password: 'Str0ng-password',
      role: 'moderator',
      firstName: 'Dana',
      lastName: 'Ortiz',
    });
    const { token } = await createSession(database.db, clock, user.id);
    const res = await request('/api/auth', { headers: { Cookie: `fw_session=${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id: user.id, email: 'dana@example.org', firstName: 'Dana', lastName: 'Ortiz', role: 'moderator' });
    expect(JSON.stringify(body)).not.toContain('argon2');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('ends with the session expiry and when the account is disabled', async () => {
    const { database, clock, request } = ctx();
    const user = await createActiveUser(database.db, {
      email: 'eve@example.org',
      password: 'Str0ng-password',
      role: 'participant',
      firstName: 'Eve',
      lastName: 'Stone',
    });
    const { token } = await createSession(database.db, clock, user.id);
    const cookie = { Cookie: `fw_session=${token}` };
    expect((await request('/api/auth', { headers: cookie })).status).toBe(200);
    await database.db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    expect((await request('/api/auth', { headers: cookie })).status).toBe(401);
    await database.db.update(users).set({ status: 'active' }).where(eq(users.id, user.id));
    clock.advance(SESSION_TTL_MS + 1000);
    expect((await request('/api/auth', { headers: cookie })).status).toBe(401);
  });
});

describeEachBackend('API conventions', (ctx) => {
  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await ctx().request('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'No such API endpoint' } });
  });

  it('rejects a body over 1 MiB with 413', async () => {
    const res = await ctx().json('POST', '/api/anything', { blob: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('refuses state-changing calls from another origin or without an Origin', async () => {
    const { json, request } = ctx();
    const foreign = await json('POST', '/api/auth', {}, { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const none = await request('/api/auth', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(403);
  });

  it('refuses state-changing calls that are not JSON', async () => {
    const res = await ctx().request('/api/auth', {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(res.status).toBe(415);
  });

  it('sends the security headers on every answer', async () => {
    const res = await ctx().request('/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
  });

  it('logs one structured line per request, without the query string', async () => {
    const { request, logs } = ctx();
    await request('/api/health?token=secret-value');
    const line = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request' && l.path === '/api/health');
    expect(line).toMatchObject({ method: 'GET', path: '/api/health', status: 200 });
    expect(typeof line?.ms).toBe('number');
    expect(logs.join('\n')).not.toContain('secret-value');
  });
});

describe('errors never reach clients with a stack', () => {
  it('answers 500 with a generic body and logs the error', async () => {
    const pages = new Hono<AppEnv>().get('/boom', () => {
      throw new Error('secret internal detail');
    });
    const { context, close } = await createTestContext('pglite', { pages });
    const res = await context.request('/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: 'Internal Server Error' } });
    expect(text).not.toContain('secret internal detail');
    expect(context.logs.join('\n')).toContain('secret internal detail');
    await close();
  });

  it('sends HSTS when served over HTTPS', async () => {
    const { context, close } = await createTestContext('pglite', { env: { PUBLIC_URL: 'https://fieldwork.example' } });
    const res = await context.request('/api/health');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    await close();
  });
});
