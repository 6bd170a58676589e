/**
 * Telling people: a notification and a mail for each event (changes asked, rejected, probe), the
 * daily approvals digest, mission reminders, the mail switches of the preferences, and the
 * notifications API of the header's menu.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { missionReminders, notifications } from '../../src/server/db/schema/index.ts';
import { mailNotification, mailPendingNotifications, notify, type NotificationMailDeps, type NotifyInput } from '../../src/server/services/notifications.ts';
import { MAIL_PREFERENCE_KEYS, NOTIFICATION_KINDS, type NotificationsAnswer } from '../../src/shared/notifications.ts';
import { preferencesSchema } from '../../src/shared/schemas/account.ts';
import { readOutbox } from '../support/outbox.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, mailsTo, signedInUser, type SignedIn } from './helpers.ts';
import { addMember, createMission, createMissionGroup, createProject, insertEntry, setUserStatus } from './programme-fixtures.ts';

const HOUR = 3_600_000;

const event = (user: SignedIn, kind: NotifyInput['kind'], missionId = 7): NotifyInput => ({
  userId: user.id,
  kind,
  text: `${kind} about your entry to “Park benches”`,
  link: `/account/mission-history/${missionId}`,
});

async function setPreferences(ctx: TestContext, user: SignedIn, switches: Record<string, boolean>): Promise<Response> {
  return ctx.json('PATCH', '/api/account/preferences', { emailNotifications: true, language: 'en', colorMode: 'system', ...switches }, user.headers);
}

/** What the mail jobs use, as the test context's handlers have it. */
const deps = (ctx: TestContext): NotificationMailDeps => ({ db: ctx.database.db, clock: ctx.clock, config: ctx.config, jobs: ctx.jobs });

/** The mails to an address in the outbox now, without running any job. */
async function readMails(ctx: TestContext, address: string) {
  return (await readOutbox(ctx.dataDir)).filter((m) => m.to === address);
}

async function notificationsOf(ctx: TestContext, user: SignedIn, query = ''): Promise<NotificationsAnswer> {
  const res = await ctx.request(`/api/account/notifications${query}`, { headers: user.headers });
  expect(res.status).toBe(200);
  return (await res.json()) as NotificationsAnswer;
}

describe('mail preferences', () => {
  it('the preferences schema has one optional switch per notification kind', () => {
    const keys = Object.keys(preferencesSchema.shape);
    for (const kind of NOTIFICATION_KINDS) expect(keys).toContain(MAIL_PREFERENCE_KEYS[kind]);
    expect(preferencesSchema.safeParse({ emailNotifications: true, language: 'en', colorMode: 'system' }).success).toBe(true);
    expect(preferencesSchema.safeParse({ emailNotifications: true, language: 'en', colorMode: 'system', mailRejected: 'no' }).success).toBe(false);
  });
});

