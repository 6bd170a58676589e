/**
 * The second step of sign-in (issue 29 §2; docs/api.md "Account security"): a password alone
 * starts no session for an account with a second factor; the authenticator app's code, a
 * recovery code or a passkey completes it; wrong steps count and five end it; "trust this browser"
 * is for participants.
 */
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog, trustedBrowsers } from '../../src/server/db/schema/index.ts';
import { sha256Hex } from '../../src/server/services/crypto.ts';
import { PENDING_SIGN_IN_MS, TOTP } from '../../src/shared/second-factors.ts';
import type { Role } from '../../src/shared/roles.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, freshIp, signedInUser } from './helpers.ts';
import { enrolTotp, Jar, passwordStep, secondStep, totpCode } from './sign-in-helpers.ts';

const STEP_MS = TOTP.periodSeconds * 1000;

/** An account with an authenticator app (set up through the account calls). */
async function withApp(ctx: TestContext, role: Role = 'participant') {
  const person = await signedInUser(ctx, role);
  const { secret, recoveryCodes } = await enrolTotp(ctx, person.headers);
  return { ...person, secret, recoveryCodes };
}

async function auditActions(ctx: TestContext, userId: number, action: string) {
  return ctx.database.db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, String(userId)), eq(auditLog.action, action)));
}

