import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, formVersions } from '../../src/server/db/schema/index.ts';
import type { FormUse } from '../../src/server/services/form-usage.ts';
import { emptyDefinition, type FormDefinition } from '../../src/shared/forms/definition.ts';
import { translationProblems } from '../../src/shared/forms/translations.ts';
import type { ParticipantSurvey } from '../../src/shared/surveys.ts';
import type {
  AdminForm,
  AdminFormList,
  FormDraftChanges,
  FormDraftSaved,
  FormPublished,
  FormVersion,
  StaleRevisionError,
} from '../../src/shared/schemas/forms.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, signedInUser, type SignedIn } from './helpers.ts';
import { createMission, createProject, createSurvey, insertResponse, member } from './programme-fixtures.ts';

const SCHEMA = 'fieldwork.form/1';
const BASE = '/api/admin/forms';

type Element = Record<string, unknown> & { id: string; type: string; title: string };

/** A one-page definition with these elements. */
const definitionWith = (title: string, elements: Element[]) => ({ schema: SCHEMA, title, pages: [{ id: 'page_1', title: '', elements }] });

const nameQuestion: Element = { id: 'name', type: 'short_text', title: 'Your name' };
const colourQuestion: Element = {
  id: 'colour',
  type: 'single_choice',
  title: 'Favourite colour',
  options: [
    { id: 'red', label: 'Red' },
    { id: 'blue', label: 'Blue' },
  ],
};

let tagCounter = 0;
/** A word no other test's titles contain, so searches see only this test's forms. */
const uniqueTag = () => `tag${++tagCounter}x${Date.now().toString(36)}`;

