/**
 * The admin dashboard (`GET /api/admin/dashboard`) on a small world whose every number is known,
 * its 10-second cache (by the app's clock, per database), who may call it; and the staff card's
 * count on home (`GET /api/home`, `staff.reviewWaiting`).
 */
import { beforeAll, expect, it } from 'vitest';
import { clientReports, pointsLedger, redemptions, users, type MissionEntry } from '../../src/server/db/schema/index.ts';
import { dashboard } from '../../src/server/services/dashboard.ts';
import { recordContribution } from '../../src/server/services/members.ts';
import type { Report } from '../../src/shared/client-reports.ts';
import type { DashboardAnswer } from '../../src/shared/dashboard.ts';
import type { HomeAnswer } from '../../src/shared/projects.ts';
import type { Role, UserStatus } from '../../src/shared/roles.ts';
import { describeEachBackend } from './harness.ts';
import { insertReward } from './reward-fixtures.ts';
import { errorOf, freshIp, uniqueEmail, type SignedIn } from './helpers.ts';
import {
  addMember,
  callAs,
  createMission,
  createProject,
  createSurvey,
  insertEntry,
  insertResponse,
  okJson,
  participant,
  staff,
} from './programme-fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string) => new Date(iso);

const pageLoad: Report = { url: '/', userAgent: null, data: { type: 'action', action: { name: 'page_load', data: null } } };
const misc: Report = { url: '/account', userAgent: null, data: { type: 'action', action: { name: 'misc', data: { clicked: 'save' } } } };
const uncaught = (message: string): Report => ({
  url: '/account',
  userAgent: null,
  data: { type: 'uncaught', stacktrace: `TypeError: ${message}`, data: { kind: 'misc', data: { message } } },
});