describeEachBackend('sign-in: the second step', (ctx) => {
  it('a password alone gives a pending sign-in (no session) that the app’s code completes, once', async () => {
    const person = await withApp(ctx());
    const jar = new Jar();
    const ip = freshIp();

    const first = await passwordStep(ctx(), jar, person.email, ip);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, next: 'second_factor', methods: ['totp', 'recovery'], canTrustBrowser: true });
    const pendingCookie = jar.lastSet.get('fw_pending') ?? '';
    expect(pendingCookie).toMatch(/HttpOnly/);
    expect(pendingCookie).toMatch(/SameSite=Lax/);
    expect(pendingCookie).toMatch(/Path=\//);
    expect(pendingCookie).toMatch(new RegExp(`Max-Age=${PENDING_SIGN_IN_MS / 1000}`));
    expect(jar.cookies.has('fw_session')).toBe(false);
    expect((await ctx().request('/api/auth', { headers: jar.headers })).status).toBe(401);

    expect((await errorOf(await secondStep(ctx(), jar, { code: '000000' }, ip), 401)).code).toBe('invalid_code');
    const done = await secondStep(ctx(), jar, { code: totpCode(person.secret, ctx().clock.now()) }, ip);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ ok: true });
    expect(jar.cookies.has('fw_session')).toBe(true);
    expect(jar.cookies.has('fw_pending')).toBe(false);
    const me = await ctx().request('/api/auth', { headers: jar.headers });
    expect(await me.json()).toMatchObject({ id: person.id, secondFactor: true, secondFactorRequired: false });

    // Used up: the pending sign-in is gone, and so is that code's step.
    const again = new Jar();
    again.cookies.set('fw_pending', /^fw_pending=([^;]*)/.exec(pendingCookie)?.[1] ?? '');
    expect((await errorOf(await secondStep(ctx(), again, { code: totpCode(person.secret, ctx().clock.now()) }, ip), 401)).code).toBe('unauthenticated');

    expect((await auditActions(ctx(), person.id, 'user.sign_in')).map((row) => row.after)).toEqual([{ method: 'password+totp' }]);
    expect((await auditActions(ctx(), person.id, 'user.second_factor_failed')).map((row) => row.after)).toEqual([
      { method: 'totp', failures: 1, ended: false },
    ]);
  });

  it('a recovery code signs in once; a wrong, malformed or missing step is refused', async () => {
    const person = await withApp(ctx());
    const ip = freshIp();
    const [code = ''] = person.recoveryCodes;
    const jar = new Jar();
    await passwordStep(ctx(), jar, person.email, ip);
    expect((await ctx().request('/api/auth', { headers: jar.headers })).status).toBe(401);
    // Exactly one proof, well formed: 400 before anything is counted.
    expect((await errorOf(await secondStep(ctx(), jar, {}, ip), 400)).fields).toHaveProperty('code');
    expect((await errorOf(await secondStep(ctx(), jar, { code: '123456', recoveryCode: code }, ip), 400)).fields).toHaveProperty('code');
    expect((await errorOf(await secondStep(ctx(), jar, { code: 'abc' }, ip), 400)).fields).toHaveProperty('code');
    expect((await secondStep(ctx(), jar, { recoveryCode: code.toUpperCase() }, ip)).status).toBe(200);

    const later = new Jar();
    await passwordStep(ctx(), later, person.email, ip);
    expect((await errorOf(await secondStep(ctx(), later, { recoveryCode: code }, ip), 401)).code).toBe('invalid_code');
    expect((await secondStep(ctx(), later, { recoveryCode: person.recoveryCodes[1] }, ip)).status).toBe(200);
  });

  it('without a pending sign-in (none, or over its 5 minutes) the second step is 401', async () => {
    const person = await withApp(ctx());
    const ip = freshIp();
    expect((await errorOf(await secondStep(ctx(), new Jar(), { code: '123456' }, ip), 401)).code).toBe('unauthenticated');
    const jar = new Jar();
    await passwordStep(ctx(), jar, person.email, ip);
    ctx().clock.advance(PENDING_SIGN_IN_MS + 1000);
    expect((await errorOf(await secondStep(ctx(), jar, { code: totpCode(person.secret, ctx().clock.now()) }, ip), 401)).code).toBe('unauthenticated');
  });

  it('five wrong second steps end the pending sign-in, and they count towards the sign-in limits', async () => {
    const person = await withApp(ctx());
    const ip = freshIp();
    const jar = new Jar();
    await passwordStep(ctx(), jar, person.email, ip);
    const kept = new Jar();
    kept.cookies.set('fw_pending', jar.cookies.get('fw_pending') ?? '');
    for (let i = 1; i <= 5; i++) expect((await errorOf(await secondStep(ctx(), jar, { code: '000000' }, ip), 401)).code).toBe('invalid_code');
    expect(jar.cookies.has('fw_pending')).toBe(false);
    const ended = await auditActions(ctx(), person.id, 'user.second_factor_failed');
    expect(ended.at(-1)?.after).toEqual({ method: 'totp', failures: 5, ended: true });
    // The same pending cookie, kept by a client that ignores the clearing: over, even with the right code.
    expect((await errorOf(await secondStep(ctx(), kept, { code: totpCode(person.secret, ctx().clock.now()) }, ip), 401)).code).toBe('unauthenticated');

    // Five more wrong steps (from another address): ten failures for this account, its limit.
    const other = freshIp();
    const second = new Jar();
    await passwordStep(ctx(), second, person.email, other);
    for (let i = 1; i <= 5; i++) await secondStep(ctx(), second, { recoveryCode: 'not-a-code' }, other);
    const refused = await passwordStep(ctx(), new Jar(), person.email, freshIp());
    expect((await errorOf(refused, 429)).code).toBe('rate_limited');
  });

  it('of many wrong second steps sent at once, five are checked', async () => {
    const person = await withApp(ctx());
    const ip = freshIp();
    const jar = new Jar();
    await passwordStep(ctx(), jar, person.email, ip);
    const answers = await Promise.all(Array.from({ length: 8 }, () => secondStep(ctx(), jar, { code: '000000' }, ip)));
    const codes = await Promise.all(answers.map(async (res) => ((await res.json()) as { error: { code: string } }).error.code));
    expect(codes.filter((code) => code === 'invalid_code')).toHaveLength(5);
    expect(codes.filter((code) => code === 'unauthenticated')).toHaveLength(3);
  });

  it('a participant may trust this browser for 30 days; staff may not', async () => {
    const participant = await withApp(ctx(), 'participant');
    const ip = freshIp();
    const jar = new Jar();
    await passwordStep(ctx(), jar, participant.email, ip);
    ctx().clock.advance(STEP_MS);
    expect((await secondStep(ctx(), jar, { code: totpCode(participant.secret, ctx().clock.now()), trustBrowser: true }, ip)).status).toBe(200);
    const trusted = jar.lastSet.get('fw_trusted') ?? '';
    expect(trusted).toMatch(/HttpOnly/);
    expect(trusted).toMatch(/Max-Age=2592000/);
    await ctx()
      .json('POST', '/api/auth/logout', undefined, jar.headers)
      .then((res) => jar.take(res));
    const again = await passwordStep(ctx(), jar, participant.email, ip);
    expect(await again.json()).toEqual({ ok: true });
    expect((await ctx().request('/api/auth', { headers: jar.headers })).status).toBe(200);

    const moderator = await withApp(ctx(), 'moderator');
    const staffJar = new Jar();
    await passwordStep(ctx(), staffJar, moderator.email, ip);
    expect((await secondStep(ctx(), staffJar, { code: totpCode(moderator.secret, ctx().clock.now()), trustBrowser: true }, ip)).status).toBe(200);
    expect(staffJar.cookies.has('fw_trusted')).toBe(false);
    // Even a trusted-browser cookie of its own (however it came) does not skip a staff account's second step.
    const token = 'staff-browser-token-0123456789abcdefghijklmnop';
    await ctx()
      .database.db.insert(trustedBrowsers)
      .values({ id: sha256Hex(token), userId: moderator.id, expiresAt: new Date(ctx().clock.now().getTime() + 86_400_000) });
    const staffAgain = new Jar();
    staffAgain.cookies.set('fw_trusted', token);
    expect(await (await passwordStep(ctx(), staffAgain, moderator.email, ip)).json()).toMatchObject({ next: 'second_factor', canTrustBrowser: false });
  });

  it('a passkey completes the second step (the pending sign-in’s options)', async () => {
    const person = await signedInUser(ctx());
    const authenticator = new SoftAuthenticator();
    const options = await ctx().json('POST', '/api/account/passkeys/options', undefined, person.headers);
    const registered = await ctx().json(
      'POST',
      '/api/account/passkeys',
      { name: 'Laptop', response: authenticator.register(await options.json(), ORIGIN) },
      person.headers,
    );
    expect(registered.status, await registered.clone().text()).toBe(201);

    const ip = freshIp();
    const jar = new Jar();
    expect(await (await passwordStep(ctx(), jar, person.email, ip)).json()).toEqual({
      ok: true,
      next: 'second_factor',
      methods: ['passkey'],
      canTrustBrowser: true,
    });
    const request = await ctx().json('POST', '/api/auth/passkey/options', undefined, { ...jar.headers, 'X-Forwarded-For': ip });
    const done = await secondStep(ctx(), jar, { passkey: authenticator.assert(await request.json(), ORIGIN) }, ip);
    expect(done.status, await done.clone().text()).toBe(200);
    expect((await ctx().request('/api/auth', { headers: jar.headers })).status).toBe(200);
  });
});
