import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { canonicalJson, type Report } from '../../src/shared/schemas/reports.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, freshIp, signedInUser, type SignedIn } from './helpers.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0';

const pageLoad = (url = '/surveys/3'): Report => ({ url, userAgent: UA, data: { type: 'action', action: { name: 'page_load', data: null } } });
const uncaught = (message: string, url = '/account'): Report => ({
  url,
  userAgent: UA,
  data: { type: 'uncaught', stacktrace: `TypeError: ${message}\n    at render (/_astro/app.js:1:200)`, data: { kind: 'misc', data: { type: 'exception', message } } },
});
const httpError = (code: number | null): Report => ({
  url: '/admin/users',
  userAgent: null,
  data: { type: 'manual', stacktrace: null, data: { kind: 'http', code, body: '{"error":{"code":"internal_error"}}', cause: 'FetchError: Internal Server Error' } },
});

interface ListedReport {
  id: number;
  hash: string;
  url: string;
  userAgent: string | null;
  data: unknown;
  count: number;
  firstSeenAt: string;
  lastSeenAt: string;
  user: { id: number; email: string } | null;
}
interface ReportList {
  reports: ListedReport[];
  total: number;
  page: number;
  perPage: number;
}

describeEachBackend('client error reports', (ctx) => {
  let moderator: SignedIn;
  const send = (reports: unknown[], headers: Record<string, string> = {}) =>
    ctx().json('POST', '/api/reports', { reports }, { 'X-Forwarded-For': freshIp(), ...headers });
  const list = async (query = ''): Promise<ReportList> => {
    moderator ??= await signedInUser(ctx(), 'moderator');
    const res = await ctx().request(`/api/admin/reports${query}`, { headers: moderator.headers });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as ReportList;
  };
  const find = async (search: string) => (await list(`?search=${encodeURIComponent(search)}&perPage=100`)).reports;

  it('stores a batch and answers 204 with no body', async () => {
    const res = await send([pageLoad('/surveys/101'), uncaught('boom-101'), httpError(503)]);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const [stored] = await find('boom-101');
    expect(stored).toMatchObject({ url: '/account', userAgent: UA, count: 1, user: null, data: uncaught('boom-101').data });
    expect((await find('/surveys/101'))[0]?.data).toEqual({ type: 'action', action: { name: 'page_load', data: null } });
  });

  it('de-duplicates by the SHA-1 of the content (canonical JSON) and counts repeats', async () => {
    const report = uncaught('dup-202');
    // The same content with its keys in another order is the same report.
    const reordered = { data: { data: { data: { message: 'dup-202', type: 'exception' }, kind: 'misc' }, stacktrace: report.data.type === 'action' ? null : report.data.stacktrace, type: 'uncaught' }, userAgent: UA, url: '/account' };
    expect((await send([report, reordered])).status).toBe(204);
    ctx().clock.advance(5_000);
    expect((await send([report])).status).toBe(204);
    const rows = await find('dup-202');
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.count).toBe(3);
    expect(Date.parse(row?.lastSeenAt ?? '') - Date.parse(row?.firstSeenAt ?? '')).toBe(5_000);
    const expected = createHash('sha1').update(canonicalJson({ url: report.url, userAgent: report.userAgent, data: report.data })).digest('hex');
    expect(row?.hash).toBe(expected);
    // Another page or browser is another report.
    await send([{ ...report, url: '/account/edit' }, { ...report, userAgent: null }]);
    expect(await find('dup-202')).toHaveLength(3);
  });

  it('attaches the signed-in user', async () => {
    const user = await signedInUser(ctx());
    await send([uncaught('mine-303')], user.headers);
    expect((await find('mine-303'))[0]?.user).toMatchObject({ id: user.id, email: user.email });
  });

  it('accepts every shape of SPEC.md §3', async () => {
    const valid: Report[] = [
      pageLoad(),
      { url: '/', userAgent: null, data: { type: 'action', action: { name: 'misc', data: { clicked: 'banner', n: [1, 2] } } } },
      { url: '/', userAgent: UA, data: { type: 'action', action: { name: 'misc', data: null } } },
      { url: '/', userAgent: UA, data: { type: 'action', action: { name: 'misc', data: 'text' } } },
      httpError(null),
      httpError(404),
      { url: '/x?y=1#z', userAgent: UA, data: { type: 'manual', stacktrace: null, data: { kind: 'http', code: null, body: null, cause: null } } },
      { url: '/', userAgent: UA, data: { type: 'uncaught', stacktrace: 'at x', data: { kind: 'misc', data: { type: 'promise', reason: 'x' } } } },
    ];
    for (const report of valid) expect((await send([report])).status, JSON.stringify(report)).toBe(204);
  });

  it('refuses anything else, field by field', async () => {
    const ok = uncaught('shape');
    const invalid: unknown[] = [
      {},
      { ...ok, extra: 1 },
      { ...ok, url: 'https://elsewhere.example/page' },
      { ...ok, url: '//elsewhere.example' },
      { ...ok, url: '' },
      { ...ok, url: `/${'a'.repeat(2048)}` },
      { ...ok, userAgent: undefined },
      { ...ok, userAgent: 'u'.repeat(513) },
      { ...ok, data: { type: 'action', action: { name: 'page_load', data: {} } } },
      { ...ok, data: { type: 'action', action: { name: 'page_load' } } },
      { ...ok, data: { type: 'action', action: { name: 'misc' } } },
      { ...ok, data: { type: 'action', action: { name: 'click', data: null } } },
      { ...ok, data: { type: 'action', action: { name: 'misc', data: 1 }, stacktrace: null } },
      { ...ok, data: { type: 'error', stacktrace: null, data: { kind: 'misc', data: 1 } } },
      { ...ok, data: { type: 'uncaught', data: { kind: 'misc', data: 1 } } },
      { ...ok, data: { type: 'manual', stacktrace: 12, data: { kind: 'misc', data: 1 } } },
      { ...ok, data: { type: 'manual', stacktrace: null, data: { kind: 'http', code: 500.5, body: null, cause: null } } },
      { ...ok, data: { type: 'manual', stacktrace: null, data: { kind: 'http', code: '500', body: null, cause: null } } },
      { ...ok, data: { type: 'manual', stacktrace: null, data: { kind: 'http', code: 500, body: null } } },
      { ...ok, data: { type: 'manual', stacktrace: null, data: { kind: 'http', code: 500, body: null, cause: null, name: 'x' } } },
      { ...ok, data: { type: 'manual', stacktrace: null, data: { kind: 'other', data: 1 } } },
      { ...ok, data: { type: 'manual', stacktrace: null, data: { kind: 'misc' } } },
    ];
    for (const report of invalid) {
      const fields = await fieldsOf(await send([report]));
      expect(Object.keys(fields).length, JSON.stringify(report).slice(0, 200)).toBeGreaterThan(0);
    }
    expect(await fieldsOf(await send([]))).toEqual({ reports: ['Required'] });
    expect(await fieldsOf(await send(Array.from({ length: 21 }, (_, i) => pageLoad(`/p/${i}`))))).toEqual({ reports: ['At most 20 reports per call'] });
    expect(await fieldsOf(await ctx().json('POST', '/api/reports', { reports: [ok], more: 1 }, { 'X-Forwarded-For': freshIp() }))).toEqual({
      more: ['Unexpected field'],
    });
    // Nothing of a refused call is stored.
    expect(await find('shape')).toEqual([]);
  });

  it('takes 20 reports in a call, and answers 413 past 64 KiB', async () => {
    expect((await send(Array.from({ length: 20 }, (_, i) => uncaught(`twenty-${i}`)))).status).toBe(204);
    const big = (i: number): Report => ({ ...uncaught(`big-${i}`), data: { type: 'manual', stacktrace: 's'.repeat(15_000), data: { kind: 'misc', data: i } } });
    const error = await errorOf(await send([big(1), big(2), big(3), big(4), big(5)]), 413);
    expect(error.code).toBe('payload_too_large');
    expect(await find('big-')).toEqual([]);
  });

  it('allows 60 calls a minute per IP, then 429 with Retry-After', async () => {
    const ip = freshIp();
    for (let i = 0; i < 60; i++) expect((await send([pageLoad('/rate')], { 'X-Forwarded-For': ip })).status).toBe(204);
    const limited = await send([pageLoad('/rate')], { 'X-Forwarded-For': ip });
    expect((await errorOf(limited, 429)).code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await send([pageLoad('/rate')])).status).toBe(204); // another address
    ctx().clock.advance(60_000);
    expect((await send([pageLoad('/rate')], { 'X-Forwarded-For': ip })).status).toBe(204);
  });

  it('needs a same-origin JSON call', async () => {
    const res = await ctx().app.request('/api/reports', { method: 'POST', headers: { 'Content-Type': 'text/plain', Origin: 'http://127.0.0.1:4321' }, body: '{}' });
    expect(res.status).toBe(415);
  });
});

