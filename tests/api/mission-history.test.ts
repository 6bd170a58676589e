/**
 * The participant's mission history: own entries only, in missions they can still see; each entry
 * with its answers, its own form version, state, the reviewer's reason, probes and points.
 */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { projectMembers } from '../../src/server/db/schema/index.ts';
import type { MissionHistory, MissionHistoryItem, ProbeView } from '../../src/shared/review.ts';
import { describeEachBackend } from './harness.ts';
import { errorOf, type SignedIn } from './helpers.ts';
import {
  callAs,
  createMission,
  createProject,
  insertEntry,
  member,
  okJson,
  publishedForm,
  publishVersion,
  staff,
  textDefinition,
} from './programme-fixtures.ts';

describeEachBackend('mission history API', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const list = async (who: SignedIn) => (await okJson<{ items: MissionHistoryItem[] }>(await as(who)('GET', '/api/account/mission-history'))).items;
  const history = async (who: SignedIn, missionId: number) => okJson<MissionHistory>(await as(who)('GET', `/api/account/mission-history/${missionId}`));
  async function submit(who: SignedIn, missionId: number, answers: Record<string, unknown>): Promise<number> {
    const created = await okJson<{ id: number }>(await as(who)('POST', `/api/missions/${missionId}/entries`, {}), 201);
    await okJson(await as(who)('POST', `/api/missions/${missionId}/entries/${created.id}/submit`, { answers }));
    return created.id;
  }

  it('lists the missions with entries of the user, counted by state, with probes waiting; latest activity first', async () => {
    const c = ctx();
    const project = await createProject(c, { name: 'Kitchen study' });
    const user = await member(c, project.id);
    const other = await member(c, project.id);
    const moderator = await staff(c);
    const diary = await createMission(c, project.id, { title: 'Breakfast diary', points: 20, entries: { min: 1, max: 5 } });
    const fridge = await createMission(c, project.id, { title: 'Fridge', points: 5 });
    await createMission(c, project.id, { title: 'Untouched' });

    const approved = await submit(user, diary.id, { name: 'Toast' });
    const sentBack = await submit(user, diary.id, { name: 'Blurry' });
    const rejected = await submit(user, diary.id, { name: 'Pizza' });
    await submit(user, diary.id, { name: 'Waiting' });
    await insertEntry(c, diary, user.id, { status: 'draft' });
    await okJson(await as(moderator)('POST', `/api/admin/submissions/${approved}/review`, { decision: 'approve' }));
    await okJson(await as(moderator)('POST', `/api/admin/submissions/${sentBack}/review`, { decision: 'request_changes', reason: 'Too dark' }));
    await okJson(await as(moderator)('POST', `/api/admin/submissions/${rejected}/review`, { decision: 'reject', reason: 'Not breakfast' }));
    await okJson(await as(moderator)('POST', `/api/admin/submissions/${approved}/probes`, { question: 'Butter?' }), 201);
    c.clock.advance(60_000);
    await submit(user, fridge.id, { name: 'Cold' });
    await submit(other, fridge.id, { name: 'Theirs' });

    const items = await list(user);
    expect(items.map((item) => item.title)).toEqual(['Fridge', 'Breakfast diary']);
    expect(items[1]).toEqual({
      missionId: diary.id,
      title: 'Breakfast diary',
      projectName: 'Kitchen study',
      points: 20,
      // Up to 5 entries: its points are earned by each ("20 points an entry").
      pointsPerEntry: true,
      entries: { total: 5, approved: 1, waiting: 1, changesRequested: 1, rejected: 1, drafts: 1 },
      probesWaiting: 1,
      lastActivityAt: items[1]?.lastActivityAt,
    });
    expect(items[0]).toMatchObject({
      missionId: fridge.id,
      pointsPerEntry: false,
      entries: { total: 1, waiting: 1 },
      probesWaiting: 0,
      lastActivityAt: c.clock.now().toISOString(),
    });
    // Someone with no entries has an empty history.
    expect(await list(await member(c, project.id))).toEqual([]);
  });

  it('one mission: each entry with answers, its own form version, state, the reason, probes (not who asked) and points', async () => {
    const c = ctx();
    const project = await createProject(c, { name: 'Kitchen study' });
    const user = await member(c, project.id);
    const moderator = await staff(c);
    const form = await publishedForm(c, textDefinition('Diary v1'));
    const mission = await createMission(c, project.id, {
      title: 'Breakfast diary',
      instructions: 'Photograph it',
      form,
      points: 20,
      entries: { min: 1, max: 3 },
    });
    const first = await submit(user, mission.id, { name: 'Toast' });
    // The mission moves to version 2: the first entry keeps showing version 1.
    const v2 = {
      ...textDefinition('Diary v2'),
      pages: [{ id: 'page_1', title: '', elements: [{ id: 'name', type: 'short_text' as const, title: 'What did you eat?', required: true }] }],
    };
    await publishVersion(c, form.id, v2);
    await okJson(await as(moderator)('PATCH', `/api/admin/missions/${mission.id}`, { formVersion: 2 }));
    c.clock.advance(60_000);
    const second = await submit(user, mission.id, { name: 'Eggs' });
    await okJson(await as(moderator)('POST', `/api/admin/submissions/${first}/review`, { decision: 'request_changes', reason: 'Show the plate' }));
    const probe = await okJson<ProbeView>(await as(moderator)('POST', `/api/admin/submissions/${second}/probes`, { question: 'Fried or boiled?' }), 201);

    const seen = await history(user, mission.id);
    expect(seen).toMatchObject({
      missionId: mission.id,
      title: 'Breakfast diary',
      instructions: 'Photograph it',
      projectName: 'Kitchen study',
      points: 20,
      review: 'manual',
    });
    expect(seen.entries.map((entry) => entry.id)).toEqual([second, first]);
    expect(seen.entries[1]).toMatchObject({
      id: first,
      status: 'changes_requested',
      answers: { name: 'Toast' },
      formVersion: 1,
      definition: { title: 'Diary v1' },
      reviewReason: 'Show the plate',
      resubmission: false,
      probes: [],
      points: { points: 20, state: 'pending' },
    });
    expect(seen.entries[1]?.reviewedAt).toBe(c.clock.now().toISOString());
    expect(seen.entries[0]).toMatchObject({
      id: second,
      status: 'submitted',
      formVersion: 2,
      definition: { title: 'Diary v2' },
      reviewReason: null,
      probes: [{ id: probe.id, question: 'Fried or boiled?', answer: null }],
    });
    expect(seen.entries[0]?.probes[0]).not.toHaveProperty('askedBy');
    expect(JSON.stringify(seen)).not.toContain(moderator.email);

    // Answered from the history, edited and resubmitted: the history follows.
    await okJson(await as(user)('POST', `/api/account/probes/${probe.id}/answer`, { answer: 'Boiled' }));
    await okJson(await as(user)('POST', `/api/missions/${mission.id}/entries/${first}/submit`, { answers: { name: 'Toast on a plate' } }));
    const after = await history(user, mission.id);
    expect(after.entries[0]?.probes).toMatchObject([{ answer: 'Boiled' }]);
    expect(after.entries[1]).toMatchObject({ status: 'submitted', answers: { name: 'Toast on a plate' }, reviewReason: null, resubmission: true });
    expect((await list(user))[0]).toMatchObject({ probesWaiting: 0, entries: { waiting: 2, changesRequested: 0 } });
  });

  it('another participant’s history is 404; so is a mission without entries or one the user can no longer see', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const other = await member(c, project.id);
    const mission = await createMission(c, project.id);
    await submit(user, mission.id, { name: 'Mine' });

    expect((await errorOf(await as(other)('GET', `/api/account/mission-history/${mission.id}`), 404)).code).toBe('not_found');
    expect(JSON.stringify(await list(other))).not.toContain(String(mission.title));
    expect((await errorOf(await as(user)('GET', '/api/account/mission-history/999999'), 404)).code).toBe('not_found');
    expect((await errorOf(await as(user)('GET', '/api/account/mission-history/abc'), 404)).code).toBe('not_found');
    expect((await errorOf(await as(null)('GET', `/api/account/mission-history/${mission.id}`), 401)).code).toBe('unauthenticated');
    expect((await errorOf(await as(null)('GET', '/api/account/mission-history'), 401)).code).toBe('unauthenticated');
    // Staff use the admin calls: their own history has none of it.
    expect((await errorOf(await as(await staff(c, 'admin'))('GET', `/api/account/mission-history/${mission.id}`), 404)).code).toBe('not_found');

    // Removed from the project: the mission leaves the history.
    await c.database.db.delete(projectMembers).where(eq(projectMembers.userId, user.id));
    expect((await errorOf(await as(user)('GET', `/api/account/mission-history/${mission.id}`), 404)).code).toBe('not_found');
    expect(await list(user)).toEqual([]);
  });
});
