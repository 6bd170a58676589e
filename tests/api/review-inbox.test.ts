/**
 * The review inbox (`GET /api/admin/submissions`): the queue across every project, oldest first,
 * paged by an opaque cursor. Every filter (status, project, mission, participant, dates, probes),
 * keyset pages with no duplicate and no gap when entries share a timestamp, a bad cursor is a 400,
 * `total` counts the filter's matches, and who may call it.
 */
import { expect, it } from 'vitest';
import { probes } from '../../src/server/db/schema/index.ts';
import { encodeInboxCursor, type ReviewInboxPage } from '../../src/shared/review.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import { callAs, createMission, createProject, insertEntry, member, okJson, participant, staff } from './programme-fixtures.ts';

describeEachBackend('review inbox API', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const inbox = async (who: SignedIn, query = '') => okJson<ReviewInboxPage>(await as(who)('GET', `/api/admin/submissions${query}`));

  /** Two projects, three missions, four participants; entries at set moments. */
  async function world(c: TestContext) {
    const alpha = await createProject(c, { name: 'Alpha study' });
    const beta = await createProject(c, { name: 'Beta study' });
    const breakfast = await createMission(c, alpha.id, { title: 'Breakfast', points: 15 });
    const lunch = await createMission(c, alpha.id, { title: 'Lunch' });
    const dinner = await createMission(c, beta.id, { title: 'Dinner' });
    const ann = await member(c, alpha.id);
    const bob = await member(c, alpha.id);
    const cat = await member(c, beta.id);
    const moderator = await staff(c, 'moderator');
    const at = (iso: string) => new Date(iso);
    const e1 = await insertEntry(c, breakfast, ann.id, { submittedAt: at('2026-10-02T09:00:00Z') });
    const e2 = await insertEntry(c, dinner, cat.id, { submittedAt: at('2026-10-01T09:00:00Z') });
    const e3 = await insertEntry(c, lunch, bob.id, { submittedAt: at('2026-10-03T09:00:00Z') });
    const e4 = await insertEntry(c, breakfast, bob.id, { status: 'approved', submittedAt: at('2026-09-30T09:00:00Z') });
    const e5 = await insertEntry(c, lunch, ann.id, { status: 'draft', createdAt: at('2026-09-29T09:00:00Z') });
    const e6 = await insertEntry(c, dinner, cat.id, { status: 'changes_requested', submittedAt: at('2026-10-04T09:00:00Z') });
    return { alpha, beta, breakfast, lunch, dinner, ann, bob, cat, moderator, e1, e2, e3, e4, e5, e6 };
  }

  it('waits for review by default, oldest first across projects, each row with its mission and project', async () => {
    const c = ctx();
    const w = await world(c);
    const both = `&projectId=${w.alpha.id}`;
    const alpha = await inbox(w.moderator, `?limit=100${both}`);
    expect(alpha.items.map((item) => item.id)).toEqual([w.e1.id, w.e3.id]);
    expect(alpha.total).toBe(2);
    expect(alpha.nextCursor).toBeNull();
    expect(alpha.items[0]).toMatchObject({
      id: w.e1.id,
      status: 'submitted',
      user: { id: w.ann.id, email: w.ann.email },
      submittedAt: '2026-10-02T09:00:00.000Z',
      resubmission: false,
      entriesOfUser: 1,
      probesWaiting: 0,
      mission: { id: w.breakfast.id, title: 'Breakfast', points: 15 },
      project: { id: w.alpha.id, name: 'Alpha study' },
    });
    // Across projects: Beta's older entry comes first; nothing else of this world waits.
    const all = await inbox(w.moderator, '?limit=100');
    const mine = new Set([w.e1.id, w.e2.id, w.e3.id, w.e4.id, w.e5.id, w.e6.id]);
    expect(all.items.map((item) => item.id).filter((id) => mine.has(id))).toEqual([w.e2.id, w.e1.id, w.e3.id]);
    const moments = all.items.map((item) => item.submittedAt ?? '');
    expect([...moments].sort()).toEqual(moments);
    expect(all.items.every((item) => item.status === 'submitted')).toBe(true);
    expect(all.total).toBe(all.items.length);
    // The sidebar's count: one row asked, every waiting entry counted.
    const count = await inbox(w.moderator, '?status=submitted&limit=1');
    expect(count.items).toHaveLength(1);
    expect(count.total).toBe(all.total);
    expect(count.nextCursor).not.toBeNull();
  });

  it('filters by status (all: every status but drafts), project, mission, participant, dates and probes', async () => {
    const c = ctx();
    const w = await world(c);
    const ids = (page: ReviewInboxPage) => page.items.map((item) => item.id);
    const alpha = `&projectId=${w.alpha.id}`;
    const beta = `&projectId=${w.beta.id}`;
    expect(ids(await inbox(w.moderator, `?status=all${alpha}`))).toEqual([w.e4.id, w.e1.id, w.e3.id]);
    expect(ids(await inbox(w.moderator, `?status=all${beta}`))).toEqual([w.e2.id, w.e6.id]);
    expect(ids(await inbox(w.moderator, `?status=draft${alpha}`))).toEqual([w.e5.id]);
    expect(ids(await inbox(w.moderator, `?status=approved${alpha}`))).toEqual([w.e4.id]);
    expect(ids(await inbox(w.moderator, `?status=changes_requested${beta}`))).toEqual([w.e6.id]);
    expect(ids(await inbox(w.moderator, `?missionId=${w.lunch.id}`))).toEqual([w.e3.id]);
    expect(ids(await inbox(w.moderator, `?status=all&missionId=${w.breakfast.id}`))).toEqual([w.e4.id, w.e1.id]);
    // A mission of another project than the one asked: nothing.
    const none = await inbox(w.moderator, `?missionId=${w.dinner.id}${alpha}`);
    expect(none).toEqual({ items: [], nextCursor: null, total: 0, totalEstimated: false });
    // The participant: part of the email or the full name.
    expect(ids(await inbox(w.moderator, `?q=${encodeURIComponent(w.ann.email)}${alpha}&status=all`))).toEqual([w.e1.id]);
    // Dates: UTC days, inclusive.
    expect(ids(await inbox(w.moderator, `?status=all&from=2026-10-02&to=2026-10-03${alpha}`))).toEqual([w.e1.id, w.e3.id]);
    expect(ids(await inbox(w.moderator, `?status=all&to=2026-10-01${beta}`))).toEqual([w.e2.id]);
    // Probes waiting for the participant's answer.
    await c.database.db.insert(probes).values({ entryId: w.e3.id, question: 'Which bread?', askedBy: w.moderator.id, askedAt: c.clock.now() });
    const probed = await inbox(w.moderator, `?probes=waiting${alpha}`);
    expect(probed.items).toMatchObject([{ id: w.e3.id, probesWaiting: 1 }]);
    expect(probed.total).toBe(1);
    // Counts follow the filters.
    expect((await inbox(w.moderator, `?status=all${alpha}&limit=1`)).total).toBe(3);
  });

  it('pages by cursor with no duplicate and no gap when entries share a moment, and the total stays', async () => {
    const c = ctx();
    const project = await createProject(c, { name: 'Paging study' });
    const mission = await createMission(c, project.id, { title: 'Snacks', entries: { min: 1, max: 20 } });
    const moderator = await staff(c, 'admin');
    const people = await Promise.all([0, 1, 2].map(() => member(c, project.id)));
    const same = new Date('2026-08-01T10:00:00.123Z');
    const expected: number[] = [];
    // Seven entries at one moment (pages split them), then three later ones.
    for (let i = 0; i < 7; i++) expected.push((await insertEntry(c, mission, people[i % 3]?.id ?? 0, { submittedAt: same })).id);
    for (let i = 0; i < 3; i++)
      expected.push((await insertEntry(c, mission, people[i]?.id ?? 0, { submittedAt: new Date(Date.parse('2026-08-02T10:00:00Z') + i * 1000) })).id);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ReviewInboxPage = await inbox(moderator, `?projectId=${project.id}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.total).toBe(10);
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(10);
    // An entry submitted while paging lands at the end (oldest first), never between pages already seen.
    const first = await inbox(moderator, `?projectId=${project.id}&limit=5`);
    const late = await insertEntry(c, mission, people[0]?.id ?? 0, { submittedAt: new Date('2026-08-03T00:00:00Z') });
    const rest = await inbox(moderator, `?projectId=${project.id}&limit=100&cursor=${encodeURIComponent(first.nextCursor ?? '')}`);
    expect([...first.items, ...rest.items].map((item) => item.id)).toEqual([...expected, late.id]);
    // The default limit is 20; 100 at most.
    expect((await inbox(moderator, `?projectId=${project.id}&status=all`)).items).toHaveLength(11);
    expect(await fieldsOf(await as(moderator)('GET', '/api/admin/submissions?limit=101'))).toHaveProperty('limit');
    expect(await fieldsOf(await as(moderator)('GET', '/api/admin/submissions?limit=0'))).toHaveProperty('limit');
  });

  it('a cursor it did not give out is a 400 on `cursor`, never a 500; a well-made one past the end is an empty page', async () => {
    const c = ctx();
    const moderator = await staff(c, 'moderator');
    for (const bad of [
      'nonsense',
      'v1.!!!',
      'v1.' + Buffer.from('2026-13-45T10:00:00.000000Z|5').toString('base64url'),
      'v1.' + Buffer.from('2026-01-01T10:00:00.000000Z|0').toString('base64url'),
      'v1.' + Buffer.from('2026-01-01T10:00:00.000000Z|99999999999').toString('base64url'),
      'v1.' + Buffer.from('yesterday|5').toString('base64url'),
      'v1.' + Buffer.from([0xff, 0xfe, 0x00]).toString('base64url'),
      'x'.repeat(500),
    ]) {
      const res = await as(moderator)('GET', `/api/admin/submissions?cursor=${encodeURIComponent(bad)}`);
      const fields = await fieldsOf(res);
      expect(fields.cursor?.[0]).toMatch(/cursor is not one the queue gave out/);
    }
    const past = encodeInboxCursor({ at: '2999-01-01T00:00:00.000000Z', id: 1 });
    expect(await inbox(moderator, `?cursor=${past}`)).toMatchObject({ items: [], nextCursor: null });
    // The other filters are checked too.
    expect(await fieldsOf(await as(moderator)('GET', '/api/admin/submissions?status=lost&projectId=x&from=yesterday&probes=all'))).toEqual({
      status: expect.any(Array),
      projectId: expect.any(Array),
      from: expect.any(Array),
      probes: expect.any(Array),
    });
  });

  it('moderators and admins of any project may read it; participants 403, visitors 401', async () => {
    const c = ctx();
    const project = await createProject(c);
    const mission = await createMission(c, project.id);
    const someone = await member(c, project.id);
    const entry = await insertEntry(c, mission, someone.id, { submittedAt: new Date('2026-07-01T00:00:00Z') });
    for (const role of ['moderator', 'admin'] as const) {
      const page = await inbox(await staff(c, role), `?projectId=${project.id}`);
      expect(page.items.map((item) => item.id)).toEqual([entry.id]);
    }
    expect((await errorOf(await as(await participant(c))('GET', '/api/admin/submissions'), 403)).code).toBe('forbidden');
    expect((await errorOf(await as(someone)('GET', '/api/admin/submissions'), 403)).code).toBe('forbidden');
    expect((await errorOf(await as(null)('GET', '/api/admin/submissions'), 401)).code).toBe('unauthenticated');
    // Its path does not take the place of one submission's or of bulk approval.
    const moderator = await staff(c, 'moderator');
    expect(await okJson<{ id: number }>(await as(moderator)('GET', `/api/admin/submissions/${entry.id}`))).toMatchObject({ id: entry.id });
    expect(await okJson(await as(moderator)('POST', '/api/admin/submissions/review', { ids: [entry.id], decision: 'approve' }))).toEqual({
      approved: 1,
      skipped: 0,
    });
    expect((await inbox(moderator, `?projectId=${project.id}`)).total).toBe(0);
  });
});
