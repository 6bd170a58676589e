/**
 * The one list contract (`src/shared/list.ts`, docs/api.md "Lists"): the admin area's lists take
 * `?q=&page=&pageSize=&sort=&dir=` and answer `{ items, total, page, pageSize }`, and refuse a
 * query outside it with the one 400 shape.
 */
import { expect, it } from 'vitest';
import { contactMessages, dataDeletionRequests } from '../../src/server/db/schema/index.ts';
import { describeEachBackend } from './harness.ts';
import { fieldsOf, signedInUser, type SignedIn } from './helpers.ts';

const LISTS = [
  { path: '/api/admin/users', sorts: ['id', 'email', 'name', 'created'] },
  { path: '/api/admin/reports', sorts: ['lastSeen', 'firstSeen', 'count'] },
  { path: '/api/admin/contact-messages', sorts: ['created', 'name', 'email'] },
  { path: '/api/admin/data-deletion-requests', sorts: ['created', 'email', 'status'] },
  { path: '/api/admin/forms', sorts: ['updated', 'title', 'created'] },
] as const;

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

  for (const list of LISTS) {
    it(`${list.path} answers { items, total, page, pageSize } for every sort and direction`, async () => {
      const plain = await get(list.path);
      expect(plain.status).toBe(200);
      const body = (await plain.json()) as Page<unknown>;
      expect(Object.keys(body).sort()).toEqual(['items', 'page', 'pageSize', 'total']);
      expect(body).toMatchObject({ page: 1, pageSize: 10 });
      for (const sort of list.sorts) {
        for (const dir of ['', '&dir=asc', '&dir=desc']) {
          const res = await get(`${list.path}?q=a&page=2&pageSize=3&sort=${sort}${dir}`);
          expect(res.status, `${sort}${dir}`).toBe(200);
          expect(await res.json()).toMatchObject({ page: 2, pageSize: 3 });
        }
      }
    });

    it(`${list.path} refuses a query outside the contract, field by field`, async () => {
      const bad = await fieldsOf(await get(`${list.path}?page=0&pageSize=101&sort=nonsense&dir=sideways&q=${'x'.repeat(201)}`));
      expect(Object.keys(bad).sort()).toEqual(['dir', 'page', 'pageSize', 'q', 'sort']);
    });
  }

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
