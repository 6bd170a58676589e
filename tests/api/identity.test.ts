import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimits, sessions, users } from '../../src/server/db/schema/index.ts';
import { issueLinkToken } from '../../src/server/services/tokens.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import type { Role } from '../../src/shared/roles.ts';
import { readOutbox, type OutboxMail } from '../support/outbox.ts';
import { createTestContext, describeEachBackend, type TestContext } from './harness.ts';

const PASSWORD = 'Str0ng-password';
const HOUR = 3_600_000;

/** The session cookie a response sets ('' when it clears it), or null when it sets none. */
function sessionCookie(res: Response): string | null {
  const header = res.headers.getSetCookie().find((c) => c.startsWith('fw_session=') || c.startsWith('__Host-fw_session='));
  if (!header) return null;
  return /^[^=]+=([^;]*)/.exec(header)?.[1] ?? '';
}

const cookieHeader = (token: string) => ({ Cookie: `fw_session=${token}` });

async function mailsTo(ctx: TestContext, address: string): Promise<OutboxMail[]> {
  await ctx.jobs.drain();
  return (await readOutbox(ctx.dataDir)).filter((m) => m.to === address);
}

function tokenFrom(mail: OutboxMail | undefined, page: string): string {
  const link = mail?.links.find((l) => l.includes(`/${page}/`));
  const token = link?.split('/').at(-1);
  if (!token) throw new Error(`no /${page}/ link in mail: ${mail?.raw ?? '(none)'}`);
  return token;
}

let counter = 0;
const uniqueEmail = (name: string) => `${name}-${++counter}-${Date.now().toString(36)}@example.org`;

async function activeUser(ctx: TestContext, role: Role = 'participant') {
  const email = uniqueEmail(role);
  const user = await createActiveUser(ctx.database.db, { email, password: PASSWORD, role, firstName: 'Robin', lastName: 'Hale' });
  return { user, email };
}

let ipCounter = 0;

/** Signs in from a new address each time, so the per-IP limit stays out of tests about other things. */
/** One browser signs in throughout (its `fw_device` cookie): no "New sign-in" mail comes between a test and its mails. */
const DEVICE_COOKIE = `fw_device=${'d'.repeat(43)}`;

async function signIn(ctx: TestContext, email: string, password = PASSWORD): Promise<string> {
  const res = await ctx.json('POST', '/api/auth/login', { email, password }, { 'X-Forwarded-For': `198.51.100.${++ipCounter % 250}`, Cookie: DEVICE_COOKIE });
  expect(res.status, await res.clone().text()).toBe(200);
  const token = sessionCookie(res);
  if (!token) throw new Error('no session cookie');
  return token;
}

