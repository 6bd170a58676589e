/**
 * The answers export (docs/api.md "Answers export"): a diary mission's entries as CSV (fixed
 * columns, a column per question and per option of a multiple choice, choices by label, photos as
 * signed links, the latest submitted answers, formula-safe), its filters, the project's XLSX read
 * back with exceljs (a sheet per mission, another project's entries absent), the audit row, and
 * the refusals (unknown ids 404, a participant 403, a bad query 400).
 */
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, entrySubmissions, media, missionEntries, type Mission, type Project } from '../../src/server/db/schema/index.ts';
import { newMediaId } from '../../src/server/services/media.ts';
import { describeEachBackend } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import { callAs, createMission, createProject, insertEntry, participant, richDefinition, staff, textDefinition } from './programme-fixtures.ts';

const HEADER = ['Participant ID', 'Email', 'Entry ID', 'Diary day', 'Status', 'Submitted at', 'Decided at', 'Reviewer', 'Resubmissions', 'Language'];
/** The columns of `richDefinition`'s questions: a multiple choice one per option and Other, the statement none. */
const QUESTIONS = [
  'Your name [name]',
  'Your story [story]',
  'Favourite colour [colour]',
  'Snacks [snacks]: Chips',
  'Snacks [snacks]: Fruit',
  'Snacks [snacks]: Nuts',
  'Snacks [snacks]: Other',
  'City [city]',
  'Stars [stars]',
  'Recommend [nps]',
  'Age [age]',
  'Visit date [visit]',
  'Pictures [pics]',
  'Consent [agree]',
  'Grid [grid]',
  'Rank them [rank]',
];
const PHOTOS = HEADER.length + QUESTIONS.indexOf('Pictures [pics]');