describeEachBackend('notifications', (ctx) => {
  it('mails each event once, with the link to its screen, and lists it in the menu', async () => {
    const user = await signedInUser(ctx());
    const db = ctx().database.db;
    // As the review calls do: inside the transaction that makes the change.
    await db.transaction(async (tx) => {
      await notify(tx, event(user, 'changes_requested', 11), ctx().jobs);
    });
    await notify(db, event(user, 'rejected', 12), ctx().jobs);
    await notify(db, event(user, 'probe', 13), ctx().jobs);

    const mails = await mailsTo(ctx(), user.email);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'A question about your Fieldwork entry',
      'Changes asked on your Fieldwork entry',
      'Your Fieldwork entry was not accepted',
    ]);
    const bySubject = (subject: string) => mails.find((m) => m.subject === subject);
    expect(bySubject('Changes asked on your Fieldwork entry')?.links).toContain(`${ORIGIN}/account/mission-history/11`);
    expect(bySubject('Your Fieldwork entry was not accepted')?.links).toContain(`${ORIGIN}/account/mission-history/12`);
    expect(bySubject('A question about your Fieldwork entry')?.links).toContain(`${ORIGIN}/account/mission-history/13`);
    for (const mail of mails) {
      expect(mail.links).toContain(`${ORIGIN}/account/edit/preferences`);
      expect(mail.raw).toContain('Content-Type: text/html');
    }
    expect(bySubject('Changes asked on your Fieldwork entry')?.raw).toContain('changes_requested about your entry to');

    // Mailed once: later runs send nothing more.
    expect(await mailsTo(ctx(), user.email)).toHaveLength(3);

    const menu = await notificationsOf(ctx(), user);
    expect(menu.unread).toBe(3);
    expect(menu.items.map((item) => item.kind)).toEqual(['probe', 'rejected', 'changes_requested']);
    expect(menu.items[0]).toEqual({
      id: expect.any(Number),
      kind: 'probe',
      text: 'probe about your entry to “Park benches”',
      link: '/account/mission-history/13',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      read: false,
    });
  });

  it('a change rolled back leaves neither a notification nor a mail', async () => {
    const user = await signedInUser(ctx());
    await expect(
      ctx().database.db.transaction(async (tx) => {
        await notify(tx, event(user, 'rejected'), ctx().jobs);
        throw new Error('the review failed');
      }),
    ).rejects.toThrow('the review failed');
    // Nothing queued: no mail job waits.
    expect(await ctx().jobs.waiting('notifications.mail-one')).toBe(0);
    expect(await mailsTo(ctx(), user.email)).toEqual([]);
    expect((await notificationsOf(ctx(), user)).items).toEqual([]);
  });

  it('a switch turned off stops that kind of mail, not the notification; the master switch stops them all', async () => {
    const user = await signedInUser(ctx());
    const saved = await setPreferences(ctx(), user, { mailRejected: false });
    expect(((await saved.json()) as { user: { preferences: Record<string, unknown> } }).user.preferences).toMatchObject({
      mailRejected: false,
      mailProbes: true,
    });
    // A save without the switches keeps them.
    await setPreferences(ctx(), user, {});
    const account = (await (await ctx().request('/api/account', { headers: user.headers })).json()) as { user: { preferences: Record<string, unknown> } };
    expect(account.user.preferences).toMatchObject({ mailRejected: false, mailChangesRequested: true, mailApprovedDigest: true, mailReminders: true });

    await notify(ctx().database.db, event(user, 'rejected'), ctx().jobs);
    await notify(ctx().database.db, event(user, 'probe'), ctx().jobs);
    expect((await mailsTo(ctx(), user.email)).map((m) => m.subject)).toEqual(['A question about your Fieldwork entry']);

    const master = await ctx().json('PATCH', '/api/account/preferences', { emailNotifications: false, language: 'en', colorMode: 'system' }, user.headers);
    expect(master.status).toBe(200);
    await notify(ctx().database.db, event(user, 'changes_requested'), ctx().jobs);
    await notify(ctx().database.db, event(user, 'probe'), ctx().jobs);
    expect(await mailsTo(ctx(), user.email)).toHaveLength(1);

    // Turning mail back on does not send what happened meanwhile.
    await setPreferences(ctx(), user, { mailRejected: true });
    expect(await mailsTo(ctx(), user.email)).toHaveLength(1);
    const menu = await notificationsOf(ctx(), user);
    expect(menu.items.map((item) => item.kind)).toEqual(['probe', 'changes_requested', 'probe', 'rejected']);
    expect(menu.unread).toBe(4);
  });

  it('no mail for an account that is not active', async () => {
    const user = await signedInUser(ctx());
    await setUserStatus(ctx(), user.id, 'disabled');
    await notify(ctx().database.db, event(user, 'rejected'), ctx().jobs);
    expect(await mailsTo(ctx(), user.email)).toEqual([]);
  });

  it('a notification committed has its mail job queued with it; the job mails it once and the sweep does not mail it again', async () => {
    await ctx().jobs.drain(); // Nothing left over from earlier tests.
    const user = await signedInUser(ctx());
    const db = ctx().database.db;
    const row = await db.transaction(async (tx) => {
      const created = await notify(tx, event(user, 'changes_requested', 31), ctx().jobs);
      // Not visible outside the transaction before it commits.
      return created;
    });
    // Committed: the job waits, nothing handled yet.
    expect(await ctx().jobs.waiting('notifications.mail-one')).toBe(1);
    expect((await db.select().from(notifications).where(eq(notifications.id, row.id)))[0]?.mailedAt).toBeNull();

    // The job alone (no sweep) sends it.
    expect(await ctx().jobs.drain({ notifications: false })).toEqual({ completed: 2, failed: 0 });
    expect((await readMails(ctx(), user.email)).map((m) => m.subject)).toEqual(['Changes asked on your Fieldwork entry']);
    expect((await db.select().from(notifications).where(eq(notifications.id, row.id)))[0]?.mailedAt).not.toBeNull();

    // The sweep, and the job run again (a retry), find it handled.
    expect(await mailPendingNotifications(deps(ctx()))).toBe(0);
    expect(await mailNotification(deps(ctx()), row.id)).toBe(false);
    expect(await mailsTo(ctx(), user.email)).toHaveLength(1);
  });

  it('the sweep is the safety net: a notification it mails first is not mailed again by its job, and one queued without a job is mailed too', async () => {
    await ctx().jobs.drain(); // Nothing left over from earlier tests.
    const user = await signedInUser(ctx());
    const db = ctx().database.db;
    await notify(db, event(user, 'rejected', 41), ctx().jobs);
    // The sweep runs before the job (a run that was due anyway).
    expect(await mailPendingNotifications(deps(ctx()))).toBe(1);
    // The job then finds it handled: the drain runs it and sends only the sweep's mail.
    expect(await ctx().jobs.drain({ notifications: false })).toEqual({ completed: 2, failed: 0 });
    expect((await readMails(ctx(), user.email)).map((m) => m.subject)).toEqual(['Your Fieldwork entry was not accepted']);

    // A notification recorded without the queue still goes out, with the next sweep.
    await notify(db, event(user, 'probe', 42));
    expect(await ctx().jobs.waiting('notifications.mail-one')).toBe(0);
    expect((await mailsTo(ctx(), user.email)).map((m) => m.subject)).toEqual([
      'Your Fieldwork entry was not accepted',
      'A question about your Fieldwork entry',
    ]);
  });

  it('the job and the sweep racing over the same notifications queue one mail for each', async () => {
    await ctx().jobs.drain(); // Nothing left over from earlier tests.
    const users = [await signedInUser(ctx()), await signedInUser(ctx())];
    const db = ctx().database.db;
    const ids: number[] = [];
    for (let i = 0; i < 24; i++) {
      const user = users[i % 2] as SignedIn;
      ids.push((await notify(db, event(user, i % 3 === 0 ? 'probe' : 'changes_requested', 100 + i), ctx().jobs)).id);
    }
    // All at once: two sweeps and every job (on PostgreSQL each on its own connection).
    const results = await Promise.all([
      mailPendingNotifications(deps(ctx())),
      ...ids.map(async (id) => ((await mailNotification(deps(ctx()), id)) ? 1 : 0)),
      mailPendingNotifications(deps(ctx())),
    ]);
    expect(results.reduce((sum, n) => sum + n, 0)).toBe(ids.length);
    const handled = await db.select().from(notifications).where(inArray(notifications.id, ids));
    expect(handled.every((row) => row.mailedAt !== null)).toBe(true);
    expect(await ctx().jobs.waiting('mail.send')).toBe(ids.length);
    const mails = [...(await mailsTo(ctx(), users[0]?.email ?? '')), ...(await mailsTo(ctx(), users[1]?.email ?? ''))];
    expect(mails).toHaveLength(ids.length);
    expect(new Set(mails.map((m) => m.links.find((link) => link.includes('/mission-history/')))).size).toBe(ids.length);
  });

  it('a moderator asking for changes queues the mail with the answer; the participant’s preferences still decide', async () => {
    await ctx().jobs.drain(); // Nothing left over from earlier tests.
    const project = await createProject(ctx());
    const mission = await createMission(ctx(), project.id, { title: 'Park benches' });
    const user = await signedInUser(ctx());
    const quiet = await signedInUser(ctx());
    for (const who of [user, quiet]) await addMember(ctx(), project.id, who);
    await setPreferences(ctx(), quiet, { mailChangesRequested: false });
    const moderator = await signedInUser(ctx(), 'moderator');
    for (const who of [user, quiet]) {
      const entry = await insertEntry(ctx(), mission, who.id, { status: 'submitted' });
      const res = await ctx().json(
        'POST',
        `/api/admin/submissions/${entry.id}/review`,
        { decision: 'request_changes', reason: 'The photo is blurry' },
        moderator.headers,
      );
      expect(res.status).toBe(200);
    }
    // Queued with the answer, not left for the minute's sweep.
    expect(await ctx().jobs.waiting('notifications.mail-one')).toBe(2);
    expect(await ctx().jobs.drain({ notifications: false })).toMatchObject({ failed: 0 });
    const [mail, ...more] = await readMails(ctx(), user.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Changes asked on your Fieldwork entry');
    expect(mail?.links).toContain(`${ORIGIN}/account/mission-history/${mission.id}`);
    expect(await readMails(ctx(), quiet.email)).toEqual([]);
    // The switch off stopped the mail, not the notification; the sweep sends nothing later.
    expect((await notificationsOf(ctx(), quiet)).items).toEqual([expect.objectContaining({ kind: 'changes_requested' })]);
    expect(await mailsTo(ctx(), quiet.email)).toEqual([]);
  });

  it('approvals come as one digest a day at most', async () => {
    const user = await signedInUser(ctx());
    const quiet = await signedInUser(ctx());
    await setPreferences(ctx(), quiet, { mailApprovedDigest: false });
    const db = ctx().database.db;
    await notify(db, { userId: user.id, kind: 'approved', text: 'Your entry to “Park benches” was approved: 20 points.', link: '/account/mission-history/21' });
    await notify(db, { userId: user.id, kind: 'approved', text: 'Your entry to “Bus stops” was approved: 10 points.', link: '/account/mission-history/22' });
    await notify(db, { userId: quiet.id, kind: 'approved', text: 'Your entry to “Bus stops” was approved: 10 points.', link: '/account/mission-history/22' });
    // Not mailed one by one.
    expect(await mailsTo(ctx(), user.email)).toEqual([]);

    await ctx().jobs.send('digest.approvals', {});
    const [digest, ...others] = await mailsTo(ctx(), user.email);
    expect(others).toEqual([]);
    expect(digest?.subject).toBe('2 entries approved on Fieldwork');
    expect(digest?.raw).toContain('was approved: 20 points.');
    expect(digest?.raw).toContain('was approved: 10 points.');
    expect(digest?.links).toEqual(
      expect.arrayContaining([
        `${ORIGIN}/account/mission-history/21`,
        `${ORIGIN}/account/mission-history/22`,
        `${ORIGIN}/account`,
        `${ORIGIN}/account/edit/preferences`,
      ]),
    );
    expect(await mailsTo(ctx(), quiet.email)).toEqual([]);

    // Another approval the same day waits for tomorrow's digest.
    await notify(db, { userId: user.id, kind: 'approved', text: 'Your entry to “Benches again” was approved: 5 points.', link: '/account/mission-history/23' });
    await ctx().jobs.send('digest.approvals', {});
    expect(await mailsTo(ctx(), user.email)).toHaveLength(1);

    ctx().clock.advance(24 * HOUR);
    await ctx().jobs.send('digest.approvals', {});
    const mails = await mailsTo(ctx(), user.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe('1 entry approved on Fieldwork');
    expect(mails[1]?.links).toContain(`${ORIGIN}/account/mission-history/23`);
    expect(mails[1]?.links).not.toContain(`${ORIGIN}/account/mission-history/21`);
    // The menu has every approval, digest or not.
    expect((await notificationsOf(ctx(), user)).items.filter((item) => item.kind === 'approved')).toHaveLength(3);
    expect((await notificationsOf(ctx(), quiet)).items).toHaveLength(1);
  });

  it('reminds each member who has not finished a mission once, two days before it closes', async () => {
    const now = ctx().clock.now();
    const project = await createProject(ctx());
    const soon = await createMission(ctx(), project.id, { title: 'Street lights', closesAt: new Date(now.getTime() + 30 * HOUR) });
    const later = await createMission(ctx(), project.id, { title: 'Night buses', closesAt: new Date(now.getTime() + 72 * HOUR) });
    await createMission(ctx(), project.id, { title: 'Past', closesAt: new Date(now.getTime() - HOUR) });
    await createMission(ctx(), project.id, { title: 'Draft', status: 'draft', closesAt: new Date(now.getTime() + 10 * HOUR) });
    const hidden = await createProject(ctx(), { status: 'draft' });
    await createMission(ctx(), hidden.id, { title: 'Hidden', closesAt: new Date(now.getTime() + 10 * HOUR) });

    const nothingYet = await signedInUser(ctx());
    const finished = await signedInUser(ctx());
    const drafting = await signedInUser(ctx());
    const quiet = await signedInUser(ctx());
    const disabled = await signedInUser(ctx());
    const outsider = await signedInUser(ctx());
    for (const user of [nothingYet, finished, drafting, quiet, disabled]) await addMember(ctx(), project.id, user);
    await addMember(ctx(), hidden.id, outsider);
    await insertEntry(ctx(), soon, finished.id, { status: 'submitted' });
    await insertEntry(ctx(), soon, drafting.id, { status: 'draft' });
    await setPreferences(ctx(), quiet, { mailReminders: false });
    await setUserStatus(ctx(), disabled.id, 'disabled');

    await ctx().jobs.send('reminders.scan', {});
    const [reminder, ...more] = await mailsTo(ctx(), nothingYet.email);
    expect(more).toEqual([]);
    expect(reminder?.subject).toBe('Reminder: Street lights closes in less than two days');
    expect(reminder?.links).toContain(`${ORIGIN}/missions/${soon.id}`);
    expect(reminder?.links).toContain(`${ORIGIN}/account/edit/preferences`);
    expect((await mailsTo(ctx(), drafting.email)).map((m) => m.subject)).toEqual(['Reminder: Street lights closes in less than two days']);
    for (const user of [finished, quiet, disabled, outsider]) expect(await mailsTo(ctx(), user.email)).toEqual([]);

    // The notification is in the menu (mail switch off or not).
    for (const user of [nothingYet, quiet]) {
      const menu = await notificationsOf(ctx(), user);
      expect(menu.items).toEqual([expect.objectContaining({ kind: 'reminder', link: `/missions/${soon.id}`, read: false })]);
      expect(menu.items[0]?.text).toContain('Street lights');
    }
    const recorded = await ctx().database.db.select().from(missionReminders).where(eq(missionReminders.missionId, soon.id));
    expect(recorded.map((row) => row.userId).sort((a, b) => a - b)).toEqual([nothingYet.id, drafting.id, quiet.id].sort((a, b) => a - b));

    // Once: later scans remind nobody again about it.
    await ctx().jobs.send('reminders.scan', {});
    expect(await mailsTo(ctx(), nothingYet.email)).toHaveLength(1);

    // A day later the other mission is within two days of closing.
    ctx().clock.advance(26 * HOUR);
    await ctx().jobs.send('reminders.scan', {});
    const mails = await mailsTo(ctx(), nothingYet.email);
    expect(mails.map((m) => m.subject)).toEqual(['Reminder: Street lights closes in less than two days', 'Reminder: Night buses closes in less than two days']);
    expect(mails[1]?.links).toContain(`${ORIGIN}/missions/${later.id}`);
    expect(await mailsTo(ctx(), finished.email)).toHaveLength(1);
    const rows = await ctx()
      .database.db.select()
      .from(notifications)
      .where(and(eq(notifications.userId, nothingYet.id), eq(notifications.kind, 'reminder')));
    expect(rows).toHaveLength(2);
  });

  it('no reminder for a mission an in_order group still holds back; one once it opens, if it still closes soon', async () => {
    const now = ctx().clock.now();
    const project = await createProject(ctx());
    const first = await createMission(ctx(), project.id, { title: 'Week 1', closesAt: new Date(now.getTime() + 200 * HOUR) });
    const second = await createMission(ctx(), project.id, { title: 'Week 2', closesAt: new Date(now.getTime() + 40 * HOUR) });
    await createMissionGroup(ctx(), project.id, [first.id, second.id], { title: 'Two weeks', unlock: 'in_order' });
    const waiting = await signedInUser(ctx());
    const ahead = await signedInUser(ctx());
    for (const user of [waiting, ahead]) await addMember(ctx(), project.id, user);
    await insertEntry(ctx(), first, ahead.id, { status: 'submitted' });

    await ctx().jobs.send('reminders.scan', {});
    // Week 2 is locked for `waiting` (week 1 not finished): nothing; open for `ahead`: reminded.
    expect(await mailsTo(ctx(), waiting.email)).toEqual([]);
    expect((await mailsTo(ctx(), ahead.email)).map((m) => m.subject)).toEqual(['Reminder: Week 2 closes in less than two days']);
    expect((await notificationsOf(ctx(), waiting)).items).toEqual([]);

    // `waiting` finishes week 1: the next scan reminds them of week 2.
    await insertEntry(ctx(), first, waiting.id, { status: 'submitted' });
    await ctx().jobs.send('reminders.scan', {});
    expect((await mailsTo(ctx(), waiting.email)).map((m) => m.subject)).toEqual(['Reminder: Week 2 closes in less than two days']);
    expect(await mailsTo(ctx(), ahead.email)).toHaveLength(1);
  });

  it('the menu: pages newest first, unread counts, marking some or all read, only one’s own', async () => {
    const user = await signedInUser(ctx());
    const other = await signedInUser(ctx());
    const db = ctx().database.db;
    const ids: number[] = [];
    for (let i = 1; i <= 25; i++)
      ids.push((await notify(db, { userId: user.id, kind: 'approved', text: `Approval ${i}`, link: `/account/mission-history/${i}` })).id);
    const theirs = await notify(db, { userId: other.id, kind: 'probe', text: 'Not yours', link: '/account/mission-history/99' });

    const first = await notificationsOf(ctx(), user);
    expect(first.unread).toBe(25);
    expect(first.items).toHaveLength(20);
    expect(first.items[0]?.text).toBe('Approval 25');
    expect((await notificationsOf(ctx(), user, '?page=2')).items.map((item) => item.text)).toEqual([
      'Approval 5',
      'Approval 4',
      'Approval 3',
      'Approval 2',
      'Approval 1',
    ]);
    expect((await notificationsOf(ctx(), user, '?page=3&pageSize=5')).items.map((item) => item.text)).toEqual([
      'Approval 15',
      'Approval 14',
      'Approval 13',
      'Approval 12',
      'Approval 11',
    ]);
    expect(Object.keys(await fieldsOf(await ctx().request('/api/account/notifications?pageSize=0', { headers: user.headers })))).toEqual(['pageSize']);

    const read = await ctx().json('POST', '/api/account/notifications/read', { ids: [ids[24], ids[23], theirs.id] }, user.headers);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ unread: 23 });
    const page = await notificationsOf(ctx(), user, '?pageSize=3');
    expect(page.items.map((item) => item.read)).toEqual([true, true, false]);
    // Someone else's notification is not theirs to mark.
    expect((await notificationsOf(ctx(), other)).unread).toBe(1);
    // Reading again changes nothing; an empty list marks nothing.
    expect(await (await ctx().json('POST', '/api/account/notifications/read', { ids: [ids[24]] }, user.headers)).json()).toEqual({ unread: 23 });
    expect(await (await ctx().json('POST', '/api/account/notifications/read', { ids: [] }, user.headers)).json()).toEqual({ unread: 23 });
    expect(Object.keys(await fieldsOf(await ctx().json('POST', '/api/account/notifications/read', { ids: ['x'] }, user.headers)))).toEqual(['ids']);

    expect(await (await ctx().json('POST', '/api/account/notifications/read', {}, user.headers)).json()).toEqual({ unread: 0 });
    expect((await notificationsOf(ctx(), user)).unread).toBe(0);
    expect((await notificationsOf(ctx(), other)).unread).toBe(1);

    expect((await errorOf(await ctx().request('/api/account/notifications'), 401)).code).toBeTruthy();
    expect((await ctx().json('POST', '/api/account/notifications/read', {})).status).toBe(401);
  });
});
