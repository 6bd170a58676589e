/** Mission groups as participants see them: missions in order with their state, in_order locking, progress. */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { missionEntries, missions } from '../../src/server/db/schema/index.ts';
import type { ParticipantMissionGroup } from '../../src/shared/mission-groups.ts';
import type { ParticipantMission } from '../../src/shared/missions.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, type SignedIn } from './helpers.ts';
import { createMission, createMissionGroup, createProject, insertEntry, member, participant, staff } from './programme-fixtures.ts';

describeEachBackend('participation: mission groups', (ctx) => {
  const get = (path: string, who: SignedIn | null) => ctx().request(path, { headers: who?.headers ?? {} });
  const send = (method: string, path: string, body: unknown, who: SignedIn) => ctx().json(method, path, body, who.headers);
  async function ok<T>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  }
  const group = async (id: number, who: SignedIn) => ok<ParticipantMissionGroup>(await get(`/api/mission-groups/${id}`, who));
  const states = async (id: number, who: SignedIn) => (await group(id, who)).missions.map((m) => [m.title, m.state, m.lockedReason ?? null]);
  const create = (missionId: number, who: SignedIn) => send('POST', `/api/missions/${missionId}/entries`, {}, who);
  /** Makes and submits an entry through the API. */
  async function finish(missionId: number, who: SignedIn): Promise<number> {
    const entry = await ok<{ id: number }>(await create(missionId, who), 201);
    await ok(await send('POST', `/api/missions/${missionId}/entries/${entry.id}/submit`, { answers: { name: 'Done' } }, who));
    return entry.id;
  }

  async function threeDays(c: TestContext, unlockOn: 'submitted' | 'approved' = 'submitted') {
    const project = await createProject(c);
    const user = await member(c, project.id);
    const days = [
      await createMission(c, project.id, { title: 'Day 1' }),
      await createMission(c, project.id, { title: 'Day 2' }),
      await createMission(c, project.id, { title: 'Day 3' }),
    ];
    const g = await createMissionGroup(
      c,
      project.id,
      days.map((d) => d.id),
      { title: 'Kitchen week', description: 'Three days', unlock: 'in_order', unlockOn },
    );
    return { project, user, days, group: g };
  }

  it('is 404 unless the user is a member of the group’s live project; 401 without a session', async () => {
    const c = ctx();
    const { group: g, project } = await threeDays(c);
    expect((await errorOf(await get(`/api/mission-groups/${g.id}`, null), 401)).code).toBe('unauthenticated');
    for (const who of [await participant(c), await staff(c)])
      expect((await errorOf(await get(`/api/mission-groups/${g.id}`, who), 404)).code).toBe('not_found');
    const draftProject = await createProject(c, { status: 'draft' });
    const hidden = await createMissionGroup(c, draftProject.id, [(await createMission(c, draftProject.id)).id]);
    expect((await errorOf(await get(`/api/mission-groups/${hidden.id}`, await member(c, draftProject.id)), 404)).code).toBe('not_found');
    const user = await member(c, project.id);
    expect((await errorOf(await get('/api/mission-groups/nope', user), 404)).code).toBe('not_found');
    expect((await errorOf(await get('/api/mission-groups/2147483647', user), 404)).code).toBe('not_found');
  });

  it('is 404 while every mission of the group is a draft (home hides it too); visible once one goes live', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const drafts = [
      await createMission(c, project.id, { title: 'Soon 1', status: 'draft' }),
      await createMission(c, project.id, { title: 'Soon 2', status: 'draft' }),
    ];
    const g = await createMissionGroup(
      c,
      project.id,
      drafts.map((d) => d.id),
      { title: 'Coming up' },
    );
    const empty = await createMissionGroup(c, project.id, [], { title: 'Nothing yet' });
    expect((await errorOf(await get(`/api/mission-groups/${g.id}`, user), 404)).code).toBe('not_found');
    expect((await errorOf(await get(`/api/mission-groups/${empty.id}`, user), 404)).code).toBe('not_found');
    await c.database.db.update(missions).set({ status: 'live' }).where(eq(missions.id, drafts[1]!.id));
    expect((await group(g.id, user)).missions.map((m) => m.title)).toEqual(['Soon 2']);
  });

  it('in_order: each mission opens once the one before it is submitted; locked ones refuse entries (409 locked)', async () => {
    const c = ctx();
    const { user, days, group: g, project } = await threeDays(c);
    const first = await group(g.id, user);
    expect(first).toMatchObject({
      id: g.id,
      title: 'Kitchen week',
      description: 'Three days',
      projectName: project.name,
      unlock: 'in_order',
      unlockOn: 'submitted',
      progress: { done: 0, total: 3 },
    });
    expect(first.missions[0]).toMatchObject({ id: days[0]?.id, title: 'Day 1', points: 20, closesAt: null, state: 'open' });
    expect(await states(g.id, user)).toEqual([
      ['Day 1', 'open', null],
      ['Day 2', 'locked', 'Opens when you finish “Day 1”'],
      ['Day 3', 'locked', 'Opens when you finish “Day 2”'],
    ]);
    const locked = await errorOf(await create(days[1]!.id, user), 409);
    expect(locked).toEqual({ code: 'locked', message: 'Opens when you finish “Day 1”' });
    const mission = await ok<ParticipantMission>(await get(`/api/missions/${days[1]!.id}`, user));
    expect(mission).toMatchObject({
      availability: 'open',
      canAddEntry: false,
      addEntryBlockedReason: 'Opens when you finish “Day 1”',
      lockedReason: 'Opens when you finish “Day 1”',
    });

    // A draft is in progress and does not open the next one.
    const draft = await ok<{ id: number }>(await create(days[0]!.id, user), 201);
    expect((await states(g.id, user))[0]).toEqual(['Day 1', 'in_progress', null]);
    expect((await errorOf(await create(days[1]!.id, user), 409)).code).toBe('locked');

    await ok(await send('POST', `/api/missions/${days[0]!.id}/entries/${draft.id}/submit`, { answers: { name: 'Day one' } }, user));
    expect(await states(g.id, user)).toEqual([
      ['Day 1', 'submitted', null],
      ['Day 2', 'open', null],
      ['Day 3', 'locked', 'Opens when you finish “Day 2”'],
    ]);
    expect((await group(g.id, user)).progress).toEqual({ done: 1, total: 3 });
    await finish(days[1]!.id, user);
    expect((await states(g.id, user))[2]).toEqual(['Day 3', 'open', null]);

    // Locking is per participant.
    const other = await member(c, project.id);
    expect((await states(g.id, other)).map(([, state]) => state)).toEqual(['open', 'locked', 'locked']);
  });

  it('in_order with unlockOn approved: a submitted mission keeps the next one locked until approved', async () => {
    const c = ctx();
    const { user, days, group: g } = await threeDays(c, 'approved');
    const entryId = await finish(days[0]!.id, user);
    expect(await states(g.id, user)).toEqual([
      ['Day 1', 'submitted', null],
      ['Day 2', 'locked', 'Opens when “Day 1” is approved'],
      ['Day 3', 'locked', 'Opens when “Day 2” is approved'],
    ]);
    expect((await group(g.id, user)).progress).toEqual({ done: 0, total: 3 });
    expect((await errorOf(await create(days[1]!.id, user), 409)).code).toBe('locked');

    await c.database.db.update(missionEntries).set({ status: 'approved' }).where(eq(missionEntries.id, entryId));
    expect((await states(g.id, user)).slice(0, 2)).toEqual([
      ['Day 1', 'approved', null],
      ['Day 2', 'open', null],
    ]);
    expect((await group(g.id, user)).progress).toEqual({ done: 1, total: 3 });
    await ok(await create(days[1]!.id, user), 201);
  });

  it('counts a diary as finished only with its minimum of entries', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const diary = await createMission(c, project.id, { title: 'Diary', entries: { min: 2, max: 5 } });
    const after = await createMission(c, project.id, { title: 'Wrap-up' });
    const g = await createMissionGroup(c, project.id, [diary.id, after.id], { unlock: 'in_order' });
    await insertEntry(c, diary, user.id, { status: 'submitted' });
    expect(await states(g.id, user)).toEqual([
      ['Diary', 'in_progress', null],
      ['Wrap-up', 'locked', 'Opens when you finish “Diary”'],
    ]);
    await insertEntry(c, diary, user.id, { status: 'approved' });
    expect((await states(g.id, user)).map(([, state]) => state)).toEqual(['submitted', 'open']);
  });

  it('all_open: every mission open at once, by its own dates; draft missions left out', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const now = c.clock.now();
    const opensOn = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 3, 9));
    const closedOn = new Date(now.getTime() - 3_600_000);
    const open = await createMission(c, project.id, { title: 'Open' });
    const later = await createMission(c, project.id, { title: 'Later', opensAt: opensOn });
    const over = await createMission(c, project.id, { title: 'Over', closesAt: closedOn });
    const hidden = await createMission(c, project.id, { title: 'Hidden', status: 'draft' });
    const approved = await createMission(c, project.id, { title: 'Approved' });
    await insertEntry(c, approved, user.id, { status: 'approved' });
    const g = await createMissionGroup(c, project.id, [open.id, hidden.id, later.id, over.id, approved.id]);
    const month = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' }).format(opensOn);
    const day = new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(closedOn);
    expect(await states(g.id, user)).toEqual([
      ['Open', 'open', null],
      ['Later', 'locked', `Opens on ${month} 3`],
      ['Over', 'locked', `Closed on ${day}`],
      ['Approved', 'approved', null],
    ]);
    expect((await group(g.id, user)).progress).toEqual({ done: 1, total: 4 });
    // A mission in an all_open group is not locked by it.
    await ok(await create(open.id, user), 201);
  });

  it('locks a mission that is in several groups when any in_order group holds it back', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const intro = await createMission(c, project.id, { title: 'Intro' });
    const shared = await createMission(c, project.id, { title: 'Shared' });
    const loose = await createMissionGroup(c, project.id, [shared.id], { unlock: 'all_open' });
    await createMissionGroup(c, project.id, [intro.id, shared.id], { unlock: 'in_order' });
    // The all_open group shows it locked too, for the other group's reason.
    expect(await states(loose.id, user)).toEqual([['Shared', 'locked', 'Opens when you finish “Intro”']]);
    expect(await errorOf(await create(shared.id, user), 409)).toEqual({ code: 'locked', message: 'Opens when you finish “Intro”' });
    await finish(intro.id, user);
    expect(await states(loose.id, user)).toEqual([['Shared', 'open', null]]);
    await ok(await create(shared.id, user), 201);
  });
});