describeEachBackend('admin dashboard', (ctx) => {
  let admin: SignedIn;
  let answer: DashboardAnswer;
  let projectA: number;
  let projectB: number;
  let projectClosed: number;
  let waitingIds: number[];

  /** A user written straight into the table, created and last active when the test says. */
  const person = async (input: { role?: Role; status?: UserStatus; createdAt: Date; lastActiveAt?: Date | null }) => {
    const [row] = await ctx()
      .database.db.insert(users)
      .values({
        email: uniqueEmail('dash'),
        role: input.role ?? 'participant',
        status: input.status ?? 'active',
        firstName: 'Dana',
        lastName: `Shaw ${Math.random().toString(36).slice(2, 6)}`,
        createdAt: input.createdAt,
        updatedAt: input.createdAt,
        lastActiveAt: input.lastActiveAt ?? null,
      })
      .returning();
    if (!row) throw new Error('no user');
    return row;
  };
  const get = async (who: SignedIn = admin) => okJson<DashboardAnswer>(await callAs(ctx(), who)('GET', '/api/admin/dashboard'));

  beforeAll(async () => {
    // The clock: Sunday 2026-11-01 12:00 UTC, so this week began on Monday 2026-10-26.
    const now = ctx().clock.now();
    expect(now.toISOString()).toBe('2026-11-01T12:00:00.000Z');
    admin = await staff(ctx(), 'admin');

    // Participants: 5 (a moderator does not count).
    const p1 = await person({ createdAt: at('2026-10-27T09:00:00Z'), lastActiveAt: new Date(now.getTime() - DAY) });
    const p2 = await person({ createdAt: at('2026-10-26T00:00:00Z') });
    const p3 = await person({ createdAt: at('2026-10-25T23:59:00Z'), lastActiveAt: new Date(now.getTime() - 29 * DAY) });
    const p4 = await person({ status: 'disabled', createdAt: at('2026-09-01T10:00:00Z'), lastActiveAt: new Date(now.getTime() - 31 * DAY) });
    const p5 = await person({ status: 'invited', createdAt: at('2026-06-01T10:00:00Z') });
    await person({ role: 'moderator', createdAt: at('2026-10-28T10:00:00Z'), lastActiveAt: now });

    // Projects: A (live; p1 answered a survey, p2 has a draft entry, p3 an approved entry, p5 only a
    // draft survey response), B (live, no members), and a closed one (left out).
    const a = await createProject(ctx(), { name: 'Alpha' });
    const b = await createProject(ctx(), { name: 'Bravo' });
    const closed = await createProject(ctx(), { name: 'Closed one', status: 'closed' });
    [projectA, projectB, projectClosed] = [a.id, b.id, closed.id];
    for (const user of [p1, p2, p3, p5]) await addMember(ctx(), a.id, user.id);
    await addMember(ctx(), closed.id, p1.id);
    const survey = await createSurvey(ctx(), a.id);
    await insertResponse(ctx(), survey, p1.id);
    await insertResponse(ctx(), survey, p5.id, { status: 'draft' });
    const missionA = await createMission(ctx(), a.id, { title: 'Fridge photo' });
    await insertEntry(ctx(), missionA, p2.id, { status: 'draft' });
    await insertEntry(ctx(), missionA, p3.id, { status: 'approved', submittedAt: new Date(now.getTime() - 5 * DAY) });
    // An entry rejected 40 days ago: outside the 30 days of the chart.
    await insertEntry(ctx(), missionA, p3.id, { status: 'rejected', submittedAt: new Date(now.getTime() - 40 * DAY) });
    // What the submissions above would have recorded had they gone through the API (a test below does).
    await recordContribution(ctx().database.db, a.id, p1.id, now);
    await recordContribution(ctx().database.db, a.id, p3.id, new Date(now.getTime() - 40 * DAY));

    // Six entries waiting for review in B's mission (their owners are not B's members).
    const missionB = await createMission(ctx(), b.id, { title: 'Kitchen tour' });
    const ages = [10, 50, 3, 100, 1, 0.5];
    const waiting: MissionEntry[] = [];
    for (const [i, hours] of ages.entries()) {
      waiting.push(await insertEntry(ctx(), missionB, i % 2 === 0 ? p4.id : p5.id, { submittedAt: new Date(now.getTime() - hours * HOUR) }));
    }
    // Oldest first: 100 h, 50 h, 10 h, 3 h, 1 h.
    waitingIds = [3, 1, 0, 2, 4].map((i) => waiting[i]?.id ?? 0);

    // Points: this month (November) 30 pending, 20 + 5 available, 50 voided; 1000 in October.
    const ledger = (userId: number, points: number, state: 'pending' | 'available' | 'voided', createdAt: string, reference: string) => ({
      userId,
      points,
      state,
      reason: 'Fixture',
      source: 'adjustment' as const,
      reference,
      createdAt: at(createdAt),
      stateChangedAt: at(createdAt),
    });
    await ctx()
      .database.db.insert(pointsLedger)
      .values([
        ledger(p1.id, 30, 'pending', '2026-11-01T01:00:00Z', 'dash-1'),
        ledger(p1.id, 20, 'available', '2026-11-01T02:00:00Z', 'dash-2'),
        ledger(p3.id, 5, 'available', '2026-11-01T03:00:00Z', 'dash-3'),
        ledger(p3.id, 50, 'voided', '2026-11-01T04:00:00Z', 'dash-4'),
        ledger(p3.id, 1000, 'available', '2026-10-31T23:00:00Z', 'dash-5'),
      ]);

    // Rewards: p3 asked for two 5 EUR vouchers delivered by hand (500 points held each): one waits
    // for approval, one is approved and waits to be sent. Held points are still outstanding.
    const voucher = await insertReward(ctx(), {});
    for (const status of ['requested', 'approved'] as const) {
      const requestedAt = at('2026-11-01T05:00:00Z');
      const [row] = await ctx()
        .database.db.insert(redemptions)
        .values({ userId: p3.id, rewardId: voucher.id, valueMinor: 500, currency: 'EUR', points: 500, status, idempotencyKey: `dash-${status}`, requestedAt })
        .returning();
      await ctx()
        .database.db.insert(pointsLedger)
        .values({ ...ledger(p3.id, -500, 'available', '2026-11-01T05:00:00Z', `redemption:${row?.id}`), state: 'held', source: 'redemption' });
    }

    // Client reports: two errors, two actions.
    const send = await ctx().json('POST', '/api/reports', { reports: [uncaught('one'), uncaught('two'), pageLoad, misc] }, { 'X-Forwarded-For': freshIp() });
    expect(send.status).toBe(204);
    expect(await ctx().database.db.$count(clientReports)).toBe(4);

    answer = await get();
  });

  it('says when it counted', () => {
    expect(answer.generatedAt).toBe('2026-11-01T12:00:00.000Z');
  });

  it('counts participants (role participant, any status): total, active in the last 30 days, new since Monday', () => {
    expect(answer.participants).toEqual({ total: 5, active30d: 2, newThisWeek: 2, weekStart: '2026-10-26' });
  });

  it('counts the entries waiting for review and lists the 5 oldest, with their age in hours', () => {
    expect(answer.review.waiting).toBe(6);
    expect(answer.review.oldest.map((entry) => entry.entryId)).toEqual(waitingIds);
    expect(answer.review.oldest.map((entry) => entry.ageHours)).toEqual([100, 50, 10, 3, 1]);
    expect(answer.review.oldest[0]).toMatchObject({
      missionTitle: 'Kitchen tour',
      projectId: projectB,
      projectName: 'Bravo',
      submittedAt: '2026-10-28T08:00:00.000Z',
      participant: { firstName: 'Dana' },
    });
  });

  it('gives each live project its completion: members who submitted something there (drafts do not count), out of its members', () => {
    expect(answer.projects.map((project) => project.id)).not.toContain(projectClosed);
    const alpha = answer.projects.find((project) => project.id === projectA);
    expect(alpha).toMatchObject({ name: 'Alpha', members: 4, completed: 2 });
    expect(alpha?.completion).toBeCloseTo(2 / 4);
    expect(answer.projects.find((project) => project.id === projectB)).toEqual({ id: projectB, name: 'Bravo', members: 0, completed: 0, completion: 0 });
  });

  it('sums the points credited this month by their state (voided and last month left out)', () => {
    expect(answer.points).toEqual({ month: '2026-11', pending: 30, available: 25 });
  });

  it('counts sign-ups per week over 12 weeks, every week present', () => {
    expect(answer.signupsPerWeek).toHaveLength(12);
    expect(answer.signupsPerWeek[0]).toEqual({ week: '2026-08-10', count: 0 });
    expect(answer.signupsPerWeek.filter((week) => week.count > 0)).toEqual([
      { week: '2026-08-31', count: 1 },
      { week: '2026-10-19', count: 1 },
      { week: '2026-10-26', count: 2 },
    ]);
    expect(answer.signupsPerWeek.at(-1)?.week).toBe('2026-10-26');
  });

  it('counts submissions per day over 30 days, every day present (zero-filled)', () => {
    expect(answer.submissionsPerDay).toHaveLength(30);
    expect(answer.submissionsPerDay[0]).toEqual({ day: '2026-10-03', count: 0 });
    expect(answer.submissionsPerDay.at(-1)).toEqual({ day: '2026-11-01', count: 4 });
    expect(answer.submissionsPerDay.filter((day) => day.count > 0)).toEqual([
      { day: '2026-10-27', count: 1 },
      { day: '2026-10-28', count: 1 },
      { day: '2026-10-30', count: 1 },
      { day: '2026-11-01', count: 4 },
    ]);
  });

  it('sums the points outstanding (available and held, all time) and their value at the default rate; counts the reward requests waiting', () => {
    expect(answer.rewards).toEqual({ outstandingPoints: 1025, held: 1000, value: [{ currency: 'EUR', value: 10.25 }], waiting: 1, toDeliver: 1 });
  });

  it('counts client errors only (actions left out)', () => {
    expect(answer.clientErrors).toEqual({ total: 2 });
  });

  it('keeps its numbers for 10 seconds by the clock, then counts again', async () => {
    await person({ createdAt: ctx().clock.now() });
    ctx().clock.advance(9_999);
    const cached = await get();
    expect(cached.generatedAt).toBe(answer.generatedAt);
    expect(cached.participants.total).toBe(5);
    ctx().clock.advance(1);
    const fresh = await get();
    expect(fresh.generatedAt).toBe('2026-11-01T12:00:10.000Z');
    expect(fresh.participants.total).toBe(6);
    expect(fresh.participants.newThisWeek).toBe(3);
  });

  it('counts a member as completed once they submit a survey through the API (their first contribution is recorded)', async () => {
    const member = await participant(ctx());
    await addMember(ctx(), projectB, member.id);
    const survey = await createSurvey(ctx(), projectB);
    ctx().clock.advance(10_000);
    expect((await get()).projects.find((project) => project.id === projectB)).toMatchObject({ members: 1, completed: 0 });
    const submitted = await callAs(ctx(), member)('POST', `/api/surveys/${survey.id}/response/submit`, { answers: { name: 'Dana' } });
    expect(submitted.status, await submitted.clone().text()).toBe(200);
    ctx().clock.advance(10_000);
    expect((await get()).projects.find((project) => project.id === projectB)).toMatchObject({ members: 1, completed: 1, completion: 1 });
  });

  it('counts once for callers that ask together (they share one computation)', async () => {
    ctx().clock.advance(10_000);
    const first = dashboard(ctx().database.db, ctx().clock);
    expect(dashboard(ctx().database.db, ctx().clock)).toBe(first);
    const [a, b] = await Promise.all([get(), get()]);
    expect(a.generatedAt).toBe((await first).generatedAt);
    expect(b.generatedAt).toBe(a.generatedAt);
  });

  it('is for moderators and admins (401 without a session, 403 for participants), never cached by the browser', async () => {
    expect((await errorOf(await ctx().request('/api/admin/dashboard'), 401)).code).toBe('unauthenticated');
    const someone = await participant(ctx());
    expect((await errorOf(await callAs(ctx(), someone)('GET', '/api/admin/dashboard'), 403)).code).toBe('forbidden');
    const moderator = await staff(ctx(), 'moderator');
    const res = await callAs(ctx(), moderator)('GET', '/api/admin/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describeEachBackend('home: the staff card', (ctx) => {
  it('tells moderators and admins how many entries wait for review; participants get nothing of it', async () => {
    const project = await createProject(ctx());
    const mission = await createMission(ctx(), project.id);
    const someone = await participant(ctx());
    await addMember(ctx(), project.id, someone.id);
    const home = async (who: SignedIn) => okJson<HomeAnswer>(await callAs(ctx(), who)('GET', '/api/home'));

    const moderator = await staff(ctx(), 'moderator');
    const admin = await staff(ctx(), 'admin');
    expect((await home(moderator)).staff).toEqual({ reviewWaiting: 0 });

    await insertEntry(ctx(), mission, someone.id);
    await insertEntry(ctx(), mission, someone.id, { status: 'approved' });
    await insertEntry(ctx(), mission, someone.id, { status: 'draft' });
    expect((await home(moderator)).staff).toEqual({ reviewWaiting: 1 });
    expect((await home(admin)).staff).toEqual({ reviewWaiting: 1 });

    const mine = await home(someone);
    expect(Object.keys(mine).sort()).toEqual(['announcements', 'done', 'submitted', 'todo']);
  });
});