describeEachBackend('registration and onboarding', (ctx) => {
  it('registers a new address: same answer as a known one, and a mail to finish', async () => {
    const email = uniqueEmail('new');
    const res = await ctx().json('POST', '/api/auth/register', { firstName: 'Noor', lastName: 'Adel', email: ` ${email.toUpperCase()} `, acceptTerms: true });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true });

    const { email: known } = await activeUser(ctx());
    const again = await ctx().json('POST', '/api/auth/register', { firstName: 'Noor', lastName: 'Adel', email: known, acceptTerms: true });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ ok: true });

    const [finish] = await mailsTo(ctx(), email);
    expect(finish?.subject).toBe('Finish setting up your Fieldwork account');
    expect(finish?.raw).toContain('expires in 7 days');
    const [already] = await mailsTo(ctx(), known);
    expect(already?.subject).toBe('You already have a Fieldwork account');
    expect(already?.links).toEqual(expect.arrayContaining([expect.stringMatching(/\/login$/), expect.stringMatching(/\/forgot-password$/)]));

    const [row] = await ctx().database.db.select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({ status: 'invited', firstName: 'Noor', lastName: 'Adel', passwordHash: null });
    expect(row?.termsAcceptedAt).not.toBeNull();
  });

  it('validates the registration form with the shared messages', async () => {
    const res = await ctx().json('POST', '/api/auth/register', { email: 'not-an-email', acceptTerms: false, extra: 1 });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string[]> } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.fields).toMatchObject({
      firstName: ['Required'],
      lastName: ['Required'],
      email: ['Invalid email'],
      acceptTerms: ['Accept the terms of use and the privacy policy to continue'],
      extra: ['Unexpected field'],
    });
  });

  it('onboards from the mailed link: verify, set the password, signed in with the user', async () => {
    const email = uniqueEmail('onboard');
    await ctx().json('POST', '/api/auth/register', { firstName: 'Ines', lastName: 'Moro', email, acceptTerms: true });
    const token = tokenFrom((await mailsTo(ctx(), email))[0], 'onboarding');

    const verify = await ctx().request(`/api/tokens/verify?token=${token}&type=onboarding`);
    expect(verify.status).toBe(200);
    expect(await verify.json()).toMatchObject({ valid: true, type: 'onboarding', email, firstName: 'Ines', needsName: false, needsTerms: false });

    const mismatch = await ctx().json('POST', `/api/auth/onboard?token=${token}`, { password: PASSWORD, confirmPassword: 'Other-passw0rd' });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({ confirmPassword: ['Passwords do not match'] });

    const weak = await ctx().json('POST', `/api/auth/onboard?token=${token}`, { password: 'alllowercase', confirmPassword: 'alllowercase' });
    expect(((await weak.json()) as { error: { fields: Record<string, string[]> } }).error.fields.password).toEqual(['Missing requirements']);

    const done = await ctx().json('POST', `/api/auth/onboard?token=${token}`, { password: PASSWORD, confirmPassword: PASSWORD });
    expect(done.status).toBe(200);
    const body = (await done.json()) as { user: Record<string, unknown> };
    expect(body.user).toMatchObject({ email, firstName: 'Ines', lastName: 'Moro', role: 'participant', status: 'active' });
    const setCookie = done.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/fw_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax/);
    const session = sessionCookie(done) ?? '';
    const me = await ctx().request('/api/auth', { headers: cookieHeader(session) });
    expect(await me.json()).toMatchObject({ email, firstName: 'Ines' });

    // The link works once; used, it says so and to sign in (issue 28 §5), from the check as from the call.
    const used = { error: { code: 'invitation_used', message: 'This invitation was already used — sign in' } };
    const twice = await ctx().json('POST', `/api/auth/onboard?token=${token}`, { password: PASSWORD, confirmPassword: PASSWORD });
    expect(twice.status).toBe(404);
    expect(await twice.json()).toEqual(used);
    const check = await ctx().request(`/api/tokens/verify?token=${token}&type=onboarding`);
    expect([check.status, await check.json()]).toEqual([404, used]);
  });

  it('asks an invitee without a name for it, and for the terms', async () => {
    const email = uniqueEmail('cli-invite');
    const { user } = await (async () => {
      const [row] = await ctx().database.db.insert(users).values({ email, status: 'invited', role: 'moderator' }).returning();
      if (!row) throw new Error('no row');
      return { user: row };
    })();
    const { token } = await issueLinkToken(ctx().database.db, ctx().clock, { type: 'onboarding', userId: user.id });
    const verify = await ctx().request(`/api/tokens/verify?token=${token}&type=onboarding`);
    expect(await verify.json()).toMatchObject({ needsName: true, needsTerms: true });
    const missing = await ctx().json('POST', `/api/auth/onboard?token=${token}`, { password: PASSWORD, confirmPassword: PASSWORD });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toMatchObject({
      firstName: ['Required'],
      lastName: ['Required'],
      acceptTerms: ['Accept the terms of use and the privacy policy to continue'],
    });
    const done = await ctx().json('POST', `/api/auth/onboard?token=${token}`, {
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName: 'Mod',
      lastName: 'Erator',
      acceptTerms: true,
    });
    expect(done.status).toBe(200);
    expect(((await done.json()) as { user: Record<string, unknown> }).user).toMatchObject({ role: 'moderator', firstName: 'Mod' });
  });

  it('refuses an expired onboarding link', async () => {
    const [row] = await ctx()
      .database.db.insert(users)
      .values({ email: uniqueEmail('late'), status: 'invited', firstName: 'L', lastName: 'Ate' })
      .returning();
    const { token } = await issueLinkToken(ctx().database.db, ctx().clock, { type: 'onboarding', userId: row?.id ?? 0 });
    ctx().clock.advance(7 * 24 * HOUR + 1000);
    expect((await ctx().request(`/api/tokens/verify?token=${token}&type=onboarding`)).status).toBe(404);
    const res = await ctx().json('POST', `/api/auth/onboard?token=${token}`, { password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true });
    expect(res.status).toBe(404);
  });
});

