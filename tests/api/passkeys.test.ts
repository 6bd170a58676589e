/**
 * Passkeys (issue 29; docs/api.md "Account security"): registration and sign-in with a passkey
 * alone through a software authenticator (tests/support/soft-authenticator.ts), the challenges'
 * rules (once, 5 minutes, their purpose and person), renaming and removing, and bad input.
 */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { auditLog, passkeys, rateLimits, users } from '../../src/server/db/schema/index.ts';
import { passkeyAuthenticationOptions, verifyPasskeyAssertion } from '../../src/server/services/passkeys.ts';
import { PASSKEYS_MAX, REAUTH_MAX_AGE_MS, TOO_MANY_PASSKEYS, WEBAUTHN_CHALLENGE_MS } from '../../src/shared/second-factors.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { ORIGIN, describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, freshIp, signedInUser, type SignedIn } from './helpers.ts';

describeEachBackend('passkeys', (ctx) => {
  const db = () => ctx().database.db;

  /** Registers a passkey of `authenticator` for `who`: the 201 answer. */
  async function register(who: SignedIn, authenticator: SoftAuthenticator, name = 'Laptop') {
    const options = await ctx().json('POST', '/api/account/passkeys/options', undefined, who.headers);
    expect(options.status).toBe(200);
    const response = authenticator.register((await options.json()) as PublicKeyCredentialCreationOptionsJSON, ORIGIN);
    const res = await ctx().json('POST', '/api/account/passkeys', { name, response }, who.headers);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: number; name: string; createdAt: string; lastUsedAt: string | null };
  }

  async function signInOptions(c: TestContext, ip: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const res = await c.json('POST', '/api/auth/passkey/options', undefined, { 'X-Forwarded-For': ip });
    expect(res.status).toBe(200);
    return (await res.json()) as PublicKeyCredentialRequestOptionsJSON;
  }

  const signIn = (response: unknown, ip: string) => ctx().json('POST', '/api/auth/passkey', { response }, { 'X-Forwarded-For': ip });

  const auditActions = async (userId: number) =>
    (
      await db()
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.targetId, String(userId)))
    ).map((r) => r.action);

  it('registers a passkey (discoverable, user verification required) and signs in with it alone', async () => {
    const who = await signedInUser(ctx());
    const authenticator = new SoftAuthenticator();
    const optionsRes = await ctx().json('POST', '/api/account/passkeys/options', undefined, who.headers);
    const options = (await optionsRes.json()) as PublicKeyCredentialCreationOptionsJSON;
    expect(options.rp).toEqual({ id: '127.0.0.1', name: 'Fieldwork' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const created = await ctx().json('POST', '/api/account/passkeys', { name: '  Laptop ', response: authenticator.register(options, ORIGIN) }, who.headers);
    const passkey = (await created.json()) as { id: number; name: string; createdAt: string; lastUsedAt: string | null };
    expect(created.status).toBe(201);
    expect(passkey).toEqual({ id: expect.any(Number), name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null });
    expect((await db().select({ secondFactor: users.secondFactor }).from(users).where(eq(users.id, who.id)))[0]?.secondFactor).toBe(true);
    expect(await auditActions(who.id)).toContain('user.passkey_added');

    // The account lists it; a new registration excludes it.
    const security = await ctx().request('/api/account/security', { headers: who.headers });
    expect(((await security.json()) as { passkeys: unknown[] }).passkeys).toEqual([passkey]);
    const again = (await (await ctx().json('POST', '/api/account/passkeys/options', undefined, who.headers)).json()) as PublicKeyCredentialCreationOptionsJSON;
    expect(again.excludeCredentials?.map((c) => c.id)).toEqual([authenticator.credentials[0]?.id]);

    // Signed out, the passkey alone signs in: discoverable options, no credential listed.
    const ip = freshIp();
    const signInOpts = await signInOptions(ctx(), ip);
    expect(signInOpts.allowCredentials ?? []).toEqual([]);
    expect(signInOpts.userVerification).toBe('required');
    const res = await signIn(authenticator.assert(signInOpts, ORIGIN), ip);
    expect(res.status, await res.clone().text()).toBe(200);
    const cookie = /fw_session=[^;]+/.exec(res.headers.getSetCookie().join('\n'))?.[0];
    expect(cookie).toBeDefined();
    const me = await ctx().request('/api/auth', { headers: { Cookie: cookie ?? '' } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(who.email);
    const [row] = await db().select().from(passkeys).where(eq(passkeys.id, passkey.id));
    expect(row?.counter).toBe(1);
    expect(row?.lastUsedAt?.toISOString()).toBe(ctx().clock.now().toISOString());

    // A disabled account's passkey signs in no more.
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, who.id));
    expect((await errorOf(await signIn(authenticator.assert(await signInOptions(ctx(), ip), ORIGIN), ip), 403)).code).toBe('account_disabled');
  });

  it('a challenge serves once, for 5 minutes, and needs user verification; failures count against the address', async () => {
    const who = await signedInUser(ctx());
    const authenticator = new SoftAuthenticator();
    await register(who, authenticator);
    const ip = freshIp();
    const failures = async () =>
      (
        await db()
          .select()
          .from(rateLimits)
          .where(eq(rateLimits.key, `login-fail:ip:${ip}`))
      )[0]?.count;

    // Used: a second, freshly signed answer to the same challenge is refused.
    const once = await signInOptions(ctx(), ip);
    expect((await signIn(authenticator.assert(once, ORIGIN), ip)).status).toBe(200);
    expect((await errorOf(await signIn(authenticator.assert(once, ORIGIN), ip), 401)).code).toBe('invalid_credentials');
    expect(await failures()).toBe(1);

    // Without user verification: refused, and the challenge is gone all the same.
    const unverified = await signInOptions(ctx(), ip);
    await errorOf(await signIn(authenticator.assert(unverified, ORIGIN, { userVerified: false }), ip), 401);
    await errorOf(await signIn(authenticator.assert(unverified, ORIGIN), ip), 401);

    // Expired.
    const late = await signInOptions(ctx(), ip);
    ctx().clock.advance(WEBAUTHN_CHALLENGE_MS + 1000);
    await errorOf(await signIn(authenticator.assert(late, ORIGIN), ip), 401);
    expect(await failures()).toBe(4);
  });

  it('a person has at most PASSKEYS_MAX passkeys; sign-in options are limited per address', async () => {
    const who = await signedInUser(ctx());
    const authenticator = new SoftAuthenticator();
    const seed = (from: number, to: number) =>
      db()
        .insert(passkeys)
        .values(
          Array.from({ length: to - from }, (_, i) => ({
            userId: who.id,
            credentialId: `seeded-${who.id}-${from + i}`,
            publicKey: 'x',
            name: `Key ${from + i}`,
          })),
        );
    await seed(0, PASSKEYS_MAX - 1);
    // Options taken at one below the limit; meanwhile another passkey arrives: the answer is refused.
    const options = await ctx().json('POST', '/api/account/passkeys/options', undefined, who.headers);
    expect(options.status).toBe(200);
    const response = authenticator.register((await options.json()) as PublicKeyCredentialCreationOptionsJSON, ORIGIN);
    await seed(PASSKEYS_MAX - 1, PASSKEYS_MAX);
    const refused = await errorOf(await ctx().json('POST', '/api/account/passkeys', { name: 'One more', response }, who.headers), 409);
    expect(refused).toMatchObject({ code: 'too_many_passkeys', message: TOO_MANY_PASSKEYS });
    expect((await errorOf(await ctx().json('POST', '/api/account/passkeys/options', undefined, who.headers), 409)).code).toBe('too_many_passkeys');

    // Each sign-in option keeps a challenge: an address gets 600 per 15 minutes.
    const ip = freshIp();
    await db()
      .insert(rateLimits)
      .values({ key: `passkey-options:ip:${ip}`, count: 599, resetAt: new Date(ctx().clock.now().getTime() + 60_000) });
    await signInOptions(ctx(), ip);
    expect((await ctx().json('POST', '/api/auth/passkey/options', undefined, { 'X-Forwarded-For': ip })).status).toBe(429);
  });

  it("another person's passkey answers neither a re-authentication nor a second step", async () => {
    const alice = await signedInUser(ctx());
    const bob = await signedInUser(ctx());
    const alices = new SoftAuthenticator();
    const bobs = new SoftAuthenticator();
    await register(alice, alices);
    await register(bob, bobs);
    const bobsCredential = bobs.credentials[0]?.id;
    const deps = { clock: ctx().clock, config: ctx().config };

    const reauth = async () => {
      const res = await ctx().json('POST', '/api/auth/reauth/options', undefined, alice.headers);
      expect(res.status).toBe(200);
      return (await res.json()) as PublicKeyCredentialRequestOptionsJSON;
    };
    const forAlice = await reauth();
    expect(forAlice.allowCredentials?.map((c) => c.id)).toEqual([alices.credentials[0]?.id]);
    const asBob = bobs.assert(forAlice, ORIGIN, { credentialId: bobsCredential });
    expect(await verifyPasskeyAssertion(db(), deps, { purpose: 'reauth', userId: alice.id, response: asBob })).toBeNull();
    expect(await verifyPasskeyAssertion(db(), deps, { purpose: 'reauth', userId: alice.id, response: alices.assert(await reauth(), ORIGIN) })).toEqual({
      userId: alice.id,
    });

    const secondStep = await passkeyAuthenticationOptions(db(), deps, { purpose: 'second-factor', userId: alice.id });
    const response = bobs.assert(secondStep, ORIGIN, { credentialId: bobsCredential });
    expect(await verifyPasskeyAssertion(db(), deps, { purpose: 'second-factor', userId: alice.id, response })).toBeNull();
    // Nor does a sign-in challenge stand in for one made for a person.
    const signInChallenge = await passkeyAuthenticationOptions(db(), deps, { purpose: 'sign-in' });
    expect(await verifyPasskeyAssertion(db(), deps, { purpose: 'reauth', userId: alice.id, response: alices.assert(signInChallenge, ORIGIN) })).toBeNull();
  });

  it("renames and removes one's own passkeys (404 for another person's); staff keep their last factor", async () => {
    const owner = await signedInUser(ctx());
    const other = await signedInUser(ctx());
    const passkey = await register(owner, new SoftAuthenticator());

    const renamed = await ctx().json('PATCH', `/api/account/passkeys/${passkey.id}`, { name: 'Phone' }, owner.headers);
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ ...passkey, name: 'Phone' });
    await errorOf(await ctx().json('PATCH', `/api/account/passkeys/${passkey.id}`, { name: 'Mine' }, other.headers), 404);
    await errorOf(await ctx().json('DELETE', `/api/account/passkeys/${passkey.id}`, undefined, other.headers), 404);

    expect((await ctx().json('DELETE', `/api/account/passkeys/${passkey.id}`, undefined, owner.headers)).status).toBe(204);
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, owner.id))).toEqual([]);
    expect((await db().select({ secondFactor: users.secondFactor }).from(users).where(eq(users.id, owner.id)))[0]?.secondFactor).toBe(false);
    expect(await auditActions(owner.id)).toEqual(expect.arrayContaining(['user.passkey_renamed', 'user.passkey_removed']));
    await errorOf(await ctx().json('DELETE', `/api/account/passkeys/${passkey.id}`, undefined, owner.headers), 404);

    const moderator = await signedInUser(ctx(), 'moderator');
    const only = await register(moderator, new SoftAuthenticator());
    expect((await errorOf(await ctx().json('DELETE', `/api/account/passkeys/${only.id}`, undefined, moderator.headers), 409)).code).toBe('last_second_factor');
    const second = await register(moderator, new SoftAuthenticator(), 'Key');
    expect((await ctx().json('DELETE', `/api/account/passkeys/${only.id}`, undefined, moderator.headers)).status).toBe(204);
    expect(await db().select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, moderator.id))).toEqual([{ id: second.id }]);

    // Changing one's passkeys needs a recent sign-in proof.
    ctx().clock.advance(REAUTH_MAX_AGE_MS);
    expect((await errorOf(await ctx().json('POST', '/api/account/passkeys/options', undefined, moderator.headers), 403)).code).toBe('reauth_required');
  });

  it('bad input is 400 (or 401 for an answer that proves nothing), never 500', async () => {
    const who = await signedInUser(ctx());
    const authenticator = new SoftAuthenticator();
    const options = (await (
      await ctx().json('POST', '/api/account/passkeys/options', undefined, who.headers)
    ).json()) as PublicKeyCredentialCreationOptionsJSON;
    const good = authenticator.register(options, ORIGIN);
    const post = (body: unknown) => ctx().json('POST', '/api/account/passkeys', body, who.headers);

    expect(Object.keys(await fieldsOf(await post({})))).toEqual(['name', 'response']);
    expect(await fieldsOf(await post({ name: 'x'.repeat(61), response: good }))).toEqual({ name: ['At most 60 characters'] });
    expect(Object.keys(await fieldsOf(await post({ name: 'Key', response: { ...good, type: 'password' } })))).toEqual(['response']);
    // Well-formed but not an answer to anything: 400 invalid_passkey.
    const junk = { ...good, response: { ...good.response, clientDataJSON: 'bm90IGpzb24', attestationObject: 'AAAA' } };
    expect((await errorOf(await post({ name: 'Key', response: junk }), 400)).code).toBe('invalid_passkey');
    // From another origin: refused, and the challenge is used up.
    const elsewhere = new SoftAuthenticator().register(options, 'https://evil.example');
    expect((await errorOf(await post({ name: 'Key', response: elsewhere }), 400)).code).toBe('invalid_passkey');
    expect((await errorOf(await post({ name: 'Key', response: good }), 400)).code).toBe('invalid_passkey');

    await errorOf(await ctx().json('PATCH', '/api/account/passkeys/abc', { name: 'Key' }, who.headers), 404);
    const ip = freshIp();
    expect(Object.keys(await fieldsOf(await signIn({ id: 'x' }, ip)))).toEqual(['response']);
    const forged = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
    };
    expect((await errorOf(await signIn(forged, ip), 401)).code).toBe('invalid_credentials');
    await errorOf(await ctx().json('POST', '/api/auth/reauth/options'), 401);
  });
});
