/**
 * The admin users calls (docs/api.md, "Admin: users and invitations"): the list's filters and
 * sorts, search by part of an email or a name, the detail, roles and status (admins only, never
 * on oneself, never the last admin), sessions ending at once, a disabled account's links refused,
 * invitations one at a time, resent and from a CSV (preview, then applied through the job queue),
 * and the formula-safe CSV export.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/index.ts';
import { auditLog, projectMembers, rateLimits, sessions, users } from '../../src/server/db/schema/index.ts';
import { invitationMailsKey } from '../../src/server/services/invitations.ts';
import { issueLinkToken } from '../../src/server/services/tokens.ts';
import { createActiveUser, findOrCreateInvitedUser, updateUserAccess, userListWhere } from '../../src/server/services/users.ts';
import { INVITATION_MAIL_LIMIT } from '../../src/shared/invitations.ts';
import { userListQuerySchema } from '../../src/shared/schemas/users.ts';
import type { ListPage } from '../../src/shared/list.ts';
import type { AdminUserDetail, AdminUserListItem, BulkInviteResult, InvitationResult } from '../../src/shared/users.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, freshIp, mailsTo, PASSWORD, signedInUser, type SignedIn } from './helpers.ts';
import { addMember, callAs, createMission, createProject, insertEntry, okJson, participant, staff } from './programme-fixtures.ts';

let tagCounter = 0;
/** A word only this test's people have in their address, so a search finds them alone. */
const freshTag = () => `zq${(++tagCounter).toString(36)}x${Date.now().toString(36)}`;

/** An account made straight in the database, with its sign-up time. */
async function person(
  c: TestContext,
  input: {
    email: string;
    firstName?: string;
    lastName?: string;
    role?: 'participant' | 'moderator' | 'admin';
    status?: 'invited' | 'active' | 'disabled';
    createdAt?: string;
  },
) {
  const user = await createActiveUser(c.database.db, {
    email: input.email,
    password: PASSWORD,
    role: input.role ?? 'participant',
    firstName: input.firstName ?? 'Pat',
    lastName: input.lastName ?? 'Doe',
  });
  const set: Partial<typeof users.$inferInsert> = {};
  if (input.status) set.status = input.status;
  if (input.createdAt) set.createdAt = new Date(input.createdAt);
  if (Object.keys(set).length > 0) await c.database.db.update(users).set(set).where(eq(users.id, user.id));
  return user;
}

/** A multipart body with `text` as the `file` part. */
function csvForm(text: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), 'people.csv');
  return form;
}

