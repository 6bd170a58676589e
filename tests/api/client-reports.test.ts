import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, eq, like, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from '../../src/shared/build-manifest.ts';
import type { AppEnv } from '../../src/server/context.ts';
import { auditLog, clientReports } from '../../src/server/db/schema/index.ts';
import { createLogger } from '../../src/server/logger.ts';
import { audit } from '../../src/server/services/audit.ts';
import { issueLinkToken } from '../../src/server/services/tokens.ts';
import { findOrCreateInvitedUser } from '../../src/server/services/users.ts';
import { createStaticSite } from '../../src/server/static.ts';
import { canonicalJson } from '../../src/shared/canonical-json.ts';
import { redactReport, type Report } from '../../src/shared/client-reports.ts';
import type { TokenType } from '../../src/shared/tokens.ts';
import { BACKENDS, createTestContext, describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, freshIp, mailsTo, signedInUser, uniqueEmail, writeFixtureDist, type SignedIn } from './helpers.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0';

const pageLoad = (url = '/surveys/3'): Report => ({ url, userAgent: UA, data: { type: 'action', action: { name: 'page_load', data: null } } });
const uncaught = (message: string, url = '/account'): Report => ({
  url,
  userAgent: UA,
  data: {
    type: 'uncaught',
    stacktrace: `TypeError: ${message}\n    at render (/_astro/app.js:1:200)`,
    data: { kind: 'misc', data: { type: 'exception', message } },
  },
});
const httpError = (code: number | null): Report => ({
  url: '/admin/users',
  userAgent: null,
  data: {
    type: 'manual',
    stacktrace: null,
    data: { kind: 'http', code, body: '{"error":{"code":"internal_error"}}', cause: 'FetchError: Internal Server Error' },
  },
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
  items: ListedReport[];
  total: number;
  page: number;
  pageSize: number;
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
  const find = async (search: string) => (await list(`?q=${encodeURIComponent(search)}&pageSize=100&kind=all`)).items;

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
    const reordered = {
      data: {
        data: { data: { message: 'dup-202', type: 'exception' }, kind: 'misc' },
        stacktrace: report.data.type === 'action' ? null : report.data.stacktrace,
        type: 'uncaught',
      },
      userAgent: UA,
      url: '/account',
    };
    expect((await send([report, reordered])).status).toBe(204);
    ctx().clock.advance(5_000);
    expect((await send([report])).status).toBe(204);
    const rows = await find('dup-202');
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.count).toBe(3);
    expect(Date.parse(row?.lastSeenAt ?? '') - Date.parse(row?.firstSeenAt ?? '')).toBe(5_000);
    const expected = createHash('sha1')
      .update(canonicalJson({ url: report.url, userAgent: report.userAgent, data: report.data }))
      .digest('hex');
    expect(row?.hash).toBe(expected);
    // Another page or browser is another report.
    await send([
      { ...report, url: '/account/edit' },
      { ...report, userAgent: null },
    ]);
    expect(await find('dup-202')).toHaveLength(3);
  });

  it('attaches the signed-in user', async () => {
    const user = await signedInUser(ctx());
    await send([uncaught('mine-303')], user.headers);
    expect((await find('mine-303'))[0]?.user).toMatchObject({ id: user.id, email: user.email });
  });

  it('accepts every shape of docs/product.md §3', async () => {
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
    const res = await ctx().app.request('/api/reports', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Origin: 'http://127.0.0.1:4321' },
      body: '{}',
    });
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
    // Errors and actions alike (`kind=all`; the default, errors only, is the next test's).
    const get = async (query: string) =>
      (await (await ctx().request(`/api/admin/reports?kind=all${query.replace(/^\?/, '&')}`, { headers: admin.headers })).json()) as ReportList;
    for (let i = 1; i <= 12; i++) {
      await send([uncaught(`listed-${String(i).padStart(2, '0')}`, `/missions/${i}`)]);
      ctx().clock.advance(1000);
    }
    await send([{ url: '/gallery', userAgent: 'CuriousBrowser/9', data: { type: 'action', action: { name: 'misc', data: { note: 'needle_in_data' } } } }]);

    const first = await get('');
    expect(first).toMatchObject({ total: 13, page: 1, pageSize: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.items[0]?.url).toBe('/gallery');
    expect(first.items[1]?.url).toBe('/missions/12');
    const second = await get('?page=2');
    expect(second.items.map((r) => r.url)).toEqual(['/missions/3', '/missions/2', '/missions/1']);

    expect((await get('?q=/missions/1')).items.map((r) => r.url)).toEqual(['/missions/12', '/missions/11', '/missions/10', '/missions/1']);
    expect((await get('?q=curiousbrowser')).items.map((r) => r.url)).toEqual(['/gallery']);
    expect((await get('?q=needle_in')).items.map((r) => r.url)).toEqual(['/gallery']);
    expect((await get('?q=listed-07')).total).toBe(1);
    // Wildcards are taken literally.
    expect((await get('?q=%25')).total).toBe(0);
    // A report seen again moves to the top.
    ctx().clock.advance(1000);
    await send([uncaught('listed-01', '/missions/1')]);
    expect((await get('')).items[0]).toMatchObject({ url: '/missions/1', count: 2 });

    const bad = await fieldsOf(await ctx().request('/api/admin/reports?page=0&pageSize=1000', { headers: admin.headers }));
    expect(Object.keys(bad).sort()).toEqual(['page', 'pageSize']);
  });

  it('shows errors by default; actions (page_load, misc) with kind=action, everything with kind=all', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const get = async (query: string) => {
      const res = await ctx().request(`/api/admin/reports${query}`, { headers: admin.headers });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as ReportList;
    };
    const before = { error: (await get('')).total, action: (await get('?kind=action')).total, all: (await get('?kind=all')).total };
    expect((await get('?kind=error')).total).toBe(before.error);
    expect(before.all).toBe(before.error + before.action);

    ctx().clock.advance(1000);
    await send([pageLoad('/kinds/1'), pageLoad('/kinds/2'), uncaught('kinds-error', '/kinds/3'), httpError(502)]);
    await send([{ url: '/kinds/4', userAgent: UA, data: { type: 'action', action: { name: 'misc', data: { kinds: true } } } }]);

    const errors = await get('?q=/kinds/');
    expect(errors.total).toBe(1);
    expect(errors.items.map((r) => r.url)).toEqual(['/kinds/3']);
    expect((await get('')).total).toBe(before.error + 2);
    expect((await get('?kind=error')).items.every((r) => (r.data as { type: string }).type !== 'action')).toBe(true);
    const actions = await get('?kind=action&q=/kinds/');
    expect(actions.items.map((r) => r.url).sort()).toEqual(['/kinds/1', '/kinds/2', '/kinds/4']);
    expect((await get('?kind=action')).total).toBe(before.action + 3);
    expect((await get('?kind=all&q=/kinds/')).total).toBe(4);
    expect((await get('?kind=all')).total).toBe(before.all + 5);

    const bad = await fieldsOf(await ctx().request('/api/admin/reports?kind=page_load', { headers: admin.headers }));
    expect(Object.keys(bad)).toEqual(['kind']);
  });
});

