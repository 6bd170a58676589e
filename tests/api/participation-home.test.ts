/** The participant's home: to do, submitted (waiting for review), done, across their live projects. */
import { eq } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { missionEntries } from '../../src/server/db/schema/index.ts';
import type { FormDefinition } from '../../src/shared/forms/definition.ts';
import type { HomeAnswer, HomeItem } from '../../src/shared/projects.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, type SignedIn } from './helpers.ts';
import {
  addMember,
  createMission,
  createMissionGroup,
  createProject,
  createSurvey,
  insertEntry,
  insertExternalRef,
  insertResponse,
  member,
} from './programme-fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Four optional questions on two pages. */
const fourQuestions: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Four',
  pages: [
    {
      id: 'page_1',
      title: '',
      elements: [
        { id: 'q1', type: 'short_text', title: 'One' },
        { id: 'q2', type: 'short_text', title: 'Two' },
      ],
    },
    {
      id: 'page_2',
      title: '',
      elements: [
        { id: 'q3', type: 'short_text', title: 'Three' },
        { id: 'q4', type: 'short_text', title: 'Four' },
      ],
    },
  ],
};

describeEachBackend('participation: home', (ctx) => {
  const home = async (who: SignedIn) => {
    const res = await ctx().request('/api/home', { headers: who.headers });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return JSON.parse(text) as HomeAnswer;
  };
  const titles = (items: HomeItem[]) => items.map((item) => item.title);

  it('needs a session; a new member’s home is empty', async () => {
    const c = ctx();
    expect((await errorOf(await c.request('/api/home'), 401)).code).toBe('unauthenticated');
    const project = await createProject(c);
    expect(await home(await member(c, project.id))).toEqual({ todo: [], submitted: [], done: [], announcements: [] });
  });

  it('lists to do (closing soonest first, upcoming last), submitted and done (latest first) across live projects the user belongs to', async () => {
    const c = ctx();
    const project = await createProject(c, { name: 'Kitchens' });
    const user = await member(c, project.id);
    const now = c.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms);

    const open = await createSurvey(c, project.id, { title: 'Survey open', closesAt: at(2 * DAY), estimatedMinutes: 5 });
    const soon = await createSurvey(c, project.id, { title: 'Survey soon', opensAt: at(DAY), closesAt: at(5 * DAY) });
    const half = await createSurvey(c, project.id, { title: 'Survey half', definition: fourQuestions });
    await insertResponse(c, half, user.id, { status: 'draft', answers: { q1: 'yes', q3: '  ' } });
    await createSurvey(c, project.id, { title: 'Survey missed', closesAt: at(-HOUR) });
    await createSurvey(c, project.id, { title: 'Survey draft', status: 'draft' });
    const mission = await createMission(c, project.id, { title: 'Mission open', closesAt: at(DAY) });
    const diary = await createMission(c, project.id, { title: 'Diary', entries: { min: 3, max: 5, perDay: 1 } });
    await insertEntry(c, diary, user.id, { status: 'submitted' });
    const waiting = await createMission(c, project.id, { title: 'Mission waiting' });
    await insertEntry(c, waiting, user.id, { status: 'submitted' });
    const day1 = await createMission(c, project.id, { title: 'Day 1', closesAt: at(3 * DAY) });
    const day2 = await createMission(c, project.id, { title: 'Day 2' });
    const group = await createMissionGroup(c, project.id, [day1.id, day2.id], { title: 'Group', unlock: 'in_order' });

    // Done, one a minute: a survey, an external return, an automatic mission.
    const answered = await createSurvey(c, project.id, { title: 'Survey answered' });
    await insertResponse(c, answered, user.id, { answers: { name: 'Me' } });
    c.clock.advance(60_000);
    const external = await createSurvey(c, project.id, { title: 'External', kind: 'external' });
    await insertExternalRef(c, external.id, user.id, { outcome: 'screened_out' });
    c.clock.advance(60_000);
    const auto = await createMission(c, project.id, { title: 'Auto', review: 'automatic' });
    await insertEntry(c, auto, user.id, { status: 'approved' });

    // Not the user's: another project, a draft project (even as a member), an archived one.
    const elsewhere = await createProject(c);
    await createSurvey(c, elsewhere.id, { title: 'Elsewhere' });
    for (const status of ['draft', 'archived', 'closed'] as const) {
      const hidden = await createProject(c, { status });
      await addMember(c, hidden.id, user);
      await createSurvey(c, hidden.id, { title: `In a ${status} project` });
      await createMission(c, hidden.id, { title: `Mission in a ${status} project` });
    }

    const answer = await home(user);
    // Closing soonest first (the group by its earliest open mission), then those without a closing time, then what opens later.
    expect(titles(answer.todo)).toEqual(['Mission open', 'Survey open', 'Group', 'Diary', 'Survey half', 'Survey soon']);
    expect(titles(answer.submitted)).toEqual(['Mission waiting']);
    expect(titles(answer.done)).toEqual(['Auto', 'External', 'Survey answered']);

    const byTitle = (title: string) => [...answer.todo, ...answer.submitted, ...answer.done].find((item) => item.title === title);
    expect(byTitle('Survey open')).toEqual({
      kind: 'survey',
      id: open.id,
      title: 'Survey open',
      projectName: 'Kitchens',
      points: 10,
      closesAt: at(2 * DAY).toISOString(),
      opensAt: null,
      estimatedMinutes: 5,
      progress: 0,
      state: 'open',
    });
    expect(byTitle('Survey soon')).toMatchObject({ id: soon.id, state: 'upcoming', opensAt: at(DAY).toISOString() });
    // One of the four visible questions answered (a blank answer does not count).
    expect(byTitle('Survey half')).toMatchObject({ state: 'in_progress', progress: 0.25 });
    expect(byTitle('Mission open')).toMatchObject({ kind: 'mission', id: mission.id, points: 20, state: 'open', progress: 0, closesAt: at(DAY).toISOString() });
    // A diary counts its entries against its maximum (5), as its screen does; today's entry is made.
    expect(byTitle('Diary')).toMatchObject({
      kind: 'mission',
      state: 'in_progress',
      pointsPerEntry: true,
      diary: { entries: 1, max: 5, next: 2, today: 'tomorrow', streak: 1 },
    });
    expect(byTitle('Diary')?.progress).toBeCloseTo(1 / 5);
    expect(byTitle('Group')).toMatchObject({
      kind: 'mission_group',
      id: group.id,
      points: 40,
      progress: 0,
      state: 'open',
      closesAt: at(3 * DAY).toISOString(),
    });
    expect(byTitle('Mission waiting')).toMatchObject({ kind: 'mission', state: 'submitted', progress: 1 });
    expect(byTitle('External')).toMatchObject({ kind: 'survey', state: 'submitted', progress: 1 });
    expect(byTitle('Auto')).toMatchObject({ kind: 'mission', state: 'approved', progress: 1 });
    // Missions of a group show through the group only.
    expect(byTitle('Day 1')).toBeUndefined();
    expect(byTitle('Day 2')).toBeUndefined();
  });

  it('moves a group to submitted while it waits for approval, and to done once every mission is finished', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const first = await createMission(c, project.id, { title: 'First' });
    const second = await createMission(c, project.id, { title: 'Second' });
    await createMissionGroup(c, project.id, [first.id, second.id], { title: 'Steps', unlock: 'in_order', unlockOn: 'approved' });
    const entry = await insertEntry(c, first, user.id, { status: 'submitted' });
    let answer = await home(user);
    expect(titles(answer.todo)).toEqual([]);
    expect(answer.submitted).toEqual([expect.objectContaining({ kind: 'mission_group', title: 'Steps', state: 'submitted', progress: 0 })]);

    await c.database.db.update(missionEntries).set({ status: 'approved' }).where(eq(missionEntries.id, entry.id));
    answer = await home(user);
    expect(answer.todo).toEqual([expect.objectContaining({ title: 'Steps', state: 'in_progress', progress: 0.5 })]);

    await insertEntry(c, second, user.id, { status: 'approved' });
    answer = await home(user);
    expect(answer.todo).toEqual([]);
    expect(answer.done).toEqual([expect.objectContaining({ title: 'Steps', state: 'done', progress: 1 })]);
  });

  it('keeps a mission in to do while a draft or an entry sent back waits, even past its minimum', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const mission = await createMission(c, project.id, { title: 'Photos', entries: { min: 1, max: 3 } });
    await insertEntry(c, mission, user.id, { status: 'approved' });
    expect(titles((await home(user)).done)).toEqual(['Photos']);
    await insertEntry(c, mission, user.id, { status: 'draft' });
    const answer = await home(user);
    expect(answer.todo).toEqual([expect.objectContaining({ title: 'Photos', state: 'in_progress', progress: 1 })]);
    expect(answer.done).toEqual([]);

    // An entry sent back with changes asked: to do, and its card says so (not "in progress").
    const fridge = await createMission(c, project.id, { title: 'Fridge', entries: { min: 1, max: 1 } });
    await insertEntry(c, fridge, user.id, { status: 'changes_requested' });
    expect((await home(user)).todo).toEqual(expect.arrayContaining([expect.objectContaining({ title: 'Fridge', state: 'changes_requested' })]));
  });

  it('keeps a diary in to do until its maximum is reached or it closes, with what today offers and the streak', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const diary = await createMission(c, project.id, { title: 'Breakfast diary', points: 100, entries: { min: 1, max: 7, perDay: 1 } });
    const byTitle = (answer: HomeAnswer, title: string) => [...answer.todo, ...answer.submitted, ...answer.done].find((item) => item.title === title);

    // Nothing yet: add today's entry.
    expect((await home(user)).todo).toEqual([
      expect.objectContaining({ title: 'Breakfast diary', state: 'open', diary: { entries: 0, max: 7, next: 1, today: 'add', streak: 0 } }),
    ]);

    // One approved entry today (its minimum met): still to do, "come back tomorrow for entry 2 of 7" — not done.
    await insertEntry(c, diary, user.id, { status: 'approved' });
    let answer = await home(user);
    expect(answer.done).toEqual([]);
    expect(answer.todo).toEqual([
      expect.objectContaining({
        title: 'Breakfast diary',
        state: 'in_progress',
        pointsPerEntry: true,
        diary: { entries: 1, max: 7, next: 2, today: 'tomorrow', streak: 1 },
      }),
    ]);
    expect(byTitle(answer, 'Breakfast diary')?.progress).toBeCloseTo(1 / 7);

    // The next day: add today's entry, the streak still alive; a draft today: continue; submitted: a 2-day streak.
    c.clock.advance(DAY);
    expect(byTitle(await home(user), 'Breakfast diary')?.diary).toEqual({ entries: 1, max: 7, next: 2, today: 'add', streak: 1 });
    const draft = await insertEntry(c, diary, user.id, { status: 'draft' });
    expect(byTitle(await home(user), 'Breakfast diary')?.diary).toMatchObject({ today: 'continue', next: 3 });
    await c.database.db.update(missionEntries).set({ status: 'submitted', submittedAt: c.clock.now() }).where(eq(missionEntries.id, draft.id));
    expect(byTitle(await home(user), 'Breakfast diary')?.diary).toEqual({ entries: 2, max: 7, next: 3, today: 'tomorrow', streak: 2 });

    // A day missed ends the streak.
    c.clock.advance(2 * DAY);
    expect(byTitle(await home(user), 'Breakfast diary')?.diary).toMatchObject({ today: 'add', streak: 0 });

    // Its maximum reached: done.
    const short = await createMission(c, project.id, { title: 'Two-day diary', entries: { min: 1, max: 2, perDay: 1 } });
    await insertEntry(c, short, user.id, { status: 'approved', localDate: '2020-01-01' });
    expect(titles((await home(user)).todo)).toContain('Two-day diary');
    await insertEntry(c, short, user.id, { status: 'approved' });
    answer = await home(user);
    expect(titles(answer.todo)).not.toContain('Two-day diary');
    expect(byTitle(answer, 'Two-day diary')).toMatchObject({ state: 'approved', progress: 1 });
    expect(byTitle(answer, 'Two-day diary')?.diary).toBeUndefined();

    // Closed with its minimum met: done.
    const closing = await createMission(c, project.id, {
      title: 'Closing diary',
      closesAt: new Date(c.clock.now().getTime() + HOUR),
      entries: { min: 1, max: 7, perDay: 1 },
    });
    await insertEntry(c, closing, user.id, { status: 'approved' });
    expect(titles((await home(user)).todo)).toContain('Closing diary');
    c.clock.advance(2 * HOUR);
    answer = await home(user);
    expect(titles(answer.todo)).not.toContain('Closing diary');
    expect(titles(answer.done)).toContain('Closing diary');

    // A mission with several entries and no daily limit is no diary: done at its minimum, as before.
    const photos = await createMission(c, project.id, { title: 'Photos', entries: { min: 1, max: 3 } });
    await insertEntry(c, photos, user.id, { status: 'approved' });
    expect(titles((await home(user)).done)).toContain('Photos');
  });

  it('answers in the same few queries whatever the number of items', async ({ skip }) => {
    const c = ctx();
    const pglite = c.database.pglite;
    if (!pglite) return skip('counts queries on PGlite');
    const project = await createProject(c);
    const user = await member(c, project.id);
    /** One of each kind, with a draft response and entries. */
    async function addOneOfEach(context: TestContext, n: number) {
      const survey = await createSurvey(context, project.id, { title: `S${n}`, definition: fourQuestions });
      await insertResponse(context, survey, user.id, { status: 'draft', answers: { q1: 'x' } });
      const mission = await createMission(context, project.id, { title: `M${n}` });
      await insertEntry(context, mission, user.id, { status: 'draft' });
      const diary = await createMission(context, project.id, { title: `D${n}`, entries: { min: 1, max: 7, perDay: 1 } });
      await insertEntry(context, diary, user.id, { status: 'submitted' });
      const grouped = await createMission(context, project.id, { title: `G${n}` });
      await createMissionGroup(context, project.id, [grouped.id], { title: `Group ${n}` });
    }
    const queriesOfHome = async () => {
      // The embedded database keeps the session after a first request (decision 025): count home's own statements,
      // each one Execute message to the engine whether it runs through `query` or as a named statement (decision 026).
      await home(user);
      const spy = vi.spyOn(pglite, 'execProtocolStream');
      try {
        const answer = await home(user);
        const executes = spy.mock.calls.reduce((sum, [message]) => sum + executeMessages(message), 0);
        return { items: answer.todo.length + answer.submitted.length + answer.done.length, queries: executes };
      } finally {
        spy.mockRestore();
      }
    };
    await addOneOfEach(c, 1);
    const few = await queriesOfHome();
    for (let n = 2; n <= 6; n++) await addOneOfEach(c, n);
    const many = await queriesOfHome();
    expect(few.items).toBe(4);
    expect(many.items).toBe(24);
    expect(many.queries).toBe(few.queries);
    // One statement for surveys, missions with their entry counts and groups with their missions; one for the diaries' days.
    expect(many.queries).toBe(2);
  });

  it('surveys’ and missions’ texts in the participant’s language where translated, else as written (home, survey, mission, group, history)', async () => {
    const c = ctx();
    const project = await createProject(c);
    const survey = await createSurvey(c, project.id, {
      title: 'Breakfast habits',
      description: 'Tell us about your mornings.',
      translations: { title: { de: 'Frühstücksgewohnheiten', ar: 'عادات الفطور' }, description: { de: 'Erzählen Sie uns von Ihren Morgen.' } },
    });
    const mission = await createMission(c, project.id, {
      title: 'Fridge photos',
      instructions: 'Open your **fridge**.',
      translations: { title: { de: 'Kühlschrankfotos' }, instructions: { de: 'Öffnen Sie Ihren **Kühlschrank**.' } },
    });
    const grouped = await createMission(c, project.id, { title: 'Day 1', translations: { title: { de: 'Tag 1' } } });
    const group = await createMissionGroup(c, project.id, [grouped.id]);
    const [german, spanish] = [await member(c, project.id), await member(c, project.id)];
    const setLanguage = async (who: SignedIn, language: string) =>
      expect((await c.json('PUT', '/api/account/language', { language }, who.headers)).status).toBe(200);
    await setLanguage(german, 'de');
    await setLanguage(spanish, 'es'); // No Spanish translation: as written.
    const read = async <T>(who: SignedIn, path: string): Promise<T> => {
      const res = await c.request(path, { headers: who.headers });
      expect(res.status).toBe(200);
      return (await res.json()) as T;
    };

    expect(titles((await home(german)).todo).sort()).toEqual(['Frühstücksgewohnheiten', 'Kühlschrankfotos', group.title].sort());
    expect(titles((await home(spanish)).todo).sort()).toEqual(['Breakfast habits', 'Fridge photos', group.title].sort());
    expect(await read(german, `/api/surveys/${survey.id}`)).toMatchObject({
      title: 'Frühstücksgewohnheiten',
      description: 'Erzählen Sie uns von Ihren Morgen.',
    });
    expect(await read(spanish, `/api/surveys/${survey.id}`)).toMatchObject({ title: 'Breakfast habits', description: 'Tell us about your mornings.' });
    expect(await read(german, `/api/missions/${mission.id}`)).toMatchObject({ title: 'Kühlschrankfotos', instructions: 'Öffnen Sie Ihren **Kühlschrank**.' });
    expect(await read(spanish, `/api/missions/${mission.id}`)).toMatchObject({ title: 'Fridge photos', instructions: 'Open your **fridge**.' });
    expect(await read(german, `/api/mission-groups/${group.id}`)).toMatchObject({ missions: [{ id: grouped.id, title: 'Tag 1' }] });
    await insertEntry(c, mission, german.id);
    expect(await read(german, '/api/account/mission-history')).toMatchObject({ items: [{ missionId: mission.id, title: 'Kühlschrankfotos' }] });
    expect(await read(german, `/api/account/mission-history/${mission.id}`)).toMatchObject({
      title: 'Kühlschrankfotos',
      instructions: 'Öffnen Sie Ihren **Kühlschrank**.',
    });
  });
});

/** How many Execute messages ('E') a frontend buffer holds: the statements it runs. */
function executeMessages(message: Uint8Array): number {
  let count = 0;
  for (let offset = 0; offset + 5 <= message.length;) {
    if (message[offset] === 0x45) count++;
    offset += 1 + new DataView(message.buffer, message.byteOffset + offset + 1, 4).getInt32(0);
  }
  return count;
}