describeEachBackend('token verification', (ctx) => {
  it('takes token and type as strings and nothing else', async () => {
    const missing = await ctx().request('/api/tokens/verify?token=abc');
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({ type: ['Required'] });
    const extra = await ctx().request('/api/tokens/verify?token=abc&type=onboarding&x=1');
    expect(extra.status).toBe(400);
    expect((await ctx().request('/api/tokens/verify?token=abc&type=nonsense')).status).toBe(404);
    expect((await ctx().request('/api/tokens/verify?token=abc&type=onboarding')).status).toBe(404);
  });

  it('does not accept a token of another type', async () => {
    const { user } = await activeUser(ctx());
    const { token } = await issueLinkToken(ctx().database.db, ctx().clock, { type: 'reset-password', userId: user.id });
    expect((await ctx().request(`/api/tokens/verify?token=${token}&type=onboarding`)).status).toBe(404);
    expect((await ctx().request(`/api/tokens/verify?token=${token}&type=reset-password`)).status).toBe(200);
  });
});

describeEachBackend('sign-in and sign-out', (ctx) => {
  it('validates the form exactly as docs/product.md §5: Required, and no extra fields', async () => {
    const empty = await ctx().json('POST', '/api/auth/login', {});
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({ email: ['Required'], password: ['Required'] });
    const extra = await ctx().json('POST', '/api/auth/login', { email: 'a@b.c', password: 'x', remember: true });
    expect(extra.status).toBe(400);
    expect(((await extra.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({ remember: ['Unexpected field'] });
  });

  it('answers an unknown email and a wrong password the same way', async () => {
    const { email } = await activeUser(ctx());
    const unknown = await ctx().json('POST', '/api/auth/login', { email: uniqueEmail('nobody'), password: PASSWORD });
    const wrong = await ctx().json('POST', '/api/auth/login', { email, password: 'Wrong-passw0rd' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const expected = { error: { code: 'invalid_credentials', message: 'Incorrect email or password' } };
    expect(await unknown.json()).toEqual(expected);
    expect(await wrong.json()).toEqual(expected);
    expect(sessionCookie(wrong)).toBeNull();
  });

  it('starts a new session at every sign-in and ends the previous one of that browser', async () => {
    const { email } = await activeUser(ctx());
    const first = await signIn(ctx(), ` ${email.toUpperCase()} `);
    const res = await ctx().json('POST', '/api/auth/login', { email, password: PASSWORD }, cookieHeader(first));
    const second = sessionCookie(res) ?? '';
    expect(second).not.toBe(first);
    expect((await ctx().request('/api/auth', { headers: cookieHeader(first) })).status).toBe(401);
    expect((await ctx().request('/api/auth', { headers: cookieHeader(second) })).status).toBe(200);
  });

  it('keeps a disabled account out', async () => {
    const { user, email } = await activeUser(ctx());
    await ctx().database.db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    const res = await ctx().json('POST', '/api/auth/login', { email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('account_disabled');
  });

  it('signs out on the server: the old cookie no longer works', async () => {
    const { email } = await activeUser(ctx());
    const token = await signIn(ctx(), email);
    const res = await ctx().json('POST', '/api/auth/logout', {}, cookieHeader(token));
    expect(res.status).toBe(200);
    expect(sessionCookie(res)).toBe('');
    expect((await ctx().request('/api/auth', { headers: cookieHeader(token) })).status).toBe(401);
  });

  it('needs a same-origin JSON call', async () => {
    const res = await ctx().request('/api/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
  });
});

describeEachBackend('password reset', (ctx) => {
  it('validates the forgot-password email as docs/product.md §5', async () => {
    const cases: [unknown, string][] = [
      ['', 'Required'],
      ['   ', 'Required'],
      [`${'a'.repeat(250)}@example.org`, 'Too long'],
      ['not-an-email', 'Invalid email'],
    ];
    for (const [email, message] of cases) {
      const res = await ctx().json('POST', '/api/auth/password/forgot', { email });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({ email: [message] });
    }
  });

  it('answers known and unknown addresses alike; only the known one gets a link', async () => {
    const { email } = await activeUser(ctx());
    const unknownEmail = uniqueEmail('ghost');
    const known = await ctx().json('POST', '/api/auth/password/forgot', { email: ` ${email.toUpperCase()} ` });
    const unknown = await ctx().json('POST', '/api/auth/password/forgot', { email: unknownEmail });
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(await known.json()).toEqual(await unknown.json());
    expect(await mailsTo(ctx(), unknownEmail)).toHaveLength(0);
    const [mail] = await mailsTo(ctx(), email);
    expect(mail?.subject).toBe('Reset your Fieldwork password');
    expect(mail?.raw).toContain('expires in 1 hour');
  });

  it('resets once, ends every session, and the new password signs in', async () => {
    const { email } = await activeUser(ctx());
    const sessionA = await signIn(ctx(), email);
    const sessionB = await signIn(ctx(), email);
    await ctx().json('POST', '/api/auth/password/forgot', { email });
    const token = tokenFrom((await mailsTo(ctx(), email)).at(-1), 'reset-password');
    expect((await ctx().request(`/api/tokens/verify?token=${token}&type=reset-password`)).status).toBe(200);

    const mismatch = await ctx().json('POST', `/api/auth/password/reset?token=${token}`, { password: 'N3w-password!', confirmPassword: 'N3w-password?' });
    expect(((await mismatch.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({ confirmPassword: ['Passwords do not match'] });
    const missing = await ctx().json('POST', `/api/auth/password/reset?token=${token}`, {});
    expect(((await missing.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({
      password: ['Required'],
      confirmPassword: ['Required'],
    });

    const res = await ctx().json('POST', `/api/auth/password/reset?token=${token}`, { password: 'N3w-password!', confirmPassword: 'N3w-password!' });
    expect(res.status).toBe(200);
    for (const session of [sessionA, sessionB]) expect((await ctx().request('/api/auth', { headers: cookieHeader(session) })).status).toBe(401);
    expect((await ctx().json('POST', '/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
    await signIn(ctx(), email, 'N3w-password!');

    const twice = await ctx().json('POST', `/api/auth/password/reset?token=${token}`, { password: 'An0ther-pass!', confirmPassword: 'An0ther-pass!' });
    expect(twice.status).toBe(404);
  });

  it('a new request replaces the old link, and links expire after an hour', async () => {
    const { email } = await activeUser(ctx());
    await ctx().json('POST', '/api/auth/password/forgot', { email });
    const first = tokenFrom((await mailsTo(ctx(), email)).at(-1), 'reset-password');
    await ctx().json('POST', '/api/auth/password/forgot', { email });
    const second = tokenFrom((await mailsTo(ctx(), email)).at(-1), 'reset-password');
    expect(second).not.toBe(first);
    expect((await ctx().request(`/api/tokens/verify?token=${first}&type=reset-password`)).status).toBe(404);
    ctx().clock.advance(HOUR + 1000);
    expect((await ctx().request(`/api/tokens/verify?token=${second}&type=reset-password`)).status).toBe(404);
  });

  it('sends an invitee who forgot the setup link a fresh one', async () => {
    const email = uniqueEmail('invitee');
    await ctx().database.db.insert(users).values({ email, status: 'invited' });
    await ctx().json('POST', '/api/auth/password/forgot', { email });
    const [mail] = await mailsTo(ctx(), email);
    expect(mail?.subject).toBe('You are invited to Fieldwork');
    expect(mail?.links.some((l) => l.includes('/onboarding/'))).toBe(true);
  });
});

describeEachBackend('roles', (ctx) => {
  it('a participant calling an admin API gets 403; without a session 401; moderators and admins get through', async () => {
    expect((await ctx().request('/api/admin/users')).status).toBe(401);
    const participant = await signIn(ctx(), (await activeUser(ctx(), 'participant')).email);
    const denied = await ctx().request('/api/admin/users', { headers: cookieHeader(participant) });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ error: { code: 'forbidden', message: 'You do not have access to this' } });
    for (const role of ['moderator', 'admin'] as const) {
      const token = await signIn(ctx(), (await activeUser(ctx(), role)).email);
      const res = await ctx().request('/api/admin/users?q=robin&pageSize=5', { headers: cookieHeader(token) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: { email: string; passwordHash?: string }[]; total: number };
      expect(body.items.length).toBeGreaterThan(0);
      expect(body.items[0]).not.toHaveProperty('passwordHash');
    }
  });
});

describeEachBackend('account', (ctx) => {
  it('shows the account and edits profile, address and preferences', async () => {
    const { email } = await activeUser(ctx());
    const session = cookieHeader(await signIn(ctx(), email));
    const account = await ctx().request('/api/account', { headers: session });
    expect(account.status).toBe(200);
    const body = (await account.json()) as { user: Record<string, unknown>; sessions: { current: boolean }[] };
    expect(body.user).toMatchObject({
      email,
      address: null,
      birthYear: null,
      preferences: { emailNotifications: true, language: 'en', colorMode: 'system' },
      pendingEmail: null,
    });
    expect(body.sessions.filter((s) => s.current)).toHaveLength(1);

    const profile = await ctx().json('PATCH', '/api/account/profile', { firstName: ' Robyn ', lastName: 'Hale-Smith' }, session);
    expect(((await profile.json()) as { user: Record<string, unknown> }).user).toMatchObject({ firstName: 'Robyn', lastName: 'Hale-Smith' });
    expect(await (await ctx().request('/api/auth', { headers: session })).json()).toMatchObject({ firstName: 'Robyn' });

    const badAddress = await ctx().json('PUT', '/api/account/address', { line1: '', city: 'Leeds', postalCode: 'LS1 1AA', country: 'Narnia' }, session);
    expect(badAddress.status).toBe(400);
    expect(((await badAddress.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({
      line1: ['Required'],
      country: ['Choose a country'],
    });
    const address = await ctx().json(
      'PUT',
      '/api/account/address',
      { line1: '1 Park Row', line2: '', city: 'Leeds', region: '', postalCode: 'LS1 1AA', country: 'gb' },
      session,
    );
    expect(((await address.json()) as { user: { address: unknown } }).user.address).toEqual({
      line1: '1 Park Row',
      line2: '',
      city: 'Leeds',
      region: '',
      postalCode: 'LS1 1AA',
      country: 'GB',
    });

    const prefs = await ctx().json('PATCH', '/api/account/preferences', { emailNotifications: false, language: 'en', colorMode: 'dark' }, session);
    expect(((await prefs.json()) as { user: { preferences: unknown } }).user.preferences).toEqual({
      emailNotifications: false,
      language: 'en',
      colorMode: 'dark',
      // The notification mail switches never set read as on.
      mailChangesRequested: true,
      mailRejected: true,
      mailProbes: true,
      mailApprovedDigest: true,
      mailReminders: true,
      mailNewWork: true,
      mailAnnouncements: true,
      mailPoints: true,
      mailRewards: true,
    });
    const badPrefs = await ctx().json('PATCH', '/api/account/preferences', { emailNotifications: 'yes', language: 'xx', colorMode: 'dark' }, session);
    expect(badPrefs.status).toBe(400);

    expect((await ctx().request('/api/account')).status).toBe(401);
  });

  it('takes an optional year of birth with the profile: not in the future, kept when left out, cleared by null', async () => {
    const { user, email } = await activeUser(ctx());
    const session = cookieHeader(await signIn(ctx(), email));
    const patch = (body: Record<string, unknown>) => ctx().json('PATCH', '/api/account/profile', { firstName: 'Robyn', lastName: 'Hale', ...body }, session);
    const stored = async () => (await ctx().database.db.select({ birthYear: users.birthYear }).from(users).where(eq(users.id, user.id)))[0]?.birthYear;

    const saved = await patch({ birthYear: 1985 });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { user: { birthYear: unknown } }).user.birthYear).toBe(1985);
    expect(await stored()).toBe(1985);

    const nextYear = new Date().getUTCFullYear() + 1;
    for (const [birthYear, message] of [
      [nextYear, 'Year of birth cannot be in the future'],
      [1899, 'Enter a year of 1900 or later'],
      [1985.5, 'Enter the year as four digits, like 1985'],
      ['1985', 'Enter the year as four digits, like 1985'],
    ] as const) {
      const bad = await patch({ birthYear });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: string; fields: Record<string, string[]> } }).error).toMatchObject({
        code: 'validation_failed',
        fields: { birthYear: [message] },
      });
    }
    expect(await stored()).toBe(1985);

    // Left out, the stored year stays; this year itself is fine; null clears it.
    expect(((await (await patch({})).json()) as { user: { birthYear: unknown } }).user.birthYear).toBe(1985);
    expect(((await (await patch({ birthYear: nextYear - 1 })).json()) as { user: { birthYear: unknown } }).user.birthYear).toBe(nextYear - 1);
    const cleared = await patch({ birthYear: null });
    expect(cleared.status).toBe(200);
    expect(((await cleared.json()) as { user: { birthYear: unknown } }).user.birthYear).toBeNull();
    expect(await stored()).toBeNull();
  });

  it('changes the email with the current password and a link to the new address', async () => {
    const { email } = await activeUser(ctx());
    const current = cookieHeader(await signIn(ctx(), email));
    const other = cookieHeader(await signIn(ctx(), email));
    const newEmail = uniqueEmail('moved');

    const wrong = await ctx().json('POST', '/api/account/email', { newEmail, currentPassword: 'Nope-nope1!' }, current);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({ currentPassword: ['Incorrect password'] });
    const same = await ctx().json('POST', '/api/account/email', { newEmail: email, currentPassword: PASSWORD }, current);
    expect(same.status).toBe(400);

    const res = await ctx().json('POST', '/api/account/email', { newEmail: ` ${newEmail.toUpperCase()} `, currentPassword: PASSWORD }, current);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true, pendingEmail: newEmail });
    const [confirmMail] = await mailsTo(ctx(), newEmail);
    expect(confirmMail?.subject).toBe('Confirm your new Fieldwork email address');
    expect(confirmMail?.raw).toContain('expires in 24 hours');
    const token = tokenFrom(confirmMail, 'update-email');
    expect(await (await ctx().request('/api/account', { headers: current })).json()).toMatchObject({ user: { pendingEmail: newEmail } });

    const verify = await ctx().request(`/api/tokens/verify?token=${token}&type=update-email`);
    expect(await verify.json()).toMatchObject({ email: newEmail });

    // Someone else signed in cannot use the link.
    const stranger = cookieHeader(await signIn(ctx(), (await activeUser(ctx())).email));
    const denied = await ctx().json('POST', `/api/account/email/confirm?token=${token}`, {}, stranger);
    expect(denied.status).toBe(403);

    const confirmed = await ctx().json('POST', `/api/account/email/confirm?token=${token}`, {}, current);
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as { user: Record<string, unknown> }).user).toMatchObject({ email: newEmail, pendingEmail: null });
    expect((await ctx().request('/api/auth', { headers: current })).status).toBe(200);
    expect((await ctx().request('/api/auth', { headers: other })).status).toBe(401);
    const [notice] = await mailsTo(ctx(), email);
    expect(notice?.subject).toBe('Your Fieldwork email address was changed');
    expect(notice?.raw).toContain(newEmail);
    expect((await ctx().json('POST', `/api/account/email/confirm?token=${token}`, {}, current)).status).toBe(404);
  });

  it('does not tell whether the new address has an account', async () => {
    const { email } = await activeUser(ctx());
    const { email: taken } = await activeUser(ctx());
    const session = cookieHeader(await signIn(ctx(), email));
    const res = await ctx().json('POST', '/api/account/email', { newEmail: taken, currentPassword: PASSWORD }, session);
    expect(res.status).toBe(202);
    const [notice] = await mailsTo(ctx(), taken);
    expect(notice?.subject).toBe('Someone tried to use this address on Fieldwork');
    expect(notice?.links.some((l) => l.includes('/update-email/'))).toBe(false);
  });

  it('changes the password with the current one and ends the other sessions', async () => {
    const { email } = await activeUser(ctx());
    const current = cookieHeader(await signIn(ctx(), email));
    const other = cookieHeader(await signIn(ctx(), email));
    const wrong = await ctx().json(
      'POST',
      '/api/account/password',
      { currentPassword: 'Wrong-passw0rd', password: 'N3w-password!', confirmPassword: 'N3w-password!' },
      current,
    );
    expect(wrong.status).toBe(400);
    const res = await ctx().json(
      'POST',
      '/api/account/password',
      { currentPassword: PASSWORD, password: 'N3w-password!', confirmPassword: 'N3w-password!' },
      current,
    );
    expect(res.status).toBe(200);
    expect((await ctx().request('/api/auth', { headers: current })).status).toBe(200);
    expect((await ctx().request('/api/auth', { headers: other })).status).toBe(401);
    await signIn(ctx(), email, 'N3w-password!');
    expect((await mailsTo(ctx(), email)).some((m) => m.subject === 'Your Fieldwork password was changed')).toBe(true);
  });

  it('signs out every other device', async () => {
    const { user, email } = await activeUser(ctx());
    const current = cookieHeader(await signIn(ctx(), email));
    await signIn(ctx(), email);
    await signIn(ctx(), email);
    const res = await ctx().json('POST', '/api/account/sessions/revoke-others', {}, current);
    expect(await res.json()).toEqual({ ended: 2 });
    expect(await ctx().database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
  });
});

describeEachBackend('sign-in from a shared address', (ctx) => {
  const ROOM = { 'X-Forwarded-For': '203.0.113.50' };

  it('15 failed sign-ins for one account lock that account only: others on the address sign in; its own right password waits for the window', async () => {
    const a = await activeUser(ctx());
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await ctx().json('POST', '/api/auth/login', { email: a.email, password: 'Wrong-passw0rd' }, ROOM)).status);
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);

    for (const role of ['participant', 'participant', 'moderator'] as const) {
      const other = await activeUser(ctx(), role);
      expect((await ctx().json('POST', '/api/auth/login', { email: other.email, password: PASSWORD }, ROOM)).status).toBe(200);
    }

    const refused = await ctx().json('POST', '/api/auth/login', { email: a.email, password: PASSWORD }, ROOM);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    ctx().clock.advance(wait * 1000 - 5_000);
    expect((await ctx().json('POST', '/api/auth/login', { email: a.email, password: PASSWORD }, ROOM)).status).toBe(429);
    ctx().clock.advance(6_000);
    expect((await ctx().json('POST', '/api/auth/login', { email: a.email, password: PASSWORD }, ROOM)).status).toBe(200);
  });

  it('30 different accounts sign in from one address within a minute', async () => {
    const people = [];
    for (let i = 0; i < 30; i++) people.push(await activeUser(ctx()));
    const statuses: number[] = [];
    for (const person of people) {
      statuses.push((await ctx().json('POST', '/api/auth/login', { email: person.email, password: PASSWORD }, { 'X-Forwarded-For': '203.0.113.60' })).status);
      ctx().clock.advance(1_000);
    }
    expect(statuses).toEqual(Array(30).fill(200));
  });
});

describeEachBackend('registration and forgot-password from a shared address', (ctx) => {
  it('a recruitment event on one address: every registration and reset request goes through; the per-address limit is in the hundreds', async () => {
    const EVENT = { 'X-Forwarded-For': '203.0.113.70' };
    for (let i = 0; i < 40; i++) {
      const email = uniqueEmail(`event${i}`);
      expect((await ctx().json('POST', '/api/auth/register', { firstName: 'F', lastName: 'L', email, acceptTerms: true }, EVENT)).status).toBe(202);
      expect((await ctx().json('POST', '/api/auth/password/forgot', { email }, EVENT)).status).toBe(202);
    }
    // As if 200 people had each asked five times this hour.
    await ctx().database.db.update(rateLimits).set({ count: 1000 }).where(eq(rateLimits.key, 'register:ip:203.0.113.70'));
    const limited = await ctx().json('POST', '/api/auth/register', { firstName: 'F', lastName: 'L', email: uniqueEmail('late'), acceptTerms: true }, EVENT);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await ctx().jobs.drain();
  });
});

describe('rate limits', () => {
  it('allow 10 failed sign-ins per account in 15 minutes, then refuse even the right password until the window passes', async () => {
    const { context: ctx, close } = await createTestContext('pglite', { env: { TRUST_PROXY: '1' } });
    const { email } = await activeUser(ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      // A different IP each time: the per-account limit holds on its own.
      const res = await ctx.json('POST', '/api/auth/login', { email, password: 'Wrong-passw0rd' }, { 'X-Forwarded-For': `10.0.0.${i}` });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    // Even the right password waits for the window.
    expect((await ctx.json('POST', '/api/auth/login', { email, password: PASSWORD }, { 'X-Forwarded-For': '10.0.1.1' })).status).toBe(429);
    ctx.clock.advance(14 * 60_000);
    expect((await ctx.json('POST', '/api/auth/login', { email, password: PASSWORD }, { 'X-Forwarded-For': '10.0.1.1' })).status).toBe(429);
    ctx.clock.advance(61_000);
    expect((await ctx.json('POST', '/api/auth/login', { email, password: PASSWORD }, { 'X-Forwarded-For': '10.0.1.1' })).status).toBe(200);
    await close();
  });

  it('count failed sign-ins per address only by the hundreds: spraying many accounts from one address is stopped', async () => {
    const { context: ctx, close } = await createTestContext('pglite', { env: { TRUST_PROXY: '1' } });
    // 298 failures already counted for the address this window (as many guesses would leave them).
    await ctx.database.db.insert(rateLimits).values({ key: 'login-fail:ip:192.0.2.7', count: 298, resetAt: new Date(ctx.clock.now().getTime() + 10 * 60_000) });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await ctx.json('POST', '/api/auth/login', { email: `spray${i}@example.org`, password: 'x' }, { 'X-Forwarded-For': '192.0.2.7' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 429]);
    // Another address is not affected.
    expect((await ctx.json('POST', '/api/auth/login', { email: 'spray9@example.org', password: 'x' }, { 'X-Forwarded-For': '192.0.2.8' })).status).toBe(401);
    await close();
  });

  it('allow 5 registrations and 5 forgot-password requests an hour per email', async () => {
    const { context: ctx, close } = await createTestContext('pglite');
    const email = uniqueEmail('flood');
    const register: number[] = [];
    const forgot: number[] = [];
    for (let i = 0; i < 6; i++) {
      register.push((await ctx.json('POST', '/api/auth/register', { firstName: 'F', lastName: 'L', email, acceptTerms: true })).status);
      forgot.push((await ctx.json('POST', '/api/auth/password/forgot', { email })).status);
    }
    expect(register).toEqual([202, 202, 202, 202, 202, 429]);
    expect(forgot).toEqual([202, 202, 202, 202, 202, 429]);
    await ctx.jobs.drain();
    await close();
  });

  it('limit token checks per IP', async () => {
    const { context: ctx, close } = await createTestContext('pglite');
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await ctx.request(`/api/tokens/verify?token=guess${i}&type=reset-password`)).status;
    expect(last).toBe(429);
    await close();
  });
});

describe('over HTTPS', () => {
  it('names the cookie __Host- and marks it Secure', async () => {
    const { context: ctx, close } = await createTestContext('pglite', { env: { PUBLIC_URL: 'https://fieldwork.example' } });
    const { email } = await activeUser(ctx);
    const res = await ctx.app.request('https://fieldwork.example/api/auth/login', {
      method: 'POST',
      headers: { Origin: 'https://fieldwork.example', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join('\n')).toMatch(/^__Host-fw_session=[A-Za-z0-9_-]+; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax/);
    await close();
  });
});