describeEachBackend('forms API', (ctx) => {
  let moderator: SignedIn;
  let admin: SignedIn;
  beforeAll(async () => {
    moderator = await signedInUser(ctx(), 'moderator');
    admin = await signedInUser(ctx(), 'admin');
  });

  const call = (method: string, path: string, body?: unknown, who: SignedIn | null = moderator) =>
    method === 'GET' ? ctx().request(`${BASE}${path}`, { headers: who?.headers ?? {} }) : ctx().json(method, `${BASE}${path}`, body, who?.headers ?? {});

  async function ok<T>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  }

  const create = async (body: unknown, who: SignedIn = moderator) => ok<AdminForm>(await call('POST', '', body, who), 201);
  const get = async (id: number) => ok<AdminForm>(await call('GET', `/${id}`));
  const list = async (query: string) => ok<AdminFormList>(await call('GET', `?${query}`));
  const save = (id: number, definition: unknown, revision: number, who: SignedIn = moderator) => call('PUT', `/${id}/draft`, { definition, revision }, who);
  const saved = async (id: number, definition: unknown, revision: number) => ok<FormDraftSaved>(await save(id, definition, revision));
  const publish = (id: number, body: unknown = {}) => call('POST', `/${id}/publish`, body);
  const published = async (id: number, body: unknown = {}) => ok<FormPublished>(await publish(id, body), 201);
  const auditOf = (c: TestContext, id: number) =>
    c.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'form'), eq(auditLog.targetId, String(id))))
      .orderBy(asc(auditLog.id));

  it('are for moderators and admins: 401 without a session, 403 for participants, on every call', async () => {
    const form = await create({ title: 'Permissions' });
    const participant = await signedInUser(ctx());
    const calls: [string, string, unknown?][] = [
      ['GET', ''],
      ['POST', '', { title: 'Nope' }],
      ['GET', `/${form.id}`],
      ['PUT', `/${form.id}/draft`, { definition: emptyDefinition('Nope'), revision: 1 }],
      ['POST', `/${form.id}/publish`, {}],
      ['GET', `/${form.id}/changes`],
      ['GET', `/${form.id}/versions/1`],
      ['POST', `/${form.id}/duplicate`],
      ['POST', `/${form.id}/restore`],
      ['DELETE', `/${form.id}`],
    ];
    for (const [method, path, body] of calls) {
      expect((await errorOf(await call(method, path, body, null), 401)).code, `${method} ${path}`).toBe('unauthenticated');
      expect((await errorOf(await call(method, path, body, participant), 403)).code, `${method} ${path}`).toBe('forbidden');
    }
    // Nothing changed through the refused calls.
    expect(await get(form.id)).toMatchObject({ title: 'Permissions', revision: 1, status: 'draft', versions: [] });

    for (const who of [moderator, admin]) {
      const res = await call('GET', '', undefined, who);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect((await create({ title: `By ${who.email}` }, who)).createdBy).toEqual({ id: who.id, firstName: 'Robin', lastName: 'Hale' });
    }
  });

  it('create a form from a title (an empty first page) or from a whole draft', async () => {
    const form = await create({ title: '  Site survey  ' });
    expect(form).toMatchObject({
      title: 'Site survey',
      status: 'draft',
      revision: 1,
      draft: emptyDefinition('Site survey'),
      versions: [],
      latestVersion: null,
      usedBy: [],
      archivedAt: null,
      createdBy: { id: moderator.id },
      updatedBy: { id: moderator.id },
    });
    expect(form.createdAt).toBe(ctx().clock.now().toISOString());

    // The title wins over the definition's; the rest of the draft is kept, even what cannot be published yet.
    const draft = { ...definitionWith('Ignored title', [nameQuestion, { id: 'later', type: 'hologram', title: 'Not a type yet' }]), note: 'kept' };
    const fromDraft = await create({ title: 'Imported', definition: draft });
    expect(fromDraft.title).toBe('Imported');
    expect(fromDraft.draft).toEqual({ ...draft, title: 'Imported' });
    expect(await get(fromDraft.id)).toMatchObject({ title: 'Imported', draft: { ...draft, title: 'Imported' } });
  });

  it('check the create payload', async () => {
    expect(await fieldsOf(await call('POST', '', {}))).toEqual({ title: ['Required'] });
    expect(await fieldsOf(await call('POST', '', { title: '   ' }))).toEqual({ title: ['Required'] });
    expect(await fieldsOf(await call('POST', '', { title: 7 }))).toEqual({ title: ['Required'] });
    expect(await fieldsOf(await call('POST', '', { title: 'x'.repeat(301) }))).toEqual({ title: ['Too long'] });
    expect((await create({ title: 'x'.repeat(300) })).title).toHaveLength(300);
    expect(await fieldsOf(await call('POST', '', { title: 'Extra', owner: 1 }))).toEqual({ owner: ['Unexpected field'] });

    const malformed = await fieldsOf(
      await call('POST', '', {
        title: 'Bad',
        definition: { schema: SCHEMA, title: 'Bad', pages: [{ id: 'p', elements: [{ id: 3, type: 'short_text', title: 'Q' }] }] },
      }),
    );
    expect(Object.keys(malformed)).toEqual(['definition']);
    expect(malformed.definition?.[0]).toMatch(/^pages\.0\.elements\.0\.id: /);
    expect(Object.keys(await fieldsOf(await call('POST', '', { title: 'Bad', definition: { schema: 'other/1', title: 'Bad', pages: [] } })))).toEqual([
      'definition',
    ]);
    expect(Object.keys(await fieldsOf(await call('POST', '', { title: 'Bad', definition: null })))).toEqual(['definition']);

    // Valid JSON that is not an object, and invalid JSON.
    expect((await errorOf(await call('POST', '', ['title']), 400)).code).toBe('validation_failed');
    const broken = await ctx().request(BASE, {
      method: 'POST',
      headers: { ...moderator.headers, Origin: 'http://127.0.0.1:4321', 'Content-Type': 'application/json' },
      body: '{"title":',
    });
    expect((await errorOf(broken, 400)).code).toBe('invalid_json');
  });

  it('list: drafts and published forms, newest first, 10 a page, searchable in the title, sortable', async () => {
    const tag = uniqueTag();
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++) {
      ids.push((await create({ title: `${tag} ${String(i).padStart(2, '0')}` })).id);
      ctx().clock.advance(1000);
    }
    const first = await list(`q=${tag}`);
    expect(first).toMatchObject({ total: 12, page: 1, pageSize: 10 });
    expect(first.items.map((f) => f.title)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((n) => `${tag} ${String(n).padStart(2, '0')}`));
    expect(first.items[0]).toEqual({
      id: ids[11],
      title: `${tag} 12`,
      status: 'draft',
      latestVersion: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      usedBy: [],
    });
    expect((await list(`q=${tag}&page=2`)).items.map((f) => f.title)).toEqual([`${tag} 02`, `${tag} 01`]);
    expect((await list(`q=${tag}&page=3`)).items).toEqual([]);
    expect((await list(`q=${tag}&pageSize=5&page=3`)).items.map((f) => f.title)).toEqual([`${tag} 02`, `${tag} 01`]);

    // Case-insensitive; LIKE wildcards are taken literally.
    expect((await list(`q=${tag.toUpperCase()}%2007`)).items.map((f) => f.id)).toEqual([ids[6]]);
    expect((await list(`q=${tag}%25`)).total).toBe(0);
    expect((await list(`q=${tag}_`)).total).toBe(0);

    // Sorting: by title (A to Z unless dir=desc), by creation, oldest edits first.
    expect((await list(`q=${tag}&sort=title&pageSize=3`)).items.map((f) => f.title)).toEqual([`${tag} 01`, `${tag} 02`, `${tag} 03`]);
    expect((await list(`q=${tag}&sort=title&dir=desc&pageSize=2`)).items.map((f) => f.title)).toEqual([`${tag} 12`, `${tag} 11`]);
    expect((await list(`q=${tag}&sort=created&dir=asc&pageSize=2`)).items.map((f) => f.id)).toEqual([ids[0], ids[1]]);
    // Saving a draft moves a form to the top of the default order.
    await saved(ids[0] ?? 0, definitionWith(`${tag} 01`, [nameQuestion]), 1);
    expect((await list(`q=${tag}&pageSize=1`)).items.map((f) => f.id)).toEqual([ids[0]]);
    expect((await list(`q=${tag}&sort=created&pageSize=1`)).items.map((f) => f.id)).toEqual([ids[11]]);

    expect(Object.keys(await fieldsOf(await call('GET', '?pageSize=101')))).toEqual(['pageSize']);
    expect(Object.keys(await fieldsOf(await call('GET', '?page=0')))).toEqual(['page']);
    expect(await fieldsOf(await call('GET', '?sort=popular&dir=up&status=gone'))).toEqual({
      sort: ['Invalid enum value'],
      dir: ['Invalid enum value'],
      status: ['Invalid enum value'],
    });
  });

  it('get one form; an unknown or malformed id is 404', async () => {
    const form = await create({ title: 'Lookup' });
    expect(await get(form.id)).toEqual(form);
    for (const id of ['999999', 'abc', '0', '-1', '1e3', '1.0', '99999999999']) {
      expect((await errorOf(await call('GET', `/${id}`), 404)).code, id).toBe('not_found');
      expect((await errorOf(await call('PUT', `/${id}/draft`, { definition: emptyDefinition('x'), revision: 1 }), 404)).code, id).toBe('not_found');
    }
    expect((await errorOf(await call('POST', '/abc/publish', {}), 404)).code).toBe('not_found');
    expect((await errorOf(await call('DELETE', '/abc'), 404)).code).toBe('not_found');
    expect((await errorOf(await call('DELETE', '/999999'), 404)).code).toBe('not_found');
    expect((await errorOf(await call('POST', '/999999/duplicate'), 404)).code).toBe('not_found');
    expect((await errorOf(await call('POST', '/999999/restore'), 404)).code).toBe('not_found');
    expect((await errorOf(await call('GET', '/999999/changes'), 404)).code).toBe('not_found');
  });

  it('save the draft: the revision goes up by one and the title follows the draft', async () => {
    const form = await create({ title: 'Draft work' });
    ctx().clock.advance(60_000);
    const first = await saved(form.id, definitionWith('Draft work, renamed', [nameQuestion]), 1);
    expect(first).toEqual({ revision: 2, title: 'Draft work, renamed', updatedAt: ctx().clock.now().toISOString() });
    expect(await saved(form.id, definitionWith('Draft work, renamed', [nameQuestion, colourQuestion]), 2)).toMatchObject({ revision: 3 });
    // An empty (or blank) draft title keeps the form's title.
    expect(await saved(form.id, definitionWith('   ', [nameQuestion, colourQuestion]), 3)).toMatchObject({ revision: 4, title: 'Draft work, renamed' });
    const loaded = await get(form.id);
    expect(loaded).toMatchObject({ revision: 4, title: 'Draft work, renamed', status: 'draft', updatedBy: { id: moderator.id } });
    expect(loaded.draft).toEqual(definitionWith('   ', [nameQuestion, colourQuestion]));
  });

  it('a stale revision is 409 with the current draft, and nothing is overwritten', async () => {
    const form = await create({ title: 'Shared' });
    const theirs = definitionWith('Shared', [nameQuestion]);
    await saved(form.id, theirs, 1);
    const mine = definitionWith('Shared', [colourQuestion]);
    const res = await save(form.id, mine, 1, admin);
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as { error: StaleRevisionError };
    expect(error).toEqual({
      code: 'stale_revision',
      message: 'Someone else saved this form since you opened it',
      revision: 2,
      draft: theirs,
      title: 'Shared',
      updatedAt: expect.any(String),
      updatedBy: { id: moderator.id, firstName: 'Robin', lastName: 'Hale' },
    });
    expect((await get(form.id)).draft).toEqual(theirs);
    // Keeping mine: save again on the current revision.
    expect(await saved(form.id, mine, error.revision)).toMatchObject({ revision: 3 });
    // A revision from the future is stale too.
    expect((await errorOf(await save(form.id, mine, 99), 409)).code).toBe('stale_revision');
  });

  it('two saves from the same revision at once: exactly one wins', async () => {
    const form = await create({ title: 'Race' });
    const answers = await Promise.all([1, 2, 3].map((n) => save(form.id, definitionWith(`Race ${n}`, []), 1)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await get(form.id)).revision).toBe(2);
  });

  it('a malformed draft is 400; a well-formed one that cannot be published yet is saved', async () => {
    const form = await create({ title: 'Work in progress' });
    const fields = await fieldsOf(
      await save(form.id, { schema: SCHEMA, title: 'x', pages: [{ id: 'page_1', elements: [{ id: 'a', type: 'short_text' }] }] }, 1),
    );
    expect(fields).toEqual({ definition: ['pages.0.elements.0.title: Invalid input: expected string, received undefined'] });
    expect(await fieldsOf(await call('PUT', `/${form.id}/draft`, { revision: 1 }))).toEqual({ definition: ['Required'] });
    expect(await fieldsOf(await call('PUT', `/${form.id}/draft`, { definition: emptyDefinition('x') }))).toEqual({ revision: ['Required'] });
    expect(Object.keys(await fieldsOf(await call('PUT', `/${form.id}/draft`, { definition: emptyDefinition('x'), revision: 0 })))).toEqual(['revision']);
    expect(Object.keys(await fieldsOf(await call('PUT', `/${form.id}/draft`, 'just a string')))).toEqual(['_']);
    expect((await get(form.id)).revision).toBe(1);

    // Duplicate ids and an unknown type: saved all the same.
    const unfinished = definitionWith('Work in progress', [nameQuestion, { ...nameQuestion, title: 'Again' }, { id: 'mystery', type: 'hologram', title: '?' }]);
    expect(await saved(form.id, unfinished, 1)).toMatchObject({ revision: 2 });
    expect((await get(form.id)).draft).toEqual(unfinished);

    // Over the body limit: 413.
    const huge = definitionWith('Huge', [{ ...nameQuestion, description: 'x'.repeat(1024 * 1024) }]);
    expect((await errorOf(await save(form.id, huge, 2), 413)).code).toBe('payload_too_large');
  });

  it('publish: problems are 400 by element id; then version 1, 2, … each frozen', async () => {
    const form = await create({ title: 'Visit report' });
    await saved(
      form.id,
      definitionWith('Visit report', [nameQuestion, { ...nameQuestion, title: 'Again' }, { id: 'mystery', type: 'hologram', title: '?' }]),
      1,
    );
    const problems = await errorOf(await publish(form.id), 400);
    expect(problems).toMatchObject({ code: 'validation_failed', message: 'Fix the problems before publishing' });
    expect(Object.keys(problems.fields ?? {})).toEqual(expect.arrayContaining(['name', 'mystery']));
    expect((await get(form.id)).status).toBe('draft');

    const v1 = definitionWith('Visit report', [nameQuestion, colourQuestion]);
    await saved(form.id, v1, 2);
    ctx().clock.advance(1000);
    expect(await published(form.id)).toEqual({ version: 1, changes: [] });
    const afterFirst = await get(form.id);
    expect(afterFirst).toMatchObject({ status: 'published', latestVersion: 1, revision: 3 });
    expect(afterFirst.versions).toEqual([
      { version: 1, publishedAt: ctx().clock.now().toISOString(), publishedBy: { id: moderator.id, firstName: 'Robin', lastName: 'Hale' } },
    ]);

    // Editing the draft later does not touch version 1.
    const v2 = definitionWith('Visit report', [nameQuestion, colourQuestion, { id: 'notes', type: 'long_text', title: 'Notes' }]);
    await saved(form.id, v2, 3);
    expect(await ok<FormVersion>(await call('GET', `/${form.id}/versions/1`))).toEqual({
      version: 1,
      definition: v1,
      publishedAt: afterFirst.versions[0]?.publishedAt,
      publishedBy: { id: moderator.id, firstName: 'Robin', lastName: 'Hale' },
    });

    ctx().clock.advance(1000);
    const second = await published(form.id, { revision: 4 });
    expect(second.version).toBe(2);
    expect(second.changes.length).toBeGreaterThan(0);
    expect(second.changes.some((change) => change.elementId === 'notes')).toBe(true);
    expect(second.changes.every((change) => !change.breaking)).toBe(true);
    expect((await ok<FormVersion>(await call('GET', `/${form.id}/versions/2`))).definition).toEqual(v2);
    expect((await ok<FormVersion>(await call('GET', `/${form.id}/versions/1`))).definition).toEqual(v1);
    expect((await get(form.id)).versions.map((v) => v.version)).toEqual([2, 1]);
    expect((await list(`q=${encodeURIComponent('Visit report')}`)).items.find((f) => f.id === form.id)?.latestVersion).toBe(2);

    for (const version of ['3', '0', 'abc', '1e0']) expect((await errorOf(await call('GET', `/${form.id}/versions/${version}`), 404)).code).toBe('not_found');
    expect((await errorOf(await call('GET', '/999999/versions/1'), 404)).code).toBe('not_found');

    // publish with a stale revision (the builder's copy is old) is 409 with the current draft.
    const stale = await publish(form.id, { revision: 3 });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: StaleRevisionError }).error).toMatchObject({ code: 'stale_revision', revision: 4, draft: v2 });
    expect(await fieldsOf(await publish(form.id, { confirmBreaking: 'yes', force: true }))).toEqual({
      confirmBreaking: ['Must be true or false'],
      force: ['Unexpected field'],
    });
  });

  it('publish refuses what participants would see blank (issue 28): every problem by question, and no version; a version from before still serves', async () => {
    const blankChoice: Element = {
      id: 'single_choice_1',
      type: 'single_choice',
      title: '',
      options: [
        { id: 'option_1', label: '' },
        { id: 'option_2', label: ' ' },
      ],
    };
    const broken = {
      schema: SCHEMA,
      title: 'Blank radios',
      pages: [
        { id: 'page_1', title: '', elements: [blankChoice, { ...nameQuestion, id: 'Bad Id!' }] },
        { id: 'page_2', title: '', elements: [] },
      ],
    };
    const form = await create({ title: 'Blank radios', definition: broken });
    expect(await errorOf(await publish(form.id), 400)).toEqual({
      code: 'validation_failed',
      message: 'Fix the problems before publishing',
      fields: {
        single_choice_1: [
          '"single_choice_1": the question has no title',
          '"single_choice_1": option 1 has no label',
          '"single_choice_1": option 2 has no label',
        ],
        'Bad Id!': ['"Bad Id!": id: Use a lower-case letter, then lower-case letters, digits or _ (64 at most)'],
        page_2: ['"page_2": the page is empty; add a question or delete the page'],
      },
    });
    expect(await get(form.id)).toMatchObject({ status: 'draft', latestVersion: null, versions: [] });
    const db = ctx().database.db;
    expect(await db.select().from(formVersions).where(eq(formVersions.formId, form.id))).toEqual([]);

    // A version published before these rules (as it was stored then) is left alone: a survey still pins it and a member still gets it.
    const old = definitionWith('Blank radios', [blankChoice]) as FormDefinition;
    await db.insert(formVersions).values({ formId: form.id, version: 1, definition: old, publishedBy: moderator.id });
    const project = await createProject(ctx());
    const survey = await ok<{ id: number; formVersion: number }>(
      await ctx().json(
        'POST',
        `/api/admin/projects/${project.id}/surveys`,
        { title: 'Old radios', kind: 'native', formId: form.id, status: 'live' },
        moderator.headers,
      ),
      201,
    );
    expect(survey.formVersion).toBe(1);
    const someone = await member(ctx(), project.id);
    const view = await ok<ParticipantSurvey>(await ctx().request(`/api/surveys/${survey.id}`, { headers: someone.headers }));
    expect(view.form).toEqual({ version: 1, definition: old });
  });

  it('publish checks the translations (decision 035): none into a language not offered, none of a text the source lacks; missing ones only with fallback "source"', async () => {
    const offered = { ...definitionWith('Visit report', [nameQuestion, colourQuestion]), language: 'en', languages: ['en', 'ar'] };
    const form = await create({ title: 'Visit report', definition: offered });
    let revision = 1;
    /** Saves the draft with these translations and answers its publish's 400 messages on `form`. */
    const refused = async (translations: Record<string, Record<string, string>>) => {
      const draft = { ...offered, translations };
      await saved(form.id, draft, revision++);
      const problems = await fieldsOf(await publish(form.id));
      return { problems: problems.form, expected: translationProblems(draft) };
    };
    // German is not offered.
    const german = await refused({ 'elements.name.title': { de: 'Ihr Name' } });
    expect(german.expected).toEqual(['the text "elements.name.title" is translated into "de", which the form does not offer']);
    expect(german.problems).toEqual(german.expected);
    // A translation of a question the source does not have.
    const orphan = await refused({ 'elements.gone.title': { ar: 'سؤال محذوف' } });
    expect(orphan.expected).toEqual(['the text "elements.gone.title" has a translation but no text in the source language']);
    expect(orphan.problems).toEqual(orphan.expected);
    expect((await get(form.id)).latestVersion).toBeNull();

    // Arabic misses 4 of the 5 texts (the title, the colour question and its two options): 409 until the fallback is named.
    await saved(form.id, { ...offered, translations: { 'elements.name.title': { ar: 'اسمك' } } }, revision++);
    const missing = await errorOf(await publish(form.id), 409);
    expect(missing).toMatchObject({ code: 'missing_translations', missing: { ar: 4 } });
    expect((await get(form.id)).latestVersion).toBeNull();
    expect(await published(form.id, { fallback: 'source' })).toEqual({ version: 1, changes: [] });
    const version = await ok<FormVersion>(await call('GET', `/${form.id}/versions/1`));
    expect(version.definition).toMatchObject({
      language: 'en',
      languages: ['en', 'ar'],
      translations: { 'elements.name.title': { ar: 'اسمك' } },
      fallback: 'source',
    });
    expect((await fieldsOf(await publish(form.id, { fallback: 'blank' }))).fallback).toEqual(['Must be "source"']);
  });

  it('concurrent publishes take different version numbers', async () => {
    const form = await create({ title: 'Busy', definition: definitionWith('Busy', [nameQuestion]) });
    const answers = await Promise.all([publish(form.id), publish(form.id), publish(form.id)]);
    const versions = await Promise.all(answers.map(async (res) => ok<FormPublished>(res, 201)));
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2, 3]);
  });

  it('changes of the draft against the latest version, for the publish dialog', async () => {
    const form = await create({ title: 'Compare', definition: definitionWith('Compare', [nameQuestion, colourQuestion]) });
    const changesOf = async () => ok<FormDraftChanges>(await call('GET', `/${form.id}/changes`));
    expect(await changesOf()).toEqual({ changes: [], breaking: false, hasAnswers: false, latestVersion: null, missingTranslations: {} });
    await published(form.id);
    expect(await changesOf()).toEqual({ changes: [], breaking: false, hasAnswers: false, latestVersion: 1, missingTranslations: {} });

    // Taking an option away breaks the answers that chose it.
    await saved(form.id, definitionWith('Compare', [nameQuestion, { ...colourQuestion, options: [{ id: 'red', label: 'Red' }] }]), 1);
    const changes = await changesOf();
    expect(changes).toMatchObject({ breaking: true, hasAnswers: false, latestVersion: 1 });
    expect(changes.changes.some((change) => change.breaking && change.elementId === 'colour')).toBe(true);

    // A draft that cannot be published: its problems instead.
    await saved(form.id, definitionWith('Compare', [nameQuestion, nameQuestion]), 2);
    const blocked = await changesOf();
    expect(blocked).toMatchObject({ changes: [], breaking: false, latestVersion: 1 });
    expect(Object.keys(blocked.problems ?? {})).toContain('name');
  });

  it('breaking changes need confirming once an earlier version has answers', async () => {
    const form = await create({ title: 'Answered', definition: definitionWith('Answered', [nameQuestion, colourQuestion]) });
    expect((await published(form.id)).version).toBe(1);
    // Without answers a breaking change publishes at once.
    await saved(form.id, definitionWith('Answered', [colourQuestion]), 1);
    expect((await published(form.id)).version).toBe(2);

    // Version 2 has answers: a survey on it with a response (answers of another form do not count).
    const project = await createProject(ctx());
    const survey = await createSurvey(ctx(), project.id, { form: { id: form.id, version: 2 } });
    const respondent = await signedInUser(ctx());
    expect((await ok<FormDraftChanges>(await call('GET', `/${form.id}/changes`))).hasAnswers).toBe(false);
    await insertResponse(ctx(), survey, respondent.id, { status: 'draft', answers: {} });
    // An empty draft response is no answer yet.
    expect((await ok<FormDraftChanges>(await call('GET', `/${form.id}/changes`))).hasAnswers).toBe(false);
    await insertResponse(ctx(), survey, (await signedInUser(ctx())).id, { answers: { colour: 'red' } });
    expect((await ok<FormDraftChanges>(await call('GET', `/${form.id}/changes`))).hasAnswers).toBe(true);
    // Adding a question breaks nothing.
    await saved(form.id, definitionWith('Answered', [colourQuestion, nameQuestion]), 2);
    expect((await published(form.id)).version).toBe(3);

    await saved(form.id, definitionWith('Answered', [nameQuestion]), 3);
    const refused = await publish(form.id);
    expect(refused.status).toBe(409);
    const { error } = (await refused.json()) as { error: { code: string; message: string; changes: FormPublished['changes'] } };
    expect(error.code).toBe('breaking_changes');
    expect(error.message).toBeTruthy();
    expect(error.changes.length).toBeGreaterThan(0);
    expect(error.changes.every((change) => change.breaking)).toBe(true);
    expect(error.changes.some((change) => change.elementId === 'colour')).toBe(true);
    expect((await get(form.id)).latestVersion).toBe(3);
    expect((await errorOf(await publish(form.id, { confirmBreaking: false }), 409)).code).toBe('breaking_changes');

    const confirmed = await published(form.id, { confirmBreaking: true });
    expect(confirmed.version).toBe(4);
    expect(confirmed.changes.some((change) => change.breaking)).toBe(true);
    // Other forms are not affected by this form's answers.
    const other = await create({ title: 'Other', definition: definitionWith('Other', [nameQuestion, colourQuestion]) });
    await published(other.id);
    await saved(other.id, definitionWith('Other', [nameQuestion]), 1);
    expect((await published(other.id)).version).toBe(2);
  });

  it('duplicate: "Copy of …" with the source draft and no versions, archived sources too', async () => {
    const draft = definitionWith('Original', [nameQuestion, colourQuestion]);
    const source = await create({ title: 'Original', definition: draft });
    await published(source.id);
    await saved(source.id, definitionWith('Original', [colourQuestion]), 1);
    const copy = await ok<AdminForm>(await call('POST', `/${source.id}/duplicate`), 201);
    expect(copy).toMatchObject({
      title: 'Copy of Original',
      status: 'draft',
      revision: 1,
      versions: [],
      latestVersion: null,
      draft: definitionWith('Copy of Original', [colourQuestion]),
      createdBy: { id: moderator.id },
    });
    expect(copy.id).not.toBe(source.id);
    expect((await get(source.id)).title).toBe('Original');

    const long = await create({ title: 'y'.repeat(300) });
    const longCopy = await ok<AdminForm>(await call('POST', `/${long.id}/duplicate`), 201);
    expect(longCopy.title).toBe(`Copy of ${'y'.repeat(292)}`);
    expect(longCopy.draft.title).toBe(longCopy.title);

    expect((await call('DELETE', `/${source.id}`)).status).toBe(204);
    expect((await ok<AdminForm>(await call('POST', `/${source.id}/duplicate`), 201)).title).toBe('Copy of Original');
  });

  it('archive: 204, out of the list (unless asked for), read-only; restore brings it back', async () => {
    const tag = uniqueTag();
    const unpublished = await create({ title: `${tag} never published` });
    const publishedForm = await create({ title: `${tag} published`, definition: definitionWith(`${tag} published`, [nameQuestion]) });
    await published(publishedForm.id);

    for (const form of [unpublished, publishedForm]) {
      const res = await call('DELETE', `/${form.id}`);
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
    }
    expect((await list(`q=${tag}`)).total).toBe(0);
    const archived = await list(`q=${tag}&status=archived`);
    expect(archived.items.map((f) => [f.title, f.status])).toEqual([
      [`${tag} published`, 'archived'],
      [`${tag} never published`, 'archived'],
    ]);
    expect((await list(`q=${tag}&status=published`)).total).toBe(0);
    const loaded = await get(publishedForm.id);
    expect(loaded).toMatchObject({ status: 'archived', archivedAt: ctx().clock.now().toISOString(), latestVersion: 1 });
    // Versions stay readable.
    expect((await call('GET', `/${publishedForm.id}/versions/1`)).status).toBe(200);

    expect((await errorOf(await save(publishedForm.id, definitionWith('x', []), loaded.revision), 409)).code).toBe('archived');
    expect((await errorOf(await publish(publishedForm.id), 409)).code).toBe('archived');
    // Archiving again changes nothing.
    expect((await call('DELETE', `/${publishedForm.id}`)).status).toBe(204);

    const restored = await ok<AdminForm>(await call('POST', `/${publishedForm.id}/restore`));
    expect(restored).toMatchObject({ id: publishedForm.id, status: 'published', archivedAt: null });
    expect((await ok<AdminForm>(await call('POST', `/${unpublished.id}/restore`))).status).toBe('draft');
    expect((await list(`q=${tag}`)).items.map((f) => f.status).sort()).toEqual(['draft', 'published']);
    expect((await list(`q=${tag}&status=draft`)).items.map((f) => f.id)).toEqual([unpublished.id]);
    // Restoring a form that is not archived changes nothing.
    expect((await ok<AdminForm>(await call('POST', `/${unpublished.id}/restore`))).status).toBe('draft');
    expect(await saved(publishedForm.id, definitionWith(`${tag} published`, [nameQuestion]), restored.revision)).toMatchObject({
      revision: restored.revision + 1,
    });
  });

  it('a form a live survey or mission uses cannot be archived', async () => {
    const definition = definitionWith('Used', [nameQuestion]);
    const form = await create({ title: 'Used', definition });
    const idle = await create({ title: 'Used, but not live', definition: definitionWith('Used, but not live', [nameQuestion]) });
    await published(form.id);
    await published(idle.id);
    const project = await createProject(ctx());
    const survey = await createSurvey(ctx(), project.id, { title: 'Spring survey', form: { id: form.id, version: 1 }, status: 'live' });
    const mission = await createMission(ctx(), project.id, { title: 'Old mission', form: { id: idle.id, version: 1 }, status: 'closed' });
    const uses = new Map<number, FormUse[]>([
      [form.id, [{ kind: 'survey', id: survey.id, title: 'Spring survey', projectId: project.id, status: 'live', version: 1, live: true }]],
      [idle.id, [{ kind: 'mission', id: mission.id, title: 'Old mission', projectId: project.id, status: 'closed', version: 1, live: false }]],
    ]);
    expect((await get(form.id)).usedBy).toEqual(uses.get(form.id));
    expect((await list('q=Used')).items.find((f) => f.id === idle.id)?.usedBy).toEqual(uses.get(idle.id));
    const refused = await call('DELETE', `/${form.id}`);
    expect(refused.status).toBe(409);
    const { error } = (await refused.json()) as { error: { code: string; message: string; usedBy: FormUse[] } };
    expect(error).toMatchObject({ code: 'in_use', usedBy: uses.get(form.id) });
    expect(error.message).toBeTruthy();
    expect((await get(form.id)).status).toBe('published');
    expect((await call('DELETE', `/${idle.id}`)).status).toBe(204);

    // Closing the survey (through the admin API) frees the form.
    expect((await ctx().json('PATCH', `/api/admin/surveys/${survey.id}`, { status: 'closed' }, moderator.headers)).status).toBe(200);
    expect((await get(form.id)).usedBy).toEqual([
      { kind: 'survey', id: survey.id, title: 'Spring survey', projectId: project.id, status: 'closed', version: 1, live: false },
    ]);
    expect((await call('DELETE', `/${form.id}`)).status).toBe(204);
  });

  it('every change is in the audit log, without whole drafts', async () => {
    const form = await create({ title: 'Audited' }, admin);
    await saved(form.id, definitionWith('Audited', [nameQuestion]), 1);
    await published(form.id);
    const copy = await ok<AdminForm>(await call('POST', `/${form.id}/duplicate`), 201);
    await call('DELETE', `/${form.id}`);
    await call('POST', `/${form.id}/restore`);
    // Refused calls write nothing.
    await save(form.id, definitionWith('Audited', []), 1);

    const entries = await auditOf(ctx(), form.id);
    expect(entries.map((e) => [e.action, e.actorId, e.via])).toEqual([
      ['form.create', admin.id, 'api'],
      ['form.draft.save', moderator.id, 'api'],
      ['form.publish', moderator.id, 'api'],
      ['form.archive', moderator.id, 'api'],
      ['form.restore', moderator.id, 'api'],
    ]);
    expect(entries.map((e) => e.after)).toEqual([
      { title: 'Audited', revision: 1 },
      { title: 'Audited', revision: 2 },
      { version: 1, changes: 0, breaking: 0 },
      { status: 'archived', title: 'Audited' },
      { status: 'published' },
    ]);
    for (const entry of entries) expect(JSON.stringify(entry.after)).not.toContain('pages');
    const copyEntries = await auditOf(ctx(), copy.id);
    expect(copyEntries.map((e) => [e.action, e.after])).toEqual([['form.duplicate', { title: 'Copy of Audited', sourceId: form.id }]]);
  });
});

describeEachBackend('the form format as JSON Schema', (ctx) => {
  it('answers without a session, cacheable', async () => {
    const res = await ctx().request('/api/forms/schema.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const schema = (await res.json()) as Record<string, unknown>;
    expect(typeof schema).toBe('object');
    expect(JSON.stringify(schema)).toContain(SCHEMA);
  });
});
