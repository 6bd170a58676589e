import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog, users } from '../../src/server/db/schema/index.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, freshIp, mailsTo, PASSWORD, signedInUser, uniqueEmail, type SignedIn } from './helpers.ts';
import type { OutboxMail } from '../support/outbox.ts';

interface ListedRequest {
  id: number;
  userId: number | null;
  email: string;
  reason: string | null;
  status: string;
  createdAt: string;
  confirmedAt: string | null;
  handledAt: string | null;
  handledBy: number | null;
  user: { id: number; email: string } | null;
}
interface RequestList {
  items: ListedRequest[];
  total: number;
  page: number;
  pageSize: number;
}

/** The token of the /data-deletion?token=… link in a mail. */
function tokenFrom(mail: OutboxMail | undefined): string {
  const link = mail?.links.find((l) => l.startsWith(`${ORIGIN}/data-deletion?token=`));
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`no /data-deletion?token= link in mail: ${mail?.raw ?? '(none)'}`);
  return token;
}

async function requestsOf(ctx: TestContext, admin: SignedIn, email: string): Promise<ListedRequest[]> {
  const res = await ctx.request(`/api/admin/data-deletion-requests?q=${encodeURIComponent(email)}`, { headers: admin.headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as RequestList).items;
}

describeEachBackend('data deletion: signed in', (ctx) => {
  it('confirms at once with the current password', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const user = await signedInUser(ctx());
    const res = await ctx().json('POST', '/api/data-deletion', { currentPassword: PASSWORD, reason: '  Moving abroad  ' }, user.headers);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true, status: 'confirmed' });
    const [request] = await requestsOf(ctx(), admin, user.email);
    expect(request).toMatchObject({ userId: user.id, email: user.email, reason: 'Moving abroad', status: 'confirmed', handledAt: null, user: { id: user.id } });
    expect(request?.confirmedAt).toBe(ctx().clock.now().toISOString());
    const [notice] = await mailsTo(ctx(), user.email);
    expect(notice?.subject).toBe('Your Fieldwork data-deletion request is confirmed');
    // Nothing is deleted: the account still works.
    expect((await ctx().request('/api/auth', { headers: user.headers })).status).toBe(200);
  });

  it('asking again keeps one open request', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const user = await signedInUser(ctx());
    await ctx().json('POST', '/api/data-deletion', { currentPassword: PASSWORD }, user.headers);
    const again = await ctx().json('POST', '/api/data-deletion', { currentPassword: PASSWORD, reason: 'Second thoughts on the reason' }, user.headers);
    expect(again.status).toBe(201);
    const requests = await requestsOf(ctx(), admin, user.email);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.reason).toBe('Second thoughts on the reason');
  });

  it('refuses a wrong or missing password, and extra fields', async () => {
    const user = await signedInUser(ctx());
    expect(await fieldsOf(await ctx().json('POST', '/api/data-deletion', { currentPassword: 'Wrong-passw0rd' }, user.headers))).toEqual({
      currentPassword: ['Incorrect password'],
    });
    expect(await fieldsOf(await ctx().json('POST', '/api/data-deletion', { email: user.email }, user.headers))).toEqual({
      currentPassword: ['Required'],
      email: ['Unexpected field'],
    });
    expect(await fieldsOf(await ctx().json('POST', '/api/data-deletion', { currentPassword: PASSWORD, reason: 'r'.repeat(2001) }, user.headers))).toEqual({
      reason: ['Too long'],
    });
  });

  it('limits password checks per user like the account calls', async () => {
    const user = await signedInUser(ctx());
    for (let i = 0; i < 10; i++) expect((await ctx().json('POST', '/api/data-deletion', { currentPassword: 'Wrong-passw0rd' }, user.headers)).status).toBe(400);
    const limited = await ctx().json('POST', '/api/data-deletion', { currentPassword: PASSWORD }, user.headers);
    expect((await errorOf(limited, 429)).code).toBe('rate_limited');
  });
});

