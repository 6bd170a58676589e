import { and, asc, eq } from 'drizzle-orm';
import Papa from 'papaparse';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, forms, surveyResponses, surveys, users } from '../../src/server/db/schema/index.ts';
import { sha256Hex } from '../../src/server/services/crypto.ts';
import type { ListPage } from '../../src/shared/list.ts';
import type { AdminSurvey, AdminSurveyResponse, SurveyResults, SurveyWebhookSecret } from '../../src/shared/surveys.ts';
import { describeEachBackend } from './harness.ts';
import { errorOf, fieldsOf, signedInUser, type SignedIn } from './helpers.ts';
import {
  addMember,
  callAs,
  createProject,
  createSurvey,
  insertExternalRef,
  insertResponse,
  member,
  okJson,
  participant,
  publishedForm,
  publishVersion,
  richDefinition,
  textDefinition,
} from './programme-fixtures.ts';

const projectPath = (id: number) => `/api/admin/projects/${id}/surveys`;
const surveyPath = (id: number) => `/api/admin/surveys/${id}`;

/** A CSV answer's text, after checking it starts with the UTF-8 byte order mark (which it drops). */
async function csvText(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return new TextDecoder().decode(bytes.slice(3));
}

/** CSV text as rows of cells. */
function parseCsv(text: string): string[][] {
  const parsed = Papa.parse<string[]>(text, { header: false, skipEmptyLines: false });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

describeEachBackend('admin surveys API', (ctx) => {
  let moderator: SignedIn;
  beforeAll(async () => {
    moderator = await signedInUser(ctx(), 'moderator');
  });
  const call = (method: string, path: string, body?: unknown, who: SignedIn | null = moderator) => callAs(ctx(), who)(method, path, body);
  const createVia = async (projectId: number, body: unknown) => okJson<AdminSurvey>(await call('POST', projectPath(projectId), body), 201);
  const get = async (id: number) => okJson<AdminSurvey>(await call('GET', surveyPath(id)));
  const patch = (id: number, body: unknown) => call('PATCH', surveyPath(id), body);

  it('create a native survey on a published form: its latest version by default, or the one given', async () => {
    const project = await createProject(ctx(), { status: 'draft' });
    const form = await publishedForm(ctx());
    await publishVersion(ctx(), form.id, textDefinition('Second'));
    const survey = await createVia(project.id, {
      title: '  Onboarding  ',
      kind: 'native',
      formId: form.id,
      points: 15,
      estimatedMinutes: 5,
      opensAt: '2026-11-02T09:00:00+01:00',
      closesAt: '2026-11-30T18:00:00Z',
      status: 'live',
    });
    expect(survey).toEqual({
      id: expect.any(Number),
      projectId: project.id,
      title: 'Onboarding',
      description: '',
      translations: {},
      kind: 'native',
      formId: form.id,
      formVersion: 2,
      latestFormVersion: 2,
      externalUrl: null,
      trustReturns: false,
      points: 15,
      estimatedMinutes: 5,
      opensAt: '2026-11-02T08:00:00.000Z',
      closesAt: '2026-11-30T18:00:00.000Z',
      status: 'live',
      counts: { members: 0, started: 0, submitted: 0 },
      returnLinks: null,
      webhook: null,
      createdAt: ctx().clock.now().toISOString(),
      updatedAt: ctx().clock.now().toISOString(),
    });
    expect(await get(survey.id)).toEqual(survey);
    const pinned = await createVia(project.id, { title: 'On v1', kind: 'native', formId: form.id, formVersion: 1 });
    expect(pinned).toMatchObject({ formVersion: 1, latestFormVersion: 2, status: 'draft', points: 0 });
    const listed = await okJson<{ items: AdminSurvey[] }>(await call('GET', projectPath(project.id)));
    expect(listed.items.map((s) => s.id)).toEqual([survey.id, pinned.id]);
  });

  it('create an external survey: its link, one return link per outcome (each with its own key) and the webhook to paste into Alchemer', async () => {
    const project = await createProject(ctx());
    const survey = await createVia(project.id, {
      title: 'Panel',
      kind: 'external',
      externalUrl: 'https://survey.alchemer.com/s3/123/panel',
      trustReturns: true,
      formId: null,
    });
    expect(survey).toMatchObject({
      kind: 'external',
      formId: null,
      formVersion: null,
      latestFormVersion: null,
      externalUrl: 'https://survey.alchemer.com/s3/123/panel',
      trustReturns: true,
    });
    const base = `${ctx().config.publicUrl}/api/surveys/return`;
    const links = survey.returnLinks;
    if (!links) throw new Error('no return links');
    expect(Object.keys(links).sort()).toEqual(['complete', 'over_quota', 'screened_out']);
    const keys = new Set<string>();
    for (const [status, link] of Object.entries(links)) {
      // Ready to paste: Alchemer's merge code where the reference goes, last and unencoded.
      expect(link).toMatch(new RegExp(`^${base.replace(/[.?]/g, '\\$&')}\\?status=${status}&k=[A-Za-z0-9_-]{22}&pid=\\[url\\("pid"\\)\\]$`));
      keys.add(new URL(link).searchParams.get('k') ?? '');
    }
    expect(keys.size).toBe(3);
    expect(survey.webhook).toEqual({ configured: false, url: `${ctx().config.publicUrl}/api/surveys/${survey.id}/webhook` });
    // The links stay the same; another survey has other keys.
    expect((await get(survey.id)).returnLinks).toEqual(links);
    const other = await createVia(project.id, { title: 'Other', kind: 'external', externalUrl: 'https://survey.alchemer.com/s3/124/other' });
    expect(other.returnLinks?.complete).not.toBe(links.complete);
    // The key is never in the audit log.
    const [row] = await ctx().database.db.select().from(surveys).where(eq(surveys.id, survey.id));
    const audits = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(survey.id)));
    expect(JSON.stringify(audits)).not.toContain(row?.returnKey ?? 'no key');
  });

  it('webhook secret: made for an external survey, answered once, replaced after; only its hash kept; audited; 409 for a native survey', async () => {
    const project = await createProject(ctx());
    const survey = await createVia(project.id, { title: 'Hooked', kind: 'external', externalUrl: 'https://survey.alchemer.com/s3/125/hooked' });
    const made = await okJson<SurveyWebhookSecret>(await call('POST', `${surveyPath(survey.id)}/webhook-secret`, {}));
    expect(made.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.webhook).toEqual({ configured: true, url: `${ctx().config.publicUrl}/api/surveys/${survey.id}/webhook` });
    const seen = await get(survey.id);
    expect(seen.webhook).toEqual(made.webhook);
    expect(JSON.stringify(seen)).not.toContain(made.secret);
    const stored = async () => (await ctx().database.db.select().from(surveys).where(eq(surveys.id, survey.id)))[0]?.webhookSecretHash;
    expect(await stored()).toBe(sha256Hex(made.secret));

    const replaced = await okJson<SurveyWebhookSecret>(await call('POST', `${surveyPath(survey.id)}/webhook-secret`, {}));
    expect(replaced.secret).not.toBe(made.secret);
    expect(await stored()).toBe(sha256Hex(replaced.secret));

    const rows = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'survey.webhook_secret'), eq(auditLog.targetId, String(survey.id))))
      .orderBy(asc(auditLog.id));
    expect(rows.map((row) => [row.actorId, row.after])).toEqual([
      [moderator.id, { replaced: false }],
      [moderator.id, { replaced: true }],
    ]);
    expect(JSON.stringify(rows)).not.toContain(made.secret);
    expect(JSON.stringify(rows)).not.toContain(sha256Hex(made.secret));

    const form = await publishedForm(ctx());
    const native = await createVia(project.id, { title: 'Native', kind: 'native', formId: form.id });
    expect(await errorOf(await call('POST', `${surveyPath(native.id)}/webhook-secret`, {}), 409)).toMatchObject({
      code: 'not_external',
      message: 'Only an Alchemer survey has a webhook',
    });
    expect((await errorOf(await call('POST', `${surveyPath(999999)}/webhook-secret`, {}), 404)).code).toBe('not_found');
    expect((await errorOf(await call('POST', `${surveyPath(survey.id)}/webhook-secret`, {}, await participant(ctx())), 403)).code).toBe('forbidden');
  });

  it('check the survey payload and the form rules', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx());
    const post = (body: unknown) => call('POST', projectPath(project.id), body);
    expect(await fieldsOf(await post({ kind: 'native', formId: form.id }))).toEqual({ title: ['Required'] });
    expect((await fieldsOf(await post({ title: 'x'.repeat(201), kind: 'native', formId: form.id }))).title).toEqual(['Too long']);
    expect(await fieldsOf(await post({ title: 'S', kind: 'native' }))).toEqual({ formId: ['Choose a form'] });
    expect((await fieldsOf(await post({ title: 'S' }))).kind).toEqual(['Invalid enum value']);
    expect(await fieldsOf(await post({ title: 'S', kind: 'external' }))).toEqual({ externalUrl: ['Enter the survey’s https:// link'] });
    expect((await fieldsOf(await post({ title: 'S', kind: 'external', externalUrl: 'http://example.org/s' }))).externalUrl).toEqual([
      'Enter the survey’s https:// link',
    ]);
    expect((await fieldsOf(await post({ title: 'S', kind: 'native', formId: form.id, points: -1 }))).points).toEqual(['Enter 0 or more']);
    expect(
      (await fieldsOf(await post({ title: 'S', kind: 'native', formId: form.id, opensAt: '2026-11-10T00:00:00Z', closesAt: '2026-11-09T00:00:00Z' }))).closesAt,
    ).toEqual(['Must be after the opening time']);
    expect((await fieldsOf(await post({ title: 'S', kind: 'native', formId: form.id, opensAt: 'tomorrow' }))).opensAt).toEqual(['Enter a date and time']);
    expect((await fieldsOf(await post({ title: 'S', kind: 'native', formId: form.id, extra: true }))).extra).toEqual(['Unexpected field']);

    // The form must exist, have a published version, not be archived; the version must exist.
    expect(await fieldsOf(await post({ title: 'S', kind: 'native', formId: 999999 }))).toEqual({ formId: ['Choose a form'] });
    const [draftOnly] = await ctx()
      .database.db.insert(forms)
      .values({ title: 'Draft only', draft: textDefinition('Draft only') })
      .returning();
    expect(await fieldsOf(await post({ title: 'S', kind: 'native', formId: draftOnly?.id }))).toEqual({
      formId: ['This form has no published version yet: publish it first'],
    });
    expect(await fieldsOf(await post({ title: 'S', kind: 'native', formId: form.id, formVersion: 2 }))).toEqual({
      formVersion: ['This form has no such published version'],
    });
    const archived = await publishedForm(ctx());
    expect((await call('DELETE', `/api/admin/forms/${archived.id}`)).status).toBe(204);
    expect(await fieldsOf(await post({ title: 'S', kind: 'native', formId: archived.id }))).toEqual({
      formId: ['This form is archived: restore it or choose another'],
    });
  });

  it('translations of the title and description: kept and answered; refused for an unknown field or language, or a text empty as written', async () => {
    const project = await createProject(ctx());
    const external = { kind: 'external', externalUrl: 'https://survey.alchemer.com/s3/1/Habits' };
    const survey = await createVia(project.id, {
      title: 'Habits',
      description: 'About your mornings.',
      ...external,
      translations: { title: { de: ' Gewohnheiten ', ar: 'عادات', es: '' }, description: { de: 'Über Ihre Morgen.' } },
    });
    // Trimmed; a blank translation is none.
    expect(survey.translations).toEqual({ title: { de: 'Gewohnheiten', ar: 'عادات' }, description: { de: 'Über Ihre Morgen.' } });
    expect((await get(survey.id)).translations).toEqual(survey.translations);
    const edited = await okJson<AdminSurvey>(await patch(survey.id, { translations: { title: { es: 'Hábitos' } } }));
    expect(edited.translations).toEqual({ title: { es: 'Hábitos' } });

    const post = (translations: unknown, description = '') => call('POST', projectPath(project.id), { title: 'S', description, ...external, translations });
    expect(await fieldsOf(await post({ instructions: { de: 'x' } }))).toEqual({ translations: ['Unexpected field: instructions'] });
    expect(await fieldsOf(await post({ title: { fr: 'x' } }))).toEqual({ translations: ['Unknown language "fr": use en, de, es, ar'] });
    expect(await fieldsOf(await post({ title: { de: 'x'.repeat(201) } }))).toEqual({ translations: ['Too long'] });
    expect(await fieldsOf(await post({ description: { de: 'Beschreibung' } }))).toEqual({ translations: ['Add the text in the original language first'] });
    // An edit is checked against the text as stored: clearing a translated text, or translating one the survey does not have.
    expect(await fieldsOf(await patch(survey.id, { description: '', translations: { description: { de: 'x' } } }))).toEqual({
      translations: ['Add the text in the original language first'],
    });
    const plain = await createVia(project.id, { title: 'Plain', ...external });
    expect(await fieldsOf(await patch(plain.id, { translations: { description: { de: 'x' } } }))).toEqual({
      translations: ['Add the text in the original language first'],
    });
  });

  it('a survey keeps its pinned version after the form publishes a newer one, until it is moved', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx());
    const survey = await createVia(project.id, { title: 'Pinned', kind: 'native', formId: form.id, status: 'live' });
    expect(survey.formVersion).toBe(1);
    const earlier = await member(ctx(), project.id);
    await insertResponse(ctx(), await surveyRow(survey.id), earlier.id, { answers: { name: 'On one' } });

    await publishVersion(ctx(), form.id, textDefinition('Newer'));
    expect(await get(survey.id)).toMatchObject({ formVersion: 1, latestFormVersion: 2 });

    const moved = await okJson<AdminSurvey>(await patch(survey.id, { formVersion: 2 }));
    expect(moved).toMatchObject({ formVersion: 2, latestFormVersion: 2 });
    // Answers keep the version they were given on.
    const responses = await okJson<ListPage<AdminSurveyResponse>>(await call('GET', `${surveyPath(survey.id)}/responses`));
    expect(responses.items.map((r) => [r.user.id, r.formVersion])).toEqual([[earlier.id, 1]]);
    // Any published version, older ones too; not one that does not exist.
    expect((await okJson<AdminSurvey>(await patch(survey.id, { formVersion: 1 }))).formVersion).toBe(1);
    expect(await fieldsOf(await patch(survey.id, { formVersion: 3 }))).toEqual({ formVersion: ['This form has no such published version'] });
    expect((await get(survey.id)).formVersion).toBe(1);
  });

  /** The survey's row, for the fixtures that write answers. */
  async function surveyRow(id: number) {
    const [row] = await ctx().database.db.select().from(surveys).where(eq(surveys.id, id));
    if (!row) throw new Error(`no survey ${id}`);
    return row;
  }

  it('update: fields, dates against the kept ones; the kind or the form cannot change once there are responses', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx());
    const other = await publishedForm(ctx());
    const survey = await createVia(project.id, { title: 'Changing', kind: 'native', formId: form.id, opensAt: '2026-11-10T00:00:00Z' });
    ctx().clock.advance(60_000);
    const edited = await okJson<AdminSurvey>(
      await patch(survey.id, { title: 'Changed', description: 'Now with text', points: 50, status: 'live', estimatedMinutes: 12 }),
    );
    expect(edited).toMatchObject({ title: 'Changed', description: 'Now with text', points: 50, status: 'live', estimatedMinutes: 12, formVersion: 1 });
    expect(edited.updatedAt).toBe(ctx().clock.now().toISOString());
    expect((await fieldsOf(await patch(survey.id, { closesAt: '2026-11-09T00:00:00Z' }))).closesAt).toEqual(['Must be after the opening time']);
    expect((await fieldsOf(await patch(survey.id, { title: '' }))).title).toEqual(['Required']);

    // No responses yet: it may become external and back.
    const external = await okJson<AdminSurvey>(await patch(survey.id, { kind: 'external', externalUrl: 'https://example.org/s/1' }));
    expect(external).toMatchObject({
      kind: 'external',
      formId: null,
      formVersion: null,
      externalUrl: 'https://example.org/s/1',
      returnLinks: { complete: expect.stringContaining('/api/surveys/return?status=complete&k=') },
    });
    expect(await fieldsOf(await patch(survey.id, { kind: 'native' }))).toEqual({ formId: ['Choose a form'] });
    const native = await okJson<AdminSurvey>(await patch(survey.id, { kind: 'native', formId: other.id }));
    expect(native).toMatchObject({ kind: 'native', formId: other.id, formVersion: 1, externalUrl: null, returnLinks: null, webhook: null });

    const someone = await member(ctx(), project.id);
    await insertResponse(ctx(), await surveyRow(survey.id), someone.id, { status: 'draft' });
    const refused = await errorOf(await patch(survey.id, { kind: 'external', externalUrl: 'https://example.org/s/2' }), 409);
    expect(refused).toMatchObject({ code: 'has_responses', message: 'This survey already has responses: its kind and form can no longer change' });
    expect((await errorOf(await patch(survey.id, { formId: form.id }), 409)).code).toBe('has_responses');
    expect(await get(survey.id)).toMatchObject({ kind: 'native', formId: other.id });
    // Other fields still change.
    expect((await okJson<AdminSurvey>(await patch(survey.id, { status: 'closed' }))).status).toBe('closed');

    // External surveys with starts cannot become native either.
    const ext = await createSurvey(ctx(), project.id, { kind: 'external' });
    await insertExternalRef(ctx(), ext.id, someone.id, { outcome: null });
    expect((await errorOf(await patch(ext.id, { kind: 'native', formId: form.id }), 409)).code).toBe('has_responses');
    expect(await fieldsOf(await patch(ext.id, { externalUrl: null }))).toEqual({ externalUrl: ['Enter the survey’s https:// link'] });

    for (const path of ['/999999', '/abc', '/-1']) {
      expect((await errorOf(await call('GET', `/api/admin/surveys${path}`), 404)).code, path).toBe('not_found');
      expect((await errorOf(await call('PATCH', `/api/admin/surveys${path}`, { title: 'X' }), 404)).code, path).toBe('not_found');
      for (const sub of ['responses', 'responses.csv', 'results'])
        expect((await errorOf(await call('GET', `/api/admin/surveys${path}/${sub}`), 404)).code, sub).toBe('not_found');
    }
  });

  it('counts: members, started and submitted (members only; external returns with outcome complete)', async () => {
    const project = await createProject(ctx());
    const [a, b, c] = [await member(ctx(), project.id), await member(ctx(), project.id), await member(ctx(), project.id)];
    const outsider = await participant(ctx());
    const native = await createSurvey(ctx(), project.id);
    await insertResponse(ctx(), native, a.id, { answers: { name: 'A' } });
    await insertResponse(ctx(), native, b.id, { status: 'draft' });
    await insertResponse(ctx(), native, outsider.id);
    const external = await createSurvey(ctx(), project.id, { kind: 'external' });
    await insertExternalRef(ctx(), external.id, a.id, { outcome: 'complete' });
    await insertExternalRef(ctx(), external.id, a.id, { outcome: null });
    await insertExternalRef(ctx(), external.id, b.id, { outcome: 'screened_out' });
    await insertExternalRef(ctx(), external.id, c.id, { outcome: null });
    await insertExternalRef(ctx(), external.id, outsider.id, { outcome: 'complete' });
    const untouched = await createSurvey(ctx(), project.id);

    const items = (await okJson<{ items: AdminSurvey[] }>(await call('GET', projectPath(project.id)))).items;
    expect(items.map((s) => [s.id, s.counts])).toEqual([
      [native.id, { members: 3, started: 2, submitted: 1 }],
      [external.id, { members: 3, started: 3, submitted: 1 }],
      [untouched.id, { members: 3, started: 0, submitted: 0 }],
    ]);
    expect((await get(native.id)).counts).toEqual({ members: 3, started: 2, submitted: 1 });
    // A member added later counts; the outsider's answers start counting then too.
    await addMember(ctx(), project.id, outsider);
    expect((await get(native.id)).counts).toEqual({ members: 4, started: 3, submitted: 2 });
    expect((await get(external.id)).counts).toEqual({ members: 4, started: 4, submitted: 2 });
    expect(await okJson<SurveyResults>(await call('GET', `${surveyPath(external.id)}/results`))).toEqual({
      submitted: 2,
      elements: [],
      computedAt: expect.any(String),
    });
  });

  it('responses: submitted first (latest first), then drafts; by status; paginated', async () => {
    const project = await createProject(ctx());
    const survey = await createSurvey(ctx(), project.id);
    const people = [await member(ctx(), project.id), await member(ctx(), project.id), await member(ctx(), project.id), await member(ctx(), project.id)];
    const [p0, p1, p2, p3] = people as [SignedIn, SignedIn, SignedIn, SignedIn];
    const at = (minutes: number) => new Date(Date.parse('2026-11-01T10:00:00Z') + minutes * 60_000);
    await insertResponse(ctx(), survey, p0.id, { answers: { name: 'Zero' }, submittedAt: at(1) });
    await insertResponse(ctx(), survey, p1.id, { status: 'draft', answers: { name: 'Draft' } });
    await insertResponse(ctx(), survey, p2.id, { answers: { name: 'Two' }, submittedAt: at(5) });
    await insertResponse(ctx(), survey, p3.id, { answers: { name: 'Three' }, submittedAt: at(3) });
    const all = await okJson<ListPage<AdminSurveyResponse>>(await call('GET', `${surveyPath(survey.id)}/responses`));
    expect(all.total).toBe(4);
    expect(all.items.map((r) => r.user.id)).toEqual([p2.id, p3.id, p0.id, p1.id]);
    expect(all.items[0]).toEqual({
      id: expect.any(Number),
      user: { id: p2.id, firstName: 'Robin', lastName: 'Hale', email: p2.email },
      status: 'submitted',
      formVersion: 1,
      answers: { name: 'Two' },
      language: 'en',
      startedAt: expect.any(String),
      updatedAt: expect.any(String),
      submittedAt: at(5).toISOString(),
    });
    const drafts = await okJson<ListPage<AdminSurveyResponse>>(await call('GET', `${surveyPath(survey.id)}/responses?status=draft`));
    expect(drafts).toMatchObject({ total: 1, items: [{ user: { id: p1.id }, status: 'draft', submittedAt: null }] });
    const page2 = await okJson<ListPage<AdminSurveyResponse>>(await call('GET', `${surveyPath(survey.id)}/responses?status=submitted&pageSize=2&page=2`));
    expect(page2.total).toBe(3);
    expect(page2.items.map((r) => r.user.id)).toEqual([p0.id]);
    expect(page2).toMatchObject({ page: 2, pageSize: 2 });
    expect(all).toMatchObject({ page: 1, pageSize: 10 });
    expect((await fieldsOf(await call('GET', `${surveyPath(survey.id)}/responses?status=done`))).status).toEqual(['Invalid enum value']);
    const responses = async (query: string) =>
      (await okJson<ListPage<AdminSurveyResponse>>(await call('GET', `${surveyPath(survey.id)}/responses?${query}`))).items.map((r) => r.user.id);
    // `dir=asc` turns the default order round; `name` is the participant's last, then first name (ties by response).
    expect(await responses('dir=asc')).toEqual([p1.id, p0.id, p3.id, p2.id]);
    await ctx().database.db.update(users).set({ lastName: 'Abbott' }).where(eq(users.id, p3.id));
    expect(await responses('sort=name')).toEqual([p3.id, p0.id, p1.id, p2.id]);
    expect(await responses(`q=${encodeURIComponent(p3.email)}`)).toEqual([p3.id]);
    expect(await responses('q=abbott')).toEqual([p3.id]);
    expect(Object.keys(await fieldsOf(await call('GET', `${surveyPath(survey.id)}/responses?pageSize=0&sort=answers`))).sort()).toEqual(['pageSize', 'sort']);

    // By the language answered in (decision 035): a response from before answers had one counts as English.
    await ctx().database.db.update(surveyResponses).set({ language: 'ar' }).where(eq(surveyResponses.userId, p2.id));
    expect(await responses('language=ar')).toEqual([p2.id]);
    expect(await responses('language=en&sort=name')).toEqual([p3.id, p0.id, p1.id]);
    expect(await responses('language=de')).toEqual([]);
    expect((await fieldsOf(await call('GET', `${surveyPath(survey.id)}/responses?language=fr`))).language).toEqual([
      'Must be one of the language codes en, de, es, ar',
    ]);
    // The results of one language: p2's in Arabic, p0's and p3's in English (p1's is a draft); each language cached on its own.
    const submittedIn = async (query: string) => (await okJson<SurveyResults>(await call('GET', `${surveyPath(survey.id)}/results${query}`))).submitted;
    expect([await submittedIn(''), await submittedIn('?language=ar'), await submittedIn('?language=en'), await submittedIn('?language=de')]).toEqual([
      3, 1, 2, 0,
    ]);
    expect((await fieldsOf(await call('GET', `${surveyPath(survey.id)}/results?language=fr`))).language).toEqual([
      'Must be one of the language codes en, de, es, ar',
    ]);
  });

  it('results: per-question counts, averages, matrices, rankings and latest texts over submitted responses (other versions by element id)', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx(), richDefinition());
    const survey = await createSurvey(ctx(), project.id, { form });
    const [a, b, c, d] = [await member(ctx(), project.id), await member(ctx(), project.id), await member(ctx(), project.id), await member(ctx(), project.id)];
    const at = (minutes: number) => new Date(Date.parse('2026-11-01T10:00:00Z') + minutes * 60_000);
    await insertResponse(ctx(), survey, a.id, {
      submittedAt: at(1),
      answers: {
        name: '=1+1',
        story: 'Long story',
        colour: 'red',
        snacks: ['chips', { other: 'Crisps' }],
        city: 'ams',
        stars: 4,
        nps: 9,
        age: 30,
        visit: '2026-10-01',
        pics: ['m1', 'm2'],
        agree: true,
        grid: { speed: 'good', price: 'bad' },
        rank: ['b', 'a', 'c'],
      },
    });
    await insertResponse(ctx(), survey, b.id, {
      submittedAt: at(2),
      answers: {
        name: 'Bea',
        colour: { other: 'Teal' },
        snacks: ['fruit', 'chips'],
        city: 'ber',
        stars: 2,
        nps: 10,
        age: 40,
        grid: { speed: 'good' },
        rank: ['a', 'b', 'c'],
        story: '',
      },
    });
    // An answer given on version 2 (which added "yellow") counts by element id.
    const v2 = richDefinition('Rich v2');
    const colour = v2.pages[0]?.elements.find((e) => e.id === 'colour');
    if (colour?.type === 'single_choice') colour.options.push({ id: 'yellow', label: 'Yellow' });
    await publishVersion(ctx(), form.id, v2);
    await insertResponse(ctx(), survey, c.id, { submittedAt: at(3), formVersion: 2, answers: { name: 'Cy', colour: 'yellow', stars: 5 } });
    // Drafts do not count.
    await insertResponse(ctx(), survey, d.id, { status: 'draft', answers: { name: 'Draft', colour: 'blue', stars: 1 } });

    const results = await okJson<SurveyResults>(await call('GET', `${surveyPath(survey.id)}/results`));
    expect(results.submitted).toBe(3);
    const byId = new Map(results.elements.map((e) => [e.id, e]));
    expect(results.elements.map((e) => e.id)).toEqual([
      'name',
      'story',
      'colour',
      'snacks',
      'city',
      'stars',
      'nps',
      'age',
      'visit',
      'pics',
      'agree',
      'grid',
      'rank',
    ]);
    expect(byId.get('name')).toEqual({ id: 'name', type: 'short_text', title: 'Your name', answered: 3, samples: ['Cy', 'Bea', '=1+1'] });
    expect(byId.get('story')).toEqual({ id: 'story', type: 'long_text', title: 'Your story', answered: 1, samples: ['Long story'] });
    expect(byId.get('colour')).toEqual({
      id: 'colour',
      type: 'single_choice',
      title: 'Favourite colour',
      answered: 3,
      options: [
        { id: 'red', label: 'Red', count: 1 },
        { id: 'blue', label: 'Blue', count: 0 },
        { id: 'green', label: 'Green', count: 0 },
        { id: 'yellow', label: 'yellow', count: 1 },
        { id: '_other', label: 'Other', count: 1 },
      ],
    });
    expect(byId.get('snacks')?.options).toEqual([
      { id: 'chips', label: 'Chips', count: 2 },
      { id: 'fruit', label: 'Fruit', count: 1 },
      { id: 'nuts', label: 'Nuts', count: 0 },
      { id: '_other', label: 'Other', count: 1 },
    ]);
    expect(byId.get('snacks')?.answered).toBe(2);
    expect(byId.get('city')?.options).toEqual([
      { id: 'ams', label: 'Amsterdam', count: 1 },
      { id: 'ber', label: 'Berlin', count: 1 },
    ]);
    const stars = byId.get('stars');
    expect(stars?.options?.map((o) => [o.id, o.count])).toEqual([
      ['1', 0],
      ['2', 1],
      ['3', 0],
      ['4', 1],
      ['5', 1],
    ]);
    expect(stars?.average).toBeCloseTo(11 / 3, 10);
    expect([stars?.min, stars?.max, stars?.answered]).toEqual([2, 5, 3]);
    const nps = byId.get('nps');
    expect(nps?.options).toHaveLength(11);
    expect(nps?.options?.filter((o) => o.count > 0)).toEqual([
      { id: '9', label: '9', count: 1 },
      { id: '10', label: '10', count: 1 },
    ]);
    expect(nps?.average).toBe(9.5);
    expect(byId.get('age')).toEqual({ id: 'age', type: 'number', title: 'Age', answered: 2, average: 35, min: 30, max: 40 });
    expect(byId.get('visit')).toEqual({ id: 'visit', type: 'date', title: 'Visit date', answered: 1 });
    expect(byId.get('pics')?.answered).toBe(1);
    expect(byId.get('agree')?.answered).toBe(1);
    expect(byId.get('grid')).toEqual({
      id: 'grid',
      type: 'matrix',
      title: 'Grid',
      answered: 2,
      rows: [
        {
          id: 'speed',
          label: 'Speed',
          columns: [
            { id: 'good', label: 'Good', count: 2 },
            { id: 'bad', label: 'Bad', count: 0 },
          ],
        },
        {
          id: 'price',
          label: 'Price',
          columns: [
            { id: 'good', label: 'Good', count: 0 },
            { id: 'bad', label: 'Bad', count: 1 },
          ],
        },
      ],
    });
    // Rankings: how often each option was ranked first.
    expect(byId.get('rank')?.options).toEqual([
      { id: 'a', label: 'Alpha', count: 1 },
      { id: 'b', label: 'Beta', count: 1 },
      { id: 'c', label: 'Gamma', count: 0 },
    ]);

    // More than 5 texts: the 5 latest.
    const more = await createSurvey(ctx(), project.id, { form });
    for (let i = 0; i < 7; i++)
      await insertResponse(ctx(), more, (await member(ctx(), project.id)).id, { submittedAt: at(10 + i), answers: { name: `Text ${i}` } });
    const moreResults = await okJson<SurveyResults>(await call('GET', `${surveyPath(more.id)}/results`));
    expect(moreResults.elements.find((e) => e.id === 'name')?.samples).toEqual(['Text 6', 'Text 5', 'Text 4', 'Text 3', 'Text 2']);
    expect(moreResults.elements.find((e) => e.id === 'stars')).toMatchObject({ answered: 0, average: null, min: null, max: null });
  });

  it('CSV: a header row, one row per submitted response with readable, formula-safe cells', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx(), richDefinition());
    const survey = await createSurvey(ctx(), project.id, { form });
    const a = await member(ctx(), project.id);
    const b = await member(ctx(), project.id);
    await ctx().database.db.update(users).set({ firstName: 'Ana', lastName: '@SUM(A1)' }).where(eq(users.id, a.id));
    const submittedAt = new Date('2026-11-01T10:30:00Z');
    const first = await insertResponse(ctx(), survey, a.id, {
      submittedAt,
      answers: {
        name: '=1+1',
        story: '-2+3\nsecond line',
        colour: { other: 'Teal, "dark"' },
        snacks: ['chips', { other: 'Crisps' }],
        city: 'ams',
        stars: 4,
        nps: 9,
        age: -3,
        visit: '2026-10-01',
        pics: ['m1', 'm2'],
        agree: true,
        grid: { speed: 'good', price: 'bad' },
        rank: ['b', 'a', 'c'],
      },
    });
    const draft = await insertResponse(ctx(), survey, b.id, { status: 'draft', answers: { name: 'Half done', colour: 'red' } });

    const res = await call('GET', `${surveyPath(survey.id)}/responses.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="survey-${survey.id}-responses.csv"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await csvText(res);
    expect(text).toContain("'=1+1");
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      'Response ID',
      'Email',
      'First name',
      'Last name',
      'Status',
      'Submitted at',
      'Form version',
      'Language',
      'Your name [name]',
      'Your story [story]',
      'Favourite colour [colour]',
      'Snacks [snacks]',
      'City [city]',
      'Stars [stars]',
      'Recommend [nps]',
      'Age [age]',
      'Visit date [visit]',
      'Pictures [pics]',
      'Consent [agree]',
      'Grid [grid]',
      'Rank them [rank]',
    ]);
    expect(rows.slice(1)).toEqual([
      [
        String(first.id),
        a.email,
        'Ana',
        "'@SUM(A1)",
        'submitted',
        submittedAt.toISOString(),
        '1',
        'en',
        "'=1+1",
        "'-2+3\nsecond line",
        'Other: Teal, "dark"',
        'Chips; Other: Crisps',
        'Amsterdam',
        '4',
        '9',
        '-3',
        '2026-10-01',
        'm1; m2',
        'Agreed',
        'Speed: Good; Price: Bad',
        '1. Beta; 2. Alpha; 3. Gamma',
      ],
    ]);

    const withDrafts = parseCsv(await csvText(await call('GET', `${surveyPath(survey.id)}/responses.csv?status=all`)));
    expect(withDrafts.slice(1).map((row) => [row[0], row[4], row[5], row[8], row[10]])).toEqual([
      [String(first.id), 'submitted', submittedAt.toISOString(), "'=1+1", 'Other: Teal, "dark"'],
      [String(draft.id), 'draft', '', 'Half done', 'Red'],
    ]);
    const draftsOnly = parseCsv(await csvText(await call('GET', `${surveyPath(survey.id)}/responses.csv?status=draft`)));
    expect(draftsOnly.slice(1).map((row) => row[0])).toEqual([String(draft.id)]);
    expect((await fieldsOf(await call('GET', `${surveyPath(survey.id)}/responses.csv?status=some`))).status).toEqual(['Invalid enum value']);
    // Of one language (decision 035): the draft answered in Spanish; a response from before answers had a language counts as English.
    await ctx().database.db.update(surveyResponses).set({ language: 'es' }).where(eq(surveyResponses.id, draft.id));
    const ids = async (query: string) =>
      parseCsv(await csvText(await call('GET', `${surveyPath(survey.id)}/responses.csv?${query}`)))
        .slice(1)
        .map((row) => row[0]);
    expect(await ids('status=all&language=es')).toEqual([String(draft.id)]);
    expect(await ids('status=all&language=en')).toEqual([String(first.id)]);
    expect(await ids('language=es')).toEqual([]);

    // An external survey: the header of the fixed columns only.
    const external = await createSurvey(ctx(), project.id, { kind: 'external' });
    expect(parseCsv(await csvText(await call('GET', `${surveyPath(external.id)}/responses.csv`)))).toEqual([
      ['Response ID', 'Email', 'First name', 'Last name', 'Status', 'Submitted at', 'Form version', 'Language'],
    ]);
  });

  it('CSV: thousands of responses come out whole, read a page at a time', async () => {
    const project = await createProject(ctx());
    const survey = await createSurvey(ctx(), project.id);
    const db = ctx().database.db;
    const total = 1201;
    const stamp = Date.now().toString(36);
    const people = await db
      .insert(users)
      .values(
        Array.from({ length: total }, (_, i) => ({ email: `bulk-${stamp}-${i}@example.org`, status: 'active' as const, firstName: `P${i}`, lastName: 'Bulk' })),
      )
      .returning({ id: users.id });
    await db.insert(surveyResponses).values(
      people.map((person, i) => ({
        surveyId: survey.id,
        userId: person.id,
        formVersion: 1,
        answers: { name: `Answer ${i}` },
        status: 'submitted' as const,
        submittedAt: new Date(),
      })),
    );
    const rows = parseCsv(await csvText(await call('GET', `${surveyPath(survey.id)}/responses.csv`)));
    expect(rows).toHaveLength(total + 1);
    expect(rows[1]?.[8]).toBe('Answer 0');
    expect(rows[500]?.[8]).toBe('Answer 499');
    expect(rows[501]?.[8]).toBe('Answer 500');
    expect(rows[total]?.[8]).toBe(`Answer ${total - 1}`);
    expect(new Set(rows.slice(1).map((row) => row[0])).size).toBe(total);
  });

  it('creating and updating are audited', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx());
    const survey = await createVia(project.id, { title: 'Audited', kind: 'native', formId: form.id });
    await patch(survey.id, { status: 'live', points: 5 });
    const rows = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'survey'), eq(auditLog.targetId, String(survey.id))))
      .orderBy(asc(auditLog.id));
    expect(rows.map((row) => [row.action, row.actorId])).toEqual([
      ['survey.create', moderator.id],
      ['survey.update', moderator.id],
    ]);
    expect(rows[0]?.after).toMatchObject({ projectId: project.id, title: 'Audited', kind: 'native', formId: form.id, formVersion: 1, status: 'draft' });
    expect(rows[1]?.before).toEqual({ points: 0, status: 'draft' });
    expect(rows[1]?.after).toEqual({ points: 5, status: 'live' });
  });
});