describeEachBackend('admin users API', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  let adminUser: SignedIn | undefined;
  let moderatorUser: SignedIn | undefined;
  const admin = async () => (adminUser ??= await staff(ctx(), 'admin'));
  const moderator = async () => (moderatorUser ??= await staff(ctx(), 'moderator'));
  const list = async (query: string, who?: SignedIn) =>
    okJson<ListPage<AdminUserListItem>>(await as(who ?? (await admin()))('GET', `/api/admin/users?${query}`));
  const emailsOf = (page: ListPage<AdminUserListItem>) => page.items.map((item) => item.email);
  const sessionCount = async (userId: number) => (await ctx().database.db.select().from(sessions).where(eq(sessions.userId, userId))).length;
  const bulk = async (who: SignedIn, text: string, dryRun: boolean) =>
    ctx().request(`/api/admin/invitations/bulk${dryRun ? '?dryRun=1' : ''}`, {
      method: 'POST',
      headers: { Origin: ORIGIN, ...who.headers },
      body: csvForm(text),
    });

  it('filters by role, status, project membership and sign-up days (inclusive), and searches any part of an email or name, any case', async () => {
    const c = ctx();
    const tag = freshTag();
    const ann = await person(c, { email: `ann.${tag}@alpha.example`, firstName: 'Ann', lastName: 'Zimmer', createdAt: '2026-01-10T08:00:00Z' });
    const bob = await person(c, {
      email: `bob.${tag}@beta.example`,
      firstName: 'Bob',
      lastName: 'Young',
      role: 'moderator',
      status: 'invited',
      createdAt: '2026-02-05T23:30:00Z',
    });
    const cat = await person(c, { email: `cat.${tag}@gamma.example`, firstName: 'Cat', lastName: 'Xu', status: 'disabled', createdAt: '2026-03-01T00:00:00Z' });
    const project = await createProject(c);
    await addMember(c, project.id, ann.id);

    expect(emailsOf(await list(`q=${tag}&sort=email`))).toEqual([ann.email, bob.email, cat.email]);
    const page = await list(`q=${tag}`);
    expect(page.total).toBe(3);
    expect(page.items[0]).toMatchObject({ id: ann.id, role: 'participant', status: 'active', createdAt: '2026-01-10T08:00:00.000Z', lastActiveAt: null });
    expect(emailsOf(await list(`q=${tag}&role=moderator`))).toEqual([bob.email]);
    expect(emailsOf(await list(`q=${tag}&status=disabled`))).toEqual([cat.email]);
    expect(emailsOf(await list(`q=${tag}&status=active`))).toEqual([ann.email]);
    expect(emailsOf(await list(`projectId=${project.id}`))).toEqual([ann.email]);
    expect(emailsOf(await list(`q=${tag}&from=2026-02-01&sort=email`))).toEqual([bob.email, cat.email]);
    expect(emailsOf(await list(`q=${tag}&to=2026-02-05&sort=email`))).toEqual([ann.email, bob.email]);
    expect(emailsOf(await list(`q=${tag}&from=2026-02-05&to=2026-02-05`))).toEqual([bob.email]);
    expect(emailsOf(await list(`q=${tag}&from=2026-03-01&to=2026-03-01`))).toEqual([cat.email]);
    // Part of the address (the middle of it, another case), the domain, a name.
    expect(emailsOf(await list(`q=${encodeURIComponent(`B.${tag.toUpperCase()}@BE`)}`))).toEqual([bob.email]);
    expect(emailsOf(await list(`q=${encodeURIComponent(`${tag}@gam`)}`))).toEqual([cat.email]);
    expect(emailsOf(await list(`q=${tag}&role=participant&sort=email`))).toEqual([ann.email, cat.email]);
    // LIKE wildcards are taken literally.
    expect((await list(`q=${tag}%25`)).total).toBe(0);

    expect(Object.keys(await fieldsOf(await as(await admin())('GET', '/api/admin/users?role=owner')))).toEqual(['role']);
    expect(Object.keys(await fieldsOf(await as(await admin())('GET', '/api/admin/users?status=gone')))).toEqual(['status']);
    expect(Object.keys(await fieldsOf(await as(await admin())('GET', '/api/admin/users?from=2026-13-01')))).toEqual(['from']);
    expect(Object.keys(await fieldsOf(await as(await admin())('GET', '/api/admin/users?from=2026-03-01&to=2026-02-01')))).toEqual(['to']);
    expect(Object.keys(await fieldsOf(await as(await admin())('GET', '/api/admin/users?projectId=abc')))).toEqual(['projectId']);
  });

  it('filters by recent activity (`active=7d|30d|90d`, by the clock; never active is left out), the CSV too', async () => {
    const c = ctx();
    const tag = freshTag();
    const now = c.clock.now().getTime();
    const DAY = 86_400_000;
    const lately = await person(c, { email: `lately.${tag}@example.org` });
    const aMonthAgo = await person(c, { email: `month.${tag}@example.org` });
    const never = await person(c, { email: `never.${tag}@example.org` });
    await c.database.db
      .update(users)
      .set({ lastActiveAt: new Date(now - 2 * DAY) })
      .where(eq(users.id, lately.id));
    await c.database.db
      .update(users)
      .set({ lastActiveAt: new Date(now - 45 * DAY) })
      .where(eq(users.id, aMonthAgo.id));
    await c.database.db.update(users).set({ lastActiveAt: null }).where(eq(users.id, never.id));

    expect(emailsOf(await list(`q=${tag}&active=7d&sort=email`))).toEqual([lately.email]);
    expect(emailsOf(await list(`q=${tag}&active=30d&sort=email`))).toEqual([lately.email]);
    expect(emailsOf(await list(`q=${tag}&active=90d&sort=email`))).toEqual([lately.email, aMonthAgo.email]);
    c.clock.advance(10 * DAY);
    // Ten days on, the suite's staff sign in again: the CSV (and other sensitive calls) need a sign-in under 15 minutes old.
    [adminUser, moderatorUser] = [undefined, undefined];
    expect(emailsOf(await list(`q=${tag}&active=7d`))).toEqual([]);
    const csv = await (await as(await admin())('GET', `/api/admin/users.csv?q=${tag}&active=90d`)).text();
    expect(csv).toContain(lately.email);
    expect(csv).toContain(aMonthAgo.email);
    expect(csv).not.toContain(never.email);
    expect(Object.keys(await fieldsOf(await as(await admin())('GET', '/api/admin/users?active=1y')))).toEqual(['active']);
  });

  it('sorts by id, email, name, sign-up and last activity, both ways', async () => {
    const c = ctx();
    const tag = freshTag();
    const a = await person(c, { email: `c-${tag}@x.example`, firstName: 'Zed', lastName: 'Adams', createdAt: '2026-05-01T00:00:00Z' });
    const b = await person(c, { email: `a-${tag}@x.example`, firstName: 'Amy', lastName: 'Brown', createdAt: '2026-05-03T00:00:00Z' });
    const d = await person(c, { email: `b-${tag}@x.example`, firstName: 'Kim', lastName: 'Brown', createdAt: '2026-05-02T00:00:00Z' });
    await c.database.db
      .update(users)
      .set({ lastActiveAt: new Date('2026-10-01T00:00:00Z') })
      .where(eq(users.id, d.id));
    await c.database.db
      .update(users)
      .set({ lastActiveAt: new Date('2026-10-05T00:00:00Z') })
      .where(eq(users.id, a.id));
    const ids = async (query: string) => (await list(`q=${tag}&${query}`)).items.map((item) => item.id);
    expect(await ids('')).toEqual([a.id, b.id, d.id]);
    expect(await ids('sort=id&dir=desc')).toEqual([d.id, b.id, a.id]);
    expect(await ids('sort=email')).toEqual([b.id, d.id, a.id]);
    expect(await ids('sort=email&dir=desc')).toEqual([a.id, d.id, b.id]);
    expect(await ids('sort=name')).toEqual([a.id, b.id, d.id]);
    expect(await ids('sort=created')).toEqual([b.id, d.id, a.id]);
    expect(await ids('sort=created&dir=asc')).toEqual([a.id, d.id, b.id]);
    // Most recent first; never active last.
    expect(await ids('sort=lastActive')).toEqual([a.id, d.id, b.id]);
    expect(await ids('sort=lastActive&dir=asc')).toEqual([b.id, d.id, a.id]);
    expect((await list(`q=${tag}&pageSize=2&page=2&sort=email`)).items.map((item) => item.id)).toEqual([a.id]);
  });

  it('who may call what: moderators read, export and invite participants; only admins change roles and status or end sessions', async () => {
    const c = ctx();
    const target = await participant(c);
    const mod = await moderator();
    const someone = await participant(c);
    expect((await as(null)('GET', '/api/admin/users')).status).toBe(401);
    expect((await as(someone)('GET', '/api/admin/users')).status).toBe(403);
    expect((await as(someone)('GET', `/api/admin/users/${target.id}`)).status).toBe(403);
    expect((await as(someone)('GET', '/api/admin/users.csv')).status).toBe(403);
    expect((await as(someone)('POST', '/api/admin/invitations', { email: 'x@example.org' })).status).toBe(403);
    expect((await as(mod)('GET', `/api/admin/users/${target.id}`)).status).toBe(200);
    expect((await as(mod)('GET', '/api/admin/users.csv')).status).toBe(200);
    await errorOf(await as(mod)('PATCH', `/api/admin/users/${target.id}`, { status: 'disabled' }), 403);
    await errorOf(await as(mod)('PATCH', `/api/admin/users/${target.id}`, { role: 'admin' }), 403);
    await errorOf(await as(mod)('POST', `/api/admin/users/${target.id}/sessions/end`), 403);
    expect(await sessionCount(target.id)).toBe(1);
    expect((await okJson<AdminUserDetail>(await as(mod)('GET', `/api/admin/users/${target.id}`))).status).toBe('active');
    // Moderators invite participants only.
    await okJson<InvitationResult>(await as(mod)('POST', '/api/admin/invitations', { email: `${freshTag()}@example.org` }), 201);
    const refused = await errorOf(await as(mod)('POST', '/api/admin/invitations', { email: `${freshTag()}@example.org`, role: 'moderator' }), 403);
    expect(refused.code).toBe('forbidden');
    await errorOf(await as(mod)('POST', '/api/admin/invitations', { email: `${freshTag()}@example.org`, role: 'admin' }), 403);
    // What does not exist is 404, checked before the body.
    const adm = await admin();
    expect((await errorOf(await as(adm)('GET', '/api/admin/users/99999999'), 404)).code).toBe('not_found');
    await errorOf(await as(adm)('GET', '/api/admin/users/abc'), 404);
    await errorOf(await as(adm)('PATCH', '/api/admin/users/99999999', { bogus: true }), 404);
    await errorOf(await as(adm)('POST', '/api/admin/users/99999999/sessions/end'), 404);
    await errorOf(await as(adm)('POST', '/api/admin/users/99999999/invitation'), 404);
    expect(Object.keys(await fieldsOf(await as(adm)('PATCH', `/api/admin/users/${target.id}`, {})))).toEqual(['role']);
    expect(Object.keys(await fieldsOf(await as(adm)('PATCH', `/api/admin/users/${target.id}`, { status: 'invited' })))).toEqual(['status']);
  });

  it('nobody demotes or disables themself (409 self_change)', async () => {
    const me = await staff(ctx(), 'admin');
    expect((await errorOf(await as(me)('PATCH', `/api/admin/users/${me.id}`, { role: 'moderator' }), 409)).code).toBe('self_change');
    expect((await errorOf(await as(me)('PATCH', `/api/admin/users/${me.id}`, { status: 'disabled' }), 409)).code).toBe('self_change');
    const row = (await ctx().database.db.select().from(users).where(eq(users.id, me.id)))[0];
    expect(row).toMatchObject({ role: 'admin', status: 'active' });
    // Nothing to change is not a change.
    expect((await as(me)('PATCH', `/api/admin/users/${me.id}`, { role: 'admin' })).status).toBe(200);
  });

  it('an admin demoted or disabled while their change was under way changes nothing (checked inside its transaction)', async () => {
    const c = ctx();
    const [first, second] = [await staff(c, 'admin'), await staff(c, 'admin')];
    const target = await participant(c);
    // What a request that passed the admin guard just before its actor lost the role runs next.
    const change = (actorId: number) => updateUserAccess(c.database.db, c.clock, { actorId, userId: target.id, role: 'moderator', ip: '127.0.0.1' });
    await okJson(await as(await admin())('PATCH', `/api/admin/users/${first.id}`, { role: 'moderator' }));
    await expect(change(first.id)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await okJson(await as(await admin())('PATCH', `/api/admin/users/${second.id}`, { status: 'disabled' }));
    await expect(change(second.id)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect((await c.database.db.select().from(users).where(eq(users.id, target.id)))[0]?.role).toBe('participant');
    expect((await as(target)('GET', '/api/auth')).status).toBe(200);
  });

  it('disabling ends the sessions at once (the next call is 401), voids links, cannot sign in; enabling lets them back', async () => {
    const c = ctx();
    const adm = await admin();
    const target = await participant(c);
    expect((await as(target)('GET', '/api/auth')).status).toBe(200);
    const answer = await okJson<{ user: AdminUserListItem; endedSessions: number }>(
      await as(adm)('PATCH', `/api/admin/users/${target.id}`, { status: 'disabled' }),
    );
    expect(answer).toMatchObject({ user: { id: target.id, status: 'disabled' }, endedSessions: 1 });
    expect((await as(target)('GET', '/api/auth')).status).toBe(401);
    expect(await sessionCount(target.id)).toBe(0);
    const login = await c.json('POST', '/api/auth/login', { email: target.email, password: PASSWORD }, { 'X-Forwarded-For': freshIp() });
    expect((await errorOf(login, 403)).code).toBe('account_disabled');
    const [entry] = await c.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.update'), eq(auditLog.targetId, String(target.id))));
    expect(entry).toMatchObject({
      actorId: adm.id,
      before: { role: 'participant', status: 'active' },
      after: { role: 'participant', status: 'disabled', endedSessions: 1 },
    });

    await okJson(await as(adm)('PATCH', `/api/admin/users/${target.id}`, { status: 'active' }));
    const again = await c.json('POST', '/api/auth/login', { email: target.email, password: PASSWORD }, { 'X-Forwarded-For': freshIp() });
    expect(again.status).toBe(200);
  });

  it('a role change ends the sessions; ending sessions answers how many ended', async () => {
    const c = ctx();
    const adm = await admin();
    const target = await participant(c);
    await okJson(await as(adm)('PATCH', `/api/admin/users/${target.id}`, { role: 'moderator' }));
    expect((await as(target)('GET', '/api/auth')).status).toBe(401);
    expect((await c.database.db.select().from(users).where(eq(users.id, target.id)))[0]?.role).toBe('moderator');

    const other = await participant(c);
    expect(await okJson<{ ended: number }>(await as(adm)('POST', `/api/admin/users/${other.id}/sessions/end`))).toEqual({ ended: 1 });
    expect((await as(other)('GET', '/api/auth')).status).toBe(401);
    expect(await okJson<{ ended: number }>(await as(adm)('POST', `/api/admin/users/${other.id}/sessions/end`))).toEqual({ ended: 0 });
  });

  it("a disabled account's links are refused everywhere: verify, onboarding, password reset", async () => {
    const c = ctx();
    const db = c.database.db;
    const adm = await admin();
    const headers = () => ({ 'X-Forwarded-For': freshIp() });
    // Invited, then disabled: the onboarding link issued before stops working.
    const { user: invited } = await findOrCreateInvitedUser(db, {
      email: `${freshTag()}@example.org`,
      role: 'participant',
      firstName: 'In',
      lastName: 'Vited',
    });
    const { token: onboarding } = await issueLinkToken(db, c.clock, { type: 'onboarding', userId: invited.id });
    expect((await c.request(`/api/tokens/verify?token=${onboarding}&type=onboarding`, { headers: headers() })).status).toBe(200);
    await okJson(await as(adm)('PATCH', `/api/admin/users/${invited.id}`, { status: 'disabled' }));
    expect((await c.request(`/api/tokens/verify?token=${onboarding}&type=onboarding`, { headers: headers() })).status).toBe(404);
    const onboard = await c.json(
      'POST',
      `/api/auth/onboard?token=${onboarding}`,
      { password: 'An0ther-password', confirmPassword: 'An0ther-password', acceptTerms: true },
      headers(),
    );
    expect((await errorOf(onboard, 404)).code).toBe('invalid_token');
    // A link issued while disabled (however it came about) is refused too.
    const { token: late } = await issueLinkToken(db, c.clock, { type: 'onboarding', userId: invited.id });
    expect(
      (
        await errorOf(
          await c.json(
            'POST',
            `/api/auth/onboard?token=${late}`,
            { password: 'An0ther-password', confirmPassword: 'An0ther-password', acceptTerms: true },
            headers(),
          ),
          404,
        )
      ).code,
    ).toBe('invalid_token');

    // Active with a reset link, then disabled.
    const active = await participant(c);
    const { token: reset } = await issueLinkToken(db, c.clock, { type: 'reset-password', userId: active.id });
    await okJson(await as(adm)('PATCH', `/api/admin/users/${active.id}`, { status: 'disabled' }));
    const resetBody = { password: 'An0ther-password', confirmPassword: 'An0ther-password' };
    expect((await errorOf(await c.json('POST', `/api/auth/password/reset?token=${reset}`, resetBody, headers()), 404)).code).toBe('invalid_token');
    const { token: lateReset } = await issueLinkToken(db, c.clock, { type: 'reset-password', userId: active.id });
    expect((await c.request(`/api/tokens/verify?token=${lateReset}&type=reset-password`, { headers: headers() })).status).toBe(404);
    expect((await errorOf(await c.json('POST', `/api/auth/password/reset?token=${lateReset}`, resetBody, headers()), 404)).code).toBe('invalid_token');
    const row = (await db.select().from(users).where(eq(users.id, active.id)))[0];
    expect(row?.status).toBe('disabled');
    // Enabling an account that never set a password leaves it invited; enabling an invited one is refused.
    await okJson(await as(adm)('PATCH', `/api/admin/users/${invited.id}`, { status: 'active' }));
    expect((await db.select().from(users).where(eq(users.id, invited.id)))[0]?.status).toBe('invited');
    expect((await errorOf(await as(adm)('PATCH', `/api/admin/users/${invited.id}`, { status: 'active' }), 409)).code).toBe('not_onboarded');
  });

  it('invites one person (mail through the job queue), again while invited, and resends; refuses active and disabled accounts', async () => {
    const c = ctx();
    const adm = await admin();
    const project = await createProject(c);
    const email = `${freshTag()}@example.org`;
    const made = await okJson<InvitationResult>(
      await as(adm)('POST', '/api/admin/invitations', {
        email: email.toUpperCase(),
        firstName: 'Nia',
        lastName: 'Lowe',
        role: 'moderator',
        projectId: project.id,
      }),
      201,
    );
    expect(made).toMatchObject({ created: true, user: { email, firstName: 'Nia', lastName: 'Lowe', role: 'moderator', status: 'invited' } });
    const member = await c.database.db
      .select()
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, made.user.id)));
    expect(member).toHaveLength(1);
    const first = await mailsTo(c, email);
    expect(first).toHaveLength(1);
    expect(first[0]?.links.some((link) => link.includes('/onboarding/'))).toBe(true);
    // Worded for a moderator, naming who invites and the project (issue 28 §10).
    expect(first[0]?.raw).toContain('Robin Hale invited you to join Fieldwork as a moderator, starting with the project');
    expect(first[0]?.raw).toContain(project.name);
    expect(first[0]?.raw).not.toContain('earn points');

    expect((await okJson<InvitationResult>(await as(adm)('POST', '/api/admin/invitations', { email }), 200)).created).toBe(false);
    expect(await okJson<InvitationResult>(await as(adm)('POST', `/api/admin/users/${made.user.id}/invitation`), 202)).toMatchObject({
      user: { id: made.user.id },
    });
    expect(await mailsTo(c, email)).toHaveLength(3);
    // A moderator may not resend a moderator's invitation.
    await errorOf(await as(await moderator())('POST', `/api/admin/users/${made.user.id}/invitation`), 403);
    await errorOf(await as(await moderator())('POST', '/api/admin/invitations', { email }), 403);
    const again = await okJson<BulkInviteResult>(await bulk(await moderator(), `email,first name,last name\n${email},N,L`, true));
    expect(again.problems.map((p) => p.message)).toEqual(['An invited staff account: only admins may invite it again']);

    const active = await participant(c);
    expect((await errorOf(await as(adm)('POST', '/api/admin/invitations', { email: active.email }), 409)).code).toBe('cannot_invite');
    expect((await errorOf(await as(adm)('POST', `/api/admin/users/${active.id}/invitation`), 409)).code).toBe('not_invited');
    expect((await errorOf(await as(adm)('POST', '/api/admin/invitations', { email: `${freshTag()}@example.org`, projectId: 99999999 }), 404)).code).toBe(
      'not_found',
    );
    expect(Object.keys(await fieldsOf(await as(adm)('POST', '/api/admin/invitations', { email: 'not-an-email' })))).toEqual(['email']);
  });

  it('bulk invitations: the dry run lists each row problem by line and changes nothing; applying invites the valid rows through the queue', async () => {
    const c = ctx();
    const mod = await moderator();
    const tag = freshTag();
    const project = await createProject(c, { name: `Bulk ${tag}` });
    const disabled = await person(c, { email: `off-${tag}@example.org`, status: 'disabled' });
    const active = await person(c, { email: `on-${tag}@example.org` });
    const e = (name: string) => `${name}-${tag}@example.org`;
    const text = [
      'Email,First Name,LAST NAME,Role,Project',
      `${e('one')},One,Person,,${project.name.toUpperCase()}`,
      'not-an-email,Bad,Address,,',
      `${e('two')},Two,Person,participant,${project.id}`,
      '',
      `${e('ONE')},Dup,Licate,,`,
      `${e('three')},Three,Person,,No such project`,
      `${e('four')},Four,Person,admin,`,
      `${disabled.email},Dis,Abled,,`,
      `${active.email},Act,Ive,,`,
      `${e('five')},Five,Person,wizard,`,
      `${e('six')},"=HYPERLINK(""x"")",Person,,`,
    ].join('\r\n');
    const preview = await okJson<BulkInviteResult>(await bulk(mod, text, true));
    expect(preview).toMatchObject({ rows: 10, valid: 3, dryRun: true, invited: 0 });
    expect(preview.problems.map((p) => [p.line, p.column])).toEqual([
      [3, 'email'],
      [6, 'email'],
      [7, 'project'],
      [8, 'role'],
      [9, 'email'],
      [10, 'email'],
      [11, 'role'],
    ]);
    expect(preview.problems.find((p) => p.line === 6)?.message).toBe('Already on line 2');
    expect(preview.problems.find((p) => p.line === 8)?.message).toBe('Only admins may invite moderators and admins');
    const emails = [e('one'), e('two'), e('six')];
    expect(await c.database.db.select().from(users).where(inArray(users.email, emails))).toHaveLength(0);
    expect(await mailsTo(c, e('one'))).toHaveLength(0);

    const applied = await okJson<BulkInviteResult>(await bulk(mod, text, false));
    expect(applied).toMatchObject({ rows: 10, valid: 3, dryRun: false, invited: 3 });
    const made = await c.database.db.select().from(users).where(inArray(users.email, emails));
    expect(made.map((u) => u.status)).toEqual(['invited', 'invited', 'invited']);
    expect(made.find((u) => u.email === e('six'))?.firstName).toBe('=HYPERLINK("x")');
    const members = await c.database.db.select().from(projectMembers).where(eq(projectMembers.projectId, project.id));
    expect(members).toHaveLength(2);
    for (const email of emails) expect(await mailsTo(c, email)).toHaveLength(1);
    expect(await mailsTo(c, disabled.email)).toHaveLength(0);

    // An admin may invite staff from a file; a header without the required columns is line 1's problem.
    const adminRun = await okJson<BulkInviteResult>(await bulk(await admin(), `email,first name,last name,role\n${e('seven')},S,P,admin`, true));
    expect(adminRun).toMatchObject({ rows: 1, valid: 1, problems: [] });
    const noHeader = await okJson<BulkInviteResult>(await bulk(mod, `mail,name\n${e('eight')},x`, true));
    expect(noHeader.problems.map((p) => [p.line, p.column])).toEqual([
      [1, 'email'],
      [1, 'first name'],
      [1, 'last name'],
    ]);
    const noFile = await ctx().json('POST', '/api/admin/invitations/bulk?dryRun=1', {}, mod.headers);
    expect((await errorOf(noFile, 400)).code).toBe('file_required');
  });

  it('bulk invitations: a row whose account changed between the check and the transaction is reported, not a 500', async () => {
    const c = ctx();
    const mod = await staff(c, 'moderator');
    const tag = freshTag();
    const fresh = `new-${tag}@example.org`;
    const [late, promoted] = [`late-${tag}@example.org`, `promoted-${tag}@example.org`];
    for (const email of [late, promoted]) await findOrCreateInvitedUser(c.database.db, { email, role: 'participant' });
    const text = ['email,first name,last name', `${fresh},New,One`, `${late},Late,Two`, `${promoted},Pro,Three`].join('\n');
    expect(await okJson<BulkInviteResult>(await bulk(mod, text, true))).toMatchObject({ rows: 3, valid: 3, problems: [] });
    // Meanwhile (as the first row is written): one account is activated by its owner, another made a moderator.
    const db = c.database.db;
    await db.execute(
      sql.raw(`create or replace function bulk_invite_test_meanwhile() returns trigger language plpgsql as $$ begin
        update users set status = 'active', password_hash = 'x' where email = '${late}';
        update users set role = 'moderator' where email = '${promoted}';
        return new; end $$`),
    );
    await db.execute(
      sql.raw(
        `create trigger bulk_invite_test_meanwhile after insert on users for each row when (new.email = '${fresh}') execute function bulk_invite_test_meanwhile()`,
      ),
    );
    try {
      const sent = await okJson<BulkInviteResult>(await bulk(mod, text, false));
      expect(sent).toEqual({
        rows: 3,
        valid: 1,
        dryRun: false,
        invited: 1,
        problems: [
          { line: 3, column: 'email', message: 'Already has an active account' },
          { line: 4, column: 'email', message: 'An invited staff account: only admins may invite it again' },
        ],
      });
    } finally {
      await db.execute(sql`drop trigger bulk_invite_test_meanwhile on users`);
      await db.execute(sql`drop function bulk_invite_test_meanwhile()`);
    }
    expect(await mailsTo(c, fresh)).toHaveLength(1);
    expect(await mailsTo(c, late)).toHaveLength(0);
    expect(await mailsTo(c, promoted)).toHaveLength(0);
  });

  it('the invitation limit counts mails, not calls: a call that would go over is refused whole, saying how many can still be sent and when', async () => {
    const c = ctx();
    const adm = await staff(c, 'admin');
    const tag = freshTag();
    const e = (name: string) => `${name}-${tag}@example.org`;
    const counter = async () =>
      (
        await c.database.db
          .select()
          .from(rateLimits)
          .where(eq(rateLimits.key, invitationMailsKey(adm.id)))
      )[0];
    const file = (...names: string[]) => ['email,first name,last name', ...names.map((name) => `${e(name)},A,B`)].join('\n');
    expect(await okJson<BulkInviteResult>(await bulk(adm, file('a', 'b', 'c'), false))).toMatchObject({ invited: 3 });
    const one = await okJson<InvitationResult>(await as(adm)('POST', '/api/admin/invitations', { email: e('d') }), 201);
    await okJson(await as(adm)('POST', `/api/admin/users/${one.user.id}/invitation`), 202);
    expect((await counter())?.count).toBe(5);

    // Two mails left: a file of three is refused whole; nothing is made or counted.
    const limit = INVITATION_MAIL_LIMIT.mails;
    await c.database.db
      .update(rateLimits)
      .set({ count: limit - 2 })
      .where(eq(rateLimits.key, invitationMailsKey(adm.id)));
    const until = `${(await counter())?.resetAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const refused = await bulk(adm, file('e', 'f', 'g'), false);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await errorOf(refused, 429)).toMatchObject({
      code: 'rate_limited',
      message: `Too many invitations: this would send 3, and you can send 2 more until ${until} (at most 5,000 every 24 hours).`,
      remaining: 2,
    });
    expect(
      await c.database.db
        .select()
        .from(users)
        .where(inArray(users.email, [e('e'), e('f'), e('g')])),
    ).toEqual([]);
    expect((await counter())?.count).toBe(limit - 2);
    expect(await okJson<BulkInviteResult>(await bulk(adm, file('e', 'f'), false))).toMatchObject({ invited: 2 });
    expect(await errorOf(await as(adm)('POST', `/api/admin/users/${one.user.id}/invitation`), 429)).toMatchObject({
      message: `Too many invitations: you can send no more until ${until} (at most 5,000 every 24 hours).`,
      remaining: 0,
    });
    // Another staff member is counted apart.
    await okJson<InvitationResult>(await as(await staff(c, 'moderator'))('POST', '/api/admin/invitations', { email: e('h') }), 201);
  });

  it('the CSV export takes the list filters and is formula-safe', async () => {
    const c = ctx();
    const tag = freshTag();
    await person(c, { email: `f1-${tag}@example.org`, firstName: '=cmd|calc', lastName: '+1', role: 'moderator' });
    await person(c, { email: `f2-${tag}@example.org`, firstName: '@SUM(A1)', lastName: '-2' });
    const res = await as(await moderator())('GET', `/api/admin/users.csv?q=${tag}&role=moderator`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const text = await res.text();
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('ID,Email,First name,Last name,Role,Status,Signed up,Last active');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`f1-${tag}@example.org`);
    expect(lines[1]).toContain(`'=cmd|calc`);
    expect(lines[1]).toContain(`'+1`);
    const all = await (await as(await moderator())('GET', `/api/admin/users.csv?q=${tag}`)).text();
    expect(all).toContain(`'@SUM(A1)`);
    expect(all).toContain(`'-2`);
    expect(all.split('\r\n')).toHaveLength(3);
  });

  it('the detail: profile, sessions, projects, entries, the points ledger (adjusted by the points call) and the audit trail', async () => {
    const c = ctx();
    const adm = await admin();
    const target = await participant(c);
    const project = await createProject(c);
    await addMember(c, project.id, target.id);
    const mission = await createMission(c, project.id);
    const entry = await insertEntry(c, mission, target.id);
    await okJson(await as(adm)('POST', `/api/admin/users/${target.id}/points`, { points: -5, reason: 'Correction', allowNegative: true }), 201);
    await okJson(await as(adm)('POST', `/api/admin/users/${target.id}/points`, { points: 12, reason: 'Thanks' }), 201);
    await c.database.db.update(users).set({ birthYear: 1990 }).where(eq(users.id, target.id));
    const detail = await okJson<AdminUserDetail>(await as(await moderator())('GET', `/api/admin/users/${target.id}`));
    expect(detail).toMatchObject({ id: target.id, email: target.email, role: 'participant', status: 'active', birthYear: 1990 });
    expect(detail.sessions).toHaveLength(1);
    expect(detail.sessions[0]?.id).toHaveLength(12);
    expect(detail.projects.map((p) => p.id)).toEqual([project.id]);
    expect(detail.entries.map((e) => [e.id, e.missionTitle])).toEqual([[entry.id, mission.title]]);
    expect(detail.points.balance).toBe(7);
    expect(detail.points.entries.map((e) => e.points)).toEqual([12, -5]);
    expect(detail.audit.filter((a) => a.action === 'points.adjust')).toHaveLength(2);
    expect(detail.audit.every((a) => a.direction === 'to')).toBe(true);
    // What the admin did shows in the admin's own trail.
    const mine = await okJson<AdminUserDetail>(await as(adm)('GET', `/api/admin/users/${adm.id}`));
    expect(mine.birthYear).toBeNull();
    expect(mine.audit.some((a) => a.action === 'points.adjust' && a.direction === 'by' && a.targetId === String(target.id))).toBe(true);
    expect(JSON.stringify(detail)).not.toContain('passwordHash');
  });
});