// ---------------------------------------------------------------------------------------------
// No live token in anything staff can read (docs/permissions.md, "Secrets").

/** Someone invited who has not set up their account yet (the owner of an onboarding link). */
async function invitedUserId(ctx: TestContext): Promise<number> {
  const { user } = await findOrCreateInvitedUser(ctx.database.db, { email: uniqueEmail('invitee'), role: 'participant' });
  return user.id;
}

/** A live link token of the user, as a mail would carry it (checked live through the API). */
async function liveToken(ctx: TestContext, userId: number, type: TokenType): Promise<string> {
  const { token } = await issueLinkToken(ctx.database.db, ctx.clock, { type, userId });
  const verify = await ctx.request(`/api/tokens/verify?token=${token}&type=${type}`, { headers: { 'X-Forwarded-For': freshIp() } });
  expect(verify.status, await verify.clone().text()).toBe(200);
  return token;
}

/** The statements 0005_integrity.sql appends to clean stored reports, as written there (found by the marker their comment starts with; an applied migration is never edited). */
function reportCleanupStatements(): string[] {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/server/db/migrations/0005_integrity.sql');
  return fs
    .readFileSync(file, 'utf8')
    .split('--> statement-breakpoint')
    .filter((statement) => statement.includes('Issue 13 §1') && statement.includes('"client_reports"'));
}

