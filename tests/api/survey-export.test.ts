/**
 * The CSV export of a survey's responses (docs/api.md, "Results"): the exact bytes for a small
 * survey (byte order mark, header, formula-safe cells, `\r\n`, no trailing newline), and pages
 * read as the client reads, so a large export never sits in memory (tests/process/
 * survey-export-memory.test.ts measures that with 100,000 responses).
 */
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { surveyResponses, users } from '../../src/server/db/schema/index.ts';
import { CSV_PAGE_SIZE } from '../../src/server/services/csv.ts';
import { describeEachBackend } from './harness.ts';
import { signedInUser, type SignedIn } from './helpers.ts';
import { callAs, createProject, createSurvey, insertResponse, member, publishedForm, publishVersion, richDefinition } from './programme-fixtures.ts';

describeEachBackend('survey CSV export', (ctx) => {
  let moderator: SignedIn;
  beforeAll(async () => {
    moderator = await signedInUser(ctx(), 'moderator');
  });
  const exportOf = (surveyId: number, status = 'all') => callAs(ctx(), moderator)('GET', `/api/admin/surveys/${surveyId}/responses.csv?status=${status}`);

  it('a small survey: these exact bytes', async () => {
    const project = await createProject(ctx());
    const form = await publishedForm(ctx(), richDefinition());
    const survey = await createSurvey(ctx(), project.id, { form });
    const [a, b, c] = [await member(ctx(), project.id), await member(ctx(), project.id), await member(ctx(), project.id)];
    await ctx().database.db.update(users).set({ firstName: 'Ana', lastName: '@SUM(A1)' }).where(eq(users.id, a.id));
    await ctx().database.db.update(users).set({ firstName: 'Émile', lastName: 'Zola, "J"' }).where(eq(users.id, b.id));
    const first = await insertResponse(ctx(), survey, a.id, {
      submittedAt: new Date('2026-11-01T10:30:00Z'),
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
        grid: { speed: 'good', price: ['bad', 'good'] },
        rank: ['b', 'a', 'c'],
      },
    });
    await publishVersion(ctx(), form.id, richDefinition('Rich v2'));
    const second = await insertResponse(ctx(), survey, b.id, {
      submittedAt: new Date('2026-11-02T08:00:00.123Z'),
      formVersion: 2,
      answers: { name: 'Bea', colour: 'purple', stars: '5', snacks: 'chips', grid: ['x'], unknown: 'kept out' },
      // Answered in Arabic: the column says so; the answers (ids) are written with the source's labels all the same.
      language: 'ar',
    });
    const draft = await insertResponse(ctx(), survey, c.id, { status: 'draft', answers: { name: '+tab\there' } });

    const res = await exportOf(survey.id);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const header =
      'Response ID,Email,First name,Last name,Status,Submitted at,Form version,Language,Your name [name],Your story [story],Favourite colour [colour],Snacks [snacks],' +
      'City [city],Stars [stars],Recommend [nps],Age [age],Visit date [visit],Pictures [pics],Consent [agree],Grid [grid],Rank them [rank]';
    const expected = [
      `\uFEFF${header}`,
      `${first.id},${a.email},Ana,"'@SUM(A1)",submitted,2026-11-01T10:30:00.000Z,1,en,"'=1+1","'-2+3\nsecond line","Other: Teal, ""dark""",Chips; Other: Crisps,Amsterdam,4,9,-3,2026-10-01,m1; m2,Agreed,"Speed: Good; Price: Bad, Good",1. Beta; 2. Alpha; 3. Gamma`,
      `${second.id},${b.email},Émile,"Zola, ""J""",submitted,2026-11-02T08:00:00.123Z,2,ar,Bea,,purple,chips,,5,,,,,,"[""x""]",`,
      `${draft.id},${c.email},Robin,Hale,draft,,1,en,"'+tab\there",,,,,,,,,,,,`,
    ].join('\r\n');
    expect(bytes.toString('utf8')).toBe(expected);
    expect(bytes.equals(Buffer.from(expected, 'utf8'))).toBe(true);
  });

  it('pages are read as the client reads them: one chunk per page of responses', async () => {
    const project = await createProject(ctx());
    const survey = await createSurvey(ctx(), project.id);
    const db = ctx().database.db;
    const total = CSV_PAGE_SIZE * 2 + 1;
    const stamp = Date.now().toString(36);
    const people = await db
      .insert(users)
      .values(Array.from({ length: total + 1 }, (_, i) => ({ email: `page-${stamp}-${i}@example.org`, status: 'active' as const })))
      .returning({ id: users.id });
    const late = people.pop();
    await db
      .insert(surveyResponses)
      .values(
        people.map((person, i) => ({ surveyId: survey.id, userId: person.id, formVersion: 1, answers: { name: `Answer ${i}` }, status: 'submitted' as const })),
      );

    const res = await exportOf(survey.id, 'submitted');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    const read = async () => {
      const { done, value } = await reader.read();
      if (!done) chunks.push(decoder.decode(value, { stream: true }));
      return !done;
    };
    await read(); // the header
    await read(); // the first page
    // Written after the first page was read and after every row there: the export has not read it yet, so it is in.
    if (late) await db.insert(surveyResponses).values({ surveyId: survey.id, userId: late.id, formVersion: 1, answers: { name: 'Late' }, status: 'submitted' });
    while (await read());
    const pages = chunks.slice(1).map((chunk) => chunk.split('\r\n').filter(Boolean).length);
    expect(pages).toEqual([CSV_PAGE_SIZE, CSV_PAGE_SIZE, 2]);
    expect(chunks.join('').endsWith(',Late')).toBe(true);
  });
});
