import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, media, missions, users } from '../../src/server/db/schema/index.ts';
import type { AdminSubmissionDetail, AdminSubmissionListItem } from '../../src/shared/mission-entries.ts';
import type { AdminMission } from '../../src/shared/missions.ts';
import type { ListPage } from '../../src/shared/list.ts';
import { describeEachBackend } from './harness.ts';
import { errorOf, fieldsOf, signedInUser, type SignedIn } from './helpers.ts';
import {
  addMember,
  callAs,
  createMission,
  createProject,
  insertEntry,
  member,
  okJson,
  participant,
  photoDefinition,
  publishedForm,
  publishVersion,
  textDefinition,
} from './programme-fixtures.ts';

const projectPath = (id: number) => `/api/admin/projects/${id}/missions`;
const missionPath = (id: number) => `/api/admin/missions/${id}`;

describeEachBackend('admin missions API', (ctx) => {
  let moderator: SignedIn;
  beforeAll(async () => {
    moderator = await signedInUser(ctx(), 'moderator');
  });
  const call = (method: string, path: string, body?: unknown, who: SignedIn | null = moderator) => callAs(ctx(), who)(method, path, body);
  const createVia = async (projectId: number, body: unknown) => okJson<AdminMission>(await call('POST', projectPath(projectId), body), 201);
  const get = async (id: number) => okJson<AdminMission>(await call('GET', missionPath(id)));
  const patch = (id: number, body: unknown) => call('PATCH', missionPath(id), body);
  const submission = (id: number | string, who: SignedIn | null = moderator) => ctx().request(`/api/admin/submissions/${id}`, { headers: who?.headers ?? {} });
  const missionRow = async (id: number) => {
    const [row] = await ctx().database.db.select().from(missions).where(eq(missions.id, id));
    if (!row) throw new Error(`no mission ${id}`);
    return row;
  };

  it('create a mission on a published form: latest version by default, entries, review; list them', async () => {
    const project = await createProject(ctx(), { status: 'draft' });
    const form = await publishedForm(ctx(), photoDefinition());
    await publishVersion(ctx(), form.id, photoDefinition('Photos v2'));
    const mission = await createVia(project.id, {
      title: ' Fridge photos ',
      instructions: '# Open your fridge\n\nTake **three** photos.',
      translations: { title: { de: 'Kühlschrankfotos' }, instructions: { ar: '# افتح ثلاجتك' } },
      formId: form.id,
      points: 30,
      opensAt: '2026-11-02T00:00:00Z',
      closesAt: '2026-11-20T00:00:00Z',
      review: 'automatic',
      entries: { min: 3, max: 7, perDay: 1 },
      status: 'live',
    });
    expect(mission).toEqual({
      id: expect.any(Number),
      projectId: project.id,
      title: 'Fridge photos',
      instructions: '# Open your fridge\n\nTake **three** photos.',
      translations: { title: { de: 'Kühlschrankfotos' }, instructions: { ar: '# افتح ثلاجتك' } },
      formId: form.id,
      formVersion: 2,
      latestFormVersion: 2,
      points: 30,
      productId: null,
      opensAt: '2026-11-02T00:00:00.000Z',
      closesAt: '2026-11-20T00:00:00.000Z',
      review: 'automatic',
      entries: { min: 3, max: 7, perDay: 1 },
      status: 'live',
      counts: { members: 0, started: 0, submitted: 0 },
      createdAt: ctx().clock.now().toISOString(),
      updatedAt: ctx().clock.now().toISOString(),
    });
    expect(await get(mission.id)).toEqual(mission);
    const simple = await createVia(project.id, { title: 'Simple', formId: form.id, formVersion: 1 });
    expect(simple).toMatchObject({
      formVersion: 1,
      review: 'manual',
      entries: { min: 1, max: 1, perDay: null },
      status: 'draft',
      points: 0,
      instructions: '',
      translations: {},
    });
    const listed = await okJson<{ items: AdminMission[] }>(await call('GET', projectPath(project.id)));
    expect(listed.items.map((m) => m.id)).toEqual([mission.id, simple.id]);
  });

  it('check the mission payload and the form rules', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx());
    const post = (body: unknown) => call('POST', projectPath(project.id), body);
    expect(await fieldsOf(await post({ formId: form.id }))).toEqual({ title: ['Required'] });
    expect(await fieldsOf(await post({ title: 'M' }))).toEqual({ formId: ['Required'] });
    expect((await fieldsOf(await post({ title: 'x'.repeat(201), formId: form.id }))).title).toEqual(['Too long']);
    expect((await fieldsOf(await post({ title: 'M', formId: form.id, instructions: 'x'.repeat(50_001) }))).instructions).toEqual(['Too long']);
    expect((await fieldsOf(await post({ title: 'M', formId: form.id, entries: { min: 3, max: 2 } }))).entries).toEqual(['Must be at least the minimum']);
    expect((await fieldsOf(await post({ title: 'M', formId: form.id, entries: { min: 0, max: 2 } }))).entries).toEqual(['At least 1']);
    expect((await fieldsOf(await post({ title: 'M', formId: form.id, review: 'peer' }))).review).toEqual(['Invalid enum value']);
    expect((await fieldsOf(await post({ title: 'M', formId: form.id, translations: { description: { de: 'x' } } }))).translations).toEqual([
      'Unexpected field: description',
    ]);
    expect((await fieldsOf(await post({ title: 'M', formId: form.id, translations: { instructions: { de: 'Fotos' } } }))).translations).toEqual([
      'Add the text in the original language first',
    ]);
    expect((await fieldsOf(await post({ title: 'M', formId: form.id, points: 1.5 }))).points).toEqual(['Enter a whole number']);
    expect((await fieldsOf(await post({ title: 'M', formId: form.id, opensAt: '2026-11-10T00:00:00Z', closesAt: '2026-11-10T00:00:00Z' }))).closesAt).toEqual([
      'Must be after the opening time',
    ]);
    expect(await fieldsOf(await post({ title: 'M', formId: 999999 }))).toEqual({ formId: ['Choose a form'] });
    expect(await fieldsOf(await post({ title: 'M', formId: form.id, formVersion: 4 }))).toEqual({ formVersion: ['This form has no such published version'] });
    const archived = await publishedForm(ctx());
    expect((await call('DELETE', `/api/admin/forms/${archived.id}`)).status).toBe(204);
    expect(await fieldsOf(await post({ title: 'M', formId: archived.id }))).toEqual({ formId: ['This form is archived: restore it or choose another'] });
  });

  it('update: fields, pinned version moves, entries replaced; another form once there are entries is 409', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx());
    const other = await publishedForm(ctx());
    const mission = await createVia(project.id, { title: 'Diary', formId: form.id, entries: { min: 2, max: 5, perDay: 1 }, opensAt: '2026-11-10T00:00:00Z' });
    await publishVersion(ctx(), form.id, textDefinition('Diary v2'));
    expect(await get(mission.id)).toMatchObject({ formVersion: 1, latestFormVersion: 2 });
    ctx().clock.advance(60_000);
    const edited = await okJson<AdminMission>(
      await patch(mission.id, { title: 'Diary week', formVersion: 2, entries: { min: 1, max: 3 }, review: 'automatic', status: 'live' }),
    );
    expect(edited).toMatchObject({ title: 'Diary week', formVersion: 2, entries: { min: 1, max: 3, perDay: null }, review: 'automatic', status: 'live' });
    expect(edited.updatedAt).toBe(ctx().clock.now().toISOString());
    expect(await fieldsOf(await patch(mission.id, { formVersion: 9 }))).toEqual({ formVersion: ['This form has no such published version'] });
    expect((await fieldsOf(await patch(mission.id, { closesAt: '2026-11-01T00:00:00Z' }))).closesAt).toEqual(['Must be after the opening time']);
    expect((await fieldsOf(await patch(mission.id, { title: '  ' }))).title).toEqual(['Required']);

    // Another form while nobody has an entry: fine (its latest version by default).
    expect(await okJson<AdminMission>(await patch(mission.id, { formId: other.id }))).toMatchObject({ formId: other.id, formVersion: 1 });
    const someone = await member(ctx(), project.id);
    await insertEntry(ctx(), await missionRow(mission.id), someone.id, { status: 'draft' });
    const refused = await errorOf(await patch(mission.id, { formId: form.id }), 409);
    expect(refused).toEqual({ code: 'has_entries', message: 'This mission already has entries: its form can no longer change' });
    expect((await get(mission.id)).formId).toBe(other.id);

    for (const path of ['/999999', '/abc', '/0']) {
      expect((await errorOf(await call('GET', `/api/admin/missions${path}`), 404)).code, path).toBe('not_found');
      expect((await errorOf(await call('PATCH', `/api/admin/missions${path}`, { title: 'X' }), 404)).code, path).toBe('not_found');
      expect((await errorOf(await call('GET', `/api/admin/missions${path}/submissions`), 404)).code, path).toBe('not_found');
    }
  });

  it('counts: started = an entry of any status; submitted = at least entries.min submitted or approved (members only)', async () => {
    const project = await createProject(ctx());
    const mission = await createMission(ctx(), project.id, { entries: { min: 2, max: 5 } });
    const single = await createMission(ctx(), project.id);
    const [a, b, c] = [await member(ctx(), project.id), await member(ctx(), project.id), await member(ctx(), project.id)];
    await member(ctx(), project.id);
    const outsider = await participant(ctx());
    await insertEntry(ctx(), mission, a.id, { localDate: '2026-11-01' });
    await insertEntry(ctx(), mission, a.id, { localDate: '2026-11-02', status: 'approved' });
    await insertEntry(ctx(), mission, b.id);
    await insertEntry(ctx(), mission, b.id, { status: 'draft' });
    await insertEntry(ctx(), mission, c.id, { status: 'rejected' });
    await insertEntry(ctx(), mission, c.id, { status: 'changes_requested' });
    await insertEntry(ctx(), mission, outsider.id);
    await insertEntry(ctx(), mission, outsider.id);
    await insertEntry(ctx(), single, b.id, { status: 'submitted' });
    const items = (await okJson<{ items: AdminMission[] }>(await call('GET', projectPath(project.id)))).items;
    expect(items.map((m) => [m.id, m.counts])).toEqual([
      [mission.id, { members: 4, started: 3, submitted: 1 }],
      [single.id, { members: 4, started: 1, submitted: 1 }],
    ]);
    await addMember(ctx(), project.id, outsider);
    expect((await get(mission.id)).counts).toEqual({ members: 5, started: 4, submitted: 2 });
  });

  it('submissions: latest first, drafts only when asked for, filtered by status, participant and dates', async () => {
    const project = await createProject(ctx());
    const mission = await createMission(ctx(), project.id, { entries: { min: 1, max: 5 } });
    const ann = await member(ctx(), project.id);
    const bob = await member(ctx(), project.id);
    await ctx().database.db.update(users).set({ firstName: 'Bob', lastName: 'Stone' }).where(eq(users.id, bob.id));
    const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 10, day, hour));
    const e1 = await insertEntry(ctx(), mission, ann.id, { submittedAt: at(3), localDate: '2026-11-03' });
    const e2 = await insertEntry(ctx(), mission, bob.id, { submittedAt: at(5), localDate: '2026-11-05', status: 'approved' });
    const e3 = await insertEntry(ctx(), mission, ann.id, { submittedAt: at(7, 23), localDate: '2026-11-08', timeZone: 'Asia/Tokyo', language: 'ar' });
    const draft = await insertEntry(ctx(), mission, ann.id, { status: 'draft', createdAt: at(8), localDate: '2026-11-08' });

    const list = async (query = '') => okJson<ListPage<AdminSubmissionListItem>>(await call('GET', `${missionPath(mission.id)}/submissions${query}`));
    const all = await list();
    expect(all.total).toBe(3);
    expect(all.items.map((s) => s.id)).toEqual([e3.id, e2.id, e1.id]);
    expect(all.items[0]).toEqual({
      id: e3.id,
      user: { id: ann.id, firstName: 'Robin', lastName: 'Hale', email: ann.email },
      status: 'submitted',
      submittedAt: at(7, 23).toISOString(),
      resubmission: false,
      localDate: '2026-11-08',
      createdAt: e3.createdAt.toISOString(),
      entriesOfUser: 3,
      probesWaiting: 0,
      language: 'ar',
    });
    expect(all.items[1]).toMatchObject({ id: e2.id, status: 'approved', entriesOfUser: 1, user: { firstName: 'Bob', lastName: 'Stone' }, language: 'en' });
    expect((await list('?status=draft')).items.map((s) => [s.id, s.submittedAt])).toEqual([[draft.id, null]]);
    expect((await list('?status=approved')).items.map((s) => s.id)).toEqual([e2.id]);
    expect((await list('?q=bob%20stone')).items.map((s) => s.id)).toEqual([e2.id]);
    expect((await list(`?q=${encodeURIComponent(ann.email.toUpperCase())}`)).items.map((s) => s.id)).toEqual([e3.id, e1.id]);
    expect((await list('?from=2026-11-05')).items.map((s) => s.id)).toEqual([e3.id, e2.id]);
    expect((await list('?to=2026-11-05')).items.map((s) => s.id)).toEqual([e2.id, e1.id]);
    expect((await list('?from=2026-11-04&to=2026-11-06')).items.map((s) => s.id)).toEqual([e2.id]);
    expect((await list('?from=2026-11-07&to=2026-11-07')).items.map((s) => s.id)).toEqual([e3.id]);
    const page = await list('?pageSize=2&page=2');
    expect([page.total, page.items.map((s) => s.id)]).toEqual([3, [e1.id]]);
    expect((await fieldsOf(await call('GET', `${missionPath(mission.id)}/submissions?status=pending`))).status).toEqual(['Invalid enum value']);
    expect((await fieldsOf(await call('GET', `${missionPath(mission.id)}/submissions?from=yesterday`))).from).toBeTruthy();
    // By the language answered in (decision 035): an entry from before answers had one counts as English; the default view too.
    expect((await list('?language=ar')).items.map((s) => s.id)).toEqual([e3.id]);
    expect((await list('?language=en')).items.map((s) => s.id)).toEqual([e2.id, e1.id]);
    expect((await list('?status=submitted&language=en')).items.map((s) => s.id)).toEqual([e1.id]);
    expect((await list('?status=draft&language=es')).total).toBe(0);
    expect((await fieldsOf(await call('GET', `${missionPath(mission.id)}/submissions?language=klingon`))).language).toEqual([
      'Must be one of the language codes en, de, es, ar',
    ]);
    expect((await fieldsOf(await call('GET', `/api/admin/submissions?language=EN`))).language).toBeDefined();
    const inbox = await okJson<{ items: { id: number; language: string }[] }>(
      await call('GET', `/api/admin/submissions?status=all&missionId=${mission.id}&language=ar`),
    );
    expect(inbox.items.map((item) => [item.id, item.language])).toEqual([[e3.id, 'ar']]);
  });

  it('one submission: its answers, its own form version, its photos and the participant’s other entries', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx(), photoDefinition());
    const mission = await createMission(ctx(), project.id, { form, entries: { min: 1, max: 3, perDay: 1 } });
    const someone = await member(ctx(), project.id);
    const db = ctx().database.db;
    const photo = (id: string, width: number, height: number) => ({
      id,
      ownerId: someone.id,
      contentType: 'image/webp',
      width,
      height,
      bytes: 1000,
      uploadedBytes: 2000,
      displayKey: `${id}.webp`,
      thumbnailKey: `${id}-thumb.webp`,
      thumbnailWidth: 100,
      thumbnailHeight: 100,
    });
    const stamp = Date.now().toString(36);
    const [p1, p2] = [`ph1${stamp}`, `ph2${stamp}`];
    await db.insert(media).values([photo(p1, 1200, 800), photo(p2, 600, 900)]);
    const earlier = await insertEntry(ctx(), mission, someone.id, { localDate: '2026-10-30', status: 'approved' });
    const entry = await insertEntry(ctx(), mission, someone.id, { localDate: '2026-11-01', answers: { photos: [p2, p1, 'missing-photo'], caption: 'Lunch' } });
    // The mission moves to version 2 afterwards: the entry keeps showing version 1.
    const v2 = photoDefinition('Photos v2');
    await publishVersion(ctx(), form.id, v2);
    await ctx().json('PATCH', missionPath(mission.id), { formVersion: 2 }, moderator.headers);
    // Made after a change of time zone: its detail says the zone before (issue 28 §8).
    const later = await insertEntry(ctx(), await missionRow(mission.id), someone.id, {
      localDate: '2026-11-02',
      status: 'draft',
      timeZone: 'Pacific/Kiritimati',
    });

    const detail = await okJson<AdminSubmissionDetail>(await submission(entry.id));
    expect(detail).toEqual({
      id: entry.id,
      missionId: mission.id,
      missionTitle: mission.title,
      projectId: project.id,
      resubmission: false,
      reviewReason: null,
      reviewedBy: null,
      reviewedAt: null,
      // An entry written straight into the table (no version kept): its one submission is the entry itself.
      history: [
        {
          version: 1,
          formVersion: 1,
          answers: { photos: [p2, p1, 'missing-photo'], caption: 'Lunch' },
          submittedAt: entry.submittedAt?.toISOString(),
          decision: null,
          reason: null,
          decidedBy: null,
          decidedAt: null,
          decisions: [],
        },
      ],
      notes: [],
      probes: [],
      user: { id: someone.id, firstName: 'Robin', lastName: 'Hale', email: someone.email },
      status: 'submitted',
      formVersion: 1,
      definition: form.definition,
      answers: { photos: [p2, p1, 'missing-photo'], caption: 'Lunch' },
      language: 'en',
      media: [
        {
          id: p2,
          kind: 'photo',
          status: 'ready',
          failureReason: null,
          durationMs: null,
          url: `/api/media/${p2}`,
          thumbnailUrl: `/api/media/${p2}/thumbnail`,
          videoUrl: null,
          posterUrl: null,
          width: 600,
          height: 900,
        },
        {
          id: p1,
          kind: 'photo',
          status: 'ready',
          failureReason: null,
          durationMs: null,
          url: `/api/media/${p1}`,
          thumbnailUrl: `/api/media/${p1}/thumbnail`,
          videoUrl: null,
          posterUrl: null,
          width: 1200,
          height: 800,
        },
      ],
      localDate: '2026-11-01',
      timeZone: 'UTC',
      timeZoneChangedFrom: null,
      createdAt: entry.createdAt.toISOString(),
      submittedAt: entry.submittedAt?.toISOString(),
      otherEntries: [
        { id: earlier.id, status: 'approved', localDate: '2026-10-30', submittedAt: earlier.submittedAt?.toISOString() },
        { id: later.id, status: 'draft', localDate: '2026-11-02', submittedAt: null },
      ],
    });
    expect(await okJson<AdminSubmissionDetail>(await submission(later.id))).toMatchObject({
      formVersion: 2,
      timeZone: 'Pacific/Kiritimati',
      timeZoneChangedFrom: 'UTC',
    });

    expect((await errorOf(await submission(999999), 404)).code).toBe('not_found');
    expect((await errorOf(await submission('abc'), 404)).code).toBe('not_found');
    expect((await errorOf(await submission(entry.id, null), 401)).code).toBe('unauthenticated');
    expect((await errorOf(await submission(entry.id, someone), 403)).code).toBe('forbidden');
  });

  it('a form a live mission uses cannot be archived', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx());
    const mission = await createMission(ctx(), project.id, { form, status: 'live' });
    const refused = await ctx().json('DELETE', `/api/admin/forms/${form.id}`, undefined, moderator.headers);
    expect(refused.status).toBe(409);
    const { error } = (await refused.json()) as { error: { code: string; usedBy: unknown[] } };
    expect(error).toMatchObject({
      code: 'in_use',
      usedBy: [{ kind: 'mission', id: mission.id, projectId: project.id, status: 'live', version: 1, live: true }],
    });
    expect((await okJson<AdminMission>(await patch(mission.id, { status: 'closed' }))).status).toBe('closed');
    expect((await ctx().json('DELETE', `/api/admin/forms/${form.id}`, undefined, moderator.headers)).status).toBe(204);
  });

  it('creating and updating are audited', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx());
    const mission = await createVia(project.id, { title: 'Audited', formId: form.id, instructions: 'i'.repeat(1000) });
    await patch(mission.id, { entries: { min: 1, max: 2, perDay: 1 }, status: 'live' });
    const rows = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'mission'), eq(auditLog.targetId, String(mission.id))))
      .orderBy(asc(auditLog.id));
    expect(rows.map((row) => [row.action, row.actorId, row.via])).toEqual([
      ['mission.create', moderator.id, 'api'],
      ['mission.update', moderator.id, 'api'],
    ]);
    expect(rows[0]?.after).toMatchObject({ projectId: project.id, title: 'Audited', formId: form.id, formVersion: 1, status: 'draft' });
    expect((rows[0]?.after as { instructions: string }).instructions.length).toBeLessThan(300);
    expect(rows[1]?.before).toEqual({ entries: { min: 1, max: 1, perDay: null }, status: 'draft' });
    expect(rows[1]?.after).toEqual({ entries: { min: 1, max: 2, perDay: 1 }, status: 'live' });
  });
});
