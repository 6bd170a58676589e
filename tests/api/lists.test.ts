/**
 * The one list contract (`src/shared/list.ts`, docs/api.md "Lists"): the admin area's lists take
 * `?q=&page=&pageSize=&sort=&dir=` and answer `{ items, total, page, pageSize }`, and refuse a
 * query outside it with the one 400 shape.
 */
import { expect, it } from 'vitest';
import { contactMessages, dataDeletionRequests } from '../../src/server/db/schema/index.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { fieldsOf, signedInUser, type SignedIn } from './helpers.ts';
import { createMission, createProject, createSurvey } from './programme-fixtures.ts';

/** The programme's records the per-project lists are asked about (made once per backend). */
interface Programme {
  projectId: number;
  surveyId: number;
  missionId: number;
}

const LISTS: readonly { name: string; path: string | ((p: Programme) => string); sorts: readonly string[]; extras?: readonly string[] }[] = [
  { name: '/api/admin/users', path: '/api/admin/users', sorts: ['id', 'email', 'name', 'created', 'lastActive'] },
  { name: '/api/admin/reports', path: '/api/admin/reports', sorts: ['lastSeen', 'firstSeen', 'count'] },
  { name: '/api/admin/audit', path: '/api/admin/audit', sorts: ['created'] },
  { name: '/api/admin/contact-messages', path: '/api/admin/contact-messages', sorts: ['created', 'name', 'email'] },
  { name: '/api/admin/data-deletion-requests', path: '/api/admin/data-deletion-requests', sorts: ['created', 'email', 'status'] },
  { name: '/api/admin/forms', path: '/api/admin/forms', sorts: ['updated', 'title', 'created'] },
  { name: '/api/admin/projects', path: '/api/admin/projects', sorts: ['updated', 'name', 'created'] },
  { name: '/api/admin/rewards', path: '/api/admin/rewards', sorts: ['updated', 'title', 'created'] },
  { name: '/api/admin/redemptions', path: '/api/admin/redemptions', sorts: ['requested', 'id'] },
  { name: '/api/admin/projects/{id}/members', path: (p) => `/api/admin/projects/${p.projectId}/members`, sorts: ['added', 'email', 'name'] },
  { name: '/api/admin/surveys/{id}/responses', path: (p) => `/api/admin/surveys/${p.surveyId}/responses`, sorts: ['latest', 'started', 'name'] },
  {
    name: '/api/admin/missions/{id}/submissions',
    path: (p) => `/api/admin/missions/${p.missionId}/submissions`,
    sorts: ['submitted', 'name'],
    // Keyset paging beside the page numbers, and a total that is an estimate past 1,000 (docs/api.md, "Lists").
    extras: ['nextCursor', 'totalEstimated'],
  },
];

async function makeProgramme(ctx: TestContext): Promise<Programme> {
  const project = await createProject(ctx);
  const [survey, mission] = [await createSurvey(ctx, project.id), await createMission(ctx, project.id)];
  return { projectId: project.id, surveyId: survey.id, missionId: mission.id };
}

interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

describeEachBackend('the list contract', (ctx) => {
  let admin: SignedIn | undefined;
  const adminOf = async () => (admin ??= await signedInUser(ctx(), 'admin'));
  const get = async (url: string) => ctx().request(url, { headers: (await adminOf()).headers });
  let programme: Programme | undefined;
  const pathOf = async (list: (typeof LISTS)[number]) => (typeof list.path === 'string' ? list.path : list.path((programme ??= await makeProgramme(ctx()))));

  for (const list of LISTS) {
    it(`${list.name} answers { items, total, page, pageSize } for every sort and direction`, async () => {
      const path = await pathOf(list);
      const plain = await get(path);
      expect(plain.status).toBe(200);
      const body = (await plain.json()) as Page<unknown>;
      expect(Object.keys(body).sort()).toEqual(['items', 'page', 'pageSize', 'total', ...(list.extras ?? [])].sort());
      expect(body).toMatchObject({ page: 1, pageSize: 10 });
      for (const sort of list.sorts) {
        for (const dir of ['', '&dir=asc', '&dir=desc']) {
          const res = await get(`${path}?q=a&page=2&pageSize=3&sort=${sort}${dir}`);
          expect(res.status, `${sort}${dir}`).toBe(200);
          expect(await res.json()).toMatchObject({ page: 2, pageSize: 3 });
        }
      }
    });

    it(`${list.name} refuses a query outside the contract, field by field`, async () => {
      const bad = await fieldsOf(await get(`${await pathOf(list)}?page=0&pageSize=101&sort=nonsense&dir=sideways&q=${'x'.repeat(201)}`));
      expect(Object.keys(bad).sort()).toEqual(['dir', 'page', 'pageSize', 'q', 'sort']);
    });
  }

  it('every day filter (lists and exports) takes 1900 to 9998 and refuses a day beyond with a message, never a 500', async () => {
    const p = (programme ??= await makeProgramme(ctx()));
    const filtered = [
      '/api/admin/users',
      '/api/admin/audit',
      '/api/admin/gallery',
      `/api/admin/missions/${p.missionId}/submissions`,
      '/api/admin/submissions',
      `/api/admin/missions/${p.missionId}/entries/export`,
      `/api/admin/projects/${p.projectId}/entries/export`,
    ];
    for (const path of filtered) {
      const ends = await get(`${path}?from=1900-01-01&to=9998-12-31`);
      expect(ends.status, path).toBe(200);
      await ends.arrayBuffer();
      for (const query of ['from=0000-01-01', 'to=9999-12-31']) {
        const fields = await fieldsOf(await get(`${path}?${query}`));
        expect(Object.values(fields).flat(), `${path}?${query}`).toEqual(['Enter a date from 1900 to 9998']);
      }
    }
  });

  it('sorts by the asked key, in its natural direction unless `dir` says otherwise', async () => {
    const db = ctx().database.db;
    const base = Date.parse('2026-10-01T00:00:00Z');
    const names = ['Carla Lists', 'anna Lists', 'Bruno Lists'];
    await db.insert(contactMessages).values(
      names.map((name, i) => ({
        name,
        email: `${name.split(' ')[0]?.toLowerCase()}@lists.example.org`,
        message: 'About lists',
        createdAt: new Date(base + i * 1000),
      })),
    );
    const order = async (query: string) =>
      ((await (await get(`/api/admin/contact-messages?q=Lists${query}`)).json()) as Page<{ name: string }>).items.map((m) => m.name);
    expect(await order('')).toEqual(['Bruno Lists', 'anna Lists', 'Carla Lists']);
    expect(await order('&dir=asc')).toEqual(['Carla Lists', 'anna Lists', 'Bruno Lists']);
    expect(await order('&sort=name')).toEqual(['anna Lists', 'Bruno Lists', 'Carla Lists']);
    expect(await order('&sort=name&dir=desc')).toEqual(['Carla Lists', 'Bruno Lists', 'anna Lists']);
    expect(await order('&sort=name&pageSize=2&page=2')).toEqual(['Carla Lists']);

    await db.insert(dataDeletionRequests).values([
      { email: 'closed@lists.example.org', status: 'completed' },
      { email: 'waiting@lists.example.org', status: 'pending' },
      { email: 'ready@lists.example.org', status: 'confirmed' },
    ]);
    const statuses = ((await (await get('/api/admin/data-deletion-requests?q=lists.example&sort=status')).json()) as Page<{ status: string }>).items.map(
      (r) => r.status,
    );
    expect(statuses).toEqual(['pending', 'confirmed', 'completed']);
  });
});
