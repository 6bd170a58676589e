/**
 * External surveys (the Alchemer bridge, `docs/alchemer.md`): start with an opaque reference
 * (reused on reloads), return on one link per outcome with its own key, Alchemer's webhook
 * confirming outcomes server to server, the first outcome per participant under a lock, and the
 * whole flow as Alchemer plays it.
 */
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { pointsLedger, projectMembers, rateLimits, surveyExternalRefs, surveys } from '../../src/server/db/schema/index.ts';
import { sha256Hex } from '../../src/server/services/crypto.ts';
import { outcomeKey, RETURN_GRACE_MS } from '../../src/server/services/external-surveys.ts';
import { pointReference } from '../../src/shared/points.ts';
import type { AdminSurvey, ExternalOutcome, ParticipantSurvey, SurveyWebhookResult, SurveyWebhookSecret } from '../../src/shared/surveys.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, freshIp, type SignedIn } from './helpers.ts';
import { callAs, createProject, createSurvey, insertExternalRef, member, okJson, participant, staff } from './programme-fixtures.ts';

const HOUR = 3_600_000;

describeEachBackend('participation: external surveys', (ctx) => {
  const get = (path: string, who: SignedIn | null, headers: Record<string, string> = {}) =>
    ctx().request(path, { headers: { ...(who?.headers ?? {}), 'X-Forwarded-For': freshIp(), ...headers } });
  const view = async (id: number, who: SignedIn) => {
    const res = await get(`/api/surveys/${id}`, who);
    expect(res.status).toBe(200);
    return (await res.json()) as ParticipantSurvey;
  };
  /** Starts the survey; the pid of the redirect. */
  async function start(id: number, who: SignedIn): Promise<{ location: URL; pid: string }> {
    const res = await get(`/api/surveys/${id}/start`, who);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    return { location, pid: location.searchParams.get('pid') ?? '' };
  }
  /** The key `k` of an outcome's return link of the survey (read as the admin screen shows it). */
  async function keyOf(surveyId: number, status: ExternalOutcome): Promise<string> {
    const [row] = await ctx().database.db.select({ returnKey: surveys.returnKey }).from(surveys).where(eq(surveys.id, surveyId));
    if (!row?.returnKey) throw new Error(`survey ${surveyId} has no return key`);
    return outcomeKey(row.returnKey, status);
  }
  /** The participant's browser coming back on the survey's own link for `status`. */
  const back = async (surveyId: number, pid: string, status: ExternalOutcome) => rawBack(pid, status, await keyOf(surveyId, status));
  const rawBack = (pid: string, status: string, k?: string, headers: Record<string, string> = {}) =>
    get(`/api/surveys/return?status=${status}${k === undefined ? '' : `&k=${encodeURIComponent(k)}`}&pid=${encodeURIComponent(pid)}`, null, headers);
  const refsOf = (c: TestContext, surveyId: number) =>
    c.database.db.select().from(surveyExternalRefs).where(eq(surveyExternalRefs.surveyId, surveyId)).orderBy(surveyExternalRefs.id);
  const creditsOf = (c: TestContext, userId: number, surveyId: number) =>
    c.database.db
      .select({ points: pointsLedger.points, state: pointsLedger.state })
      .from(pointsLedger)
      .where(and(eq(pointsLedger.userId, userId), eq(pointsLedger.reference, pointReference.externalSurvey(surveyId))));
  /** Makes the survey's webhook secret through the admin call. */
  async function webhookSecret(c: TestContext, surveyId: number): Promise<string> {
    const made = await okJson<SurveyWebhookSecret>(await callAs(c, await staff(c))('POST', `/api/admin/surveys/${surveyId}/webhook-secret`, {}));
    return made.secret;
  }
  /** Alchemer's webhook: JSON (the secret in the header unless `inBody`) or form-encoded (the secret a field). No session, no Origin. */
  function hook(surveyId: number, fields: Record<string, string>, options: { form?: boolean; secretHeader?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = {
      'X-Forwarded-For': freshIp(),
      ...(options.secretHeader === undefined ? {} : { 'X-Fieldwork-Secret': options.secretHeader }),
      ...options.headers,
    };
    const body = options.form ? new URLSearchParams(fields).toString() : JSON.stringify(fields);
    headers['Content-Type'] ??= options.form ? 'application/x-www-form-urlencoded' : 'application/json';
    return ctx().request(`/api/surveys/${surveyId}/webhook`, { method: 'POST', headers, body });
  }

  async function setup(
    c: TestContext,
    externalUrl = 'https://acme.alchemer.com/s3/123?lang=en&pid=old&x=a%20b#top',
    options: { trustReturns?: boolean; points?: number; closesAt?: Date } = {},
  ) {
    const project = await createProject(c);
    const user = await member(c, project.id);
    const survey = await createSurvey(c, project.id, {
      kind: 'external',
      externalUrl,
      points: options.points ?? 10,
      trustReturns: options.trustReturns ?? false,
      ...(options.closesAt ? { closesAt: options.closesAt } : {}),
    });
    return { project, user, survey };
  }

  it('starts with an unguessable pid added to the survey link; only its hash is stored; reloads reuse the reference', async () => {
    const c = ctx();
    const { user, survey } = await setup(c);
    const res = await get(`/api/surveys/${survey.id}/start`, user);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const location = res.headers.get('location') ?? '';
    // Its own query and fragment kept as they were, the old pid replaced, the new one last.
    expect(location).toMatch(/^https:\/\/acme\.alchemer\.com\/s3\/123\?lang=en&x=a%20b&pid=[A-Za-z0-9_-]+#top$/);
    const pid = new URL(location).searchParams.get('pid') ?? '';
    expect(pid).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes = 256 bits, base64url
    expect(Buffer.from(pid, 'base64url')).toHaveLength(32);
    // Nothing of the person in the link.
    expect(location).not.toContain(user.email);
    expect(location).not.toContain(encodeURIComponent(user.email));
    expect(location).not.toMatch(new RegExp(`[?&](user|uid|email)=`));

    const refs = await refsOf(c, survey.id);
    expect(refs).toHaveLength(1);
    expect(refs[0]).toMatchObject({ userId: user.id, pidHash: sha256Hex(pid), outcome: null, returnedAt: null, confirmedAt: null });
    expect(JSON.stringify(refs)).not.toContain(pid);

    // Reloads (also several at once) hand out the same reference: still one row.
    c.clock.advance(60_000);
    const again = await Promise.all([start(survey.id, user), start(survey.id, user), start(survey.id, user)]);
    expect(again.map((one) => one.pid)).toEqual([pid, pid, pid]);
    expect(await refsOf(c, survey.id)).toHaveLength(1);
    // Another participant gets their own.
    const other = await member(c, survey.projectId);
    expect((await start(survey.id, other)).pid).not.toBe(pid);
    expect(await refsOf(c, survey.id)).toHaveLength(2);
  });

  it('adds the pid to a link without a query', async () => {
    const c = ctx();
    const { user, survey } = await setup(c, 'https://survey.example.org/s/plain');
    const { location, pid } = await start(survey.id, user);
    expect(location.toString()).toBe(`https://survey.example.org/s/plain?pid=${pid}`);
  });

  it('records the first outcome and sends the participant to the survey page; later returns change nothing', async () => {
    const c = ctx();
    const { user, survey } = await setup(c);
    const { pid } = await start(survey.id, user);
    const first = await back(survey.id, pid, 'screened_out');
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`/surveys/${survey.id}?returned=1`);
    const returnedAt = c.clock.now().toISOString();

    c.clock.advance(60_000);
    const second = await back(survey.id, pid, 'complete');
    expect(second.status).toBe(302);
    expect(second.headers.get('location')).toBe(`/surveys/${survey.id}?returned=1`);
    const [ref] = await refsOf(c, survey.id);
    expect(ref?.outcome).toBe('screened_out');
    expect(ref?.returnedAt?.toISOString()).toBe(returnedAt);
    expect(await creditsOf(c, user.id, survey.id)).toEqual([]);

    const seen = await view(survey.id, user);
    expect(seen).toMatchObject({ state: 'submitted', outcome: 'screened_out' });

    // Already returned: start sends back to the survey page, with no new reference.
    const again = await get(`/api/surveys/${survey.id}/start`, user);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe(`/surveys/${survey.id}`);
    expect(await refsOf(c, survey.id)).toHaveLength(1);
  });

  it('one outcome per participant whatever the number of references: the first return wins, later references record nothing', async () => {
    const c = ctx();
    const { user, survey } = await setup(c);
    const { pid: one } = await start(survey.id, user);
    // A second reference of the same participant (as made before references were reused).
    const two = 'legacy-reference-of-the-same-participant-000';
    await insertExternalRef(c, survey.id, user.id, { outcome: null, pidHash: sha256Hex(two) });
    expect((await back(survey.id, two, 'over_quota')).status).toBe(302);
    c.clock.advance(1000);
    expect((await back(survey.id, one, 'complete')).status).toBe(302);
    expect(await view(survey.id, user)).toMatchObject({ state: 'submitted', outcome: 'over_quota' });
    expect((await refsOf(c, survey.id)).map((ref) => ref.outcome)).toEqual([null, 'over_quota']);
    expect(await creditsOf(c, user.id, survey.id)).toEqual([]);
  });

  it('two references of one participant returning complete at once: one outcome, one credit', async () => {
    const c = ctx();
    const { user, survey } = await setup(c, undefined, { trustReturns: true, points: 7 });
    const { pid: one } = await start(survey.id, user);
    const two = 'legacy-reference-racing-the-first-one-00000';
    await insertExternalRef(c, survey.id, user.id, { outcome: null, pidHash: sha256Hex(two) });
    // Several more references, all coming back at the same moment (the keys read first, so the requests start together).
    const more = Array.from({ length: 6 }, (_, i) => `legacy-reference-racing-number-${i}-000000000`);
    for (const pid of more) await insertExternalRef(c, survey.id, user.id, { outcome: null, pidHash: sha256Hex(pid) });
    const k = await keyOf(survey.id, 'complete');
    const answers = await Promise.all([one, two, ...more, one, two].map((pid) => rawBack(pid, 'complete', k)));
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 302));
    expect((await refsOf(c, survey.id)).filter((ref) => ref.outcome !== null)).toHaveLength(1);
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 7, state: 'available' }]);
    expect(await view(survey.id, user)).toMatchObject({ state: 'submitted', outcome: 'complete' });
  });

  it('refuses forged returns (no key, a wrong key, the key of another outcome, the key of another survey) with a 400 page; nothing recorded; logged without pid or key', async () => {
    const c = ctx();
    const { user, survey, project } = await setup(c, undefined, { trustReturns: true });
    const other = await createSurvey(c, project.id, { kind: 'external' });
    await start(other.id, user); // gives the other survey its key
    const { pid } = await start(survey.id, user);
    const forged: [string, string | undefined][] = [
      ['no key', undefined],
      ['empty key', ''],
      ['wrong key', 'AAAAAAAAAAAAAAAAAAAAAA'],
      ['the screened-out key', await keyOf(survey.id, 'screened_out')],
      ['the over-quota key', await keyOf(survey.id, 'over_quota')],
      ['the complete key of another survey', await keyOf(other.id, 'complete')],
      ['a far too long key', 'k'.repeat(5000)],
    ];
    const logsBefore = c.logs.length;
    for (const [what, k] of forged) {
      const res = await rawBack(pid, 'complete', k);
      expect(res.status, what).toBe(400);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('This link is not valid');
    }
    expect((await refsOf(c, survey.id))[0]).toMatchObject({ outcome: null, returnedAt: null });
    expect(await creditsOf(c, user.id, survey.id)).toEqual([]);
    expect(await view(survey.id, user)).toMatchObject({ state: 'open', outcome: null });
    const warnings = c.logs.slice(logsBefore).filter((line) => line.includes('external return refused'));
    expect(warnings).toHaveLength(forged.length);
    expect(JSON.parse(warnings[0] ?? '{}')).toMatchObject({ surveyId: survey.id, status: 'complete', reason: 'missing_key' });
    expect(JSON.parse(warnings[2] ?? '{}')).toMatchObject({ reason: 'wrong_key' });
    for (const line of c.logs.slice(logsBefore)) {
      expect(line).not.toContain(pid);
      for (const [, k] of forged) if (k) expect(line).not.toContain(k);
    }
    // The link of the outcome itself works.
    expect((await back(survey.id, pid, 'complete')).status).toBe(302);
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 10, state: 'available' }]);
  });

  it('answers an unknown or missing pid with a 404 page (not JSON, not 500), and a bad status with 400', async () => {
    const c = ctx();
    const { user, survey } = await setup(c);
    const { pid } = await start(survey.id, user);
    const k = await keyOf(survey.id, 'complete');
    for (const query of [
      `pid=forged&status=complete&k=${k}`,
      `pid=${'A'.repeat(43)}&status=complete&k=${k}`,
      `status=complete&k=${k}`,
      `pid=&status=complete`,
      `pid=${'x'.repeat(500)}&status=complete`,
    ]) {
      const res = await get(`/api/surveys/return?${query}`, null);
      expect(res.status, query).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
      const html = await res.text();
      expect(html).toContain('This link is not valid');
      expect(html).toContain('<a href="/">');
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).not.toMatch(/<script/i);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(res.headers.get('content-security-policy')).not.toMatch(/script-src/);
    }
    for (const status of ['done', '', 'COMPLETE']) {
      const res = await rawBack(pid, status, k);
      expect(res.status, status).toBe(400);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('This link is not valid');
    }
    // Nothing was recorded by the refused returns.
    expect((await refsOf(c, survey.id))[0]?.outcome).toBeNull();
  });

  it('limits returns per address (429 page with Retry-After)', async () => {
    const c = ctx();
    const ip = '198.51.100.77';
    await c.database.db.insert(rateLimits).values({ key: `external-return:ip:${ip}`, count: 300, resetAt: new Date(c.clock.now().getTime() + 30_000) });
    const res = await rawBack('whatever', 'complete', 'k', { 'X-Forwarded-For': ip });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Another address is not affected.
    expect((await rawBack('whatever', 'complete', 'k')).status).toBe(404);
  });

  it('a return for someone no longer a member is recorded and credits nothing', async () => {
    const c = ctx();
    const { user, survey, project } = await setup(c, undefined, { trustReturns: true });
    const { pid } = await start(survey.id, user);
    await c.database.db.delete(projectMembers).where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, user.id)));
    expect((await back(survey.id, pid, 'complete')).status).toBe(302);
    expect((await refsOf(c, survey.id))[0]).toMatchObject({ outcome: 'complete' });
    expect(await creditsOf(c, user.id, survey.id)).toEqual([]);
    // Nor does the webhook confirming it.
    const secret = await webhookSecret(c, survey.id);
    expect((await hook(survey.id, { pid, status: 'complete' }, { secretHeader: secret })).status).toBe(200);
    expect(await creditsOf(c, user.id, survey.id)).toEqual([]);
  });

  it('after the survey closes: returns of references started before count for two hours, then are recorded and credit nothing; closing by hand stops them', async () => {
    const c = ctx();
    const closesAt = new Date(c.clock.now().getTime() + HOUR);
    const { user, survey, project } = await setup(c, undefined, { trustReturns: true, closesAt });
    const late = await member(c, project.id);
    const { pid } = await start(survey.id, user);
    const { pid: latePid } = await start(survey.id, late);
    c.clock.advance(HOUR + RETURN_GRACE_MS - 60_000); // closed, within the grace period
    expect((await back(survey.id, pid, 'complete')).status).toBe(302);
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 10, state: 'available' }]);
    c.clock.advance(2 * 60_000); // past it
    expect((await back(survey.id, latePid, 'complete')).status).toBe(302);
    expect((await refsOf(c, survey.id)).map((ref) => ref.outcome)).toEqual(['complete', 'complete']);
    expect(await creditsOf(c, late.id, survey.id)).toEqual([]);

    // Closed by hand: no grace.
    const byHand = await setup(c, undefined, { trustReturns: true });
    const { pid: handPid } = await start(byHand.survey.id, byHand.user);
    await c.database.db.update(surveys).set({ status: 'closed' }).where(eq(surveys.id, byHand.survey.id));
    expect((await back(byHand.survey.id, handPid, 'complete')).status).toBe(302);
    expect((await refsOf(c, byHand.survey.id))[0]?.outcome).toBe('complete');
    expect(await creditsOf(c, byHand.user.id, byHand.survey.id)).toEqual([]);
  });

  it('webhook: JSON with the secret in X-Fieldwork-Secret, or form fields with a secret field; no session or Origin; a confirmed complete makes pending points available, once however often sent', async () => {
    const c = ctx();
    const { user, survey, project } = await setup(c, undefined, { points: 25 });
    const secret = await webhookSecret(c, survey.id);
    const { pid } = await start(survey.id, user);
    // Without trusted returns, the browser's return alone leaves the points pending.
    expect((await back(survey.id, pid, 'complete')).status).toBe(302);
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 25, state: 'pending' }]);

    const first = await hook(survey.id, { pid, status: 'complete' }, { secretHeader: secret });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({ outcome: 'complete', confirmed: true, recorded: true } satisfies SurveyWebhookResult);
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 25, state: 'available' }]);
    const confirmedAt = (await refsOf(c, survey.id))[0]?.confirmedAt?.toISOString();
    expect(confirmedAt).toBe(c.clock.now().toISOString());

    c.clock.advance(60_000);
    for (const again of [
      hook(survey.id, { pid, status: 'complete', secret }, { form: true }),
      hook(survey.id, { pid, status: 'complete', secret }),
      hook(survey.id, { pid, status: 'screened_out' }, { secretHeader: secret }),
    ]) {
      const res = await again;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ outcome: 'complete', confirmed: true, recorded: false });
    }
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 25, state: 'available' }]);
    expect((await refsOf(c, survey.id))[0]?.confirmedAt?.toISOString()).toBe(confirmedAt);

    // Form-encoded with the secret as a field, as Alchemer's Webhook action posts it (charset too).
    const other = await member(c, project.id);
    const { pid: otherPid } = await start(survey.id, other);
    const form = await hook(
      survey.id,
      { pid: otherPid, status: 'complete', secret, extra: 'ignored' },
      { form: true, headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' } },
    );
    expect(form.status).toBe(200);
    expect(await form.json()).toEqual({ outcome: 'complete', confirmed: true, recorded: true });
    expect(await creditsOf(c, other.id, survey.id)).toEqual([{ points: 25, state: 'available' }]);
  });

  it('webhook: wrong or missing secret 401 (logged without it), unknown pid 404, bad status 400, other content types 415, unknown or native survey 404', async () => {
    const c = ctx();
    const { user, survey, project } = await setup(c);
    const { pid } = await start(survey.id, user);
    // No secret made yet: nothing is accepted.
    expect((await errorOf(await hook(survey.id, { pid, status: 'complete', secret: 'anything' }), 401)).code).toBe('invalid_secret');
    const secret = await webhookSecret(c, survey.id);
    const logsBefore = c.logs.length;
    const refused = await errorOf(await hook(survey.id, { pid, status: 'complete' }, { secretHeader: 'not-the-secret' }), 401);
    expect(refused).toEqual({ code: 'invalid_secret', message: 'Wrong or missing webhook secret' });
    expect((await errorOf(await hook(survey.id, { pid, status: 'complete', secret: `${secret}x` }, { form: true }), 401)).code).toBe('invalid_secret');
    expect((await errorOf(await hook(survey.id, { pid, status: 'complete' }), 401)).code).toBe('invalid_secret');
    // The secret of another survey does not open this one.
    const other = await createSurvey(c, project.id, { kind: 'external' });
    const otherSecret = await webhookSecret(c, other.id);
    expect((await errorOf(await hook(survey.id, { pid, status: 'complete' }, { secretHeader: otherSecret }), 401)).code).toBe('invalid_secret');
    const warnings = c.logs.slice(logsBefore).filter((line) => line.includes('external webhook refused'));
    expect(warnings.length).toBeGreaterThanOrEqual(4);
    for (const line of c.logs.slice(logsBefore)) {
      expect(line).not.toContain(pid);
      expect(line).not.toContain('not-the-secret');
    }

    expect(await errorOf(await hook(survey.id, { pid: 'no-such-reference', status: 'complete' }, { secretHeader: secret }), 404)).toMatchObject({
      code: 'not_found',
    });
    // A pid of another survey is unknown here.
    const { pid: otherPid } = await start(other.id, user);
    expect((await errorOf(await hook(survey.id, { pid: otherPid, status: 'complete' }, { secretHeader: secret }), 404)).code).toBe('not_found');
    expect(await errorOf(await hook(survey.id, { pid, status: 'done' }, { secretHeader: secret }), 400)).toMatchObject({
      code: 'validation_failed',
      fields: { status: ['Must be complete, screened_out or over_quota'] },
    });
    expect(await errorOf(await hook(survey.id, { status: 'complete' }, { secretHeader: secret }), 400)).toMatchObject({ fields: { pid: ['Required'] } });
    expect(
      (await errorOf(await hook(survey.id, { pid, status: 'complete' }, { secretHeader: secret, headers: { 'Content-Type': 'text/plain' } }), 415)).code,
    ).toBe('unsupported_media_type');
    const broken = await ctx().request(`/api/surveys/${survey.id}/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Fieldwork-Secret': secret, 'X-Forwarded-For': freshIp() },
      body: '{"pid":',
    });
    expect((await errorOf(broken, 400)).code).toBe('invalid_json');
    expect((await errorOf(await hook(999999, { pid, status: 'complete' }, { secretHeader: secret }), 404)).code).toBe('not_found');
    expect((await errorOf(await hook(0, { pid, status: 'complete' }, { secretHeader: secret }), 404)).code).toBe('not_found');
    const native = await createSurvey(c, project.id);
    expect((await errorOf(await hook(native.id, { pid, status: 'complete' }, { secretHeader: secret }), 404)).code).toBe('not_found');
    // With an Origin from elsewhere it is still a server-to-server call: the secret decides.
    expect((await hook(survey.id, { pid, status: 'complete' }, { secretHeader: secret, headers: { Origin: 'https://evil.example' } })).status).toBe(200);
    // Nothing refused above recorded anything.
    expect((await refsOf(c, other.id))[0]?.outcome).toBeNull();
    // Only the webhook goes without an Origin: the participant's own calls still need theirs.
    const noOrigin = await c.request(`/api/surveys/${survey.id}/response/submit`, {
      method: 'POST',
      headers: { ...user.headers, 'Content-Type': 'application/json', 'X-Forwarded-For': freshIp() },
      body: '{}',
    });
    expect((await errorOf(noOrigin, 403)).code).toBe('forbidden_origin');
  });

  it('webhook before the browser: it records the outcome itself; the browser return after it changes nothing', async () => {
    const c = ctx();
    const { user, survey } = await setup(c, undefined, { points: 12 });
    const secret = await webhookSecret(c, survey.id);
    const { pid } = await start(survey.id, user);
    expect(await okJson(await hook(survey.id, { pid, status: 'complete' }, { secretHeader: secret }))).toEqual({
      outcome: 'complete',
      confirmed: true,
      recorded: true,
    });
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 12, state: 'available' }]);
    expect((await refsOf(c, survey.id))[0]).toMatchObject({ outcome: 'complete', returnedAt: c.clock.now(), confirmedAt: c.clock.now() });
    c.clock.advance(5000);
    expect((await back(survey.id, pid, 'screened_out')).status).toBe(302);
    expect((await refsOf(c, survey.id))[0]?.outcome).toBe('complete');
    expect(await view(survey.id, user)).toMatchObject({ state: 'submitted', outcome: 'complete' });

    // A screen-out confirmed first: nothing credited, the complete link after it changes nothing.
    const other = await setup(c, undefined, { points: 12 });
    const otherSecret = await webhookSecret(c, other.survey.id);
    const { pid: otherPid } = await start(other.survey.id, other.user);
    expect((await hook(other.survey.id, { pid: otherPid, status: 'screened_out', secret: otherSecret }, { form: true })).status).toBe(200);
    expect((await back(other.survey.id, otherPid, 'complete')).status).toBe(302);
    expect(await creditsOf(c, other.user.id, other.survey.id)).toEqual([]);
    expect(await view(other.survey.id, other.user)).toMatchObject({ outcome: 'screened_out' });
  });

  it('webhook correcting a browser complete: the confirmed outcome replaces it and voids its points (trusted returns too); then it is final', async () => {
    const c = ctx();
    const { user, survey } = await setup(c, undefined, { trustReturns: true, points: 9 });
    const secret = await webhookSecret(c, survey.id);
    const { pid } = await start(survey.id, user);
    expect((await back(survey.id, pid, 'complete')).status).toBe(302);
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 9, state: 'available' }]);
    expect(await okJson(await hook(survey.id, { pid, status: 'screened_out' }, { secretHeader: secret }))).toEqual({
      outcome: 'screened_out',
      confirmed: true,
      recorded: true,
    });
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 9, state: 'voided' }]);
    expect(await view(survey.id, user)).toMatchObject({ outcome: 'screened_out' });
    expect(await okJson(await hook(survey.id, { pid, status: 'complete' }, { secretHeader: secret }))).toEqual({
      outcome: 'screened_out',
      confirmed: true,
      recorded: false,
    });
    expect(await creditsOf(c, user.id, survey.id)).toEqual([{ points: 9, state: 'voided' }]);
  });

  it('limits webhooks per address (429 JSON with Retry-After)', async () => {
    const c = ctx();
    const { survey } = await setup(c);
    const ip = '198.51.100.78';
    await c.database.db.insert(rateLimits).values({ key: `external-webhook:ip:${ip}`, count: 1200, resetAt: new Date(c.clock.now().getTime() + 20_000) });
    const res = await hook(survey.id, { pid: 'x', status: 'complete' }, { headers: { 'X-Forwarded-For': ip } });
    expect((await errorOf(res, 429)).code).toBe('rate_limited');
    expect(res.headers.get('retry-after')).toBe('20');
  });

  it('the whole flow as Alchemer plays it: setup links and secret, start, the complete link with the pid filled in, the webhook, points available', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const asAdmin = callAs(c, admin);
    const project = await createProject(c);
    const user = await member(c, project.id);
    // The admin makes the survey and reads what to paste into Alchemer.
    const survey = await okJson<AdminSurvey>(
      await asAdmin('POST', `/api/admin/projects/${project.id}/surveys`, {
        title: 'Brand tracker',
        kind: 'external',
        externalUrl: 'https://survey.alchemer.com/s3/7654321/Brand-tracker',
        points: 40,
        status: 'live',
      }),
      201,
    );
    const completeLink = survey.returnLinks?.complete ?? '';
    expect(completeLink).toContain('pid=[url("pid")]');
    const { secret, webhook } = await okJson<SurveyWebhookSecret>(await asAdmin('POST', `/api/admin/surveys/${survey.id}/webhook-secret`, {}));

    // The participant starts: off to Alchemer with their reference.
    const { location, pid } = await start(survey.id, user);
    expect(location.origin + location.pathname).toBe('https://survey.alchemer.com/s3/7654321/Brand-tracker');
    expect(await view(survey.id, user)).toMatchObject({ state: 'open', outcome: null });

    // Alchemer's Webhook action on the last page: form fields, the secret as a field, no session, no Origin.
    const webhookPath = new URL(webhook.url).pathname;
    const confirmed = await c.request(webhookPath, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': freshIp() },
      body: new URLSearchParams({ pid, status: 'complete', secret }).toString(),
    });
    expect(await okJson(confirmed)).toEqual({ outcome: 'complete', confirmed: true, recorded: true });

    // Then the Thank You page's redirect: the complete link with [url("pid")] replaced by the reference.
    const link = new URL(completeLink.replace('[url("pid")]', encodeURIComponent(pid)));
    expect(link.origin).toBe(ORIGIN);
    const returned = await c.request(link.pathname + link.search, { headers: { 'X-Forwarded-For': freshIp() } });
    expect(returned.status).toBe(302);
    expect(returned.headers.get('location')).toBe(`/surveys/${survey.id}?returned=1`);

    // The participant sees it done, with the points available.
    expect(await view(survey.id, user)).toMatchObject({ state: 'submitted', outcome: 'complete' });
    const points = await okJson<{ balance: number; pending: number }>(await get('/api/account/points', user));
    expect(points).toMatchObject({ balance: 40, pending: 0 });
    expect((await okJson<AdminSurvey>(await asAdmin('GET', `/api/admin/surveys/${survey.id}`))).counts).toMatchObject({ started: 1, submitted: 1 });
  });

  it('start: 404 page for what the user may not see, sign-in first without a session, back to the survey page when not open', async () => {
    const c = ctx();
    const { survey, project } = await setup(c);
    const outsider = await participant(c);
    const refused = await get(`/api/surveys/${survey.id}/start`, outsider);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await get('/api/surveys/abc/start', outsider)).status).toBe(404);

    const anonymous = await get(`/api/surveys/${survey.id}/start`, null);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe(`/login?r=/surveys/${survey.id}`);

    const user = await member(c, project.id);
    const now = c.clock.now().getTime();
    const upcoming = await createSurvey(c, project.id, { kind: 'external', opensAt: new Date(now + HOUR) });
    const closed = await createSurvey(c, project.id, { kind: 'external', closesAt: new Date(now - HOUR) });
    const native = await createSurvey(c, project.id);
    for (const target of [upcoming, closed, native]) {
      const res = await get(`/api/surveys/${target.id}/start`, user);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`/surveys/${target.id}`);
      expect(await refsOf(c, target.id)).toHaveLength(0);
    }
    expect((await view(upcoming.id, user)).state).toBe('upcoming');
    expect((await view(closed.id, user)).state).toBe('closed');
  });

  it('is JSON 404 for the participant calls of surveys they cannot see', async () => {
    const c = ctx();
    const { survey } = await setup(c);
    expect((await errorOf(await get(`/api/surveys/${survey.id}`, await participant(c)), 404)).code).toBe('not_found');
  });
});
