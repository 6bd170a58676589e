/**
 * The review at scale: bulk approve of 500 entries (set-based: each entry approved once, its
 * points credited once against the ledger's unique key, one notification and decision each, a
 * retry and a concurrent second call change nothing, an entry decided meanwhile is skipped) and the
 * mission queue's keyset paging (`cursor` / `nextCursor` in both sorts and directions, the same rows
 * as the numbered pages) and its bounded `total`.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog, entryDecisions, entrySubmissions, missionEntries, notifications, pointsLedger } from '../../src/server/db/schema/index.ts';
import { pointReference } from '../../src/shared/points.ts';
import { REVIEW_TOTAL_EXACT_MAX, type ReviewInboxPage, type ReviewQueuePage } from '../../src/shared/review.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { fieldsOf, type SignedIn } from './helpers.ts';
import { callAs, createMission, createProject, member, okJson, staff } from './programme-fixtures.ts';

/** `n` active participants made straight in the database (no password), their ids in order. */
async function people(c: TestContext, n: number, tag: string): Promise<number[]> {
  const result = (await c.database.db.execute(sql`
    insert into users (email, first_name, last_name, role, status)
    select ${tag} || '-' || i || '@scale.localhost', 'First' || (i % 7), 'Last' || (i % 11), 'participant', 'active'
    from generate_series(1, ${n}) as i
    returning id`)) as unknown as { rows: { id: number }[] };
  return result.rows.map((row) => row.id).sort((a, b) => a - b);
}

/** `n` submitted entries of the mission, entry i by person i mod their count, submitted i minutes before now (a few share a moment). */
async function submittedEntries(c: TestContext, missionId: number, userIds: readonly number[], n: number): Promise<number[]> {
  const now = c.clock.now().toISOString();
  const result = (await c.database.db.execute(sql`
    insert into mission_entries (mission_id, user_id, form_version, answers, status, local_date, created_at, updated_at, submitted_at, submission_count)
    select ${missionId}, (${sql.param([...userIds])}::int[])[1 + (i % ${userIds.length})], 1, jsonb_build_object('name', 'Entry ' || i), 'submitted',
      (${now}::timestamptz)::date, ${now}::timestamptz - (i / 3) * interval '1 minute', ${now}::timestamptz, ${now}::timestamptz - (i / 3) * interval '1 minute', 0
    from generate_series(0, ${n - 1}) as i
    returning id`)) as unknown as { rows: { id: number }[] };
  return result.rows.map((row) => row.id).sort((a, b) => a - b);
}

