/** Missions as participants take them: visibility, dates, entries (limits per mission and per day in the participant's time zone), autosave, revisions (two devices), submit. */
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { media, missionEntries, missions } from '../../src/server/db/schema/index.ts';
import type { FormDefinition } from '../../src/shared/forms/definition.ts';
import type { AnswersConflict } from '../../src/shared/answers.ts';
import type { ParticipantMission } from '../../src/shared/missions.ts';
import type { HomeAnswer } from '../../src/shared/projects.ts';
import { ANSWER_LANGUAGE_NOT_OFFERED, REVISION_REQUIRED_MESSAGE } from '../../src/shared/schemas/answers.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import {
  bilingualDefinition,
  createMission,
  createProject,
  insertEntry,
  member,
  participant,
  photoDefinition,
  publishVersion,
  publishedForm,
  staff,
  textDefinition,
  type MissionFixture,
} from './programme-fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DAILY = "You have made today's entry. Come back tomorrow.";
/** Today's limit reached by a draft, which is not an entry made (issue 28 §3). */
const DRAFT = 'You have a draft for today — continue and submit it.';

interface ErrorWithNext {
  error: { code: string; message: string; nextEntryAt?: string };
}

/** A required name and an optional note, on one page. */
function twoQuestions(): FormDefinition {
  return {
    schema: 'fieldwork.form/1',
    title: 'Two questions',
    pages: [
      {
        id: 'page_1',
        title: '',
        elements: [
          { id: 'name', type: 'short_text', title: 'Name', required: true },
          { id: 'note', type: 'short_text', title: 'Note' },
        ],
      },
    ],
  };
}

