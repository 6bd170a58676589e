/**
 * The points ledger: the credits of each lifecycle (native surveys, external returns with and
 * without trusted returns, automatic and manual missions), the participant's summary, admins'
 * adjustments (reason required, one entry per reference, admins only) and twenty identical
 * credits at once.
 */
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog, missions, pointsLedger, surveys } from '../../src/server/db/schema/index.ts';
import { isExternalOutcome, outcomeKey } from '../../src/server/services/external-surveys.ts';
import { pointReference, type PointsSummary } from '../../src/shared/points.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, freshIp, type SignedIn } from './helpers.ts';
import { callAs, createMission, createProject, createSurvey, member, okJson, participant, staff } from './programme-fixtures.ts';

interface AdminEntry {
  id: number;
  points: number;
  state: string;
  reason: string;
  source: string;
  reference: string;
  userId: number;
  createdBy: number | null;
  createdAt: string;
}

describeEachBackend('points API', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const ledgerOf = (userId: number) => ctx().database.db.select().from(pointsLedger).where(eq(pointsLedger.userId, userId)).orderBy(asc(pointsLedger.id));
  const summary = async (who: SignedIn, query = '') => okJson<Required<PointsSummary>>(await as(who)('GET', `/api/account/points${query}`));
  const adjust = (who: SignedIn, userId: number | string, body: unknown) => as(who)('POST', `/api/admin/users/${userId}/points`, body);

  /** Starts an external survey as `who` and comes back with `status`; the return's status code. */
  async function startAndReturn(c: TestContext, surveyId: number, who: SignedIn, status: string): Promise<number> {
    const start = await c.request(`/api/surveys/${surveyId}/start`, { headers: { ...who.headers, 'X-Forwarded-For': freshIp() } });
    expect(start.status).toBe(302);
    const pid = new URL(start.headers.get('location') ?? '').searchParams.get('pid') ?? '';
    expect(pid).not.toBe('');
    const back = await c.request(await returnPath(c, surveyId, pid, status), { headers: { 'X-Forwarded-For': freshIp() } });
    return back.status;
  }
  /** The survey's return link for `status` with the pid filled in (its key as the admin screen shows it, docs/alchemer.md). */
  async function returnPath(c: TestContext, surveyId: number, pid: string, status: string): Promise<string> {
    const [row] = await c.database.db.select({ returnKey: surveys.returnKey }).from(surveys).where(eq(surveys.id, surveyId));
    const k = isExternalOutcome(status) && row?.returnKey ? outcomeKey(row.returnKey, status) : '';
    return `/api/surveys/return?status=${status}&k=${k}&pid=${encodeURIComponent(pid)}`;
  }

  it('a native survey credits its points, available at once, when submitted (once); 0 points credit nothing', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const survey = await createSurvey(c, project.id, { title: 'Weekly check-in', points: 12 });
    const free = await createSurvey(c, project.id, { points: 0 });
    const submit = (id: number) => as(user)('POST', `/api/surveys/${id}/response/submit`, { answers: { name: 'Ada' } });
    expect(await okJson(await submit(survey.id))).toEqual({ status: 'submitted' });
    expect((await errorOf(await submit(survey.id), 409)).code).toBe('already_submitted');
    expect(await okJson(await submit(free.id))).toEqual({ status: 'submitted' });
    expect(await ledgerOf(user.id)).toMatchObject([
      { points: 12, state: 'available', source: 'survey', reference: pointReference.survey(survey.id), reason: 'Survey “Weekly check-in”', createdBy: null },
    ]);
    expect(await summary(user)).toMatchObject({
      balance: 12,
      pending: 0,
      total: 1,
      entries: [{ points: 12, state: 'available', reason: 'Survey “Weekly check-in”', source: 'survey' }],
    });
  });

  it('an external complete return: pending, or available when the survey trusts returns; screen-outs and over-quota credit nothing; one credit however many returns', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const pending = await createSurvey(c, project.id, { kind: 'external', title: 'Brand tracker', points: 30 });
    const trusted = await createSurvey(c, project.id, { kind: 'external', title: 'Quick poll', points: 5, trustReturns: true });
    const screened = await createSurvey(c, project.id, { kind: 'external', points: 40 });
    const quota = await createSurvey(c, project.id, { kind: 'external', points: 40 });
    expect(await startAndReturn(c, pending.id, user, 'complete')).toBe(302);
    expect(await startAndReturn(c, trusted.id, user, 'complete')).toBe(302);
    expect(await startAndReturn(c, screened.id, user, 'screened_out')).toBe(302);
    expect(await startAndReturn(c, quota.id, user, 'over_quota')).toBe(302);
    expect((await ledgerOf(user.id)).map((row) => [row.source, row.reference, row.points, row.state, row.reason])).toEqual([
      ['external_survey', pointReference.externalSurvey(pending.id), 30, 'pending', 'Survey “Brand tracker”'],
      ['external_survey', pointReference.externalSurvey(trusted.id), 5, 'available', 'Survey “Quick poll”'],
    ]);
    expect(await summary(user)).toMatchObject({ balance: 5, pending: 30, total: 2 });

    // Two references of one participant both coming back complete: still one credit.
    const twice = await createSurvey(c, project.id, { kind: 'external', points: 7, trustReturns: true });
    const startOnce = async () => {
      const res = await c.request(`/api/surveys/${twice.id}/start`, { headers: { ...user.headers, 'X-Forwarded-For': freshIp() } });
      return new URL(res.headers.get('location') ?? '').searchParams.get('pid') ?? '';
    };
    const [pidA, pidB] = [await startOnce(), await startOnce()];
    for (const pid of [pidA, pidB, pidA]) await c.request(await returnPath(c, twice.id, pid, 'complete'), { headers: { 'X-Forwarded-For': freshIp() } });
    expect((await ledgerOf(user.id)).filter((row) => row.reference === pointReference.externalSurvey(twice.id))).toHaveLength(1);
  });

  it('missions: automatic review credits available points on submit; manual review pending until approved; the amount is the one at submit', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const moderator = await staff(c);
    const auto = await createMission(c, project.id, { title: 'Quick snap', review: 'automatic', points: 8 });
    const manual = await createMission(c, project.id, { title: 'Breakfast diary', points: 20 });
    const zero = await createMission(c, project.id, { review: 'automatic', points: 0 });
    const submit = async (missionId: number) => {
      const created = await okJson<{ id: number }>(await as(user)('POST', `/api/missions/${missionId}/entries`, {}), 201);
      await okJson(await as(user)('POST', `/api/missions/${missionId}/entries/${created.id}/submit`, { answers: { name: 'x' } }));
      return created.id;
    };
    const autoEntry = await submit(auto.id);
    const manualEntry = await submit(manual.id);
    await submit(zero.id);
    // The mission's points change after the submit: the credit keeps the amount it was made with.
    await c.database.db.update(missions).set({ points: 999 }).where(eq(missions.id, manual.id));
    expect((await ledgerOf(user.id)).map((row) => [row.reference, row.points, row.state, row.reason])).toEqual([
      [pointReference.missionEntry(autoEntry), 8, 'available', 'Mission “Quick snap”: entry of Nov 1'],
      [pointReference.missionEntry(manualEntry), 20, 'pending', 'Mission “Breakfast diary”: entry of Nov 1'],
    ]);
    expect(await summary(user)).toMatchObject({ balance: 8, pending: 20 });
    await okJson(await as(moderator)('POST', `/api/admin/submissions/${manualEntry}/review`, { decision: 'approve' }));
    expect(await summary(user)).toMatchObject({ balance: 28, pending: 0, total: 2 });
    await okJson(await as(moderator)('POST', `/api/admin/submissions/${manualEntry}/review`, { decision: 'reject', reason: 'Copied' }));
    const after = await summary(user);
    expect(after).toMatchObject({ balance: 8, pending: 0, total: 2 });
    expect(after.entries.map((entry) => entry.state).sort()).toEqual(['available', 'voided']);
  });

  it('the summary: own entries only, newest first, paginated (20 by default)', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const user = await participant(c);
    const someoneElse = await participant(c);
    for (let i = 1; i <= 25; i++) {
      await okJson(await adjust(admin, user.id, { points: i, reason: `Gift ${i}` }), 201);
      c.clock.advance(1000);
    }
    await okJson(await adjust(admin, user.id, { points: -5, reason: 'Correction' }), 201);
    await okJson(await adjust(admin, someoneElse.id, { points: 100, reason: 'Theirs' }), 201);
    const first = await summary(user);
    expect(first.balance).toBe((25 * 26) / 2 - 5);
    expect(first.pending).toBe(0);
    expect(first.total).toBe(26);
    expect(first.entries).toHaveLength(20);
    expect(first.entries[0]).toMatchObject({ points: -5, state: 'available', reason: 'Adjustment: Correction', source: 'adjustment' });
    expect(first.entries[1]).toMatchObject({ points: 25, reason: 'Adjustment: Gift 25' });
    expect(Object.keys(first.entries[0] ?? {}).sort()).toEqual(['createdAt', 'id', 'points', 'reason', 'source', 'state']);
    const last = await summary(user, '?page=2&pageSize=20');
    expect(last.entries.map((entry) => entry.points)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(await fieldsOf(await as(user)('GET', '/api/account/points?pageSize=101'))).toHaveProperty('pageSize');
    expect((await errorOf(await as(null)('GET', '/api/account/points'), 401)).code).toBe('unauthenticated');
  });

  it('adjustments: admins only, a reason required, non-zero whole points; the same reference twice answers the first entry; audited once', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const moderator = await staff(c, 'moderator');
    const user = await participant(c);
    expect((await errorOf(await adjust(moderator, user.id, { points: 10, reason: 'Nice' }), 403)).code).toBe('forbidden');
    expect((await errorOf(await adjust(user, user.id, { points: 10, reason: 'Nice' }), 403)).code).toBe('forbidden');
    expect((await errorOf(await adjust(admin, 999999, { points: 10, reason: 'Nice' }), 404)).code).toBe('not_found');
    expect((await errorOf(await adjust(admin, 'abc', { points: 10, reason: 'Nice' }), 404)).code).toBe('not_found');
    expect(await fieldsOf(await adjust(admin, user.id, { points: 10 }))).toEqual({ reason: ['Required'] });
    expect(await fieldsOf(await adjust(admin, user.id, { points: 10, reason: '  ' }))).toEqual({ reason: ['Required'] });
    expect(await fieldsOf(await adjust(admin, user.id, { points: 0, reason: 'x' }))).toEqual({ points: ['Enter a number other than 0'] });
    expect(await fieldsOf(await adjust(admin, user.id, { points: 1.5, reason: 'x' }))).toEqual({ points: ['Enter a whole number'] });
    expect(await ledgerOf(user.id)).toEqual([]);

    // Taken from someone with no points: said so (allowNegative), else 409 (the next test).
    const body = { points: -15, reason: 'Duplicate payout', reference: 'ticket-4711', allowNegative: true };
    const first = await okJson<AdminEntry>(await adjust(admin, user.id, body), 201);
    expect(first).toMatchObject({
      points: -15,
      state: 'available',
      reason: 'Adjustment: Duplicate payout',
      source: 'adjustment',
      reference: 'ticket-4711',
      userId: user.id,
      createdBy: admin.id,
    });
    const again = await okJson<AdminEntry>(await adjust(admin, user.id, { ...body, points: -30 }), 200);
    expect(again).toEqual(first);
    expect(await ledgerOf(user.id)).toHaveLength(1);
    // The same reference for another user is their own entry.
    const other = await participant(c);
    await okJson(await adjust(admin, other.id, body), 201);
    const audits = await c.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'points.adjust'), eq(auditLog.targetId, String(user.id))));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: admin.id,
      targetType: 'user',
      after: { entryId: first.id, points: -15, reason: 'Duplicate payout', reference: 'ticket-4711' },
    });
  });

  it('an adjustment taking available points (held ones taken off) below zero is 409 insufficient_points, unless allowNegative; a retry of one made answers it', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const user = await participant(c);
    await okJson(await adjust(admin, user.id, { points: 100, reason: 'Gift' }), 201);
    await c.database.db
      .insert(pointsLedger)
      .values({ userId: user.id, points: -60, state: 'held', reason: 'Reward', source: 'redemption', reference: 'redemption:999998' });
    const refused = await errorOf(await adjust(admin, user.id, { points: -41, reason: 'Correction' }), 409);
    expect(refused).toMatchObject({
      code: 'insufficient_points',
      message: "This would take Robin Hale's available points below zero (40 available): take away less, or allow a negative balance",
    });
    await okJson(await adjust(admin, user.id, { points: -40, reason: 'Correction', reference: 'fix-1' }), 201);
    await okJson(await adjust(admin, user.id, { points: -40, reason: 'Correction', reference: 'fix-1' }), 200);
    await okJson(await adjust(admin, user.id, { points: -5, reason: 'Fraud', allowNegative: true }), 201);
    expect(await summary(user)).toMatchObject({ balance: -5, available: -5, held: 60 });
  });

  it('twenty identical credits at once make exactly one ledger entry', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const user = await participant(c);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => adjust(admin, user.id, { points: 50, reason: 'Launch bonus', reference: 'launch-bonus' })),
    );
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const bodies = await Promise.all(results.map((res) => res.json() as Promise<AdminEntry>));
    expect(new Set(bodies.map((entry) => entry.id)).size).toBe(1);
    expect(await ledgerOf(user.id)).toHaveLength(1);
    expect(await summary(user)).toMatchObject({ balance: 50, total: 1 });
    const audits = await c.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'points.adjust'), eq(auditLog.targetId, String(user.id))));
    expect(audits).toHaveLength(1);
  });
});
