/**
 * Members hear of what changes for them (issue 28 §15, §9): new work going live (once per member,
 * mailed as one list a few minutes later), project announcements (staff only, once per member,
 * on home), points changed by staff, and the security mail after a password reset or change.
 */
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { notifications, users } from '../../src/server/db/schema/index.ts';
import { fanOutNewWork } from '../../src/server/services/new-work.ts';
import { BATCH_QUIET_MS } from '../../src/server/services/notifications.ts';
import type { AdminAnnouncement, AdminAnnouncementList } from '../../src/shared/announcements.ts';
import type { NotificationKind } from '../../src/shared/notifications.ts';
import type { HomeAnswer } from '../../src/shared/projects.ts';
import { readOutbox } from '../support/outbox.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, mailsTo, PASSWORD, type SignedIn } from './helpers.ts';
import { callAs, createMission, createMissionGroup, createProject, createSurvey, member, okJson, participant, staff } from './programme-fixtures.ts';

describeEachBackend('new work, announcements and notices', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const told = async (who: SignedIn, kind: NotificationKind) =>
    ctx()
      .database.db.select({ text: notifications.text, link: notifications.link })
      .from(notifications)
      .where(and(eq(notifications.userId, who.id), eq(notifications.kind, kind)))
      .orderBy(asc(notifications.id));
  /** The mails to an address now, without running any job. */
  const inbox = async (c: TestContext, who: SignedIn) => (await readOutbox(c.dataDir)).filter((mail) => mail.to === who.email);
  const switchOff = (c: TestContext, who: SignedIn, key: string) =>
    c.database.db
      .update(users)
      .set({ preferences: { [key]: false } })
      .where(eq(users.id, who.id));

  it('a survey or mission going live tells its members once, not others, and mails each one list once they stop coming', async () => {
    const c = ctx();
    const moderator = await staff(c);
    const project = await createProject(c, { name: 'Kitchen study' });
    const [ada, bo, outsider] = [await member(c, project.id), await member(c, project.id), await participant(c)];
    await switchOff(c, bo, 'mailNewWork');
    const survey = await createSurvey(c, project.id, { title: 'Breakfast habits', status: 'draft' });
    const mission = await createMission(c, project.id, { title: 'Fridge photo', status: 'draft' });

    await okJson(await as(moderator)('PATCH', `/api/admin/surveys/${survey.id}`, { status: 'live' }));
    await okJson(await as(moderator)('PATCH', `/api/admin/missions/${mission.id}`, { status: 'live' }));
    await c.jobs.drain();
    const expected = [
      { text: 'New survey in Kitchen study: “Breakfast habits”', link: `/surveys/${survey.id}` },
      { text: 'New mission in Kitchen study: “Fridge photo”', link: `/missions/${mission.id}` },
    ];
    // (The two jobs may run in either order.)
    const byLink = (rows: { text: string; link: string }[]) => rows.sort((x, y) => x.link.localeCompare(y.link));
    expect(byLink(await told(ada, 'new_work'))).toEqual(byLink(expected));
    expect(byLink(await told(bo, 'new_work'))).toEqual(byLink(expected));
    expect(await told(outsider, 'new_work')).toEqual([]);

    // Taken back and published again: nobody is told twice.
    await okJson(await as(moderator)('PATCH', `/api/admin/surveys/${survey.id}`, { status: 'draft' }));
    await okJson(await as(moderator)('PATCH', `/api/admin/surveys/${survey.id}`, { status: 'live' }));
    await c.jobs.drain();
    expect(await told(ada, 'new_work')).toHaveLength(2);

    // The mail waits until they stop coming, then lists both in one; Bo turned it off.
    expect(await inbox(c, ada)).toEqual([]);
    c.clock.advance(BATCH_QUIET_MS + 1000);
    const mails = await mailsTo(c, ada.email);
    expect(mails.map((mail) => mail.subject)).toEqual(['2 new surveys and missions for you on Fieldwork']);
    expect(mails[0]?.links).toEqual(
      expect.arrayContaining([`${ORIGIN}/surveys/${survey.id}`, `${ORIGIN}/missions/${mission.id}`, `${ORIGIN}/account/edit/preferences`]),
    );
    expect(mails[0]?.raw).toContain('Breakfast habits');
    await c.jobs.drain();
    expect(await inbox(c, ada)).toHaveLength(1);
    expect(await inbox(c, bo)).toEqual([]);
  });

  it('a project made live tells of its live work; work opening later when it opens; an in_order group’s mission when it opens for the member', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const project = await createProject(c, { name: 'Diary study', status: 'draft' });
    const ada = await member(c, project.id);
    const survey = await createSurvey(c, project.id, { title: 'Intro' });
    await okJson(await as(admin)('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' }));
    await c.jobs.drain();
    expect((await told(ada, 'new_work')).map((row) => row.link)).toEqual([`/surveys/${survey.id}`]);

    const deps = { db: c.database.db, clock: c.clock, jobs: c.jobs };
    const later = await createSurvey(c, project.id, { title: 'Later', opensAt: new Date(c.clock.now().getTime() + 3_600_000) });
    expect(await fanOutNewWork(deps, { kind: 'survey', id: later.id })).toBe(0);
    c.clock.advance(3_600_000);
    expect(await fanOutNewWork(deps, { kind: 'survey', id: later.id })).toBe(1);

    const [day1, day2] = [await createMission(c, project.id, { title: 'Day 1' }), await createMission(c, project.id, { title: 'Day 2' })];
    await createMissionGroup(c, project.id, [day1.id, day2.id], { unlock: 'in_order' });
    expect(await fanOutNewWork(deps, { kind: 'mission', id: day2.id })).toBe(0);
    expect(await fanOutNewWork(deps, { kind: 'mission', id: day1.id })).toBe(1);
    const entry = await okJson<{ id: number }>(await as(ada)('POST', `/api/missions/${day1.id}/entries`, {}), 201);
    await okJson(await as(ada)('POST', `/api/missions/${day1.id}/entries/${entry.id}/submit`, { answers: { name: 'Done' } }));
    expect((await told(ada, 'new_work')).map((row) => row.text)).toEqual([
      'New survey in Diary study: “Intro”',
      'New survey in Diary study: “Later”',
      'New mission in Diary study: “Day 1”',
      'New mission in Diary study: “Day 2”',
    ]);
  });

  it('announcements: staff send one to a live project’s members (once each, mailed per preference), home shows the latest; refusals', async () => {
    const c = ctx();
    const moderator = await staff(c);
    const project = await createProject(c, { name: 'Kitchen study' });
    const [ada, bo, outsider] = [await member(c, project.id), await member(c, project.id), await participant(c)];
    await switchOff(c, bo, 'mailAnnouncements');
    const base = `/api/admin/projects/${project.id}/announcements`;
    const body = 'Thanks for **taking part**.\n\nDay 2 opens on Monday.';

    expect((await errorOf(await as(ada)('POST', base, { title: 'Hi', body }), 403)).code).toBe('forbidden');
    expect((await errorOf(await as(moderator)('POST', '/api/admin/projects/999999/announcements', { title: 'Hi', body }), 404)).code).toBe('not_found');
    expect(await fieldsOf(await as(moderator)('POST', base, { title: ' ', body: 'See ![shelf](/api/media/abcdefghijklmnop)' }))).toEqual({
      title: ['Required'],
      body: ['Announcements cannot show pictures: link to them instead'],
    });
    const draft = await createProject(c, { status: 'draft' });
    expect((await errorOf(await as(moderator)('POST', `/api/admin/projects/${draft.id}/announcements`, { title: 'Hi', body }), 409)).code).toBe(
      'project_not_live',
    );

    const first = await okJson<AdminAnnouncement>(await as(moderator)('POST', base, { title: 'Welcome', body }), 201);
    expect(first).toMatchObject({ title: 'Welcome', body, author: { id: moderator.id } });
    const mails = await mailsTo(c, ada.email);
    expect(mails.map((mail) => mail.subject)).toEqual(['Kitchen study: Welcome']);
    expect(mails[0]?.raw).toContain('Day 2 opens on Monday.');
    expect(mails[0]?.links).toContain(`${ORIGIN}/#announcement-${first.id}`);
    expect(await told(ada, 'announcement')).toEqual([{ text: 'Kitchen study: Welcome', link: `/#announcement-${first.id}` }]);
    expect(await told(bo, 'announcement')).toHaveLength(1);
    expect(await inbox(c, bo)).toEqual([]);
    // The job again (a retry): nobody told twice.
    await c.jobs.send('announcement.send', { announcementId: first.id });
    await c.jobs.drain();
    expect(await inbox(c, ada)).toHaveLength(1);
    expect(await told(ada, 'announcement')).toHaveLength(1);

    c.clock.advance(60_000);
    const second = await okJson<AdminAnnouncement>(await as(moderator)('POST', base, { title: 'Day 2', body: 'Soon.' }), 201);
    const home = await okJson<HomeAnswer>(await as(ada)('GET', '/api/home'));
    expect(home.announcements).toEqual([
      { id: second.id, projectName: 'Kitchen study', title: 'Day 2', body: 'Soon.', createdAt: second.createdAt },
      { id: first.id, projectName: 'Kitchen study', title: 'Welcome', body, createdAt: first.createdAt },
    ]);
    expect((await okJson<HomeAnswer>(await as(outsider)('GET', '/api/home'))).announcements).toEqual([]);
    const listed = await okJson<AdminAnnouncementList>(await as(moderator)('GET', base));
    expect(listed.items.map((item) => item.title)).toEqual(['Day 2', 'Welcome']);
    expect(listed.recipients).toBe(2);

    // Five a day per project.
    for (const n of [3, 4, 5]) await okJson(await as(moderator)('POST', base, { title: `Note ${n}`, body: 'x' }), 201);
    expect((await errorOf(await as(moderator)('POST', base, { title: 'One too many', body: 'x' }), 429)).code).toBe('rate_limited');
  });

  it('points staff change: a notification each, one mail for what was changed together', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const ada = await participant(c);
    await okJson(await as(admin)('POST', `/api/admin/users/${ada.id}/points`, { points: 50, reason: 'Late survey' }), 201);
    const file = new FormData();
    file.set('file', new File([`participant,points,reason\n${ada.email},-5,Duplicate entry\n${ada.email},20,Bonus`], 'points.csv', { type: 'text/csv' }));
    const preview = await c.request('/api/admin/tools/points-bulk-update/preview', {
      method: 'POST',
      headers: { Origin: ORIGIN, ...admin.headers },
      body: file,
    });
    const { batchId } = await okJson<{ batchId: number }>(preview);
    await okJson(await as(admin)('POST', `/api/admin/tools/points-bulk-update/${batchId}/apply`, {}));
    expect((await told(ada, 'points')).map((row) => row.text)).toEqual([
      'Points added: 50 — Adjustment: Late survey',
      'Points removed: 5 — Duplicate entry',
      'Points added: 20 — Bonus',
    ]);
    c.clock.advance(BATCH_QUIET_MS + 1000);
    const mails = await mailsTo(c, ada.email);
    expect(mails.map((mail) => mail.subject)).toEqual(['Your Fieldwork points were updated']);
    expect(mails[0]?.raw).toContain('Our team made 3 changes to your points');
  });

  it('a password reset or change mails a security notice, whatever the mail preferences', async () => {
    const c = ctx();
    const [ada, bo] = [await participant(c), await participant(c)];
    await c.database.db
      .update(users)
      .set({ preferences: { emailNotifications: false } })
      .where(eq(users.id, ada.id));
    await okJson(await c.json('POST', '/api/auth/password/forgot', { email: ada.email }), 202);
    const link = (await mailsTo(c, ada.email))[0]?.links.find((each) => each.includes('/reset-password/'));
    const token = link?.split('/').at(-1) ?? '';
    await okJson(await c.json('POST', `/api/auth/password/reset?token=${token}`, { password: 'N3w-password!', confirmPassword: 'N3w-password!' }));
    await okJson(await as(bo)('POST', '/api/account/password', { currentPassword: PASSWORD, password: 'N3w-password!', confirmPassword: 'N3w-password!' }));
    for (const who of [ada, bo]) {
      const notice = (await mailsTo(c, who.email)).find((mail) => mail.subject === 'Your Fieldwork password was changed');
      expect(notice?.links).toEqual(expect.arrayContaining([`${ORIGIN}/forgot-password`, `${ORIGIN}/contact`]));
    }
  });
});