describeEachBackend('admin users API: the last admin', (ctx) => {
  it('two admins demoting each other at once leave one admin (the other was demoted meanwhile: 401 or 403)', async () => {
    const c = ctx();
    const db = c.database.db;
    // This database's only active admins are these two.
    await db.update(users).set({ role: 'participant' }).where(eq(users.role, 'admin'));
    const first = await signedInUser(c, 'admin');
    const second = await signedInUser(c, 'admin');
    const [a, b] = await Promise.all([
      callAs(c, first)('PATCH', `/api/admin/users/${second.id}`, { role: 'moderator' }),
      callAs(c, second)('PATCH', `/api/admin/users/${first.id}`, { role: 'moderator' }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    // The loser had its session ended first (401), or was demoted while it waited for the lock: no longer an admin (403).
    expect([401, 403]).toContain(statuses[1]);
    const admins = await db
      .select()
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.status, 'active')));
    expect(admins).toHaveLength(1);

    // And the one left cannot be disabled or demoted by anyone: only they are an admin, and not on themself.
    const survivor = admins[0]?.id === first.id ? first : second;
    expect((await errorOf(await callAs(c, survivor)('PATCH', `/api/admin/users/${survivor.id}`, { status: 'disabled' }), 409)).code).toBe('self_change');
  });
});