describeEachBackend('participation: missions', (ctx) => {
  const get = (path: string, who: SignedIn | null) => ctx().request(path, { headers: who?.headers ?? {} });
  const send = (method: string, path: string, body: unknown, who: SignedIn | null) => ctx().json(method, path, body, who?.headers ?? {});
  async function ok<T>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return text === '' ? (undefined as T) : (JSON.parse(text) as T);
  }
  const view = async (id: number, who: SignedIn) => ok<ParticipantMission>(await get(`/api/missions/${id}`, who));
  const create = (id: number, who: SignedIn, timeZone?: string) => send('POST', `/api/missions/${id}/entries`, timeZone === undefined ? {} : { timeZone }, who);
  const created = async (id: number, who: SignedIn, timeZone?: string) => ok<{ id: number; status: string }>(await create(id, who, timeZone), 201);
  const saveEntry = (missionId: number, entryId: number, who: SignedIn, answers: unknown, revision?: number) =>
    send('PUT', `/api/missions/${missionId}/entries/${entryId}`, { answers, ...(revision === undefined ? {} : { revision }) }, who);
  /** The 409 `conflict` of a stale save or submit, with the current answers. */
  async function conflictOf(res: Response): Promise<AnswersConflict> {
    const body = (await errorOf(res, 409)) as { code: string; message: string; current?: AnswersConflict };
    expect(body.code).toBe('conflict');
    expect(body.message).toBe('This entry was changed on another device since this page loaded it');
    if (!body.current) throw new Error('no current');
    return body.current;
  }
  const submitEntry = (missionId: number, entryId: number, who: SignedIn, body: unknown = {}) =>
    send('POST', `/api/missions/${missionId}/entries/${entryId}/submit`, body, who);
  const removeEntry = (missionId: number, entryId: number, who: SignedIn) => send('DELETE', `/api/missions/${missionId}/entries/${entryId}`, undefined, who);
  const entryRow = async (id: number) => (await ctx().database.db.select().from(missionEntries).where(eq(missionEntries.id, id)))[0];
  /** Moves the test clock forward to the next moment that is `hour`:00 UTC. */
  function advanceToUtcHour(c: TestContext, hour: number): Date {
    const now = c.clock.now();
    let target = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour);
    if (target <= now.getTime()) target += DAY;
    c.clock.advance(target - now.getTime());
    return c.clock.now();
  }

  async function setup(c: TestContext, input: MissionFixture = {}) {
    const project = await createProject(c);
    const user = await member(c, project.id);
    const mission = await createMission(c, project.id, input);
    return { project, user, mission };
  }

  it('is 404 for non-members, draft projects and draft missions, for every role; 401 without a session', async () => {
    const c = ctx();
    const { mission, project } = await setup(c);
    expect((await errorOf(await get(`/api/missions/${mission.id}`, null), 401)).code).toBe('unauthenticated');
    for (const who of [await participant(c), await staff(c, 'admin')]) {
      expect((await errorOf(await get(`/api/missions/${mission.id}`, who), 404)).code).toBe('not_found');
      expect((await errorOf(await create(mission.id, who), 404)).code).toBe('not_found');
    }
    const draft = await createMission(c, project.id, { status: 'draft' });
    const user = await member(c, project.id);
    expect((await errorOf(await get(`/api/missions/${draft.id}`, user), 404)).code).toBe('not_found');
    expect((await errorOf(await create(draft.id, user), 404)).code).toBe('not_found');
    const draftProject = await createProject(c, { status: 'draft' });
    const hidden = await createMission(c, draftProject.id);
    expect((await errorOf(await get(`/api/missions/${hidden.id}`, await member(c, draftProject.id)), 404)).code).toBe('not_found');
    expect((await errorOf(await get('/api/missions/x1', user), 404)).code).toBe('not_found');
  });

  it('shows the mission with its form, entries settings and the participant’s entries (newest first)', async () => {
    const c = ctx();
    const { mission, user, project } = await setup(c, { instructions: '# Do this', entries: { min: 2, max: 3, perDay: null } });
    const empty = await view(mission.id, user);
    expect(empty).toMatchObject({
      id: mission.id,
      title: mission.title,
      instructions: '# Do this',
      points: 20,
      projectName: project.name,
      availability: 'open',
      review: 'manual',
      entries: { min: 2, max: 3, perDay: null },
      form: { version: 1, definition: textDefinition() },
      myEntries: [],
      canAddEntry: true,
      addEntryBlockedReason: null,
    });

    const first = await created(mission.id, user);
    c.clock.advance(1000);
    const second = await created(mission.id, user);
    await ok(await saveEntry(mission.id, second.id, user, { name: 'Second' }));
    // Someone else's entries are not shown.
    const other = await member(c, project.id);
    await created(mission.id, other);

    const seen = await view(mission.id, user);
    expect(seen.myEntries.map((entry) => entry.id)).toEqual([second.id, first.id]);
    expect(seen.myEntries[0]).toMatchObject({
      id: second.id,
      status: 'draft',
      answers: { name: 'Second' },
      submittedAt: null,
      seed: `entry-${second.id}`,
      formVersion: 1,
      revision: 1,
    });
    expect(seen.myEntries[1]).toMatchObject({ id: first.id, revision: 0 });
    expect(seen.myEntries[0]?.form).toBeUndefined();
  });

  it('makes draft entries up to the maximum (drafts count until deleted): 409 entries_limit', async () => {
    const c = ctx();
    const { mission, user } = await setup(c, { entries: { min: 1, max: 2 } });
    const first = await created(mission.id, user);
    expect(first.status).toBe('draft');
    await created(mission.id, user);
    expect((await errorOf(await create(mission.id, user), 409)).code).toBe('entries_limit');
    const seen = await view(mission.id, user);
    expect(seen.canAddEntry).toBe(false);
    // A draft is not an entry made (issue 28 §3): the screen offers to finish it.
    expect(seen).toMatchObject({ addEntryBlockedReason: 'You have a draft to finish — continue and submit it.', draftEntryId: expect.any(Number) });

    expect((await removeEntry(mission.id, first.id, user)).status).toBe(204);
    expect(await entryRow(first.id)).toBeUndefined();
    await created(mission.id, user);
    for (const entry of (await view(mission.id, user)).myEntries) await ok(await submitEntry(mission.id, entry.id, user, { answers: { name: 'Done' } }));
    expect(await view(mission.id, user)).toMatchObject({ addEntryBlockedReason: 'You have made all the entries this mission takes', draftEntryId: null });
  });

  it('counts only submitted entries as made: today’s draft (a submit that failed offline) is to be continued, on the mission and on home', async () => {
    const c = ctx();
    const { mission, user } = await setup(c, { entries: { min: 1, max: 3, perDay: 1 } });
    const draft = await created(mission.id, user, 'UTC');
    expect(await view(mission.id, user)).toMatchObject({ canAddEntry: false, addEntryBlockedReason: DRAFT, draftEntryId: draft.id });
    expect(await errorOf(await create(mission.id, user), 409)).toMatchObject({ code: 'daily_limit', message: DRAFT });
    const diaryOnHome = async () => (await ok<HomeAnswer>(await get('/api/home', user))).todo.find((item) => item.id === mission.id)?.diary;
    expect(await diaryOnHome()).toMatchObject({ entries: 0, today: 'continue' });

    await ok(await submitEntry(mission.id, draft.id, user, { answers: { name: 'Soup' } }));
    expect(await view(mission.id, user)).toMatchObject({ canAddEntry: false, addEntryBlockedReason: DAILY, draftEntryId: null });
    expect(await diaryOnHome()).toMatchObject({ entries: 1, next: 2, today: 'tomorrow' });
  });

  it('allows one entry per calendar day of the participant’s own time zone (a diary); naming other zones makes no more days', async () => {
    const c = ctx();
    const { mission, user } = await setup(c, { entries: { min: 3, max: 10, perDay: 1 } });
    const noon = advanceToUtcHour(c, 12);
    const day = noon.toISOString().slice(0, 10);

    // 13:00 in Amsterdam (UTC+1 in November). The participant had no zone yet: the browser's becomes theirs.
    const first = await created(mission.id, user, 'Europe/Amsterdam');
    expect(await entryRow(first.id)).toMatchObject({ localDate: day, timeZone: 'Europe/Amsterdam' });
    const refused = (await (await create(mission.id, user, 'Europe/Amsterdam')).json()) as ErrorWithNext;
    expect(refused.error).toEqual({ code: 'daily_limit', message: DRAFT, nextEntryAt: `${day}T23:00:00.000Z` });
    const seen = await view(mission.id, user);
    expect(seen).toMatchObject({ canAddEntry: false, addEntryBlockedReason: DRAFT, nextEntryAt: `${day}T23:00:00.000Z` });

    // On Kiritimati (UTC+14) it is already the next day, but naming that zone changes nothing:
    // the day is the participant's own (three zones used to make three entries in one day).
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Tokyo']) {
      expect((await errorOf(await create(mission.id, user, zone), 409)).code).toBe('daily_limit');
    }
    expect((await view(mission.id, user)).myEntries).toHaveLength(1);

    // 01:00 the next day in Amsterdam: a new day.
    c.clock.advance(12 * HOUR);
    const second = await created(mission.id, user, 'Pacific/Kiritimati');
    expect(await entryRow(second.id)).toMatchObject({ localDate: new Date(noon.getTime() + DAY).toISOString().slice(0, 10), timeZone: 'Europe/Amsterdam' });
    expect((await errorOf(await create(mission.id, user), 409)).code).toBe('daily_limit');
  });

  it('takes the calendar day in UTC when the time zone is absent or unknown', async () => {
    const c = ctx();
    const { mission, user } = await setup(c, { entries: { min: 1, max: 5, perDay: 1 } });
    const late = advanceToUtcHour(c, 23);
    const entry = await created(mission.id, user, 'Mars/Olympus_Mons');
    expect(await entryRow(entry.id)).toMatchObject({ localDate: late.toISOString().slice(0, 10), timeZone: 'UTC' });
    const refused = (await (await create(mission.id, user)).json()) as ErrorWithNext;
    expect(refused.error).toMatchObject({ code: 'daily_limit', nextEntryAt: new Date(late.getTime() + HOUR).toISOString() });
    // A name in the wrong case is the zone itself.
    const other = await member(c, mission.projectId);
    const tokyo = await created(mission.id, other, 'asia/tokyo');
    expect((await entryRow(tokyo.id))?.timeZone).toBe('Asia/Tokyo');
    expect((await fieldsOf(await create(mission.id, user, 'x'.repeat(65)))).timeZone).toBeDefined();
  });

  it('lets only one of several entries made at once through the daily and the mission limits', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const diary = await createMission(c, project.id, { entries: { min: 1, max: 10, perDay: 1 } });
    // Six at once: without the lock on the participant's row, PostgreSQL lets several through.
    const daily = await Promise.all(Array.from({ length: 6 }, () => create(diary.id, user, 'UTC')));
    expect(daily.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const capped = await createMission(c, project.id, { entries: { min: 1, max: 2 } });
    const many = await Promise.all(Array.from({ length: 6 }, () => create(capped.id, user)));
    expect(many.map((res) => res.status).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    const rows = await c.database.db
      .select()
      .from(missionEntries)
      .where(and(eq(missionEntries.missionId, capped.id), eq(missionEntries.userId, user.id)));
    expect(rows).toHaveLength(2);
  });

  it('follows the mission’s dates and status: upcoming 409 not_open, closed 409 closed', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const now = c.clock.now().getTime();
    const upcoming = await createMission(c, project.id, { opensAt: new Date(now + 2 * DAY) });
    const seen = await view(upcoming.id, user);
    expect(seen).toMatchObject({ availability: 'upcoming', canAddEntry: false });
    expect(seen.addEntryBlockedReason).toMatch(/^This mission opens on [A-Z][a-z]{2} \d{1,2}$/);
    expect((await errorOf(await create(upcoming.id, user), 409)).code).toBe('not_open');

    const closing = await createMission(c, project.id, { closesAt: new Date(now + HOUR) });
    const entry = await created(closing.id, user);
    c.clock.advance(HOUR);
    expect(await view(closing.id, user)).toMatchObject({ availability: 'closed', canAddEntry: false, addEntryBlockedReason: 'This mission is closed' });
    expect((await errorOf(await create(closing.id, user), 409)).code).toBe('closed');
    expect((await errorOf(await saveEntry(closing.id, entry.id, user, { name: 'Late' }), 409)).code).toBe('closed');
    expect((await errorOf(await submitEntry(closing.id, entry.id, user, { answers: { name: 'Late' } }), 409)).code).toBe('closed');

    const statusClosed = await createMission(c, project.id, { status: 'closed' });
    expect((await view(statusClosed.id, user)).availability).toBe('closed');
    expect((await errorOf(await create(statusClosed.id, user), 409)).code).toBe('closed');
  });

  it('autosaves drafts and entries sent back for changes; not submitted ones (409 not_editable)', async () => {
    const c = ctx();
    const { mission, user } = await setup(c, { entries: { min: 1, max: 3 } });
    const entry = await created(mission.id, user);
    const saved = await ok<{ status: string; savedAt: string }>(await saveEntry(mission.id, entry.id, user, { name: 'Half' }));
    expect(saved).toEqual({ status: 'draft', savedAt: c.clock.now().toISOString(), revision: 1 });
    expect((await entryRow(entry.id))?.answers).toEqual({ name: 'Half' });

    const submitted = await insertEntry(c, mission, user.id, { status: 'submitted', answers: { name: 'Done' } });
    expect((await errorOf(await saveEntry(mission.id, submitted.id, user, { name: 'Changed' }), 409)).code).toBe('not_editable');
    expect((await entryRow(submitted.id))?.answers).toEqual({ name: 'Done' });

    const sentBack = await insertEntry(c, mission, user.id, { status: 'changes_requested', answers: { name: 'Blurry' } });
    expect(await ok(await saveEntry(mission.id, sentBack.id, user, { name: 'Sharp' }))).toMatchObject({ status: 'changes_requested' });
    expect(await ok(await submitEntry(mission.id, sentBack.id, user))).toEqual({ status: 'submitted' });
    expect(await entryRow(sentBack.id)).toMatchObject({ status: 'submitted', answers: { name: 'Sharp' } });
  });

  it('submits an entry once, validating per element; answers sent with the submit are saved first', async () => {
    const c = ctx();
    const { mission, user } = await setup(c);
    const entry = await created(mission.id, user);
    expect(await fieldsOf(await submitEntry(mission.id, entry.id, user, { answers: { name: '   ' } }))).toEqual({ name: ['Required'] });
    expect(await entryRow(entry.id)).toMatchObject({ status: 'draft', answers: { name: '   ' } });
    expect(await fieldsOf(await submitEntry(mission.id, entry.id, user))).toEqual({ name: ['Required'] });

    await ok(await saveEntry(mission.id, entry.id, user, { name: '  Kitchen  ', unknown: 'x' }, 1));
    expect(await ok(await submitEntry(mission.id, entry.id, user))).toEqual({ status: 'submitted' });
    const row = await entryRow(entry.id);
    expect(row).toMatchObject({ status: 'submitted', answers: { name: 'Kitchen' } });
    expect(row?.submittedAt?.toISOString()).toBe(c.clock.now().toISOString());
    expect((await errorOf(await submitEntry(mission.id, entry.id, user), 409)).code).toBe('already_submitted');
    expect((await errorOf(await removeEntry(mission.id, entry.id, user), 409)).code).toBe('not_deletable');

    // Two submits at once: one wins.
    const project2 = await createMission(c, mission.projectId, { entries: { min: 1, max: 1 } });
    const racer = await created(project2.id, user);
    const results = await Promise.all([
      submitEntry(project2.id, racer.id, user, { answers: { name: 'A' } }),
      submitEntry(project2.id, racer.id, user, { answers: { name: 'B' } }),
    ]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
  });

  it('carries a revision: each save bumps it; a stale one is 409 conflict with the current answers and changes nothing', async () => {
    const c = ctx();
    const { mission, user } = await setup(c, { definition: twoQuestions(), entries: { min: 1, max: 2 } });
    const entry = await created(mission.id, user);
    // Both devices open the entry at revision 0.
    expect((await view(mission.id, user)).myEntries[0]).toMatchObject({ id: entry.id, revision: 0, answers: {} });
    expect(await ok(await saveEntry(mission.id, entry.id, user, { name: 'Phone' }, 0))).toMatchObject({ status: 'draft', revision: 1 });
    // The laptop's copy from revision 0: refused with what the server holds; nothing changes.
    expect(await conflictOf(await saveEntry(mission.id, entry.id, user, { note: 'Laptop' }, 0))).toEqual({ answers: { name: 'Phone' }, revision: 1 });
    expect(await entryRow(entry.id)).toMatchObject({ answers: { name: 'Phone' }, revision: 1 });
    // Merged and sent again with the current revision.
    expect(await ok(await saveEntry(mission.id, entry.id, user, { name: 'Phone', note: 'Laptop' }, 1))).toMatchObject({ revision: 2 });
    expect((await view(mission.id, user)).myEntries[0]).toMatchObject({ answers: { name: 'Phone', note: 'Laptop' }, revision: 2 });

    // Left out once the entry was saved: 400 on `revision`. A never-saved entry may leave it out.
    expect(await fieldsOf(await saveEntry(mission.id, entry.id, user, { name: 'Blind' }))).toEqual({ revision: [REVISION_REQUIRED_MESSAGE] });
    expect((await entryRow(entry.id))?.answers).toEqual({ name: 'Phone', note: 'Laptop' });
    const other = await created(mission.id, user);
    expect(await ok(await saveEntry(mission.id, other.id, user, { name: 'No revision yet' }))).toMatchObject({ revision: 1 });
  });

  it('of two saves at once from one revision, exactly one lands; the other is 409 conflict with the winner’s answers', async () => {
    const c = ctx();
    const { mission, user } = await setup(c);
    const entry = await created(mission.id, user);
    for (let revision = 0; revision < 3; revision++) {
      const results = await Promise.all([
        saveEntry(mission.id, entry.id, user, { name: `A${revision}` }, revision),
        saveEntry(mission.id, entry.id, user, { name: `B${revision}` }, revision),
      ]);
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
      const winner = results.find((res) => res.status === 200);
      const loser = results.find((res) => res.status === 409);
      if (!winner || !loser) throw new Error('expected one of each');
      expect(await ok(winner)).toMatchObject({ revision: revision + 1 });
      const row = await entryRow(entry.id);
      expect(row?.revision).toBe(revision + 1);
      expect(await conflictOf(loser)).toEqual({ answers: row?.answers, revision: revision + 1 });
    }
  });

  it('checks the revision on submit when one is sent: a stale one is 409 conflict and submits nothing', async () => {
    const c = ctx();
    const { mission, user } = await setup(c, { definition: twoQuestions() });
    const entry = await created(mission.id, user);
    await ok(await saveEntry(mission.id, entry.id, user, { name: 'Phone' }, 0));
    for (const body of [{ answers: { name: 'Laptop' }, revision: 0 }, { revision: 0 }]) {
      expect(await conflictOf(await submitEntry(mission.id, entry.id, user, body))).toEqual({ answers: { name: 'Phone' }, revision: 1 });
    }
    expect(await entryRow(entry.id)).toMatchObject({ status: 'draft', answers: { name: 'Phone' }, revision: 1, submissionCount: 0 });

    // Refused answers are saved first: the 400 carries the new revision.
    const refused = await send('POST', `/api/missions/${mission.id}/entries/${entry.id}/submit`, { answers: { name: '' }, revision: 1 }, user);
    const body = (await errorOf(refused, 400)) as { fields?: Record<string, string[]>; revision?: number };
    expect(body).toMatchObject({ code: 'validation_failed', fields: { name: ['Required'] }, revision: 2 });
    expect(await entryRow(entry.id)).toMatchObject({ status: 'draft', answers: { name: '' }, revision: 2 });

    expect(await ok(await submitEntry(mission.id, entry.id, user, { answers: { name: 'Both' }, revision: 2 }))).toEqual({ status: 'submitted' });
    expect(await entryRow(entry.id)).toMatchObject({ status: 'submitted', answers: { name: 'Both' }, revision: 4 });
    expect((await view(mission.id, user)).myEntries[0]).toMatchObject({ status: 'submitted', revision: 4 });
  });

  it('records the language of an entry’s answers: the version’s source when made, the one a save or submit names (400 when not offered)', async () => {
    const c = ctx();
    const { mission, user } = await setup(c, { definition: bilingualDefinition() });
    const entry = await created(mission.id, user);
    const languageOf = async () => (await view(mission.id, user)).myEntries[0]?.language;
    const put = (body: Record<string, unknown>) => send('PUT', `/api/missions/${mission.id}/entries/${entry.id}`, body, user);
    expect(await languageOf()).toBe('en');
    await ok(await put({ answers: { name: 'Ro' }, language: 'ar' }));
    expect(await languageOf()).toBe('ar');
    expect((await fieldsOf(await put({ answers: { name: 'Ro' }, revision: 1, language: 'de' }))).language).toEqual([ANSWER_LANGUAGE_NOT_OFFERED]);
    expect((await fieldsOf(await submitEntry(mission.id, entry.id, user, { revision: 1, language: 'es' }))).language).toEqual([ANSWER_LANGUAGE_NOT_OFFERED]);
    expect((await entryRow(entry.id))?.status).toBe('draft');
    // Left out, it stays; named with the submit, it is recorded.
    await ok(await put({ answers: { name: 'Robin' }, revision: 1 }));
    expect(await languageOf()).toBe('ar');
    await ok(await submitEntry(mission.id, entry.id, user, { revision: 2, language: 'en' }));
    expect(await entryRow(entry.id)).toMatchObject({ status: 'submitted', language: 'en' });
  });

  it('approves at once when the mission’s review is automatic', async () => {
    const c = ctx();
    const { mission, user } = await setup(c, { review: 'automatic' });
    const entry = await created(mission.id, user);
    expect(await ok(await submitEntry(mission.id, entry.id, user, { answers: { name: 'Auto' } }))).toEqual({ status: 'approved' });
    expect((await entryRow(entry.id))?.status).toBe('approved');
  });

  it('is 404 for another participant’s entry and 400 for another participant’s photo', async () => {
    const c = ctx();
    const { mission, user, project } = await setup(c, { definition: photoDefinition(), entries: { min: 1, max: 2 } });
    const other = await member(c, project.id);
    const theirs = await created(mission.id, other);
    for (const res of [
      await saveEntry(mission.id, theirs.id, user, { caption: 'mine now' }),
      await submitEntry(mission.id, theirs.id, user),
      await removeEntry(mission.id, theirs.id, user),
    ]) {
      expect((await errorOf(res, 404)).code).toBe('not_found');
    }
    expect(await entryRow(theirs.id)).toMatchObject({ status: 'draft', answers: {} });
    // An entry id under another mission's path is not found either.
    const elsewhere = await createMission(c, project.id);
    const mine = await created(mission.id, user);
    expect((await errorOf(await saveEntry(elsewhere.id, mine.id, user, {}), 404)).code).toBe('not_found');
    expect((await errorOf(await saveEntry(mission.id, 0, user, {}), 404)).code).toBe('not_found');

    const photo = (id: string, ownerId: number) =>
      c.database.db.insert(media).values({
        id,
        ownerId,
        contentType: 'image/jpeg',
        width: 4,
        height: 3,
        bytes: 10,
        uploadedBytes: 10,
        displayKey: `${id}.jpg`,
        thumbnailKey: `${id}.t.jpg`,
        thumbnailWidth: 4,
        thumbnailHeight: 3,
      });
    const stamp = `${mission.id}-${Date.now().toString(36)}`;
    await photo(`own-${stamp}`, user.id);
    await photo(`other-${stamp}`, other.id);
    expect(await fieldsOf(await submitEntry(mission.id, mine.id, user, { answers: { photos: [`other-${stamp}`] } }))).toEqual({
      photos: ['This photo could not be found; upload it again'],
    });
    expect(await ok(await submitEntry(mission.id, mine.id, user, { answers: { photos: [`own-${stamp}`] } }))).toEqual({ status: 'submitted' });
  });

  it('keeps an entry on the form version it was made on', async () => {
    const c = ctx();
    const project = await createProject(c);
    const form = await publishedForm(c, textDefinition('Mission versions'));
    const mission = await createMission(c, project.id, { form, entries: { min: 1, max: 2 } });
    const user = await member(c, project.id);
    const entry = await created(mission.id, user);
    const v2: FormDefinition = {
      schema: 'fieldwork.form/1',
      title: 'Mission versions',
      pages: [{ id: 'page_1', title: '', elements: [{ id: 'count', type: 'number', title: 'How many?', required: true }] }],
    };
    await publishVersion(c, form.id, v2);
    await c.database.db.update(missions).set({ formVersion: 2 }).where(eq(missions.id, mission.id));

    const seen = await view(mission.id, user);
    expect(seen.form.version).toBe(2);
    expect(seen.myEntries[0]).toMatchObject({ id: entry.id, formVersion: 1, form: { version: 1, definition: textDefinition('Mission versions') } });
    expect(await fieldsOf(await submitEntry(mission.id, entry.id, user, { answers: { count: 3 } }))).toEqual({ name: ['Required'] });
    await ok(await submitEntry(mission.id, entry.id, user, { answers: { name: 'v1 answer' } }));
    const next = await created(mission.id, user);
    expect((await entryRow(next.id))?.formVersion).toBe(2);
  });
});
