/**
 * Reviewing mission entries: every transition and who may make it, resubmissions keeping the
 * earlier versions, decisions changed later (audited, points follow), bulk approve, probes,
 * internal notes, reason templates, the queue's filters, and twenty identical approvals at once.
 */
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  auditLog,
  entryDecisions,
  entrySubmissions,
  missionEntries,
  notifications,
  pointsLedger,
  probes,
  reviewNotes,
  users,
} from '../../src/server/db/schema/index.ts';
import { pointReference } from '../../src/shared/points.ts';
import type { ListPage } from '../../src/shared/list.ts';
import type { MissionHistory, ProbeView, ReasonTemplateView, ReviewNoteView, ReviewSubmission } from '../../src/shared/review.ts';
import type { ReviewQueueItem } from '../../src/shared/review.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import { callAs, createMission, createProject, insertEntry, member, okJson, staff, type MissionFixture } from './programme-fixtures.ts';

describeEachBackend('review API', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const review = (who: SignedIn, id: number, body: unknown) => as(who)('POST', `/api/admin/submissions/${id}/review`, body);
  const detail = async (who: SignedIn, id: number) => okJson<ReviewSubmission>(await as(who)('GET', `/api/admin/submissions/${id}`));
  const queue = async (who: SignedIn, missionId: number, query = '') =>
    okJson<ListPage<ReviewQueueItem>>(await as(who)('GET', `/api/admin/missions/${missionId}/submissions${query}`));
  const entryRow = async (id: number) => (await ctx().database.db.select().from(missionEntries).where(eq(missionEntries.id, id)))[0];
  const versionsOf = (id: number) =>
    ctx().database.db.select().from(entrySubmissions).where(eq(entrySubmissions.entryId, id)).orderBy(asc(entrySubmissions.version));
  /** Every decision row of an entry, oldest first, with the version it decided. */
  const decisionsOf = (id: number) =>
    ctx()
      .database.db.select({
        version: entrySubmissions.version,
        decision: entryDecisions.decision,
        reason: entryDecisions.reason,
        decidedBy: entryDecisions.decidedBy,
        id: entryDecisions.id,
      })
      .from(entryDecisions)
      .innerJoin(entrySubmissions, eq(entrySubmissions.id, entryDecisions.submissionId))
      .where(eq(entryDecisions.entryId, id))
      .orderBy(asc(entryDecisions.id));
  const creditsOf = (userId: number) => ctx().database.db.select().from(pointsLedger).where(eq(pointsLedger.userId, userId));
  const noticesOf = (userId: number) => ctx().database.db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(asc(notifications.id));
  const auditOf = (action: string, targetId?: number) =>
    ctx()
      .database.db.select()
      .from(auditLog)
      .where(targetId === undefined ? eq(auditLog.action, action) : and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))))
      .orderBy(asc(auditLog.id));

  async function setup(c: TestContext, mission: MissionFixture = {}) {
    const project = await createProject(c);
    const user = await member(c, project.id);
    const moderator = await staff(c, 'moderator');
    const m = await createMission(c, project.id, { title: 'Breakfast diary', points: 20, ...mission });
    return { project, user, moderator, mission: m };
  }

  /** A participant's entry made and submitted through the participant calls. */
  async function submitted(who: SignedIn, missionId: number, name: string): Promise<number> {
    const created = await okJson<{ id: number }>(await as(who)('POST', `/api/missions/${missionId}/entries`, {}), 201);
    await okJson(await as(who)('POST', `/api/missions/${missionId}/entries/${created.id}/submit`, { answers: { name } }));
    return created.id;
  }

  it('changes asked (reason required), edited and resubmitted as a new version, approved, then rejected and approved again: points follow, each decision audited', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c);
    const id = await submitted(user, mission.id, 'Blurry toast');

    // Submitted: one version, the points pending.
    expect(await entryRow(id)).toMatchObject({ status: 'submitted', submissionCount: 1 });
    expect(await versionsOf(id)).toMatchObject([{ version: 1, answers: { name: 'Blurry toast' } }]);
    expect(await decisionsOf(id)).toEqual([]);
    expect(await creditsOf(user.id)).toMatchObject([
      { points: 20, state: 'pending', source: 'mission', reference: pointReference.missionEntry(id), reason: 'Mission “Breakfast diary”: entry of Nov 1' },
    ]);
    expect((await queue(moderator, mission.id, '?status=submitted')).items).toMatchObject([{ id, status: 'submitted', resubmission: false, probesWaiting: 0 }]);

    // A reason is required to ask for changes or reject.
    expect(await fieldsOf(await review(moderator, id, { decision: 'request_changes' }))).toEqual({ reason: ['Required'] });
    expect(await fieldsOf(await review(moderator, id, { decision: 'reject', reason: '   ' }))).toEqual({ reason: ['Required'] });
    expect(await fieldsOf(await review(moderator, id, { decision: 'maybe' }))).toHaveProperty('decision');

    const asked = await okJson<ReviewSubmission>(await review(moderator, id, { decision: 'request_changes', reason: 'The photo is blurry' }));
    expect(asked).toMatchObject({
      id,
      status: 'changes_requested',
      reviewReason: 'The photo is blurry',
      reviewedBy: { id: moderator.id },
      resubmission: false,
      missionTitle: 'Breakfast diary',
    });
    expect(asked.history).toMatchObject([{ version: 1, decision: 'changes_requested', reason: 'The photo is blurry', decidedBy: { id: moderator.id } }]);
    expect((await creditsOf(user.id)).map((row) => row.state)).toEqual(['pending']);
    expect(await noticesOf(user.id)).toMatchObject([{ kind: 'changes_requested', link: `/account/mission-history/${mission.id}` }]);
    expect((await noticesOf(user.id))[0]?.text).toContain('The photo is blurry');

    // The participant edits and resubmits: a new version, the earlier one kept with its decision.
    await saveAnswers(user, mission.id, id, { name: 'Sharp toast' });
    expect(await okJson(await as(user)('POST', `/api/missions/${mission.id}/entries/${id}/submit`, {}))).toEqual({ status: 'submitted' });
    expect(await entryRow(id)).toMatchObject({ status: 'submitted', submissionCount: 2, reviewReason: null });
    expect((await queue(moderator, mission.id, '?status=submitted')).items).toMatchObject([{ id, resubmission: true }]);
    const resubmitted = await detail(moderator, id);
    expect(resubmitted).toMatchObject({ status: 'submitted', resubmission: true, answers: { name: 'Sharp toast' }, reviewReason: null });
    expect(resubmitted.history.map((v) => [v.version, v.answers, v.decision, v.reason])).toEqual([
      [1, { name: 'Blurry toast' }, 'changes_requested', 'The photo is blurry'],
      [2, { name: 'Sharp toast' }, null, null],
    ]);
    expect((await creditsOf(user.id)).map((row) => row.state)).toEqual(['pending']);

    // Approved: the points become available.
    const approved = await okJson<ReviewSubmission>(await review(moderator, id, { decision: 'approve' }));
    expect(approved).toMatchObject({ status: 'approved', reviewReason: null, reviewedBy: { id: moderator.id } });
    expect(approved.history[1]).toMatchObject({ decision: 'approved' });
    expect(await creditsOf(user.id)).toMatchObject([{ points: 20, state: 'available' }]);
    // The approval's notification says what it made available.
    expect((await noticesOf(user.id)).find((n) => n.kind === 'approved')?.text).toBe(
      'Your entry to “Breakfast diary” was approved: 20 points are now available',
    );

    // Changed later: rejected (voided), then approved again (available) — still one ledger entry.
    const other = await staff(c, 'admin');
    expect(await okJson<ReviewSubmission>(await review(other, id, { decision: 'reject', reason: 'Not a breakfast' }))).toMatchObject({
      status: 'rejected',
      reviewReason: 'Not a breakfast',
      reviewedBy: { id: other.id },
    });
    expect(await creditsOf(user.id)).toMatchObject([{ state: 'voided' }]);
    expect(await okJson<ReviewSubmission>(await review(moderator, id, { decision: 'approve' }))).toMatchObject({ status: 'approved', reviewReason: null });
    expect(await creditsOf(user.id)).toMatchObject([{ points: 20, state: 'available' }]);
    expect((await creditsOf(user.id)).length).toBe(1);

    expect((await noticesOf(user.id)).map((n) => n.kind)).toEqual(['changes_requested', 'approved', 'rejected', 'approved']);
    const audits = await auditOf('submission.review', id);
    expect(audits.map((row) => [row.actorId, row.before, (row.after as { status: string }).status])).toEqual([
      [moderator.id, { status: 'submitted', reason: null }, 'changes_requested'],
      [moderator.id, { status: 'submitted', reason: null }, 'approved'],
      [other.id, { status: 'approved', reason: null }, 'rejected'],
      [moderator.id, { status: 'rejected', reason: 'Not a breakfast' }, 'approved'],
    ]);
    expect(audits[2]?.after).toMatchObject({ status: 'rejected', reason: 'Not a breakfast', decision: 'reject' });
  });

  it('changes requested on an approved entry keep the points pending; a rejected entry with no credit gets none', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c, { entries: { min: 1, max: 3 } });
    const id = await submitted(user, mission.id, 'One');
    await okJson(await review(moderator, id, { decision: 'approve' }));
    await okJson(await review(moderator, id, { decision: 'request_changes', reason: 'Add a caption' }));
    expect(await creditsOf(user.id)).toMatchObject([{ state: 'pending' }]);
    expect(await entryRow(id)).toMatchObject({ status: 'changes_requested' });

    // An entry from before versions were kept (no version row, no credit): rejected, it gets a version and no points.
    const legacy = await insertEntry(c, mission, user.id, { answers: { name: 'Old' } });
    await okJson(await review(moderator, legacy.id, { decision: 'reject', reason: 'Off topic' }));
    expect(await versionsOf(legacy.id)).toMatchObject([{ version: 1, answers: { name: 'Old' } }]);
    expect(await decisionsOf(legacy.id)).toMatchObject([{ version: 1, decision: 'rejected', reason: 'Off topic' }]);
    expect((await creditsOf(user.id)).filter((row) => row.reference === pointReference.missionEntry(legacy.id))).toEqual([]);
    // Approved later: credited then, available.
    await okJson(await review(moderator, legacy.id, { decision: 'approve' }));
    expect((await creditsOf(user.id)).filter((row) => row.reference === pointReference.missionEntry(legacy.id))).toMatchObject([
      { points: 20, state: 'available' },
    ]);
  });

  it('drafts are not reviewable (409); unknown or malformed ids are 404; the same decision twice changes nothing', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c, { entries: { min: 1, max: 3 } });
    const draft = await insertEntry(c, mission, user.id, { status: 'draft' });
    expect((await errorOf(await review(moderator, draft.id, { decision: 'approve' }), 409)).code).toBe('not_reviewable');
    expect((await errorOf(await as(moderator)('POST', `/api/admin/submissions/${draft.id}/probes`, { question: 'Why?' }), 409)).code).toBe('not_reviewable');
    expect((await entryRow(draft.id))?.status).toBe('draft');
    for (const bad of ['999999', 'abc', '0', '-1', '1e3']) {
      expect((await errorOf(await as(moderator)('POST', `/api/admin/submissions/${bad}/review`, { decision: 'approve' }), 404)).code).toBe('not_found');
      expect((await errorOf(await as(moderator)('GET', `/api/admin/submissions/${bad}`), 404)).code).toBe('not_found');
    }

    const id = await submitted(user, mission.id, 'Twice');
    await okJson(await review(moderator, id, { decision: 'reject', reason: 'No' }));
    await okJson(await review(moderator, id, { decision: 'reject', reason: 'No' }));
    expect(await auditOf('submission.review', id)).toHaveLength(1);
    expect((await noticesOf(user.id)).filter((n) => n.kind === 'rejected')).toHaveLength(1);
    // Another reason is a change.
    await okJson(await review(moderator, id, { decision: 'reject', reason: 'Not a breakfast' }));
    expect(await auditOf('submission.review', id)).toHaveLength(2);
    expect(await entryRow(id)).toMatchObject({ reviewReason: 'Not a breakfast' });
  });

  it('participants and visitors cannot review, probe, note or see submissions', async () => {
    const c = ctx();
    const { user, mission } = await setup(c);
    const id = await submitted(user, mission.id, 'Mine');
    for (const [method, path, body] of [
      ['GET', `/api/admin/submissions/${id}`, undefined],
      ['GET', `/api/admin/missions/${mission.id}/submissions`, undefined],
      ['POST', `/api/admin/submissions/${id}/review`, { decision: 'approve' }],
      ['POST', '/api/admin/submissions/review', { ids: [id], decision: 'approve' }],
      ['POST', `/api/admin/submissions/${id}/probes`, { question: 'Why?' }],
      ['POST', `/api/admin/submissions/${id}/notes`, { body: 'Hmm' }],
    ] as const) {
      expect((await errorOf(await as(user)(method, path, body), 403)).code, `${method} ${path}`).toBe('forbidden');
      expect((await errorOf(await as(null)(method, path, body), 401)).code, `${method} ${path}`).toBe('unauthenticated');
    }
    expect(await entryRow(id)).toMatchObject({ status: 'submitted' });
  });

  it('automatic review: approved on submit, the version decided, the points available at once', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c, { review: 'automatic', points: 15 });
    const created = await okJson<{ id: number }>(await as(user)('POST', `/api/missions/${mission.id}/entries`, {}), 201);
    expect(await okJson(await as(user)('POST', `/api/missions/${mission.id}/entries/${created.id}/submit`, { answers: { name: 'Auto' } }))).toEqual({
      status: 'approved',
    });
    expect(await versionsOf(created.id)).toMatchObject([{ version: 1 }]);
    expect(await decisionsOf(created.id)).toMatchObject([{ version: 1, decision: 'approved', decidedBy: null }]);
    expect(await creditsOf(user.id)).toMatchObject([{ points: 15, state: 'available', source: 'mission' }]);
    // A moderator may still change the decision: rejected voids the points.
    await okJson(await review(moderator, created.id, { decision: 'reject', reason: 'Duplicate' }));
    expect(await creditsOf(user.id)).toMatchObject([{ state: 'voided' }]);
  });

  it('twenty identical approvals at once make one decision, one ledger entry, one notification, one audit row', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c);
    // An entry with no credit yet, so every approval would try to credit it.
    const entry = await insertEntry(c, mission, user.id, { answers: { name: 'Race' } });
    const results = await Promise.all(Array.from({ length: 20 }, () => review(moderator, entry.id, { decision: 'approve' })));
    expect(results.map((res) => res.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const ledger = await creditsOf(user.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ points: 20, state: 'available', reference: pointReference.missionEntry(entry.id) });
    expect(await noticesOf(user.id)).toHaveLength(1);
    expect(await auditOf('submission.review', entry.id)).toHaveLength(1);
    expect(await versionsOf(entry.id)).toHaveLength(1);
  });

  /** The participant's autosave of an entry, with the revision their screen last saw (when the API gives one). */
  async function saveAnswers(who: SignedIn, missionId: number, entryId: number, answers: Record<string, unknown>) {
    const mission = await okJson<{ myEntries: { id: number; revision?: number }[] }>(await as(who)('GET', `/api/missions/${missionId}`));
    const revision = mission.myEntries.find((entry) => entry.id === entryId)?.revision;
    return okJson(await as(who)('PUT', `/api/missions/${missionId}/entries/${entryId}`, revision === undefined ? { answers } : { answers, revision }));
  }

  it('a stale bulk approve skips an entry sent back and being edited: the first decision stays, the half-edited answers are not approved, the points stay pending', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c);
    const second = await staff(c, 'moderator');
    const id = await submitted(user, mission.id, 'Blurry toast');
    // The second moderator's queue still shows the entry as submitted.
    expect((await queue(second, mission.id, '?status=submitted')).items.map((item) => item.id)).toEqual([id]);
    await okJson(await review(moderator, id, { decision: 'request_changes', reason: 'The photo is blurry', expectedStatus: 'submitted' }));
    await saveAnswers(user, mission.id, id, {});

    expect(await okJson(await as(second)('POST', '/api/admin/submissions/review', { ids: [id], decision: 'approve' }))).toEqual({ approved: 0, skipped: 1 });
    expect(await entryRow(id)).toMatchObject({ status: 'changes_requested', answers: {}, reviewReason: 'The photo is blurry' });
    expect(await decisionsOf(id)).toMatchObject([{ version: 1, decision: 'changes_requested', reason: 'The photo is blurry', decidedBy: moderator.id }]);
    expect(await creditsOf(user.id)).toMatchObject([{ state: 'pending' }]);

    // Deciding it alone with the status the screen showed: 409 `changed`, with what it is now.
    const refused = await as(second)('POST', `/api/admin/submissions/${id}/review`, { decision: 'approve', expectedStatus: 'submitted' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: { code: 'changed', message: 'This entry changed while you were looking at it', current: { status: 'changes_requested' } },
    });
    expect(await decisionsOf(id)).toHaveLength(1);
    expect(await creditsOf(user.id)).toMatchObject([{ state: 'pending' }]);
  });

  it('a decision applies to the latest submitted version: approving an entry being edited restores the answers reviewed, keeps the earlier decision, and sets the edits aside in the audit', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c);
    const id = await submitted(user, mission.id, 'Blurry toast');
    await okJson(await review(moderator, id, { decision: 'request_changes', reason: 'The photo is blurry' }));
    await saveAnswers(user, mission.id, id, { name: 'Half done' });
    const revisionBefore = (await entryRow(id))?.revision ?? 0;

    // The moderator changes their mind, knowing the entry is out for changes.
    const approved = await okJson<ReviewSubmission>(await review(moderator, id, { decision: 'approve', expectedStatus: 'changes_requested' }));
    expect(approved).toMatchObject({ status: 'approved', answers: { name: 'Blurry toast' } });
    expect(approved.history).toHaveLength(1);
    expect(approved.history[0]).toMatchObject({
      version: 1,
      answers: { name: 'Blurry toast' },
      decision: 'approved',
      decisions: [
        { decision: 'changes_requested', reason: 'The photo is blurry', decidedBy: { id: moderator.id } },
        { decision: 'approved', reason: null, decidedBy: { id: moderator.id } },
      ],
    });
    expect(await entryRow(id)).toMatchObject({ status: 'approved', answers: { name: 'Blurry toast' } });
    // The participant's devices learn that the entry moved on.
    expect((await entryRow(id))?.revision).toBeGreaterThan(revisionBefore);
    const audits = await auditOf('submission.review', id);
    expect(audits.at(-1)?.before).toEqual({ status: 'changes_requested', reason: 'The photo is blurry', unsubmittedAnswers: { name: 'Half done' } });
    expect(await creditsOf(user.id)).toMatchObject([{ state: 'available' }]);
    // The participant cannot save over it any more.
    const refused = await as(user)('PUT', `/api/missions/${mission.id}/entries/${id}`, {
      answers: { name: 'Later' },
      revision: (await entryRow(id))?.revision,
    });
    expect(refused.status).toBe(409);
    expect((await entryRow(id))?.answers).toEqual({ name: 'Blurry toast' });
  });

  it('two moderators deciding one entry at once: exactly one 200, the other 409 changed; one decision, one credit, one notice', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c, { entries: { min: 1, max: 5 } });
    const second = await staff(c, 'moderator');
    for (const [first, other] of [
      ['approve', 'reject'],
      ['approve', 'approve'],
    ] as const) {
      const id = await submitted(user, mission.id, `Race ${first} ${other}`);
      const noticesBefore = (await noticesOf(user.id)).length;
      const body = (decision: 'approve' | 'reject') =>
        decision === 'reject' ? { decision, reason: 'Off topic', expectedStatus: 'submitted' } : { decision, expectedStatus: 'submitted' };
      const results = await Promise.all([review(moderator, id, body(first)), review(second, id, body(other))]);
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
      const loser = results.find((res) => res.status === 409);
      expect((await loser?.json()) as unknown).toMatchObject({ error: { code: 'changed' } });
      expect(await decisionsOf(id)).toHaveLength(1);
      expect((await creditsOf(user.id)).filter((row) => row.reference === pointReference.missionEntry(id))).toHaveLength(1);
      expect(await auditOf('submission.review', id)).toHaveLength(1);
      expect((await noticesOf(user.id)).length - noticesBefore).toBe(1);
    }
    // The same moderator's retry after a dropped connection is not a conflict.
    const id = await submitted(user, mission.id, 'Retry');
    await okJson(await review(moderator, id, { decision: 'approve', expectedStatus: 'submitted' }));
    expect(await okJson<ReviewSubmission>(await review(moderator, id, { decision: 'approve', expectedStatus: 'submitted' }))).toMatchObject({
      status: 'approved',
    });
    expect(await decisionsOf(id)).toHaveLength(1);
    // expectedStatus is checked like every field.
    expect(await fieldsOf(await review(moderator, id, { decision: 'approve', expectedStatus: 'maybe' }))).toHaveProperty('expectedStatus');
  });

  it('notes on a draft are refused (409) as probes are; a draft holding staff notes is never deleted with them', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c, { entries: { min: 1, max: 3 } });
    const created = await okJson<{ id: number }>(await as(user)('POST', `/api/missions/${mission.id}/entries`, {}), 201);
    const refused = await errorOf(await as(moderator)('POST', `/api/admin/submissions/${created.id}/notes`, { body: 'Looks odd' }), 409);
    expect(refused.code).toBe('not_reviewable');
    expect(await c.database.db.select().from(reviewNotes).where(eq(reviewNotes.entryId, created.id))).toEqual([]);
    // The owner deletes their draft as before.
    expect((await as(user)('DELETE', `/api/missions/${mission.id}/entries/${created.id}`)).status).toBe(204);

    // A draft from before the rule with a note (and one with a probe) on it: not deleted, the note kept.
    for (const table of ['note', 'probe'] as const) {
      const legacy = await insertEntry(c, mission, user.id, { status: 'draft' });
      if (table === 'note') await c.database.db.insert(reviewNotes).values({ entryId: legacy.id, authorId: moderator.id, body: 'Keep me' });
      else await c.database.db.insert(probes).values({ entryId: legacy.id, askedBy: moderator.id, question: 'Why?' });
      expect((await errorOf(await as(user)('DELETE', `/api/missions/${mission.id}/entries/${legacy.id}`), 409)).code).toBe('not_deletable');
      expect(await entryRow(legacy.id)).toMatchObject({ status: 'draft' });
    }
  });

  it('bulk approve: approves submitted entries only; counts skipped (unknown, drafts, rejected, already approved); audited with the counts', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c, { entries: { min: 1, max: 10 } });
    const a = await submitted(user, mission.id, 'A');
    const b = await submitted(user, mission.id, 'B');
    const rejected = await submitted(user, mission.id, 'R');
    await okJson(await review(moderator, rejected, { decision: 'reject', reason: 'Wrong' }));
    const draft = await insertEntry(c, mission, user.id, { status: 'draft' });
    const done = await insertEntry(c, mission, user.id, { status: 'approved' });
    const bulk = (body: unknown) => as(moderator)('POST', '/api/admin/submissions/review', body);
    expect(await okJson(await bulk({ ids: [a, b, rejected, draft.id, done.id, 999999, a], decision: 'approve' }))).toEqual({ approved: 2, skipped: 4 });
    for (const id of [a, b]) expect((await entryRow(id))?.status).toBe('approved');
    expect((await entryRow(rejected))?.status).toBe('rejected');
    expect((await entryRow(draft.id))?.status).toBe('draft');
    expect((await creditsOf(user.id)).filter((row) => row.state === 'available')).toHaveLength(2);
    expect((await noticesOf(user.id)).filter((n) => n.kind === 'approved')).toHaveLength(2);
    const row = (await auditOf('submission.review.bulk')).find((audit) => audit.actorId === moderator.id);
    expect(row).toMatchObject({ actorId: moderator.id, after: { decision: 'approve', approved: 2, skipped: 4, requested: 6 } });
    // Again: nothing left to approve.
    expect(await okJson(await bulk({ ids: [a, b], decision: 'approve' }))).toEqual({ approved: 0, skipped: 2 });

    expect(await fieldsOf(await bulk({ ids: [a], decision: 'reject' }))).toHaveProperty('decision');
    expect(await fieldsOf(await bulk({ ids: [], decision: 'approve' }))).toHaveProperty('ids');
    expect(await fieldsOf(await bulk({ ids: Array.from({ length: 501 }, (_, i) => i + 1), decision: 'approve' }))).toEqual({ ids: ['At most 500 at a time'] });
  });

  it('probes: asked on a submitted entry, listed in the queue while waiting, answered once by the owner only', async () => {
    const c = ctx();
    const { project, user, moderator, mission } = await setup(c, { entries: { min: 1, max: 3 } });
    const id = await submitted(user, mission.id, 'Porridge');
    const other = await submitted(user, mission.id, 'Eggs');
    expect(await fieldsOf(await as(moderator)('POST', `/api/admin/submissions/${id}/probes`, { question: ' ' }))).toEqual({ question: ['Required'] });
    const probe = await okJson<ProbeView>(await as(moderator)('POST', `/api/admin/submissions/${id}/probes`, { question: 'What did you drink?' }), 201);
    expect(probe).toMatchObject({ question: 'What did you drink?', answer: null, answeredAt: null, askedBy: { id: moderator.id } });
    expect(await noticesOf(user.id)).toMatchObject([{ kind: 'probe', link: `/account/mission-history/${mission.id}` }]);
    expect((await auditOf('submission.probe', id)).map((row) => row.actorId)).toEqual([moderator.id]);

    const waiting = await queue(moderator, mission.id, '?probes=waiting');
    expect(waiting).toMatchObject({ total: 1, items: [{ id, probesWaiting: 1 }] });
    expect((await queue(moderator, mission.id)).items.find((item) => item.id === other)?.probesWaiting).toBe(0);
    expect((await detail(moderator, id)).probes).toMatchObject([{ id: probe.id, question: 'What did you drink?', askedBy: { id: moderator.id } }]);

    // Someone else (another member, a moderator) cannot answer it.
    const stranger = await member(c, project.id);
    const answer = (who: SignedIn, text: unknown) => as(who)('POST', `/api/account/probes/${probe.id}/answer`, { answer: text });
    expect((await errorOf(await answer(stranger, 'Tea'), 404)).code).toBe('not_found');
    expect((await errorOf(await answer(moderator, 'Tea'), 404)).code).toBe('not_found');
    expect((await errorOf(await as(user)('POST', '/api/account/probes/999999/answer', { answer: 'Tea' }), 404)).code).toBe('not_found');
    expect(await fieldsOf(await answer(user, ''))).toEqual({ answer: ['Required'] });
    const answered = await okJson<ProbeView>(await answer(user, ' Coffee, black '));
    expect(answered).toMatchObject({ id: probe.id, answer: 'Coffee, black' });
    expect(answered.answeredAt).toBe(c.clock.now().toISOString());
    expect(answered).not.toHaveProperty('askedBy');
    expect((await errorOf(await answer(user, 'Tea'), 409)).code).toBe('already_answered');
    expect((await queue(moderator, mission.id, '?probes=waiting')).total).toBe(0);
    expect((await detail(moderator, id)).probes).toMatchObject([{ answer: 'Coffee, black' }]);
    expect(await fieldsOf(await as(moderator)('GET', `/api/admin/missions/${mission.id}/submissions?probes=answered`))).toHaveProperty('probes');
  });

  it('internal notes: added by moderators, shown on the submission, never in the participant’s history', async () => {
    const c = ctx();
    const { user, moderator, mission } = await setup(c);
    const id = await submitted(user, mission.id, 'Muesli');
    expect(await fieldsOf(await as(moderator)('POST', `/api/admin/submissions/${id}/notes`, { body: '' }))).toEqual({ body: ['Required'] });
    expect((await errorOf(await as(moderator)('POST', '/api/admin/submissions/999999/notes', { body: 'x' }), 404)).code).toBe('not_found');
    const note = await okJson<ReviewNoteView>(await as(moderator)('POST', `/api/admin/submissions/${id}/notes`, { body: 'Secret: looks staged' }), 201);
    expect(note).toMatchObject({ author: { id: moderator.id }, body: 'Secret: looks staged', createdAt: c.clock.now().toISOString() });
    expect((await detail(moderator, id)).notes).toEqual([note]);
    expect(await ctx().database.db.select().from(reviewNotes).where(eq(reviewNotes.entryId, id))).toHaveLength(1);
    expect(await auditOf('submission.note', id)).toHaveLength(1);
    const history = await okJson<MissionHistory>(await as(user)('GET', `/api/account/mission-history/${mission.id}`));
    expect(JSON.stringify(history)).not.toContain('Secret');
    expect(JSON.stringify(await okJson(await as(user)('GET', '/api/account/mission-history')))).not.toContain('Secret');
  });

  it('the queue: resubmissions marked, filters by status, participant and probes; drafts only when asked', async () => {
    const c = ctx();
    const { project, user, moderator, mission } = await setup(c, { entries: { min: 1, max: 5 } });
    const ann = await member(c, project.id);
    const first = await submitted(user, mission.id, 'One');
    const annEntry = await submitted(ann, mission.id, 'Ann');
    await insertEntry(c, mission, user.id, { status: 'draft' });
    const all = await queue(moderator, mission.id);
    expect(all.total).toBe(2);
    expect(all.items.find((item) => item.id === first)).toEqual({
      id: first,
      user: { id: user.id, firstName: 'Robin', lastName: 'Hale', email: user.email },
      status: 'submitted',
      submittedAt: c.clock.now().toISOString(),
      resubmission: false,
      localDate: c.clock.now().toISOString().slice(0, 10),
      createdAt: c.clock.now().toISOString(),
      entriesOfUser: 2,
      probesWaiting: 0,
      language: 'en',
    });
    expect((await queue(moderator, mission.id, '?status=draft')).total).toBe(1);
    expect((await queue(moderator, mission.id, `?q=${encodeURIComponent(ann.email)}`)).items.map((item) => item.id)).toEqual([annEntry]);
    await okJson(await review(moderator, annEntry, { decision: 'approve' }));
    expect((await queue(moderator, mission.id, '?status=submitted')).items.map((item) => item.id)).toEqual([first]);
    expect((await queue(moderator, mission.id, '?status=approved')).items.map((item) => item.id)).toEqual([annEntry]);
  });

  it('the queue is a list of the list contract: pages echoed, sorted by when submitted or by name, bounds refused', async () => {
    const c = ctx();
    const { project, user, moderator, mission } = await setup(c, { entries: { min: 1, max: 5 } });
    const ann = await member(c, project.id);
    const first = await submitted(user, mission.id, 'One');
    c.clock.advance(1000);
    const annEntry = await submitted(ann, mission.id, 'Ann');
    const ids = async (query: string) => (await queue(moderator, mission.id, query)).items.map((item) => item.id);
    expect(await queue(moderator, mission.id)).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    expect(await queue(moderator, mission.id, '?pageSize=1&page=2')).toMatchObject({ total: 2, page: 2, pageSize: 1, items: [{ id: first }] });
    expect(await ids('')).toEqual([annEntry, first]);
    expect(await ids('?dir=asc')).toEqual([first, annEntry]);
    await c.database.db.update(users).set({ lastName: 'Abbott' }).where(eq(users.id, user.id));
    expect(await ids('?sort=name')).toEqual([first, annEntry]);
    expect(await ids('?sort=name&dir=desc')).toEqual([annEntry, first]);
    expect(
      Object.keys(await fieldsOf(await as(moderator)('GET', `/api/admin/missions/${mission.id}/submissions?pageSize=101&page=0&sort=status&dir=up`))).sort(),
    ).toEqual(['dir', 'page', 'pageSize', 'sort']);
  });

  it('reason templates: listed by kind, added and removed per project (audited); another project’s is 404', async () => {
    const c = ctx();
    const { project, moderator } = await setup(c);
    const otherProject = await createProject(c);
    const path = (id: number) => `/api/admin/projects/${id}/reason-templates`;
    const add = (id: number, body: unknown) => as(moderator)('POST', path(id), body);
    const reject = await okJson<ReasonTemplateView>(await add(project.id, { kind: 'reject', text: 'Not on topic' }), 201);
    const changes = await okJson<ReasonTemplateView>(await add(project.id, { kind: 'request_changes', text: ' The photo is blurry ' }), 201);
    expect(changes).toEqual({ id: changes.id, kind: 'request_changes', text: 'The photo is blurry' });
    const elsewhere = await okJson<ReasonTemplateView>(await add(otherProject.id, { kind: 'reject', text: 'Elsewhere' }), 201);
    expect(await okJson(await as(moderator)('GET', path(project.id)))).toEqual({ items: [changes, reject] });
    expect(await fieldsOf(await add(project.id, { kind: 'approve', text: 'x' }))).toEqual({ kind: ['Invalid enum value'] });
    expect(await fieldsOf(await add(project.id, { kind: 'reject', text: '' }))).toEqual({ text: ['Required'] });
    expect((await errorOf(await add(999999, { kind: 'reject', text: 'x' }), 404)).code).toBe('not_found');

    expect((await errorOf(await as(moderator)('DELETE', `${path(project.id)}/${elsewhere.id}`), 404)).code).toBe('not_found');
    expect((await as(moderator)('DELETE', `${path(project.id)}/${reject.id}`)).status).toBe(204);
    expect((await errorOf(await as(moderator)('DELETE', `${path(project.id)}/${reject.id}`), 404)).code).toBe('not_found');
    expect((await errorOf(await as(moderator)('DELETE', `${path(project.id)}/abc`), 404)).code).toBe('not_found');
    expect(await okJson(await as(moderator)('GET', path(project.id)))).toEqual({ items: [changes] });
    expect((await auditOf('reason_template.create', reject.id)).map((row) => row.after)).toEqual([
      { projectId: project.id, kind: 'reject', text: 'Not on topic' },
    ]);
    expect((await auditOf('reason_template.delete', reject.id)).map((row) => row.actorId)).toEqual([moderator.id]);
  });
});
