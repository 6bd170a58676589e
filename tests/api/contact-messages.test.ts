import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog, rateLimits } from '../../src/server/db/schema/index.ts';
import { readOutbox } from '../support/outbox.ts';
import { createTestContext, describeEachBackend } from './harness.ts';
import { errorOf, fieldsOf, freshIp, mailsTo, signedInUser, uniqueEmail } from './helpers.ts';

const SUPPORT = 'support@fieldwork.localhost';

interface ListedMessage {
  id: number;
  name: string;
  email: string;
  message: string;
  userId: number | null;
  createdAt: string;
  handledAt: string | null;
}
interface MessageList {
  items: ListedMessage[];
  total: number;
  page: number;
  pageSize: number;
}

describeEachBackend('the contact form', (ctx) => {
  const post = (body: unknown, headers: Record<string, string> = {}) => ctx().json('POST', '/api/contact', body, { 'X-Forwarded-For': freshIp(), ...headers });
  const list = async (query = '') => {
    const admin = await signedInUser(ctx(), 'admin');
    return (await (await ctx().request(`/api/admin/contact-messages${query}`, { headers: admin.headers })).json()) as MessageList;
  };

  it('stores the message, answers 202, and mails support with Reply-To the sender', async () => {
    const email = uniqueEmail('writer');
    const res = await post({
      name: '  Ada Lovelace ',
      email: ` ${email.toUpperCase()} `,
      message: 'Where do I find my points for the March mission? <b>Thanks</b>',
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true });

    const [stored] = (await list(`?q=${encodeURIComponent(email)}`)).items;
    expect(stored).toMatchObject({ name: 'Ada Lovelace', email, userId: null, handledAt: null });
    expect(stored?.message).toContain('March mission');

    const mail = (await mailsTo(ctx(), SUPPORT)).find((m) => m.raw.includes(email));
    expect(mail?.subject).toBe('Contact form: Ada Lovelace');
    expect(mail?.raw).toMatch(new RegExp(`^Reply-To: ${email.replace(/[.+]/g, '\\$&')}$`, 'm'));
    expect(mail?.raw).toContain('Where do I find my points for the March mission?');
    // The HTML part shows the text, never runs it.
    expect(mail?.raw).toContain('&lt;b&gt;Thanks&lt;/b&gt;');
    expect(mail?.raw).toContain('Account: not signed in');
  });

  it('attaches the signed-in sender', async () => {
    const user = await signedInUser(ctx());
    expect((await post({ name: 'Robin Hale', email: user.email, message: 'A question about my account.' }, user.headers)).status).toBe(202);
    const [stored] = (await list(`?q=${encodeURIComponent(user.email)}`)).items;
    expect(stored?.userId).toBe(user.id);
    const mail = (await mailsTo(ctx(), SUPPORT)).find((m) => m.raw.includes(user.email));
    expect(mail?.raw).toContain(`Account: user #${user.id}`);
  });

  it('validates with clear messages', async () => {
    expect(await fieldsOf(await post({}))).toEqual({ name: ['Required'], email: ['Required'], message: ['Required'] });
    expect(await fieldsOf(await post({ name: '   ', email: 'nope', message: '  too short ' }))).toEqual({
      name: ['Required'],
      email: ['Invalid email'],
      message: ['Write at least 10 characters'],
    });
    expect(await fieldsOf(await post({ name: 'n'.repeat(101), email: 'a@example.org', message: 'm'.repeat(5001), phone: '1' }))).toEqual({
      name: ['At most 100 characters'],
      message: ['Keep it under 5000 characters'],
      phone: ['Unexpected field'],
    });
    expect((await post({ name: 'n'.repeat(100), email: uniqueEmail('max'), message: 'm'.repeat(5000) })).status).toBe(202);
  });

  it('allows 400 messages an hour per address (a room of people) and 5 per email', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++)
      expect((await post({ name: 'Sam', email: uniqueEmail('room'), message: 'Hello there, a question.' }, { 'X-Forwarded-For': ip })).status).toBe(202);
    // As if 378 more people had written from that address this hour.
    await ctx()
      .database.db.update(rateLimits)
      .set({ count: 398 })
      .where(eq(rateLimits.key, `contact:ip:${ip}`));
    for (let i = 0; i < 2; i++)
      expect((await post({ name: 'Sam', email: uniqueEmail('room'), message: 'Hello there, a question.' }, { 'X-Forwarded-For': ip })).status).toBe(202);
    const limited = await post({ name: 'Sam', email: uniqueEmail('room'), message: 'Hello there, a question.' }, { 'X-Forwarded-For': ip });
    expect((await errorOf(limited, 429)).code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3000);

    const email = uniqueEmail('same');
    for (let i = 0; i < 5; i++) expect((await post({ name: 'Sam', email, message: 'Hello there, a question.' })).status).toBe(202);
    expect((await post({ name: 'Sam', email, message: 'Hello there, a question.' })).status).toBe(429);
    ctx().clock.advance(60 * 60 * 1000);
    expect((await post({ name: 'Sam', email, message: 'Hello there, a question.' })).status).toBe(202);
  });
});

