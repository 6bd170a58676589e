/**
 * API tokens and the token API (issue 32 §2, §4; docs/api.md "API tokens and /api/v1"): the admin
 * calls (made once, shown once, revoked at once), the bearer gate (only on /api/v1, never with a
 * session cookie, checksum refused before any lookup, expiry, revocation, rate limit), each call's
 * scope and the project limit, keyset paging, and points credited once per reference, audited with
 * the token as the actor. One world per backend; the clock only moves in the last tests.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { apiTokens, auditLog, entrySubmissions, pointsLedger, type Mission, type Project, type Survey } from '../../src/server/db/schema/index.ts';
import { isWellFormedApiToken, type ApiTokenListItem, type ApiTokenScope, type CreatedApiToken } from '../../src/shared/api-tokens.ts';
import type { ListPage } from '../../src/shared/list.ts';
import { openApiDocument } from '../../src/server/routes/api-v1.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import {
  addMember,
  callAs,
  createMission,
  createProject,
  createSurvey,
  insertEntry,
  insertResponse,
  member,
  okJson,
  participant,
  staff,
} from './programme-fixtures.ts';

interface KeysetPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** The world every test reads: two projects, their members, a survey and a mission each, tokens. */
interface World {
  admin: SignedIn;
  alpha: Project;
  beta: Project;
  /** Alpha's members, in the order they were added; `outsider` is Beta's. */
  ann: SignedIn;
  bob: SignedIn;
  cat: SignedIn;
  outsider: SignedIn;
  alphaSurvey: Survey;
  betaSurvey: Survey;
  alphaMission: Mission;
  betaMission: Mission;
  /** Response ids of Alpha's survey, oldest submission first (a draft besides). */
  responses: number[];
  /** Entry ids of Alpha's mission, oldest submission first (a draft besides). */
  entries: number[];
  /** Every scope, no project limit. */
  all: CreatedApiToken;
  /** Every scope, limited to Alpha. */
  alphaOnly: CreatedApiToken;
  /** No scope any call here needs. */
  bare: CreatedApiToken;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describeEachBackend('API tokens', (ctx) => {
  let world: World | undefined;
  const w = () => {
    if (!world) throw new Error('world not ready');
    return world;
  };

  /** A token API call with a token (no Origin, no cookie: as an integration calls). */
  const v1 = (token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    ctx().request(`/api/v1${path}`, {
      method,
      headers: { ...bearer(token), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  async function createToken(c: TestContext, admin: SignedIn, body: Record<string, unknown>): Promise<CreatedApiToken> {
    return okJson<CreatedApiToken>(await callAs(c, admin)('POST', '/api/admin/tokens', body), 201);
  }

  beforeAll(async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const alpha = await createProject(c, { name: 'Alpha study' });
    const beta = await createProject(c, { name: 'Beta study' });
    const at = (iso: string) => new Date(iso);
    const ann = await member(c, alpha.id);
    c.clock.advance(1000);
    const bob = await member(c, alpha.id);
    c.clock.advance(1000);
    const cat = await member(c, alpha.id);
    const outsider = await member(c, beta.id);
    const alphaSurvey = await createSurvey(c, alpha.id);
    const betaSurvey = await createSurvey(c, beta.id);
    // Submitted in this order (ids in another): keyset pages follow the submission.
    const r2 = await insertResponse(c, alphaSurvey, bob.id, { submittedAt: at('2026-10-02T09:00:00Z'), answers: { q1: 'second' }, language: 'de' });
    const r1 = await insertResponse(c, alphaSurvey, ann.id, { submittedAt: at('2026-10-01T09:00:00Z'), answers: { q1: 'first' } });
    const r3 = await insertResponse(c, alphaSurvey, cat.id, { submittedAt: at('2026-10-03T09:00:00Z'), answers: { q1: 'third' } });
    await insertResponse(c, alphaSurvey, admin.id, { status: 'draft', answers: { q1: 'not yet' } });
    await insertResponse(c, betaSurvey, outsider.id);
    const alphaMission = await createMission(c, alpha.id, { entries: { min: 1, max: 5 } });
    const betaMission = await createMission(c, beta.id);
    const e1 = await insertEntry(c, alphaMission, ann.id, {
      status: 'approved',
      submittedAt: at('2026-10-01T10:00:00Z'),
      answers: { q1: 'edited, not submitted' },
    });
    // Its current version is the latest submission, not the answers saved since.
    await c.database.db
      .insert(entrySubmissions)
      .values([
        { entryId: e1.id, version: 1, formVersion: alphaMission.formVersion, answers: { q1: 'as submitted' }, submittedAt: at('2026-10-01T10:00:00Z') },
      ]);
    const e2 = await insertEntry(c, alphaMission, bob.id, { submittedAt: at('2026-10-02T10:00:00Z'), answers: { q1: 'waiting' } });
    const e3 = await insertEntry(c, alphaMission, cat.id, { status: 'rejected', submittedAt: at('2026-10-03T10:00:00Z') });
    await insertEntry(c, alphaMission, ann.id, { status: 'draft' });
    await insertEntry(c, betaMission, outsider.id);
    const every = ['responses:read', 'entries:read', 'participants:read', 'points:read', 'points:write', 'webhooks:manage'];
    world = {
      admin,
      alpha,
      beta,
      ann,
      bob,
      cat,
      outsider,
      alphaSurvey,
      betaSurvey,
      alphaMission,
      betaMission,
      responses: [r1.id, r2.id, r3.id],
      entries: [e1.id, e2.id, e3.id],
      all: await createToken(c, admin, { name: 'CRM', scopes: every }),
      alphaOnly: await createToken(c, admin, { name: 'Alpha dashboard', scopes: every, projectId: alpha.id }),
      bare: await createToken(c, admin, { name: 'Webhooks only', scopes: ['webhooks:manage'] }),
    };
  });

  // -------------------------------------------------------------------------------------------
  // The admin calls

  it('makes a token shown once: well formed, only its hash and first characters kept, audited', async () => {
    const c = ctx();
    const { all, admin } = w();
    expect(all).toMatchObject({ name: 'CRM', projectId: null, prefix: all.token.slice(0, 10) });
    expect(isWellFormedApiToken(all.token)).toBe(true);
    expect(all.token).toMatch(/^fw_[0-9A-Za-z]{36}$/);
    // 90 days unless told otherwise.
    expect(Date.parse(all.expiresAt) - c.clock.now().getTime()).toBeGreaterThan(89 * 86_400_000);
    const [row] = await c.database.db.select().from(apiTokens).where(eq(apiTokens.id, all.id));
    expect(row?.tokenHash).toBe(createHash('sha256').update(all.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(all.token);
    const list = await okJson<ListPage<ApiTokenListItem>>(await callAs(c, admin)('GET', '/api/admin/tokens?q=CRM'));
    expect(list.items).toEqual([
      expect.objectContaining({
        id: all.id,
        name: 'CRM',
        prefix: all.prefix,
        status: 'active',
        createdBy: { id: admin.id, name: 'Robin Hale' },
        revokedAt: null,
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain(all.token);
    const [audited] = await c.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'api_token.create'), eq(auditLog.targetId, String(all.id))));
    expect(audited).toMatchObject({ actorId: admin.id, targetType: 'api_token' });
    expect(JSON.stringify(audited)).not.toContain(all.token);
  });

  it('refuses what the admin calls may not take, and everyone but admins with a session', async () => {
    const c = ctx();
    const { admin, all } = w();
    const as = callAs(c, admin);
    expect(await fieldsOf(await as('POST', '/api/admin/tokens', { name: '', scopes: ['everything'], expiresInDays: 366 }))).toEqual({
      name: ['Required'],
      scopes: ['Invalid enum value'],
      expiresInDays: ['At most 365 days'],
    });
    expect(await fieldsOf(await as('POST', '/api/admin/tokens', { name: 'X', scopes: [] }))).toEqual({ scopes: ['Choose at least one scope'] });
    expect(await fieldsOf(await as('POST', '/api/admin/tokens', { name: 'X', scopes: ['points:read'], projectId: 999_999_999 }))).toEqual({
      projectId: ['No such project'],
    });
    const moderator = await staff(c, 'moderator');
    expect((await errorOf(await callAs(c, moderator)('GET', '/api/admin/tokens'), 403)).code).toBe('forbidden');
    expect((await errorOf(await callAs(c, await participant(c))('POST', '/api/admin/tokens', { name: 'X', scopes: ['points:read'] }), 403)).code).toBe(
      'forbidden',
    );
    // A token is no way into the admin calls, with or without a session beside it.
    for (const headers of [bearer(all.token), { ...bearer(all.token), ...admin.headers }]) {
      const res = await c.request('/api/admin/tokens', { headers });
      expect((await errorOf(res, 401)).code).toBe('token_not_accepted');
      expect(res.headers.get('WWW-Authenticate')).toContain('Bearer');
    }
    expect(
      (await errorOf(await c.request(`/api/admin/tokens/${all.id}`, { method: 'DELETE', headers: { ...bearer(all.token), Origin: ORIGIN } }), 401)).code,
    ).toBe('token_not_accepted');
    expect((await errorOf(await as('DELETE', '/api/admin/tokens/999999999'), 404)).code).toBe('not_found');
  });

  it('never works on a session call: the account, sign-in and the signed-in check refuse a bearer token', async () => {
    const c = ctx();
    const { all, ann } = w();
    for (const path of ['/api/account', '/api/auth', '/api/account/points']) {
      expect((await errorOf(await c.request(path, { headers: { ...bearer(all.token), ...ann.headers } }), 401)).code).toBe('token_not_accepted');
    }
    const login = await c.request('/api/auth/login', {
      method: 'POST',
      headers: { ...bearer(all.token), Origin: ORIGIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ann.email, password: 'x' }),
    });
    expect((await errorOf(login, 401)).code).toBe('token_not_accepted');
    // The description reads no credential: a client generator may send its token along.
    expect((await c.request('/api/openapi.json', { headers: bearer(all.token) })).status).toBe(200);
  });

  // -------------------------------------------------------------------------------------------
  // The gate

  it('asks for a token, refuses a session, and refuses a token sent with a session cookie (400)', async () => {
    const c = ctx();
    const { all, admin } = w();
    const none = await c.request('/api/v1/projects');
    expect((await errorOf(none, 401)).code).toBe('token_required');
    expect(none.headers.get('WWW-Authenticate')).toBe('Bearer realm="Fieldwork API"');
    expect((await errorOf(await c.request('/api/v1/projects', { headers: admin.headers }), 401)).code).toBe('token_required');
    expect((await errorOf(await c.request('/api/v1/projects', { headers: { Authorization: 'Basic YTpi' } }), 401)).code).toBe('token_required');
    expect((await errorOf(await v1(all.token, 'GET', '/projects', undefined, admin.headers), 400)).code).toBe('token_and_session');
  });

  it('refuses a token whose checksum fails without looking it up, and an unknown one', async () => {
    const c = ctx();
    const { all } = w();
    // One character changed: stored as if it were a real token, it is still refused (no lookup happens).
    const last = all.token.at(-8) === 'a' ? 'b' : 'a';
    const changed = `${all.token.slice(0, -8)}${last}${all.token.slice(-7)}`;
    expect(isWellFormedApiToken(changed)).toBe(false);
    await c.database.db.insert(apiTokens).values({
      name: 'Forged',
      tokenHash: createHash('sha256').update(changed).digest('hex'),
      prefix: changed.slice(0, 10),
      scopes: ['points:read'],
      expiresAt: new Date(c.clock.now().getTime() + 86_400_000),
    });
    const refused = await errorOf(await v1(changed, 'GET', '/projects'), 401);
    expect(refused).toMatchObject({ code: 'invalid_token', message: 'This is not a Fieldwork API token: check that it was copied whole' });
    for (const token of ['fw_short', 'ghp_x', '']) expect([401]).toContain((await v1(token, 'GET', '/projects')).status);
    // Well formed, but not one we made.
    const body = `fw_${'A'.repeat(30)}`;
    const { apiTokenChecksum } = await import('../../src/shared/api-tokens.ts');
    expect(await errorOf(await v1(`${body}${apiTokenChecksum(body)}`, 'GET', '/projects'), 401)).toMatchObject({
      code: 'invalid_token',
      message: 'This API token is not known',
    });
  });

  // -------------------------------------------------------------------------------------------
  // Scopes and the project limit

  /** Every scoped call of the token API, on Alpha's objects, and the scope it needs. */
  const scopedCalls = (world: World): { scope: ApiTokenScope; method: string; path: string; body?: unknown; ok: number }[] => [
    { scope: 'participants:read', method: 'GET', path: `/projects/${world.alpha.id}/participants`, ok: 200 },
    { scope: 'responses:read', method: 'GET', path: `/surveys/${world.alphaSurvey.id}/responses`, ok: 200 },
    { scope: 'entries:read', method: 'GET', path: `/missions/${world.alphaMission.id}/entries`, ok: 200 },
    { scope: 'points:read', method: 'GET', path: `/participants/${world.ann.id}/points`, ok: 200 },
    {
      scope: 'points:write',
      method: 'POST',
      path: `/participants/${world.ann.id}/points`,
      body: { points: 1, reason: 'Scope check', reference: 'scope-check' },
      ok: 201,
    },
  ];

  it('answers each call only with its scope: 403 insufficient_scope naming it otherwise', async () => {
    const { all, bare } = w();
    for (const call of scopedCalls(w())) {
      const refused = await v1(bare.token, call.method, call.path, call.body);
      expect(await errorOf(refused, 403), call.path).toMatchObject({ code: 'insufficient_scope', scope: call.scope });
      expect(refused.headers.get('WWW-Authenticate')).toContain(`scope="${call.scope}"`);
      expect((await v1(all.token, call.method, call.path, call.body)).status, `${call.method} ${call.path}`).toBe(call.ok);
    }
    // Projects need no scope.
    expect((await v1(bare.token, 'GET', '/projects')).status).toBe(200);
    // One scope opens its call and no other.
    const c = ctx();
    const reader = await createToken(c, w().admin, { name: 'Responses', scopes: ['responses:read'] });
    expect((await v1(reader.token, 'GET', `/surveys/${w().alphaSurvey.id}/responses`)).status).toBe(200);
    expect((await errorOf(await v1(reader.token, 'GET', `/missions/${w().alphaMission.id}/entries`), 403)).code).toBe('insufficient_scope');
  });

  it("keeps a token limited to a project out of every other project's objects (404) and lists that project alone", async () => {
    const { alphaOnly, all, beta, betaSurvey, betaMission, outsider, alpha } = w();
    const others = [
      ['GET', `/projects/${beta.id}/participants`],
      ['GET', `/surveys/${betaSurvey.id}/responses`],
      ['GET', `/missions/${betaMission.id}/entries`],
      ['GET', `/participants/${outsider.id}/points`],
      ['POST', `/participants/${outsider.id}/points`],
    ] as const;
    for (const [method, path] of others) {
      const body = method === 'POST' ? { points: 5, reason: 'Not here', reference: 'limit' } : undefined;
      expect((await errorOf(await v1(alphaOnly.token, method, path, body), 404)).code, path).toBe('not_found');
      // Without a limit, the same calls work.
      expect((await v1(all.token, method, path, body)).status, path).toBeLessThan(300);
    }
    for (const call of scopedCalls(w())) expect((await v1(alphaOnly.token, call.method, call.path, call.body)).status).toBeLessThan(300);
    const limited = await okJson<{ items: { id: number }[]; total: number }>(await v1(alphaOnly.token, 'GET', '/projects'));
    expect(limited).toMatchObject({ items: [{ id: alpha.id }], total: 1 });
    const every = await okJson<{ items: { id: number }[] }>(await v1(all.token, 'GET', '/projects?pageSize=100'));
    expect(every.items.map((item) => item.id)).toEqual(expect.arrayContaining([alpha.id, beta.id]));
    // An id that is not one is 404 like an unknown one.
    for (const id of ['abc', '0', '99999999999', '999999999']) {
      expect((await errorOf(await v1(all.token, 'GET', `/surveys/${id}/responses`), 404)).message).toBe('No such survey');
    }
  });

  // -------------------------------------------------------------------------------------------
  // The reads, page by page

  it("pages a survey's submitted responses oldest first by keyset, answers keyed by element id", async () => {
    const { all, alphaSurvey, responses, ann, bob } = w();
    type Row = { id: number; userId: number; answers: Record<string, unknown>; status: string; formVersion: number; language: string; submittedAt: string };
    const first = await okJson<KeysetPage<Row>>(await v1(all.token, 'GET', `/surveys/${alphaSurvey.id}/responses?limit=2`));
    expect(first.items.map((item) => item.id)).toEqual(responses.slice(0, 2));
    expect(first.items[0]).toEqual({
      id: responses[0],
      surveyId: alphaSurvey.id,
      userId: ann.id,
      status: 'submitted',
      formVersion: alphaSurvey.formVersion,
      language: 'en',
      answers: { q1: 'first' },
      submittedAt: '2026-10-01T09:00:00.000Z',
    });
    expect(first.items[1]).toMatchObject({ userId: bob.id, language: 'de', answers: { q1: 'second' } });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await okJson<KeysetPage<Row>>(
      await v1(all.token, 'GET', `/surveys/${alphaSurvey.id}/responses?limit=2&cursor=${encodeURIComponent(first.nextCursor ?? '')}`),
    );
    // The draft is not listed.
    expect(second).toEqual({ items: [expect.objectContaining({ id: responses[2] })], nextCursor: null });
    expect(await fieldsOf(await v1(all.token, 'GET', `/surveys/${alphaSurvey.id}/responses?cursor=nonsense`))).toEqual({
      cursor: ['This cursor is not one this list gave out: ask for the first page again'],
    });
    expect(Object.keys(await fieldsOf(await v1(all.token, 'GET', `/surveys/${alphaSurvey.id}/responses?limit=101`)))).toEqual(['limit']);
  });

  it("pages a project's participants oldest member first, with names, e-mail and country (not its staff)", async () => {
    const { all, alpha, ann, bob, cat } = w();
    // A moderator who is a member of the project is staff, not a participant.
    await addMember(ctx(), alpha.id, await staff(ctx(), 'moderator'));
    type Row = { id: number; email: string; country: string | null };
    const seen: Row[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const page: KeysetPage<Row> = await okJson<KeysetPage<Row>>(await v1(all.token, 'GET', `/projects/${alpha.id}/participants${query}`));
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 5);
    expect(pages).toBe(2);
    expect(seen.map((row) => row.id)).toEqual([ann.id, bob.id, cat.id]);
    expect(seen[0]).toEqual({ id: ann.id, firstName: 'Robin', lastName: 'Hale', email: ann.email, country: null, addedAt: expect.any(String) });
  });

  it("pages a mission's entries with their states and current versions, never drafts", async () => {
    const { all, alphaMission, entries, ann } = w();
    type Row = { id: number; status: string; answers: Record<string, unknown>; userId: number };
    const page = await okJson<KeysetPage<Row>>(await v1(all.token, 'GET', `/missions/${alphaMission.id}/entries?limit=2`));
    expect(page.items.map((item) => [item.id, item.status])).toEqual([
      [entries[0], 'approved'],
      [entries[1], 'submitted'],
    ]);
    expect(page.items[0]).toMatchObject({ userId: ann.id, answers: { q1: 'as submitted' }, missionId: alphaMission.id, resubmission: false });
    const rest = await okJson<KeysetPage<Row>>(
      await v1(all.token, 'GET', `/missions/${alphaMission.id}/entries?limit=2&cursor=${encodeURIComponent(page.nextCursor ?? '')}`),
    );
    expect(rest).toEqual({ items: [expect.objectContaining({ id: entries[2], status: 'rejected' })], nextCursor: null });
    const rejected = await okJson<KeysetPage<Row>>(await v1(all.token, 'GET', `/missions/${alphaMission.id}/entries?status=rejected`));
    expect(rejected.items.map((item) => item.id)).toEqual([entries[2]]);
    expect(Object.keys(await fieldsOf(await v1(all.token, 'GET', `/missions/${alphaMission.id}/entries?status=draft`)))).toEqual(['status']);
  });

  // -------------------------------------------------------------------------------------------
  // Points

  it('credits points once per reference (body or Idempotency-Key), as the admin adjustment does, audited with the token', async () => {
    const c = ctx();
    const { all, bob, admin } = w();
    const path = `/participants/${bob.id}/points`;
    const balance = async () => (await okJson<{ available: number }>(await v1(all.token, 'GET', path))).available;
    const before = await balance();
    // No Origin header: a token is not a cookie, so the same-origin check does not apply.
    const first = await okJson<{ id: number; reference: string; points: number; reason: string }>(
      await v1(all.token, 'POST', path, { points: 250, reason: 'Interview completed', reference: 'crm-1042' }),
      201,
    );
    expect(first).toMatchObject({ points: 250, reason: 'Adjustment: Interview completed', reference: 'crm-1042', source: 'adjustment', state: 'available' });
    const again = await okJson<{ id: number }>(await v1(all.token, 'POST', path, { points: 999, reason: 'Retry', reference: 'crm-1042' }), 200);
    expect(again.id).toBe(first.id);
    const byHeader = await v1(all.token, 'POST', path, { points: 5, reason: 'By header' }, { 'Idempotency-Key': 'crm-1043' });
    expect(byHeader.status).toBe(201);
    expect((await v1(all.token, 'POST', path, { points: 5, reason: 'By header' }, { 'Idempotency-Key': 'crm-1043' })).status).toBe(200);
    expect(await balance()).toBe(before + 255);
    // The admin's own references are another namespace: an admin's "crm-1042" is not this credit.
    const [stored] = await c.database.db.select().from(pointsLedger).where(eq(pointsLedger.id, first.id));
    expect(stored).toMatchObject({ reference: 'api:crm-1042', createdBy: null, userId: bob.id });
    const audited = await c.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'points.adjust'), eq(auditLog.targetId, String(bob.id))));
    expect(audited.map((row) => [row.via, row.apiTokenId, row.actorId])).toEqual([
      ['token', all.id, null],
      ['token', all.id, null],
    ]);
    // The audit list names the token.
    const list = await okJson<ListPage<{ apiTokenId: number | null; via: string }>>(
      await callAs(c, admin)('GET', `/api/admin/audit?action=points.adjust&targetId=${bob.id}`),
    );
    expect(list.items.every((item) => item.apiTokenId === all.id && item.via === 'token')).toBe(true);
    // A reference is required, once.
    expect(await fieldsOf(await v1(all.token, 'POST', path, { points: 5, reason: 'No key' }))).toEqual({
      reference: ['Required: in the body, or as the Idempotency-Key header'],
    });
    expect(await fieldsOf(await v1(all.token, 'POST', path, { points: 5, reason: 'Two keys', reference: 'a' }, { 'Idempotency-Key': 'b' }))).toEqual({
      reference: ['Differs from the Idempotency-Key header'],
    });
    expect(Object.keys(await fieldsOf(await v1(all.token, 'POST', path, { points: 0, reason: '', reference: 'x', allowNegative: true })))).toEqual([
      'points',
      'reason',
      'allowNegative',
    ]);
    // Never below zero available points.
    const refused = await errorOf(await v1(all.token, 'POST', path, { points: -1_000_000, reason: 'Too much', reference: 'crm-1044' }), 409);
    expect(refused.code).toBe('insufficient_points');
    expect((await errorOf(await v1(all.token, 'POST', path, { points: 1, reason: 'x', reference: 'y' }, { 'Content-Type': 'text/plain' }), 415)).code).toBe(
      'unsupported_media_type',
    );
    expect((await errorOf(await v1(all.token, 'POST', `/participants/999999999/points`, { points: 1, reason: 'x', reference: 'y' }), 404)).message).toBe(
      'No such participant',
    );
  });

  it("reads a participant's balance and latest ledger entries", async () => {
    const { all, cat } = w();
    const c = ctx();
    await addMember(c, w().beta.id, cat);
    await v1(all.token, 'POST', `/participants/${cat.id}/points`, { points: 40, reason: 'One', reference: 'cat-1' });
    await v1(all.token, 'POST', `/participants/${cat.id}/points`, { points: 2, reason: 'Two', reference: 'cat-2' });
    const points = await okJson<{ entries: { points: number }[]; available: number; total: number }>(
      await v1(all.token, 'GET', `/participants/${cat.id}/points?limit=1`),
    );
    expect(points).toMatchObject({ userId: cat.id, available: 42, pending: 0, held: 0, total: 2, entries: [{ points: 2, reason: 'Adjustment: Two' }] });
  });

  // -------------------------------------------------------------------------------------------
  // The description

  it('serves its OpenAPI description publicly, cacheable, and every call it documents answers', async () => {
    const c = ctx();
    const res = await c.request('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=3600');
    const doc = (await res.json()) as { servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument(c.config))));
    expect(doc.servers[0]?.url).toBe(`${ORIGIN}/api/v1`);
    const calls = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => [method.toUpperCase(), path] as const));
    expect(calls.length).toBeGreaterThanOrEqual(6);
    for (const [method, path] of calls) {
      // Any id: an unknown one is the call's own 404 ("No such survey"), never the route miss.
      const res = await v1(
        w().all.token,
        method,
        path.replace(/\{[^}]+\}/g, '999999999'),
        method === 'POST' ? { points: 1, reason: 'x', reference: 'doc' } : undefined,
      );
      const text = await res.text();
      expect(text, `${method} ${path}`).not.toContain('No such API endpoint');
      expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(500);
    }
    // A path it does not document is the route miss (what the loop above would have caught).
    expect((await errorOf(await v1(w().all.token, 'GET', '/nothing-here'), 404)).message).toBe('No such API endpoint');
  });

  // -------------------------------------------------------------------------------------------
  // Rate limit, last use, revocation and expiry (the clock moves from here on)

  it('limits each token to its requests a minute: 429 with Retry-After, then it may go on', async () => {
    const c = ctx();
    const token = await createToken(c, w().admin, { name: 'Busy', scopes: ['points:read'] });
    const other = await createToken(c, w().admin, { name: 'Quiet', scopes: ['points:read'] });
    const limit = c.config.apiTokenRateLimit;
    c.config.apiTokenRateLimit = 3;
    try {
      for (let i = 0; i < 3; i++) expect((await v1(token.token, 'GET', '/projects')).status).toBe(200);
      const refused = await v1(token.token, 'GET', '/projects');
      expect((await errorOf(refused, 429)).code).toBe('rate_limited');
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
      // Per token: another token is not held back.
      expect((await v1(other.token, 'GET', '/projects')).status).toBe(200);
      c.clock.advance(61_000);
      expect((await v1(token.token, 'GET', '/projects')).status).toBe(200);
    } finally {
      c.config.apiTokenRateLimit = limit;
    }
  });

  it('notes when and from where a token was last used, at most once a minute', async () => {
    const c = ctx();
    const token = await createToken(c, w().admin, { name: 'Noted', scopes: ['points:read'] });
    const lastUsed = async () => (await c.database.db.select().from(apiTokens).where(eq(apiTokens.id, token.id)))[0]?.lastUsedAt?.getTime() ?? null;
    expect(await lastUsed()).toBeNull();
    await v1(token.token, 'GET', '/projects', undefined, { 'X-Forwarded-For': '198.51.100.7' });
    const first = await lastUsed();
    expect(first).toBe(c.clock.now().getTime());
    c.clock.advance(30_000);
    await v1(token.token, 'GET', '/projects');
    expect(await lastUsed()).toBe(first);
    c.clock.advance(31_000);
    await v1(token.token, 'GET', '/projects', undefined, { 'X-Forwarded-For': '198.51.100.8' });
    expect(await lastUsed()).toBe(c.clock.now().getTime());
    const list = await okJson<ListPage<ApiTokenListItem>>(await callAs(c, w().admin)('GET', '/api/admin/tokens?q=Noted'));
    expect(list.items[0]).toMatchObject({ lastUsedIp: '198.51.100.8', lastUsedAt: c.clock.now().toISOString() });
  });

  it('revokes a token at once, audited; revoking it again changes nothing', async () => {
    const c = ctx();
    const { admin } = w();
    const token = await createToken(c, admin, { name: 'Short-lived', scopes: ['points:read'] });
    expect((await v1(token.token, 'GET', '/projects')).status).toBe(200);
    const revoked = await okJson<ApiTokenListItem>(await callAs(c, admin)('DELETE', `/api/admin/tokens/${token.id}`));
    expect(revoked).toMatchObject({ id: token.id, status: 'revoked', revokedAt: c.clock.now().toISOString() });
    expect((await errorOf(await v1(token.token, 'GET', '/projects'), 401)).code).toBe('token_revoked');
    c.clock.advance(1000);
    const again = await okJson<ApiTokenListItem>(await callAs(c, admin)('DELETE', `/api/admin/tokens/${token.id}`));
    expect(again.revokedAt).toBe(revoked.revokedAt);
    const rows = await c.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'api_token.revoke'), eq(auditLog.targetId, String(token.id))));
    expect(rows).toHaveLength(1);
    const list = await okJson<ListPage<ApiTokenListItem>>(await callAs(c, admin)('GET', '/api/admin/tokens?status=revoked&pageSize=100'));
    expect(list.items.map((item) => item.id)).toContain(token.id);
  });

  it('ends a token at its expiry', async () => {
    const c = ctx();
    const token = await createToken(c, w().admin, { name: 'One day', scopes: ['points:read'], expiresInDays: 1 });
    expect(Date.parse(token.expiresAt)).toBe(c.clock.now().getTime() + 86_400_000);
    expect((await v1(token.token, 'GET', '/projects')).status).toBe(200);
    c.clock.advance(86_400_000);
    expect((await errorOf(await v1(token.token, 'GET', '/projects'), 401)).code).toBe('token_expired');
    const list = await okJson<ListPage<ApiTokenListItem>>(await callAs(c, w().admin)('GET', '/api/admin/tokens?status=expired&pageSize=100'));
    expect(list.items.map((item) => item.id)).toContain(token.id);
  });
});
