/** Native surveys as participants take them: visibility, dates, autosave and resume, revisions (two devices), submit, validation, pinned versions, photos. */
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { media, projects, surveyResponses, surveys } from '../../src/server/db/schema/index.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import type { FormDefinition } from '../../src/shared/forms/definition.ts';
import type { AnswersConflict } from '../../src/shared/answers.ts';
import type { ParticipantSurvey } from '../../src/shared/surveys.ts';
import { ANSWER_LANGUAGE_NOT_OFFERED, REVISION_REQUIRED_MESSAGE } from '../../src/shared/schemas/answers.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import {
  addMember,
  bilingualDefinition,
  createProject,
  createSurvey,
  insertResponse,
  member,
  participant,
  photoDefinition,
  publishVersion,
  publishedForm,
  staff,
  textDefinition,
} from './programme-fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Two pages; `drink` shows only when `likes_tea` is "yes"; `when` is a date on or after today. */
function branchingDefinition(): FormDefinition {
  return {
    schema: 'fieldwork.form/1',
    title: 'Tea',
    pages: [
      {
        id: 'page_1',
        title: '',
        elements: [
          { id: 'name', type: 'short_text', title: 'Your name', required: true },
          {
            id: 'likes_tea',
            type: 'single_choice',
            title: 'Do you like tea?',
            options: [
              { id: 'yes', label: 'Yes' },
              { id: 'no', label: 'No' },
            ],
          },
          { id: 'drink', type: 'short_text', title: 'Which tea?', visibleIf: { ref: 'likes_tea', op: 'eq', value: 'yes' } },
        ],
      },
      { id: 'page_2', title: '', elements: [{ id: 'when', type: 'date', title: 'When', minDate: 'today' }] },
    ],
  };
}

