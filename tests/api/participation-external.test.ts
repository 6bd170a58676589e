/** External surveys (the Alchemer bridge): start with an opaque reference, return with an outcome. */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rateLimits, surveyExternalRefs } from '../../src/server/db/schema/index.ts';
import { sha256Hex } from '../../src/server/services/crypto.ts';
import type { ParticipantSurvey } from '../../src/shared/programme.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, freshIp, type SignedIn } from './helpers.ts';
import { createProject, createSurvey, member, participant } from './programme-fixtures.ts';

const HOUR = 3_600_000;

describeEachBackend('participation: external surveys', (ctx) => {
  const get = (path: string, who: SignedIn | null, headers: Record<string, string> = {}) => ctx().request(path, { headers: { ...(who?.headers ?? {}), 'X-Forwarded-For': freshIp(), ...headers } });
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
  const back = (pid: string, status: string, headers: Record<string, string> = {}) => get(`/api/surveys/return?pid=${encodeURIComponent(pid)}&status=${status}`, null, headers);
  const refsOf = (c: TestContext, surveyId: number) => c.database.db.select().from(surveyExternalRefs).where(eq(surveyExternalRefs.surveyId, surveyId));

  async function setup(c: TestContext, externalUrl = 'https://acme.alchemer.com/s3/123?lang=en&pid=old&x=a%20b#top') {
    const project = await createProject(c);
    const user = await member(c, project.id);
    const survey = await createSurvey(c, project.id, { kind: 'external', externalUrl });
    return { project, user, survey };
  }

  it('starts with an unguessable pid added to the survey link; only its hash is stored', async () => {
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
    expect(refs[0]).toMatchObject({ userId: user.id, pidHash: sha256Hex(pid), outcome: null, returnedAt: null });
    expect(JSON.stringify(refs)).not.toContain(pid);

    // Each start is a new reference until one returns.
    const again = await start(survey.id, user);
    expect(again.pid).not.toBe(pid);
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
    const first = await back(pid, 'screened_out');
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`/surveys/${survey.id}?returned=1`);
    const returnedAt = c.clock.now().toISOString();

    c.clock.advance(60_000);
    const second = await back(pid, 'complete');
    expect(second.status).toBe(302);
    expect(second.headers.get('location')).toBe(`/surveys/${survey.id}?returned=1`);
    const [ref] = await refsOf(c, survey.id);
    expect(ref?.outcome).toBe('screened_out');
    expect(ref?.returnedAt?.toISOString()).toBe(returnedAt);

    const seen = await view(survey.id, user);
    expect(seen).toMatchObject({ state: 'submitted', outcome: 'screened_out' });

    // Already returned: start sends back to the survey page, with no new reference.
    const again = await get(`/api/surveys/${survey.id}/start`, user);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe(`/surveys/${survey.id}`);
    expect(await refsOf(c, survey.id)).toHaveLength(1);
  });

  it('takes the earliest returned outcome among a participant’s references', async () => {
    const c = ctx();
    const { user, survey } = await setup(c);
    const one = await start(survey.id, user);
    const two = await start(survey.id, user);
    expect((await back(two.pid, 'over_quota')).status).toBe(302);
    c.clock.advance(1000);
    expect((await back(one.pid, 'complete')).status).toBe(302);
    expect(await view(survey.id, user)).toMatchObject({ state: 'submitted', outcome: 'over_quota' });
  });

  it('answers a forged or unknown pid with a 404 page (not JSON, not 500), and a bad status with 400', async () => {
    const c = ctx();
    const { user, survey } = await setup(c);
    const { pid } = await start(survey.id, user);
    for (const query of [`pid=forged&status=complete`, `pid=${'A'.repeat(43)}&status=complete`, `status=complete`, `pid=&status=complete`, `pid=${'x'.repeat(500)}&status=complete`]) {
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
      const res = await back(pid, status);
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
    const res = await back('whatever', 'complete', { 'X-Forwarded-For': ip });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Another address is not affected.
    expect((await back('whatever', 'complete')).status).toBe(404);
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