describeEachBackend('admin users API: the search is indexed', (ctx) => {
  it('a search by part of an email or name reads users_search_trgm_idx, never the whole table (EXPLAIN over 20,000 people)', async () => {
    const db = ctx().database.db;
    await db.execute(sql`
      insert into users (email, first_name, last_name, role, status, created_at)
      select 'seed' || g || '@bulk.example', 'First' || g, 'Last' || g, case when g % 100 = 0 then 'moderator' else 'participant' end, 'active',
        timestamptz '2020-01-01' + g * interval '1 hour'
      from generate_series(1, 20000) g`);
    await db.execute(sql`analyze users`);
    /** The plan of the list's WHERE; `forced`: sequential scans priced out, to show the index can serve it at all. */
    const plan = (query: Record<string, string>, forced = false) =>
      db.transaction(async (tx) => {
        if (forced) await tx.execute(sql`set local enable_seqscan = off`);
        const where = userListWhere(userListQuerySchema.parse(query), new Date());
        const rows = await queryRows<Record<string, string>>(tx, sql`explain select ${users.id} from ${users} where ${where}`);
        return rows.map((row) => Object.values(row)[0]).join('\n');
      });
    // A distinctive part of an address: the planner picks the index by itself.
    const chosen = await plan({ q: 'seed12345@' });
    expect(chosen, chosen).toMatch(/users_search_trgm_idx/);
    expect(chosen, chosen).not.toMatch(/Seq Scan on users/);
    // Any part, any case, names too: the query repeats the index's expression, so the index serves it.
    for (const q of ['EED1234', 'last1999', 'first7 ']) {
      const text = await plan({ q }, true);
      expect(text, text).toMatch(/users_search_trgm_idx/);
    }
    const signedUp = await plan({ from: '2020-01-02', to: '2020-01-03' });
    expect(signedUp, signedUp).not.toMatch(/Seq Scan on users/);
    // And the list finds them: by part of the address, any case.
    const found = await okJson<ListPage<AdminUserListItem>>(
      await callAs(ctx(), await signedInUser(ctx(), 'admin'))('GET', '/api/admin/users?q=SEED1234%40&sort=email'),
    );
    expect(found.items.map((item) => item.email)).toEqual(['seed1234@bulk.example']);
  });
});