describeEachBackend('contact messages for the admin area', (ctx) => {
  const post = (name: string, email: string) =>
    ctx().json('POST', '/api/contact', { name, email, message: `A message from ${name}, long enough.` }, { 'X-Forwarded-For': freshIp() });

  it('are for moderators and admins', async () => {
    expect((await errorOf(await ctx().request('/api/admin/contact-messages'), 401)).code).toBe('unauthenticated');
    const participant = await signedInUser(ctx());
    expect((await ctx().request('/api/admin/contact-messages', { headers: participant.headers })).status).toBe(403);
    expect((await ctx().json('PATCH', '/api/admin/contact-messages/1', { handled: true }, participant.headers)).status).toBe(403);
    const moderator = await signedInUser(ctx(), 'moderator');
    const res = await ctx().request('/api/admin/contact-messages', { headers: moderator.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('list newest first, page and search', async () => {
    const moderator = await signedInUser(ctx(), 'moderator');
    const get = async (query: string) =>
      (await (await ctx().request(`/api/admin/contact-messages${query}`, { headers: moderator.headers })).json()) as MessageList;
    for (let i = 1; i <= 12; i++) {
      expect((await post(`Sender ${String(i).padStart(2, '0')}`, uniqueEmail('paged'))).status).toBe(202);
      ctx().clock.advance(1000);
    }
    const first = await get('?q=Sender');
    expect(first).toMatchObject({ total: 12, page: 1, pageSize: 10 });
    expect(first.items[0]?.name).toBe('Sender 12');
    expect((await get('?q=Sender&page=2')).items.map((m) => m.name)).toEqual(['Sender 02', 'Sender 01']);
    expect((await get('?q=sender%2007')).items.map((m) => m.name)).toEqual(['Sender 07']);
    expect((await get('?q=from%20Sender%2003')).total).toBe(1);
  });

  it('mark one handled (audited), or open again', async () => {
    const moderator = await signedInUser(ctx(), 'moderator');
    const email = uniqueEmail('handled');
    await post('Handled Person', email);
    const get = async () =>
      ((await (await ctx().request(`/api/admin/contact-messages?q=${encodeURIComponent(email)}`, { headers: moderator.headers })).json()) as MessageList)
        .items[0];
    const id = (await get())?.id ?? 0;
    const done = await ctx().json('PATCH', `/api/admin/contact-messages/${id}`, { handled: true }, moderator.headers);
    expect(done.status).toBe(200);
    expect(((await done.json()) as { message: ListedMessage }).message.handledAt).toBe(ctx().clock.now().toISOString());
    expect((await get())?.handledAt).not.toBeNull();
    const reopened = await ctx().json('PATCH', `/api/admin/contact-messages/${id}`, { handled: false }, moderator.headers);
    expect(((await reopened.json()) as { message: ListedMessage }).message.handledAt).toBeNull();
    const entries = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'contact_message'), eq(auditLog.targetId, String(id))));
    expect(entries.map((e) => [e.action, e.actorId, e.via])).toEqual([
      ['contact_message.handled', moderator.id, 'api'],
      ['contact_message.reopened', moderator.id, 'api'],
    ]);

    expect((await errorOf(await ctx().json('PATCH', '/api/admin/contact-messages/999999', { handled: true }, moderator.headers), 404)).code).toBe('not_found');
    // A malformed id is an unknown one (pathId), before the body is read.
    expect((await errorOf(await ctx().json('PATCH', '/api/admin/contact-messages/abc', {}, moderator.headers), 404)).message).toBe('No such message');
    expect(await fieldsOf(await ctx().json('PATCH', `/api/admin/contact-messages/${id}`, {}, moderator.headers))).toEqual({ handled: ['Required'] });
  });
});

it('mails SUPPORT_EMAIL when it is set', async () => {
  const { context, close } = await createTestContext('pglite', { env: { SUPPORT_EMAIL: 'help@research.example' } });
  try {
    const res = await context.json('POST', '/api/contact', { name: 'Lee', email: 'lee@example.org', message: 'Is the study still open?' });
    expect(res.status).toBe(202);
    await context.jobs.drain();
    expect((await readOutbox(context.dataDir)).map((m) => m.to)).toEqual(['help@research.example']);
  } finally {
    await close();
  }
});
