import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions, users } from '../../src/server/db/schema/index.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import { createTestContext, type TestContext } from './harness.ts';

/**
 * The embedded database answers a signed-in request's session from an in-process cache; any
 * change to the user or the session reaches the very next request (migration 0010's
 * notifications). Every other PGlite API suite runs with the cache too.
 */
describe('the session cache of the embedded database', () => {
  let ctx: TestContext;
  let close: () => Promise<void>;
  let counter = 0;
  beforeAll(async () => {
    ({ context: ctx, close } = await createTestContext('pglite'));
    // The instance listens for changes before the cache is used.
    await ctx.database.pglite?.query('select 1');
  });
  afterAll(async () => {
    await close();
  });

  async function signedIn() {
    const user = await createActiveUser(ctx.database.db, {
      email: `cache-${++counter}@example.org`,
      password: 'Str0ng-password',
      role: 'participant',
      firstName: 'Casey',
      lastName: 'Hart',
    });
    const { token } = await createSession(ctx.database.db, ctx.clock, user.id);
    return { user, headers: { Cookie: `fw_session=${token}` } };
  }

  it('answers a repeated request without asking the database for the session', async () => {
    const { headers } = await signedIn();
    expect((await ctx.request('/api/auth', { headers })).status).toBe(200);
    const pglite = ctx.database.pglite;
    if (!pglite) throw new Error('not the embedded database');
    const queries = vi.spyOn(pglite, 'query');
    try {
      expect((await ctx.request('/api/auth', { headers })).status).toBe(200);
      expect(queries).not.toHaveBeenCalled();
    } finally {
      queries.mockRestore();
    }
  });

  it('shows a changed name at the next request', async () => {
    const { user, headers } = await signedIn();
    expect((await (await ctx.request('/api/auth', { headers })).json()) as { firstName: string }).toMatchObject({ firstName: 'Casey' });
    await ctx.database.db.update(users).set({ firstName: 'Kit' }).where(eq(users.id, user.id));
    expect((await (await ctx.request('/api/auth', { headers })).json()) as { firstName: string }).toMatchObject({ firstName: 'Kit' });
  });

  it('refuses a disabled account and an ended session at once', async () => {
    const first = await signedIn();
    expect((await ctx.request('/api/auth', { headers: first.headers })).status).toBe(200);
    await ctx.database.db.update(users).set({ status: 'disabled' }).where(eq(users.id, first.user.id));
    expect((await ctx.request('/api/auth', { headers: first.headers })).status).toBe(401);

    const second = await signedIn();
    expect((await ctx.request('/api/auth', { headers: second.headers })).status).toBe(200);
    await ctx.database.db.delete(sessions).where(eq(sessions.userId, second.user.id));
    expect((await ctx.request('/api/auth', { headers: second.headers })).status).toBe(401);

    const third = await signedIn();
    expect((await ctx.request('/api/auth', { headers: third.headers })).status).toBe(200);
    await ctx.database.db.execute(sql`truncate sessions`);
    expect((await ctx.request('/api/auth', { headers: third.headers })).status).toBe(401);
  });
});