describeEachBackend('participation: native surveys', (ctx) => {
  const get = (path: string, who: SignedIn | null) => ctx().request(path, { headers: who?.headers ?? {} });
  const send = (method: string, path: string, body: unknown, who: SignedIn | null) => ctx().json(method, path, body, who?.headers ?? {});
  async function ok<T>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  }
  const view = async (id: number, who: SignedIn) => ok<ParticipantSurvey>(await get(`/api/surveys/${id}`, who));
  const save = (id: number, who: SignedIn, answers: unknown, pageId: string | null = 'page_1', revision?: number) =>
    send('PUT', `/api/surveys/${id}/response`, { answers, pageId, ...(revision === undefined ? {} : { revision }) }, who);
  /** The 409 `conflict` of a stale save or submit, with the current answers. */
  async function conflictOf(res: Response): Promise<AnswersConflict> {
    const body = (await errorOf(res, 409)) as { code: string; message: string; current?: AnswersConflict };
    expect(body.code).toBe('conflict');
    expect(body.message).toBe('Your answers were changed on another device since this page loaded them');
    if (!body.current) throw new Error('no current');
    return body.current;
  }
  const submit = (id: number, who: SignedIn, answers: unknown, extra: Record<string, unknown> = {}) =>
    send('POST', `/api/surveys/${id}/response/submit`, { answers, ...extra }, who);
  const responseRow = async (surveyId: number, userId: number) =>
    (
      await ctx()
        .database.db.select()
        .from(surveyResponses)
        .where(and(eq(surveyResponses.surveyId, surveyId), eq(surveyResponses.userId, userId)))
    )[0];

  /** A live project with a member and a live native survey (text form unless given). */
  async function setup(c: TestContext, definition?: FormDefinition) {
    const project = await createProject(c);
    const user = await member(c, project.id);
    const survey = await createSurvey(c, project.id, definition ? { definition } : {});
    return { project, user, survey };
  }

  it('needs a session: 401 on every call', async () => {
    const { survey } = await setup(ctx());
    expect((await errorOf(await get(`/api/surveys/${survey.id}`, null), 401)).code).toBe('unauthenticated');
    expect((await errorOf(await save(survey.id, null as unknown as SignedIn, {}), 401)).code).toBe('unauthenticated');
  });

  it('is 404 for non-members, draft projects, archived projects, draft surveys and bad ids — for every role', async () => {
    const c = ctx();
    const { survey, project } = await setup(c);
    const outsider = await participant(c);
    const moderator = await staff(c);
    for (const who of [outsider, moderator]) {
      expect((await errorOf(await get(`/api/surveys/${survey.id}`, who), 404)).code).toBe('not_found');
      expect((await errorOf(await save(survey.id, who, {}), 404)).code).toBe('not_found');
      expect((await errorOf(await submit(survey.id, who, { name: 'x' }), 404)).code).toBe('not_found');
    }
    // A moderator who is a member sees it like any participant.
    await addMember(c, project.id, moderator);
    expect((await view(survey.id, moderator)).state).toBe('open');

    const draftProject = await createProject(c, { status: 'draft' });
    const inDraft = await createSurvey(c, draftProject.id);
    const draftMember = await member(c, draftProject.id);
    expect((await errorOf(await get(`/api/surveys/${inDraft.id}`, draftMember), 404)).code).toBe('not_found');
    expect((await errorOf(await save(inDraft.id, draftMember, {}), 404)).code).toBe('not_found');

    const archived = await createProject(c, { status: 'archived' });
    const inArchived = await createSurvey(c, archived.id);
    expect((await errorOf(await get(`/api/surveys/${inArchived.id}`, await member(c, archived.id)), 404)).code).toBe('not_found');

    const { project: p2, user } = await setup(c);
    const draftSurvey = await createSurvey(c, p2.id, { status: 'draft' });
    expect((await errorOf(await get(`/api/surveys/${draftSurvey.id}`, user), 404)).code).toBe('not_found');
    expect((await errorOf(await submit(draftSurvey.id, user, { name: 'x' }), 404)).code).toBe('not_found');

    for (const bad of ['abc', '0', '-1', '99999999999', '2147483648', '1.5']) {
      expect((await errorOf(await get(`/api/surveys/${bad}`, user), 404)).code, bad).toBe('not_found');
    }
    expect((await errorOf(await get('/api/surveys/2147483647', user), 404)).code).toBe('not_found');
  });

  it('shows the survey with its pinned form, seed and state; a closed project shows it closed', async () => {
    const c = ctx();
    const { survey, user, project } = await setup(c);
    const seen = await view(survey.id, user);
    expect(seen).toMatchObject({
      id: survey.id,
      title: survey.title,
      kind: 'native',
      points: 10,
      projectName: project.name,
      state: 'open',
      outcome: null,
      seed: `survey-${survey.id}-user-${user.id}`,
      form: { version: 1, definition: textDefinition() },
    });
    expect(seen.response).toBeUndefined();

    await c.database.db.update(projects).set({ status: 'closed' }).where(eq(projects.id, project.id));
    expect((await view(survey.id, user)).state).toBe('closed');
    expect((await errorOf(await save(survey.id, user, { name: 'A' }), 409)).code).toBe('closed');
    expect((await errorOf(await submit(survey.id, user, { name: 'A' }), 409)).code).toBe('closed');
  });

  it('follows its dates: upcoming (no form, 409 not_open), open, then closed (409 closed); status closed too', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const now = c.clock.now().getTime();
    const survey = await createSurvey(c, project.id, { opensAt: new Date(now + HOUR), closesAt: new Date(now + 3 * HOUR) });

    const upcoming = await view(survey.id, user);
    expect(upcoming.state).toBe('upcoming');
    expect(upcoming.form).toBeUndefined();
    expect(upcoming.opensAt).toBe(new Date(now + HOUR).toISOString());
    expect((await errorOf(await save(survey.id, user, { name: 'A' }), 409)).code).toBe('not_open');
    expect((await errorOf(await submit(survey.id, user, { name: 'A' }), 409)).code).toBe('not_open');

    c.clock.advance(HOUR);
    expect((await view(survey.id, user)).state).toBe('open');
    await ok(await save(survey.id, user, { name: 'A' }));
    expect((await view(survey.id, user)).state).toBe('in_progress');

    c.clock.advance(2 * HOUR);
    const closed = await view(survey.id, user);
    expect(closed.state).toBe('closed');
    expect(closed.response?.answers).toEqual({ name: 'A' });
    expect((await errorOf(await save(survey.id, user, { name: 'B' }), 409)).code).toBe('closed');
    expect((await errorOf(await submit(survey.id, user, { name: 'B' }), 409)).code).toBe('closed');

    const statusClosed = await createSurvey(c, project.id, { status: 'closed' });
    expect((await view(statusClosed.id, user)).state).toBe('closed');
    expect((await errorOf(await save(statusClosed.id, user, {}), 409)).code).toBe('closed');
  });

  it('autosaves a draft and resumes it on a second device where the participant stopped', async () => {
    const c = ctx();
    const { survey, user } = await setup(c, branchingDefinition());
    const saved = await ok<{ status: string; savedAt: string }>(await save(survey.id, user, { name: 'Ro' }, 'page_1'));
    expect(saved).toEqual({ status: 'draft', savedAt: c.clock.now().toISOString(), revision: 1 });

    c.clock.advance(60_000);
    // Incomplete answers are fine in a draft; only their shape is checked.
    await ok(await save(survey.id, user, { name: 'Robin', likes_tea: 'yes', drink: 'Earl Grey' }, 'page_2', 1));
    expect((await fieldsOf(await save(survey.id, user, { name: { nested: { deep: 1 } } }))).answers).toBeDefined();
    expect((await fieldsOf(await send('PUT', `/api/surveys/${survey.id}/response`, { answers: {} }, user))).pageId).toBeDefined();

    // The same account signed in elsewhere.
    const { token } = await createSession(c.database.db, c.clock, user.id);
    const phone: SignedIn = { ...user, headers: { Cookie: `fw_session=${token}` } };
    const resumed = await view(survey.id, phone);
    expect(resumed.state).toBe('in_progress');
    expect(resumed.response).toEqual({
      answers: { name: 'Robin', likes_tea: 'yes', drink: 'Earl Grey' },
      pageId: 'page_2',
      status: 'draft',
      submittedAt: null,
      revision: 2,
      language: 'en',
    });
  });

  it('records the language the answers were given in: one the version offers (400 otherwise); left out, the one recorded stays', async () => {
    const c = ctx();
    const { survey, user } = await setup(c, bilingualDefinition());
    const languageOf = async () => (await view(survey.id, user)).response?.language;
    const saveIn = (language: unknown, revision: number, answers: unknown = { name: 'Ro' }) =>
      send('PUT', `/api/surveys/${survey.id}/response`, { answers, pageId: 'page_1', revision, language }, user);
    // A first save without a language records the version's source language.
    await ok(await save(survey.id, user, { name: 'Ro' }));
    expect(await languageOf()).toBe('en');
    await ok(await saveIn('ar', 1));
    expect(await languageOf()).toBe('ar');
    // German is an interface language the version does not offer; French is no language at all.
    expect((await fieldsOf(await saveIn('de', 2))).language).toEqual([ANSWER_LANGUAGE_NOT_OFFERED]);
    expect((await fieldsOf(await saveIn('fr', 2))).language).toBeDefined();
    expect((await fieldsOf(await submit(survey.id, user, { name: 'Robin' }, { language: 'es' }))).language).toEqual([ANSWER_LANGUAGE_NOT_OFFERED]);
    // Left out: the one recorded stays, through a save and the submit.
    await ok(await save(survey.id, user, { name: 'Robin' }, 'page_1', 2));
    await ok(await submit(survey.id, user, { name: 'Robin' }));
    expect(await languageOf()).toBe('ar');
    expect((await responseRow(survey.id, user.id))?.status).toBe('submitted');

    // A submit without a draft records the language it names.
    const other = await member(c, survey.projectId);
    await ok(await submit(survey.id, other, { name: 'Sam' }, { language: 'ar' }));
    expect((await responseRow(survey.id, other.id))?.language).toBe('ar');
  });

  it('carries a revision: each save bumps it; a stale one is 409 conflict with the current answers and changes nothing', async () => {
    const c = ctx();
    const { survey, user } = await setup(c, branchingDefinition());
    // The laptop loaded the survey before anything was saved: revision 0.
    expect((await view(survey.id, user)).response).toBeUndefined();
    // The phone saves first (from revision 0, or with no revision: both mean "no response yet").
    expect(await ok(await save(survey.id, user, { name: 'Phone' }, 'page_1', 0))).toMatchObject({ revision: 1 });
    expect(await ok(await save(survey.id, user, { name: 'Phone', likes_tea: 'yes' }, 'page_2', 1))).toMatchObject({ status: 'draft', revision: 2 });
    expect((await view(survey.id, user)).response).toMatchObject({ answers: { name: 'Phone', likes_tea: 'yes' }, pageId: 'page_2', revision: 2 });

    // The laptop's older copy, from revision 0 and from revision 1: refused, with what the server holds.
    for (const stale of [0, 1]) {
      expect(await conflictOf(await save(survey.id, user, { drink: 'Laptop' }, 'page_1', stale))).toEqual({
        answers: { name: 'Phone', likes_tea: 'yes' },
        pageId: 'page_2',
        revision: 2,
      });
    }
    expect(await responseRow(survey.id, user.id)).toMatchObject({
      answers: { name: 'Phone', likes_tea: 'yes' },
      pageId: 'page_2',
      revision: 2,
      status: 'draft',
    });

    // Merged on the laptop and sent again with the current revision: both answers kept.
    expect(await ok(await save(survey.id, user, { name: 'Phone', likes_tea: 'yes', drink: 'Laptop' }, 'page_1', 2))).toMatchObject({ revision: 3 });
    expect((await view(survey.id, user)).response).toMatchObject({ answers: { name: 'Phone', likes_tea: 'yes', drink: 'Laptop' }, revision: 3 });
  });

  it('requires the revision once a response exists: 400 on `revision` saying what to send', async () => {
    const c = ctx();
    const { survey, user } = await setup(c);
    await ok(await save(survey.id, user, { name: 'First' }));
    expect(await fieldsOf(await save(survey.id, user, { name: 'Blind overwrite' }))).toEqual({ revision: [REVISION_REQUIRED_MESSAGE] });
    expect(Object.keys(await fieldsOf(await save(survey.id, user, { name: 'x' }, 'page_1', -1)))).toEqual(['revision']);
    expect(Object.keys(await fieldsOf(await send('PUT', `/api/surveys/${survey.id}/response`, { answers: {}, pageId: null, revision: '1' }, user)))).toEqual([
      'revision',
    ]);
    expect((await responseRow(survey.id, user.id))?.answers).toEqual({ name: 'First' });
  });

  it('of two saves at once from one revision, exactly one lands; the other is 409 conflict with the winner’s answers', async () => {
    const c = ctx();
    const { survey, user } = await setup(c);
    await ok(await save(survey.id, user, { name: 'Start' }));
    for (let round = 0; round < 3; round++) {
      const revision = round + 1;
      const results = await Promise.all([
        save(survey.id, user, { name: `A${round}` }, 'page_1', revision),
        save(survey.id, user, { name: `B${round}` }, 'page_1', revision),
      ]);
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
      const winner = results.find((res) => res.status === 200);
      const loser = results.find((res) => res.status === 409);
      if (!winner || !loser) throw new Error('expected one of each');
      expect(await ok(winner)).toMatchObject({ revision: revision + 1 });
      const row = await responseRow(survey.id, user.id);
      expect(row?.revision).toBe(revision + 1);
      expect(await conflictOf(loser)).toEqual({ answers: row?.answers, pageId: 'page_1', revision: revision + 1 });
    }
  });

  it('takes two first saves at once as one draft: the other is 409 conflict, never an overwrite', async () => {
    const c = ctx();
    const { survey } = await setup(c);
    for (const revision of [undefined, 0]) {
      const who = await member(c, survey.projectId);
      const results = await Promise.all([save(survey.id, who, { name: 'one' }, 'page_1', revision), save(survey.id, who, { name: 'two' }, 'page_1', revision)]);
      const rows = await c.database.db
        .select()
        .from(surveyResponses)
        .where(and(eq(surveyResponses.surveyId, survey.id), eq(surveyResponses.userId, who.id)));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.revision).toBe(1);
      const loser = results.find((res) => res.status !== 200);
      if (!loser) throw new Error(`revision ${revision}: both saves landed`);
      if (revision === undefined && loser.status === 400) {
        // Left out, the revision is required once a response exists: the second save found the
        // first one's row already written (on PostgreSQL it may or may not, depending on timing).
        expect(await fieldsOf(loser)).toEqual({ revision: [REVISION_REQUIRED_MESSAGE] });
        continue;
      }
      expect(results.map((res) => res.status).sort(), `revision ${revision}`).toEqual([200, 409]);
      expect(await conflictOf(loser)).toEqual({ answers: rows[0]?.answers, pageId: 'page_1', revision: 1 });
    }
  });

  it('checks the revision on submit when one is sent: a stale one is 409 conflict and submits nothing', async () => {
    const c = ctx();
    const { survey, user } = await setup(c);
    await ok(await save(survey.id, user, { name: 'Phone' }));
    await ok(await save(survey.id, user, { name: 'Phone, later' }, 'page_1', 1));
    expect(await conflictOf(await submit(survey.id, user, { name: 'Laptop' }, { revision: 1 }))).toEqual({
      answers: { name: 'Phone, later' },
      pageId: 'page_1',
      revision: 2,
    });
    expect(await responseRow(survey.id, user.id)).toMatchObject({ status: 'draft', answers: { name: 'Phone, later' }, revision: 2 });
    expect((await view(survey.id, user)).state).toBe('in_progress');

    await ok(await submit(survey.id, user, { name: 'Phone, later' }, { revision: 2 }));
    expect(await responseRow(survey.id, user.id)).toMatchObject({ status: 'submitted', answers: { name: 'Phone, later' }, revision: 3 });
    expect((await view(survey.id, user)).response).toMatchObject({ status: 'submitted', revision: 3 });

    // Without a draft: revision 0 submits; a revision sent while none exists starts the response.
    const fresh = await member(c, survey.projectId);
    await ok(await submit(survey.id, fresh, { name: 'At once' }, { revision: 0 }));
    expect(await responseRow(survey.id, fresh.id)).toMatchObject({ status: 'submitted', revision: 1 });
    // A draft made meanwhile on another device makes revision 0 stale.
    const late = await member(c, survey.projectId);
    await ok(await save(survey.id, late, { name: 'Other device' }));
    expect(await conflictOf(await submit(survey.id, late, { name: 'Stale' }, { revision: 0 }))).toMatchObject({
      answers: { name: 'Other device' },
      revision: 1,
    });
  });

  it('validates on submit: Required on the missing question, per element id; nothing is submitted', async () => {
    const c = ctx();
    const { survey, user } = await setup(c, branchingDefinition());
    const fields = await fieldsOf(await submit(survey.id, user, { likes_tea: 'maybe' }));
    expect(fields).toEqual({ name: ['Required'], likes_tea: ['Choose one of the options'] });
    expect(await responseRow(survey.id, user.id)).toBeUndefined();
    expect((await view(survey.id, user)).state).toBe('open');
  });

  it('stores the cleaned answers: hidden answers and unknown keys dropped, text trimmed', async () => {
    const c = ctx();
    const { survey, user } = await setup(c, branchingDefinition());
    await ok(await save(survey.id, user, { name: 'Robin', likes_tea: 'yes', drink: 'Assam' }));
    // "drink" is hidden once likes_tea is "no": its answer goes.
    const done = await ok<{ status: string }>(await submit(survey.id, user, { name: '  Robin  ', likes_tea: 'no', drink: 'Assam', extra: 'x' }));
    expect(done).toEqual({ status: 'submitted' });
    const row = await responseRow(survey.id, user.id);
    expect(row?.answers).toEqual({ name: 'Robin', likes_tea: 'no' });
    expect(row?.status).toBe('submitted');
    expect(row?.submittedAt?.toISOString()).toBe(c.clock.now().toISOString());
    const seen = await view(survey.id, user);
    expect(seen.state).toBe('submitted');
    expect(seen.response).toMatchObject({ status: 'submitted', answers: { name: 'Robin', likes_tea: 'no' } });
  });

  it('submits once: a second submit or save is 409 already_submitted, and of two at once exactly one wins', async () => {
    const c = ctx();
    const { survey, user } = await setup(c);
    await ok(await submit(survey.id, user, { name: 'First' }));
    expect((await errorOf(await submit(survey.id, user, { name: 'Second' }), 409)).code).toBe('already_submitted');
    expect((await errorOf(await save(survey.id, user, { name: 'Third' }), 409)).code).toBe('already_submitted');
    expect((await responseRow(survey.id, user.id))?.answers).toEqual({ name: 'First' });

    // Concurrent, without a draft (insert race) and with one (update race).
    for (const withDraft of [false, true]) {
      const other = await member(c, survey.projectId);
      if (withDraft) await ok(await save(survey.id, other, { name: 'draft' }));
      const results = await Promise.all([
        submit(survey.id, other, { name: 'A' }),
        submit(survey.id, other, { name: 'B' }),
        submit(survey.id, other, { name: 'C' }),
      ]);
      const statuses = results.map((res) => res.status).sort();
      expect(statuses, `withDraft=${withDraft}`).toEqual([200, 409, 409]);
      for (const res of results.filter((r) => r.status === 409)) expect((await errorOf(res, 409)).code).toBe('already_submitted');
      const rows = await c.database.db
        .select()
        .from(surveyResponses)
        .where(and(eq(surveyResponses.surveyId, survey.id), eq(surveyResponses.userId, other.id)));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.status).toBe('submitted');
    }
  });

  it('keeps the version a response started on after the survey moves to a newer one', async () => {
    const c = ctx();
    const project = await createProject(c);
    const form = await publishedForm(c, textDefinition('Versions'));
    const survey = await createSurvey(c, project.id, { form });
    const early = await member(c, project.id);
    await ok(await save(survey.id, early, { name: 'Early' }));

    // Version 2 asks for a required email instead of the name.
    const v2: FormDefinition = {
      schema: 'fieldwork.form/1',
      title: 'Versions',
      pages: [{ id: 'page_1', title: '', elements: [{ id: 'email', type: 'short_text', format: 'email', title: 'Email', required: true }] }],
    };
    await publishVersion(c, form.id, v2);
    await c.database.db.update(surveys).set({ formVersion: 2 }).where(eq(surveys.id, survey.id));

    const resumed = await view(survey.id, early);
    expect(resumed.form?.version).toBe(1);
    expect(resumed.form?.definition.pages[0]?.elements[0]?.id).toBe('name');
    // Validated against version 1: "email" is unknown there, "name" is required.
    expect(await fieldsOf(await submit(survey.id, early, { email: 'a@example.org' }))).toEqual({ name: ['Required'] });
    await ok(await submit(survey.id, early, { name: 'Early' }));
    expect((await responseRow(survey.id, early.id))?.formVersion).toBe(1);

    const late = await member(c, project.id);
    expect((await view(survey.id, late)).form?.version).toBe(2);
    await ok(await submit(survey.id, late, { email: 'late@example.org' }));
    expect((await responseRow(survey.id, late.id))?.formVersion).toBe(2);

    // A draft pinned on version 1 stays there even when it was written by the fixtures before the move.
    const pinned = await member(c, project.id);
    await insertResponse(c, survey, pinned.id, { status: 'draft', formVersion: 1, answers: { name: 'P' } });
    expect((await view(survey.id, pinned)).form?.version).toBe(1);
  });

  it('accepts photos only when they are the participant’s own uploads', async () => {
    const c = ctx();
    const { survey, user } = await setup(c, photoDefinition());
    const other = await participant(c);
    const insertMedia = async (id: string, ownerId: number) =>
      c.database.db.insert(media).values({
        id,
        ownerId,
        contentType: 'image/jpeg',
        width: 10,
        height: 10,
        bytes: 100,
        uploadedBytes: 100,
        displayKey: `${id}.jpg`,
        thumbnailKey: `${id}-t.jpg`,
        thumbnailWidth: 5,
        thumbnailHeight: 5,
      });
    const mine = `mine${survey.id}x${Date.now().toString(36)}`;
    const theirs = `theirs${survey.id}x${Date.now().toString(36)}`;
    await insertMedia(mine, user.id);
    await insertMedia(theirs, other.id);

    expect(await fieldsOf(await submit(survey.id, user, { photos: [mine, theirs] }))).toEqual({ photos: ['This photo could not be found; upload it again'] });
    expect(await fieldsOf(await submit(survey.id, user, { photos: ['no-such-photo'] }))).toEqual({
      photos: ['This photo could not be found; upload it again'],
    });
    await ok(await submit(survey.id, user, { photos: [mine], caption: 'My kitchen' }));
    expect((await responseRow(survey.id, user.id))?.answers).toEqual({ photos: [mine], caption: 'My kitchen' });
  });

  it('judges "today" by the server’s UTC date, or the participant’s when it is within a day of it', async () => {
    const c = ctx();
    const { survey, user } = await setup(c, branchingDefinition());
    const serverToday = c.clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(c.clock.now().getTime() + DAY).toISOString().slice(0, 10);
    // The participant's day is already tomorrow: a date of (server) today is before it.
    expect(await fieldsOf(await submit(survey.id, user, { name: 'A', when: serverToday }, { today: tomorrow }))).toEqual({
      when: ['Choose a date on or after today'],
    });
    // A `today` far from the server's is not believed.
    await ok(await submit(survey.id, user, { name: 'A', when: serverToday }, { today: '2020-01-01' }));
  });

  it('refuses autosave and submit on external surveys (409 not_native)', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const external = await createSurvey(c, project.id, { kind: 'external' });
    const seen = await view(external.id, user);
    expect(seen).toMatchObject({ kind: 'external', state: 'open', outcome: null });
    expect(seen.form).toBeUndefined();
    expect((await errorOf(await save(external.id, user, {}), 409)).code).toBe('not_native');
    expect((await errorOf(await submit(external.id, user, {}), 409)).code).toBe('not_native');
  });
});