describeEachBackend('review at scale', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const bulk = (who: SignedIn, ids: readonly number[]) => as(who)('POST', '/api/admin/submissions/review', { ids, decision: 'approve' });

  async function setup(points = 20) {
    const c = ctx();
    const project = await createProject(c);
    const moderator = await staff(c, 'moderator');
    const mission = await createMission(c, project.id, { title: 'Breakfast diary', points, entries: { min: 1, max: 50 } });
    return { c, project, moderator, mission };
  }

  it('approves 500 entries once each: one decision, one available credit, one notification per entry; a retry and a concurrent call add nothing', async () => {
    const { c, moderator, mission } = await setup();
    const userIds = await people(c, 50, 'bulk');
    const ids = await submittedEntries(c, mission.id, userIds, 500);
    const db = c.database.db;
    // Half have their version already (as the participant calls write them), with answers of their own; the rest were submitted before versions were kept.
    const versioned = ids.filter((_, i) => i % 2 === 0);
    await db.insert(entrySubmissions).values(versioned.map((entryId) => ({ entryId, version: 1, formVersion: 1, answers: { name: `Version of ${entryId}` } })));
    await db.update(missionEntries).set({ submissionCount: 1 }).where(inArray(missionEntries.id, versioned));
    // One entry's credit exists already, pending (as submitting makes it): it becomes available, not a second row.
    const pendingId = ids[1] ?? 0;
    const pendingOwner = (await db.select({ userId: missionEntries.userId }).from(missionEntries).where(eq(missionEntries.id, pendingId)))[0]?.userId ?? 0;
    await db.insert(pointsLedger).values({
      userId: pendingOwner,
      points: 20,
      state: 'pending',
      reason: 'earlier',
      source: 'mission',
      reference: pointReference.missionEntry(pendingId),
    });

    // Two moderators approve the same 500 at once: together exactly 500 approvals.
    const second = await staff(c, 'moderator');
    const answers = await Promise.all([bulk(moderator, ids), bulk(second, [...ids].reverse())]);
    const results = await Promise.all(answers.map((res) => okJson<{ approved: number; skipped: number }>(res)));
    expect(results.reduce((sum, r) => sum + r.approved, 0)).toBe(500);
    expect(results.map((r) => r.approved + r.skipped)).toEqual([500, 500]);

    const entries = await db.select().from(missionEntries).where(inArray(missionEntries.id, ids)).orderBy(asc(missionEntries.id));
    expect(entries.every((entry) => entry.status === 'approved' && entry.reviewReason === null && entry.reviewedAt !== null)).toBe(true);
    // The answers approved are the version's; a legacy entry got its version 1 from its own answers.
    expect(entries.find((entry) => entry.id === versioned[0])?.answers).toEqual({ name: `Version of ${versioned[0]}` });
    expect(entries.every((entry) => entry.submissionCount === 1)).toBe(true);
    const versions = await db
      .select({ entryId: entrySubmissions.entryId, n: count() })
      .from(entrySubmissions)
      .where(inArray(entrySubmissions.entryId, ids))
      .groupBy(entrySubmissions.entryId);
    expect(versions.length).toBe(500);
    expect(versions.every((row) => row.n === 1)).toBe(true);

    const decisions = await db.select().from(entryDecisions).where(inArray(entryDecisions.entryId, ids));
    expect(decisions).toHaveLength(500);
    expect(new Set(decisions.map((row) => row.entryId)).size).toBe(500);
    expect(decisions.every((row) => row.decision === 'approved' && row.reason === null)).toBe(true);

    const credits = await db
      .select()
      .from(pointsLedger)
      .where(and(eq(pointsLedger.source, 'mission'), inArray(pointsLedger.userId, userIds)));
    expect(credits).toHaveLength(500);
    expect(new Set(credits.map((row) => row.reference)).size).toBe(500);
    expect(credits.every((row) => row.state === 'available' && row.points === 20)).toBe(true);
    expect(credits.find((row) => row.reference === pointReference.missionEntry(pendingId))?.reason).toBe('earlier');

    const notices = await db.select().from(notifications).where(inArray(notifications.userId, userIds));
    expect(notices).toHaveLength(500);
    expect(notices.every((row) => row.kind === 'approved' && row.link === `/account/mission-history/${mission.id}`)).toBe(true);
    expect(notices[0]?.text).toBe('Your entry to “Breakfast diary” was approved: 20 points are now available');

    const audits = await db.select().from(auditLog).where(eq(auditLog.action, 'submission.review.bulk'));
    expect(audits).toHaveLength(2);
    expect(audits.flatMap((row) => (row.after as { ids: number[] }).ids).sort((a, b) => a - b)).toEqual(ids);

    // A retry (the answer was lost on the way): nothing approved, credited or notified twice.
    expect(await okJson(await bulk(moderator, ids))).toEqual({ approved: 0, skipped: 500 });
    expect(await db.select({ n: count() }).from(pointsLedger).where(inArray(pointsLedger.userId, userIds))).toEqual([{ n: 500 }]);
    expect(await db.select({ n: count() }).from(notifications).where(inArray(notifications.userId, userIds))).toEqual([{ n: 500 }]);
    expect(await db.select({ n: count() }).from(entryDecisions).where(inArray(entryDecisions.entryId, ids))).toEqual([{ n: 500 }]);
  });

  it('an entry decided after the moderator loaded the queue is skipped and keeps its decision; the others are approved as one approval would', async () => {
    const { c, moderator, mission } = await setup(0);
    const user = await member(c, (await createProject(c)).id);
    const userIds = [user.id];
    const ids = await submittedEntries(c, mission.id, userIds, 3);
    const [first, changed, single] = ids as [number, number, number];
    // Another moderator asks for changes on one of them first.
    const other = await staff(c, 'moderator');
    await okJson(
      await as(other)('POST', `/api/admin/submissions/${changed}/review`, { decision: 'request_changes', reason: 'Blurry', expectedStatus: 'submitted' }),
    );
    // One approved alone, for comparison.
    await okJson(await as(moderator)('POST', `/api/admin/submissions/${single}/review`, { decision: 'approve', expectedStatus: 'submitted' }));

    expect(await okJson(await bulk(moderator, [first, changed, 999_999]))).toEqual({ approved: 1, skipped: 2 });
    const rows = await c.database.db.select().from(missionEntries).where(inArray(missionEntries.id, ids)).orderBy(asc(missionEntries.id));
    expect(rows.map((row) => [row.status, row.reviewReason])).toEqual([
      ['approved', null],
      ['changes_requested', 'Blurry'],
      ['approved', null],
    ]);
    // A mission of 0 points: no credit either way; the notification is the one a single approval writes.
    expect(await c.database.db.select().from(pointsLedger).where(eq(pointsLedger.userId, user.id))).toEqual([]);
    const notices = await c.database.db.select().from(notifications).where(eq(notifications.userId, user.id)).orderBy(asc(notifications.id));
    expect(notices.map((row) => row.kind)).toEqual(['changes_requested', 'approved', 'approved']);
    expect(notices[2]?.text).toBe(notices[1]?.text);
    const decided = await c.database.db.select().from(entryDecisions).where(eq(entryDecisions.entryId, changed));
    expect(decided.map((row) => row.decision)).toEqual(['changes_requested']);
  });

  it('the mission queue pages by cursor in both sorts and directions: the same rows as the numbered pages, no repeat, no gap', async () => {
    const { c, moderator, mission } = await setup();
    const userIds = await people(c, 9, 'keyset');
    await submittedEntries(c, mission.id, userIds, 23);
    const path = `/api/admin/missions/${mission.id}/submissions?status=submitted&pageSize=5`;
    for (const order of ['', '&dir=asc', '&sort=name', '&sort=name&dir=desc']) {
      const numbered: number[] = [];
      for (let page = 1; page <= 5; page++)
        numbered.push(...(await okJson<ReviewQueuePage>(await as(moderator)('GET', `${path}${order}&page=${page}`))).items.map((i) => i.id));
      expect(numbered).toHaveLength(23);
      const keyset: number[] = [];
      let cursor: string | null = '';
      let pages = 0;
      while (cursor !== null) {
        const page: ReviewQueuePage = await okJson<ReviewQueuePage>(
          await as(moderator)('GET', `${path}${order}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        );
        expect(page).toMatchObject({ total: 23, totalEstimated: false, pageSize: 5 });
        keyset.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor;
        pages++;
      }
      expect(pages).toBe(5);
      expect(keyset).toEqual(numbered);
    }
    // A cursor is for its own sort and direction; anything else is a 400 on `cursor`.
    const first = await okJson<ReviewQueuePage>(await as(moderator)('GET', path));
    const next = encodeURIComponent(first.nextCursor ?? '');
    expect(await fieldsOf(await as(moderator)('GET', `${path}&sort=name&cursor=${next}`))).toEqual({
      cursor: ['This cursor is not one the queue gave out: ask for the first page again'],
    });
    expect(await fieldsOf(await as(moderator)('GET', `${path}&dir=asc&cursor=${next}`))).toHaveProperty('cursor');
    expect(await fieldsOf(await as(moderator)('GET', `${path}&cursor=q1.not-a-cursor`))).toHaveProperty('cursor');
  });

  it(`counts the queue and the inbox exactly up to ${REVIEW_TOTAL_EXACT_MAX.toLocaleString('en-US')} matches and estimates beyond, saying so`, async () => {
    const { c, moderator, mission } = await setup();
    const userIds = await people(c, 100, 'many');
    await submittedEntries(c, mission.id, userIds, REVIEW_TOTAL_EXACT_MAX);
    const queuePath = `/api/admin/missions/${mission.id}/submissions?status=submitted`;
    const inboxPath = `/api/admin/submissions?missionId=${mission.id}&limit=1`;
    expect(await okJson<ReviewQueuePage>(await as(moderator)('GET', queuePath))).toMatchObject({ total: REVIEW_TOTAL_EXACT_MAX, totalEstimated: false });
    expect(await okJson<ReviewInboxPage>(await as(moderator)('GET', inboxPath))).toMatchObject({ total: REVIEW_TOTAL_EXACT_MAX, totalEstimated: false });
    await submittedEntries(c, mission.id, userIds, 50);
    await c.database.db.execute(sql`analyze mission_entries`);
    for (const path of [queuePath, inboxPath]) {
      const answer = await okJson<ReviewQueuePage>(await as(moderator)('GET', path));
      expect(answer.totalEstimated).toBe(true);
      expect(answer.total).toBeGreaterThan(REVIEW_TOTAL_EXACT_MAX);
      expect(answer.items.length).toBeGreaterThan(0);
    }
    // A search narrows it back under the bound: exact again.
    expect(await okJson<ReviewQueuePage>(await as(moderator)('GET', `${queuePath}&q=${encodeURIComponent('many-1@')}`))).toMatchObject({
      totalEstimated: false,
    });
  });
});