describeEachBackend('answers export', (ctx) => {
  let moderator: SignedIn;
  let person: SignedIn;
  let project: Project;
  let diary: Mission;
  let other: Mission;
  let photo: string;
  const ids: Record<string, number> = {};

  const get = (path: string, who: SignedIn | null = moderator) => callAs(ctx(), who)('GET', path);
  const csv = async (path: string) => {
    const res = await get(path);
    expect(res.status, await res.clone().text()).toBe(200);
    // A byte order mark first (Response.text() would drop it).
    const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    return { res, rows: Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data };
  };

  beforeAll(async () => {
    const c = ctx();
    moderator = await staff(c, 'moderator');
    person = await participant(c);
    project = await createProject(c, { name: 'Breakfast study' });
    diary = await createMission(c, project.id, {
      title: 'Breakfast: week 1',
      definition: richDefinition('Breakfast diary'),
      entries: { min: 1, max: 7, perDay: 1 },
    });
    other = await createMission(c, project.id, { title: 'Kitchen tour', definition: textDefinition() });
    const elsewhere = await createMission(c, (await createProject(c)).id);
    photo = newMediaId();
    await c.database.db.insert(media).values({
      id: photo,
      ownerId: person.id,
      contentType: 'image/jpeg',
      width: 1,
      height: 1,
      bytes: 1,
      uploadedBytes: 1,
      displayKey: `${photo}/display.jpg`,
      thumbnailKey: `${photo}/thumb.webp`,
      thumbnailWidth: 1,
      thumbnailHeight: 1,
    });
    const at = (day: string) => new Date(`${day}T08:30:00Z`);
    // Day 1: approved on its second submission; its first version's answers are not the ones exported.
    const answers = {
      story: '=HYPERLINK("http://evil.example","x")',
      colour: 'blue',
      snacks: ['fruit', { other: 'Crisps' }],
      stars: 4,
      pics: [photo, 'removed-photo'],
    };
    const day1 = await insertEntry(c, diary, person.id, { status: 'approved', localDate: '2026-10-05', submittedAt: at('2026-10-05'), answers });
    await c.database.db
      .update(missionEntries)
      .set({ submissionCount: 2, reviewedBy: moderator.id, reviewedAt: new Date('2026-10-06T09:00:00Z') })
      .where(eq(missionEntries.id, day1.id));
    await c.database.db.insert(entrySubmissions).values([
      { entryId: day1.id, version: 1, formVersion: 1, answers: { story: 'first try' }, submittedAt: at('2026-10-04') },
      { entryId: day1.id, version: 2, formVersion: 1, answers, submittedAt: at('2026-10-05') },
    ]);
    // Day 2: sent back for changes, being edited: the export shows what was submitted.
    const day2 = await insertEntry(c, diary, person.id, {
      status: 'changes_requested',
      localDate: '2026-10-06',
      submittedAt: at('2026-10-06'),
      answers: { story: 'editing…' },
      language: 'es',
    });
    await c.database.db
      .insert(entrySubmissions)
      .values({ entryId: day2.id, version: 1, formVersion: 1, answers: { story: 'Toast', colour: { other: 'Teal' }, snacks: [] } });
    const draft = await insertEntry(c, diary, person.id, { status: 'draft', localDate: '2026-10-07', answers: { story: 'not yet' } });
    const tour = await insertEntry(c, other, person.id, { status: 'submitted', submittedAt: at('2026-10-08'), answers: { name: '@home' } });
    await insertEntry(c, elsewhere, person.id, { answers: { name: 'another project' } });
    Object.assign(ids, { day1: day1.id, day2: day2.id, draft: draft.id, tour: tour.id });
  });

  it("a diary's entries as CSV: fixed columns, a column per question and option, the submitted answers, formula-safe, audited", async () => {
    const { res, rows } = await csv(`/api/admin/missions/${diary.id}/entries/export?format=csv`);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="mission-${diary.id}-answers-2026-11-01.csv"`);
    const expires = Date.parse('2026-11-01T12:00:00Z') / 1000 + 30 * 24 * 60 * 60;
    const link = `${ctx().config.publicUrl}/api/media/${photo}/shared?variant=display&expires=${expires}&signature=`;
    expect(rows[0]).toEqual([...HEADER, ...QUESTIONS]);
    // The photo that exists, as a signed link valid 30 days; the removed one left out.
    expect(rows[1]?.[PHOTOS]).toMatch(new RegExp(`^${link.replace(/[.?]/g, '\\$&')}[A-Za-z0-9_-]{43}$`));
    const fixed = [String(person.id), person.email];
    expect(rows.slice(1).map((row) => row.map((cell, index) => (index === PHOTOS && cell ? 'link' : cell)))).toEqual([
      [
        ...fixed,
        String(ids.day1),
        '2026-10-05',
        'approved',
        '2026-10-05T08:30:00.000Z',
        '2026-10-06T09:00:00.000Z',
        moderator.email,
        '1',
        'en',
        '',
        `'=HYPERLINK("http://evil.example","x")`,
        'Blue',
        'No',
        'Yes',
        'No',
        'Crisps',
        '',
        '4',
        '',
        '',
        '',
        'link',
        '',
        '',
        '',
      ],
      [
        ...fixed,
        String(ids.day2),
        '2026-10-06',
        'changes_requested',
        '2026-10-06T08:30:00.000Z',
        '',
        '',
        '0',
        'es',
        '',
        'Toast',
        'Other: Teal',
        'No',
        'No',
        'No',
        '',
        ...Array(9).fill(''),
      ],
    ]);
    const [logged] = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'entries.export'), eq(auditLog.targetId, String(diary.id))));
    expect(logged).toMatchObject({ actorId: moderator.id, targetType: 'mission', after: { format: 'csv', status: 'all', from: null, to: null } });

    // Filters: one status; submitted days (UTC, inclusive); drafts only when asked.
    const only = async (query: string) => (await csv(`/api/admin/missions/${diary.id}/entries/export?${query}`)).rows.slice(1).map((row) => Number(row[2]));
    expect(await only('status=approved')).toEqual([ids.day1]);
    expect(await only('from=2026-10-06&to=2026-10-06')).toEqual([ids.day2]);
    expect(await only('status=draft&from=&to=')).toEqual([ids.draft]);
  });

  it("a project's entries as XLSX: a sheet per mission, read back with exceljs; its CSV side by side", async () => {
    const res = await get(`/api/admin/projects/${project.id}/entries/export?format=xlsx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="project-${project.id}-answers-2026-11-01.xlsx"`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['1. Breakfast week 1', '2. Kitchen tour']);
    const values = (sheet: ExcelJS.Worksheet) =>
      sheet
        .getSheetValues()
        .slice(1)
        .map((row) => (row as unknown[]).slice(1));
    const [first, second] = book.worksheets.map(values);
    const withMission = [...HEADER.slice(0, 3), 'Mission ID', 'Mission', ...HEADER.slice(3)];
    expect(first?.[0]).toEqual([...withMission, ...QUESTIONS]);
    expect(first?.slice(1).map((row) => [row[2], row[3], row[4], row[13]])).toEqual([
      [ids.day1, diary.id, 'Breakfast: week 1', `'=HYPERLINK("http://evil.example","x")`],
      [ids.day2, diary.id, 'Breakfast: week 1', 'Toast'],
    ]);
    expect(second).toEqual([
      [...withMission, 'Your name [name]'],
      [
        person.id,
        person.email,
        ids.tour,
        other.id,
        'Kitchen tour',
        '2026-11-01',
        'submitted',
        '2026-10-08T08:30:00.000Z',
        undefined,
        undefined,
        0,
        'en',
        "'@home",
      ],
    ]);

    const { rows } = await csv(`/api/admin/projects/${project.id}/entries/export`);
    expect(rows[0]?.slice(withMission.length)).toEqual([...QUESTIONS.map((header) => `Breakfast: week 1 — ${header}`), 'Kitchen tour — Your name [name]']);
    expect(rows.slice(1).map((row) => [Number(row[2]), row.at(-1)])).toEqual([
      [ids.day1, ''],
      [ids.day2, ''],
      [ids.tour, "'@home"],
    ]);
  });

  it('refuses unknown ids (404), participants (403) and a bad query (400)', async () => {
    expect((await errorOf(await get('/api/admin/missions/999999/entries/export'), 404)).message).toBe('No such mission');
    expect((await errorOf(await get('/api/admin/projects/999999/entries/export?format=pdf'), 404)).message).toBe('No such project');
    expect((await get(`/api/admin/missions/${diary.id}/entries/export`, person)).status).toBe(403);
    expect(await fieldsOf(await get(`/api/admin/missions/${diary.id}/entries/export?format=pdf&status=done&from=2026-10-09&to=2026-10-08`))).toEqual({
      format: ['Choose csv or xlsx'],
      status: ['Choose one of all, draft, submitted, approved, changes_requested, rejected'],
    });
    expect(await fieldsOf(await get(`/api/admin/projects/${project.id}/entries/export?from=2026-10-09&to=2026-10-08`))).toEqual({
      to: ['Must be on or after the “from” day'],
    });
  });
});