describeEachBackend('data deletion: by email', (ctx) => {
  const ask = (body: unknown, ip = freshIp()) => ctx().json('POST', '/api/data-deletion', body, { 'X-Forwarded-For': ip });

  it('answers the same for known and unknown addresses; only an active account gets a link', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const known = await signedInUser(ctx());
    const unknown = uniqueEmail('nobody');
    const invited = uniqueEmail('invited');
    await ctx().database.db.insert(users).values({ email: invited, status: 'invited' });
    for (const email of [known.email.toUpperCase(), unknown, invited]) {
      const res = await ask({ email, reason: 'No longer taking part' });
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ ok: true });
    }
    const [mail] = await mailsTo(ctx(), known.email);
    expect(mail?.subject).toBe('Confirm the deletion of your Fieldwork data');
    expect(mail?.raw).toContain('expires in 24 hours');
    tokenFrom(mail);
    expect(await mailsTo(ctx(), unknown)).toEqual([]);
    expect(await mailsTo(ctx(), invited)).toEqual([]);
    expect(await requestsOf(ctx(), admin, unknown)).toEqual([]);
    const [pending] = await requestsOf(ctx(), admin, known.email);
    expect(pending).toMatchObject({ status: 'pending', confirmedAt: null, reason: 'No longer taking part', userId: known.id });
  });

  it('confirms from the mailed link, once', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const user = await signedInUser(ctx());
    await ask({ email: user.email });
    const token = tokenFrom((await mailsTo(ctx(), user.email))[0]);

    const verify = await ctx().request(`/api/tokens/verify?token=${token}&type=data-deletion`);
    expect(verify.status).toBe(200);
    expect(await verify.json()).toMatchObject({ valid: true, type: 'data-deletion', email: user.email });

    // No session needed: the link proves the mailbox.
    const res = await ctx().json('POST', `/api/data-deletion/confirm?token=${token}`, {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, status: 'confirmed' });
    const [request] = await requestsOf(ctx(), admin, user.email);
    expect(request).toMatchObject({ status: 'confirmed', confirmedAt: ctx().clock.now().toISOString() });
    expect((await mailsTo(ctx(), user.email)).map((m) => m.subject)).toContain('Your Fieldwork data-deletion request is confirmed');

    const again = await ctx().json('POST', `/api/data-deletion/confirm?token=${token}`, {});
    expect(await errorOf(again, 404)).toEqual({ code: 'invalid_token', message: 'This link is invalid or has expired' });
    expect((await ctx().request(`/api/tokens/verify?token=${token}&type=data-deletion`)).status).toBe(404);
  });

  it('asking twice reuses the request; only the newest link works', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const user = await signedInUser(ctx());
    await ask({ email: user.email });
    // The mail work runs after each answer: let the first finish so the links come in order.
    await ctx().jobs.drain();
    await ask({ email: user.email, reason: 'Added a reason' });
    const [first, second] = await mailsTo(ctx(), user.email);
    expect((await ctx().json('POST', `/api/data-deletion/confirm?token=${tokenFrom(first)}`, {})).status).toBe(404);
    expect((await ctx().json('POST', `/api/data-deletion/confirm?token=${tokenFrom(second)}`, {})).status).toBe(200);
    const requests = await requestsOf(ctx(), admin, user.email);
    expect(requests.map((r) => [r.status, r.reason])).toEqual([['confirmed', 'Added a reason']]);
  });

  it('lets a link expire after 24 hours', async () => {
    const user = await signedInUser(ctx());
    await ask({ email: user.email });
    const token = tokenFrom((await mailsTo(ctx(), user.email))[0]);
    ctx().clock.advance(24 * 60 * 60 * 1000 + 1);
    expect((await ctx().json('POST', `/api/data-deletion/confirm?token=${token}`, {})).status).toBe(404);
  });

  it('refuses a link whose request an admin cancelled', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const user = await signedInUser(ctx());
    await ask({ email: user.email });
    const token = tokenFrom((await mailsTo(ctx(), user.email))[0]);
    const [request] = await requestsOf(ctx(), admin, user.email);
    expect((await ctx().json('PATCH', `/api/admin/data-deletion-requests/${request?.id}`, { status: 'cancelled' }, admin.headers)).status).toBe(200);
    expect((await ctx().json('POST', `/api/data-deletion/confirm?token=${token}`, {})).status).toBe(404);
  });

  it('validates the address and the token query', async () => {
    expect(await fieldsOf(await ask({}))).toEqual({ email: ['Required'] });
    expect(await fieldsOf(await ask({ email: 'not-an-email' }))).toEqual({ email: ['Invalid email'] });
    expect(await fieldsOf(await ask({ email: 'a@example.org', currentPassword: 'x' }))).toEqual({ currentPassword: ['Unexpected field'] });
    expect(await fieldsOf(await ctx().json('POST', '/api/data-deletion/confirm', {}))).toEqual({ token: ['Required'] });
    expect((await ctx().json('POST', '/api/data-deletion/confirm?token=not-a-real-token', {})).status).toBe(404);
  });

  it('allows 5 requests an hour per address', async () => {
    const email = uniqueEmail('limited');
    for (let i = 0; i < 5; i++) expect((await ask({ email })).status).toBe(202);
    const limited = await ask({ email });
    expect((await errorOf(limited, 429)).code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });
});