describeEachBackend('client error reports: no live token reaches staff', (ctx) => {
  let moderator: SignedIn;
  let admin: SignedIn;
  const secrets: string[] = [];
  const send = (reports: unknown[]) => ctx().json('POST', '/api/reports', { reports }, { 'X-Forwarded-For': freshIp() });
  /** Every report a moderator can list, as the JSON text they read. */
  const everything = async (search = ''): Promise<{ text: string; list: ReportList }> => {
    const res = await ctx().request(`/api/admin/reports?pageSize=100&kind=all${search ? `&q=${encodeURIComponent(search)}` : ''}`, {
      headers: moderator.headers,
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    return { text, list: JSON.parse(text) as ReportList };
  };
  const expectNoSecretIn = (text: string) => {
    for (const secret of secrets) expect(text).not.toContain(secret);
  };

  beforeAll(async () => {
    moderator = await signedInUser(ctx(), 'moderator');
    admin = await signedInUser(ctx(), 'admin');
  });

  it("a page_load of /reset-password/<an admin's live token> is stored and listed as /reset-password/[token]", async () => {
    const token = await liveToken(ctx(), admin.id, 'reset-password');
    secrets.push(token);
    // What an old browser (or any client) may still send: the page's real path.
    expect((await send([pageLoad(`/reset-password/${token}`), pageLoad(`/reset-password/${token}/`)])).status).toBe(204);

    const { text, list } = await everything();
    expectNoSecretIn(text);
    const stored = list.items.find((r) => r.url === '/reset-password/[token]');
    expect(stored).toMatchObject({ userAgent: UA, data: { type: 'action', action: { name: 'page_load', data: null } } });
    // The hash is that of what is stored.
    expect(stored?.hash).toBe(
      createHash('sha1')
        .update(canonicalJson({ url: stored?.url, userAgent: stored?.userAgent, data: stored?.data }))
        .digest('hex'),
    );
    // A moderator who searches for the token (or a piece of it) finds nothing.
    for (const search of [token, token.slice(0, 12), token.slice(-12)]) expect((await everything(search)).list.total).toBe(0);
    // The token is still live: nothing but the admin's mail holds it.
    expect((await ctx().request(`/api/tokens/verify?token=${token}&type=reset-password`, { headers: { 'X-Forwarded-For': freshIp() } })).status).toBe(200);
  });

  it('an uncaught error whose stack holds http://host/onboarding/<token>?token=…&pid=… is stored without the secrets', async () => {
    const onboarding = await liveToken(ctx(), await invitedUserId(ctx()), 'onboarding');
    const email = await liveToken(ctx(), (await signedInUser(ctx())).id, 'update-email');
    const pid = 'pid-Abc123_xyz-987654';
    const k = 'Kk9_returnKeyOfTheOutcome';
    secrets.push(onboarding, email, pid, k);
    const stack = `TypeError: cannot read "x"\n    at render (http://host/onboarding/${onboarding}?token=${onboarding}&pid=${pid}:12:5)\n    at http://host/_astro/app.js:1:2`;
    const reports: Report[] = [
      {
        url: `/onboarding/${onboarding}`,
        userAgent: UA,
        data: {
          type: 'uncaught',
          stacktrace: stack,
          data: {
            kind: 'misc',
            data: { type: 'exception', message: `no page /update-email/${email}`, token: onboarding, nested: [{ next: `/x?k=${k}&pid=${pid}` }] },
          },
        },
      },
      {
        url: `/login?r=/update-email/${email}`,
        userAgent: null,
        data: {
          type: 'manual',
          stacktrace: null,
          data: {
            kind: 'http',
            code: 404,
            body: `{"error":{"message":"/reset-password/${onboarding}"}}`,
            cause: `ApiError: GET /api/surveys/return?status=complete&k=${k}&pid=${pid}`,
          },
        },
      },
      {
        url: `/data-deletion?token=${email}`,
        userAgent: UA,
        data: { type: 'action', action: { name: 'misc', data: { pid, link: `http://host/update-email/${email}` } } },
      },
    ];
    expect((await send(reports)).status).toBe(204);

    const { text, list } = await everything();
    expectNoSecretIn(text);
    const byUrl = new Map(list.items.map((r) => [r.url, r]));
    expect(byUrl.get('/onboarding/[token]')?.data).toEqual({
      type: 'uncaught',
      // A query value may hold colons: `:12:5` goes with the pid.
      stacktrace:
        'TypeError: cannot read "x"\n    at render (http://host/onboarding/[token]?token=[redacted]&pid=[redacted])\n    at http://host/_astro/app.js:1:2',
      data: {
        kind: 'misc',
        data: { type: 'exception', message: 'no page /update-email/[token]', token: '[redacted]', nested: [{ next: '/x?k=[redacted]&pid=[redacted]' }] },
      },
    });
    expect(byUrl.get('/login?r=/update-email/[token]')?.data).toEqual({
      type: 'manual',
      stacktrace: null,
      data: {
        kind: 'http',
        code: 404,
        body: '{"error":{"message":"/reset-password/[token]"}}',
        cause: 'ApiError: GET /api/surveys/return?status=complete&k=[redacted]&pid=[redacted]',
      },
    });
    expect(byUrl.get('/data-deletion?token=[redacted]')?.data).toEqual({
      type: 'action',
      action: { name: 'misc', data: { pid: '[redacted]', link: 'http://host/update-email/[token]' } },
    });
    for (const search of [onboarding, email, pid, k]) expect((await everything(search)).list.total).toBe(0);
  });

  it('the same report with another token is the same (cleaned) report: one row, counted', async () => {
    const first = await liveToken(ctx(), await invitedUserId(ctx()), 'onboarding');
    const second = await liveToken(ctx(), await invitedUserId(ctx()), 'onboarding');
    secrets.push(first, second);
    const report = (token: string): Report => ({
      url: '/onboarding/[token]',
      userAgent: 'DedupAgent/2',
      data: { type: 'uncaught', stacktrace: `at http://h/onboarding/${token}:1:1`, data: { kind: 'misc', data: null } },
    });
    await send([report(first)]);
    await send([report(second)]);
    const rows = (await everything('DedupAgent/2')).list.items;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.count).toBe(2);
  });

  it('the data migration cleans reports stored before (its statements, read from 0005_integrity.sql)', async () => {
    const statements = reportCleanupStatements();
    expect(statements).toHaveLength(1);
    const token = 'Mg7_Rt2-stored-before-the-fix-0123456789ab';
    const pid = 'stored-pid-4242';
    secrets.push(token, pid);
    const dirty: Report[] = [
      pageLoad(`/reset-password/${token}`),
      {
        url: `/update-email/${token}?pid=${pid}`,
        userAgent: `Agent/onboarding/${token}`,
        data: {
          type: 'uncaught',
          stacktrace: `Error: "q"\n    at http://h/onboarding/${token}:1:2\n\tnext`,
          data: {
            kind: 'misc',
            data: {
              password: 'hunter2',
              PID: 12345,
              code: 500,
              key: 'kept',
              'a\\"b': `/x?k=${token}`,
              list: [`/onboarding/${token}`, 1.5, true, null, { apiKey: 'abc' }],
            },
          },
        },
      },
      {
        url: '/login',
        userAgent: null,
        data: {
          type: 'manual',
          stacktrace: null,
          data: {
            kind: 'http',
            code: 500,
            body: `{"error":{"message":"see /reset-password/${token}?token=${token}"}}`,
            cause: `ApiError: /RESET-PASSWORD/${token}`,
          },
        },
      },
      {
        url: `/p?Token=${token}&kind=photo#sig=${pid}`,
        userAgent: UA,
        data: { type: 'action', action: { name: 'misc', data: `pasted %2Fupdate-email%2F${token}&x=1 and "/onboarding/${token}"` } },
      },
      // Clean already: left as it is.
      pageLoad('/surveys/77/clean'),
    ];
    const db = ctx().database.db;
    const inserted = await db
      .insert(clientReports)
      .values(dirty.map((report, i) => ({ hash: `migration-dirty-${i}`, url: report.url, userAgent: report.userAgent, data: report.data })))
      .returning({ id: clientReports.id, hash: clientReports.hash });
    // Dirty, a moderator would find the token.
    expect((await everything(token)).list.total).toBeGreaterThan(0);

    for (const statement of statements) await db.execute(sql.raw(statement));

    const rows = await db.select().from(clientReports).where(like(clientReports.hash, 'migration-dirty-%')).orderBy(asc(clientReports.id));
    expect(rows.map((row) => row.id)).toEqual(inserted.map((row) => row.id));
    rows.forEach((row, i) => {
      // The same as the server now stores: redactReport of what the client sent.
      expect({ url: row.url, userAgent: row.userAgent, data: row.data }, JSON.stringify(dirty[i])).toEqual(redactReport(dirty[i] as Report));
    });
    expect(rows[4]?.url).toBe('/surveys/77/clean');
    const { text } = await everything();
    expectNoSecretIn(text);
    expect((await everything(token)).list.total).toBe(0);
    // Running it again changes nothing.
    for (const statement of statements) await db.execute(sql.raw(statement));
    expect(await db.select().from(clientReports).where(like(clientReports.hash, 'migration-dirty-%')).orderBy(asc(clientReports.id))).toEqual(rows);
  });

  it('a contact message with a pasted link keeps no live token, in the admin list or the mail to support', async () => {
    const user = await signedInUser(ctx());
    const token = await liveToken(ctx(), user.id, 'reset-password');
    secrets.push(token);
    const message = `Hello, my link ${ctx().config.publicUrl}/reset-password/${token} says it expired. Can you help?`;
    const res = await ctx().json('POST', '/api/contact', { name: 'Pasting Person', email: user.email, message }, { 'X-Forwarded-For': freshIp() });
    expect(res.status).toBe(202);
    const list = await ctx().request(`/api/admin/contact-messages?q=${encodeURIComponent('Pasting Person')}`, { headers: moderator.headers });
    const listed = await list.text();
    expectNoSecretIn(listed);
    expect(listed).toContain('/reset-password/[token] says it expired');
    const mails = await mailsTo(ctx(), ctx().config.supportEmail);
    const mail = mails.find((m) => m.raw.includes('Pasting Person'));
    expect(mail?.raw).toContain('/reset-password/[token]');
    for (const m of mails) expectNoSecretIn(m.raw);
  });

  it('audit rows keep no token link, password hash or secret-named value', async () => {
    const token = 'Audit_tok-0123456789abcdefghij';
    secrets.push(token);
    await audit(ctx().database.db, {
      actorId: admin.id,
      via: 'api',
      action: 'test.secrets',
      targetType: 'user',
      targetId: admin.id,
      before: { passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', email: 'a@example.org' },
      after: { link: `https://h/reset-password/${token}`, webhookSecret: token, note: 'kept' },
    });
    const [row] = await ctx().database.db.select().from(auditLog).where(eq(auditLog.action, 'test.secrets'));
    expect(row?.before).toEqual({ passwordHash: '[redacted]', email: 'a@example.org' });
    expect(row?.after).toEqual({ link: 'https://h/reset-password/[token]', webhookSecret: '[redacted]', note: 'kept' });
  });

  it('and none of these tokens is in the log', () => {
    expect(secrets.length).toBeGreaterThan(5);
    // The development outbox logs a link only in a mail to its owner; none of these was mailed.
    expectNoSecretIn(ctx().logs.join('\n'));
  });
});

/** The fixture site of helpers.ts, plus the three token pages. */
function distWithTokenPages(): string {
  const dist = writeFixtureDist();
  const tableFile = path.join(dist, '_routes.json');
  const table = JSON.parse(fs.readFileSync(tableFile, 'utf8')) as RouteTable;
  const pages: RouteTable['routes'] = [
    { pattern: '/onboarding/:token', file: 'onboarding/_/index.html', access: 'guest', params: { token: 'token' } },
    { pattern: '/reset-password/:token', file: 'reset-password/_/index.html', access: 'guest', params: { token: 'token' } },
    { pattern: '/update-email/:token', file: 'update-email/_/index.html', access: 'auth', params: { token: 'token' } },
  ];
  for (const page of pages) {
    fs.mkdirSync(path.dirname(path.join(dist, page.file)), { recursive: true });
    fs.writeFileSync(path.join(dist, page.file), `<h1>${page.pattern}</h1>`);
  }
  fs.writeFileSync(tableFile, JSON.stringify({ ...table, routes: [...table.routes, ...pages] }));
  return dist;
}

for (const backend of BACKENDS) {
  describe(`page requests with a link token leave no token in the log [${backend}]`, () => {
    let dist: string;
    let context: TestContext;
    let close: () => Promise<void>;
    beforeAll(async () => {
      dist = distWithTokenPages();
      const site = createStaticSite(dist, createLogger('silent'));
      // A page handler that fails, quoting its URL, as an unexpected error might.
      const pages = new Hono<AppEnv>()
        .get('/onboarding/:token/boom', (c) => {
          throw new Error(`could not render ${c.req.url}`);
        })
        .route('/', site.pages);
      ({ context, close } = await createTestContext(backend, { pages }));
    });
    afterAll(async () => {
      await close();
      fs.rmSync(dist, { recursive: true, force: true });
    });

    it('/reset-password/<token>, /onboarding/<token> and /update-email/<token> are logged with [token]', async () => {
      const user = await signedInUser(context, 'admin');
      const reset = await liveToken(context, user.id, 'reset-password');
      const onboarding = await liveToken(context, await invitedUserId(context), 'onboarding');
      const email = await liveToken(context, user.id, 'update-email');

      const page = await context.request(`/reset-password/${reset}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<h1>/reset-password/:token</h1>');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect((await context.request(`/onboarding/${onboarding}/`)).status).toBe(200);
      // Signed out, the email link goes to sign-in first (its Location is not logged).
      expect((await context.request(`/update-email/${email}`)).status).toBe(302);
      expect((await context.request(`/update-email/${email}`, { headers: user.headers })).status).toBe(200);
      const failed = await context.request(`/onboarding/${onboarding}/boom?token=${reset}`);
      expect(failed.status).toBe(500);
      expect(await failed.text()).not.toContain(onboarding);

      const lines = context.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      const paths = lines.filter((line) => line.msg === 'request').map((line) => line.path);
      expect(paths).toEqual(expect.arrayContaining(['/reset-password/[token]', '/onboarding/[token]/', '/update-email/[token]', '/onboarding/[token]/boom']));
      const unhandled = lines.find((line) => line.msg === 'unhandled error');
      expect(unhandled).toMatchObject({ path: '/onboarding/[token]/boom' });
      expect(JSON.stringify(unhandled)).toContain('/onboarding/[token]/boom?token=[redacted]');
      const text = context.logs.join('\n');
      for (const token of [reset, onboarding, email]) expect(text).not.toContain(token);
    });
  });
}