describeEachBackend('client error reports: the admin list', (ctx: () => TestContext) => {
  const send = (reports: Report[]) => ctx().json('POST', '/api/reports', { reports }, { 'X-Forwarded-For': freshIp() });

  it('is for moderators and admins', async () => {
    expect((await errorOf(await ctx().request('/api/admin/reports'), 401)).code).toBe('unauthenticated');
    const participant = await signedInUser(ctx());
    expect((await errorOf(await ctx().request('/api/admin/reports', { headers: participant.headers }), 403)).code).toBe('forbidden');
    for (const role of ['moderator', 'admin'] as const) {
      const user = await signedInUser(ctx(), role);
      const res = await ctx().request('/api/admin/reports', { headers: user.headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('lists newest first, pages, and searches the url, the browser and the data', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const get = async (query: string) => (await (await ctx().request(`/api/admin/reports${query}`, { headers: admin.headers })).json()) as ReportList;
    for (let i = 1; i <= 12; i++) {
      await send([uncaught(`listed-${String(i).padStart(2, '0')}`, `/missions/${i}`)]);
      ctx().clock.advance(1000);
    }
    await send([{ url: '/gallery', userAgent: 'CuriousBrowser/9', data: { type: 'action', action: { name: 'misc', data: { note: 'needle_in_data' } } } }]);

    const first = await get('');
    expect(first).toMatchObject({ total: 13, page: 1, perPage: 10 });
    expect(first.reports).toHaveLength(10);
    expect(first.reports[0]?.url).toBe('/gallery');
    expect(first.reports[1]?.url).toBe('/missions/12');
    const second = await get('?page=2');
    expect(second.reports.map((r) => r.url)).toEqual(['/missions/3', '/missions/2', '/missions/1']);

    expect((await get('?search=/missions/1')).reports.map((r) => r.url)).toEqual(['/missions/12', '/missions/11', '/missions/10', '/missions/1']);
    expect((await get('?search=curiousbrowser')).reports.map((r) => r.url)).toEqual(['/gallery']);
    expect((await get('?search=needle_in')).reports.map((r) => r.url)).toEqual(['/gallery']);
    expect((await get('?search=listed-07')).total).toBe(1);
    // Wildcards are taken literally.
    expect((await get('?search=%25')).total).toBe(0);
    // A report seen again moves to the top.
    ctx().clock.advance(1000);
    await send([uncaught('listed-01', '/missions/1')]);
    expect((await get('')).reports[0]).toMatchObject({ url: '/missions/1', count: 2 });

    const bad = await fieldsOf(await ctx().request('/api/admin/reports?page=0&perPage=1000', { headers: admin.headers }));
    expect(Object.keys(bad).sort()).toEqual(['page', 'perPage']);
  });
});