describeEachBackend('data-deletion requests for admins', (ctx) => {
  const confirmedRequestOf = async (user: SignedIn) => {
    await ctx().json('POST', '/api/data-deletion', { currentPassword: PASSWORD }, user.headers);
  };

  it('are for admins only', async () => {
    expect((await ctx().request('/api/admin/data-deletion-requests')).status).toBe(401);
    for (const role of ['participant', 'moderator'] as const) {
      const user = await signedInUser(ctx(), role);
      expect((await errorOf(await ctx().request('/api/admin/data-deletion-requests', { headers: user.headers }), 403)).code).toBe('forbidden');
      expect((await ctx().json('PATCH', '/api/admin/data-deletion-requests/1', { status: 'completed' }, user.headers)).status).toBe(403);
    }
  });

  it('list newest first, filter by status, page', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const people: SignedIn[] = [];
    for (let i = 0; i < 12; i++) {
      const user = await signedInUser(ctx());
      people.push(user);
      await confirmedRequestOf(user);
      ctx().clock.advance(1000);
    }
    const get = async (query: string) => {
      const res = await ctx().request(`/api/admin/data-deletion-requests${query}`, { headers: admin.headers });
      expect(res.headers.get('cache-control')).toBe('no-store');
      return (await res.json()) as RequestList;
    };
    const first = await get('?status=confirmed');
    expect(first).toMatchObject({ total: 12, page: 1, pageSize: 10 });
    expect(first.items[0]?.email).toBe(people[11]?.email);
    expect((await get('?status=confirmed&page=2')).items.map((r) => r.email)).toEqual([people[1]?.email, people[0]?.email]);
    expect((await get('?status=completed')).total).toBe(0);
    expect(Object.keys(await fieldsOf(await ctx().request('/api/admin/data-deletion-requests?status=deleted', { headers: admin.headers })))).toEqual([
      'status',
    ]);
  });

  it('complete a confirmed request: recorded, audited, the person told; nothing is deleted', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const user = await signedInUser(ctx());
    await confirmedRequestOf(user);
    const [request] = await requestsOf(ctx(), admin, user.email);
    const res = await ctx().json('PATCH', `/api/admin/data-deletion-requests/${request?.id}`, { status: 'completed' }, admin.headers);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { request: ListedRequest }).request).toMatchObject({
      id: request?.id,
      status: 'completed',
      handledBy: admin.id,
      handledAt: ctx().clock.now().toISOString(),
    });
    const mails = await mailsTo(ctx(), user.email);
    expect(mails.map((m) => m.subject)).toContain('Your Fieldwork data has been deleted');
    const entries = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'data_deletion_request'), eq(auditLog.targetId, String(request?.id))));
    expect(entries.map((e) => [e.action, e.actorId, e.before, e.after])).toEqual([
      ['data_deletion.confirm', user.id, null, null],
      ['data_deletion.complete', admin.id, { status: 'confirmed' }, { status: 'completed' }],
    ]);
    // The account is untouched: deleting is the admin workflow's job, not this call's.
    expect((await ctx().request('/api/auth', { headers: user.headers })).status).toBe(200);
    // Closed is closed.
    for (const status of ['completed', 'cancelled']) {
      expect((await errorOf(await ctx().json('PATCH', `/api/admin/data-deletion-requests/${request?.id}`, { status }, admin.headers), 409)).code).toBe(
        'invalid_status',
      );
    }
  });

  it('only completes confirmed requests; cancels open ones', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const user = await signedInUser(ctx());
    await ctx().json('POST', '/api/data-deletion', { email: user.email }, { 'X-Forwarded-For': freshIp() });
    await ctx().jobs.drain();
    const [pending] = await requestsOf(ctx(), admin, user.email);
    expect(pending?.status).toBe('pending');
    const early = await errorOf(await ctx().json('PATCH', `/api/admin/data-deletion-requests/${pending?.id}`, { status: 'completed' }, admin.headers), 409);
    expect(early.message).toBe('Only a confirmed request can be completed (it is pending)');
    const cancel = await ctx().json('PATCH', `/api/admin/data-deletion-requests/${pending?.id}`, { status: 'cancelled' }, admin.headers);
    expect(((await cancel.json()) as { request: ListedRequest }).request.status).toBe('cancelled');
    // A new request may follow a cancelled one.
    await confirmedRequestOf(user);
    expect((await requestsOf(ctx(), admin, user.email)).map((r) => r.status)).toEqual(['confirmed', 'cancelled']);
  });

  it('validate the change', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    expect(await fieldsOf(await ctx().json('PATCH', '/api/admin/data-deletion-requests/1', { status: 'deleted' }, admin.headers))).toEqual({
      status: ['Invalid enum value'],
    });
    // A malformed id is an unknown one (pathId), before the body is read.
    expect((await errorOf(await ctx().json('PATCH', '/api/admin/data-deletion-requests/0', { status: 'deleted' }, admin.headers), 404)).message).toBe(
      'No such request',
    );
    expect((await errorOf(await ctx().json('PATCH', '/api/admin/data-deletion-requests/999999', { status: 'completed' }, admin.headers), 404)).code).toBe(
      'not_found',
    );
  });
});
