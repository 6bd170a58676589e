import { Hono } from 'hono';
import { passkeySignInSchema } from '../../shared/schemas/passkeys.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { clientIp, enforceRateLimits, jsonBody, noStore, signedIn, signedInUser } from '../http.ts';
import { passkeyAuthenticationOptions, verifyPasskeyAssertion } from '../services/passkeys.ts';
import { RATE_LIMITS, refundRateLimit } from '../services/rate-limit.ts';
import { consumePendingSignIn, pendingSignIn, startSession } from '../services/sign-in.ts';
import { findUserById } from '../services/users.ts';

/**
 * Passkey assertions (issue 29; docs/api.md "Account security"), mounted at `/api/auth`: signing
 * in with a passkey alone, the options of a password's second step by passkey, and the options of
 * a re-authentication by passkey (its answer goes to `POST /api/auth/reauth`).
 */
export const passkeyAuthRoutes = new Hono<AppEnv>()
  /**
   * The options for `navigator.credentials.get()`. Without a pending sign-in: a sign-in with a
   * passkey alone (no credential listed: the browser offers the site's passkeys). With one (the
   * pending cookie of a password's first step): the second step's, that person's passkeys listed
   * (its answer goes to `POST /api/auth/second-factor` `{ passkey }`).
   */
  .post('/passkey/options', async (c) => {
    noStore(c);
    const { db, deps } = c.var;
    await enforceRateLimits(c, [[`passkey-options:ip:${clientIp(c)}`, RATE_LIMITS.passkeyOptionsPerIp]]);
    const pending = await pendingSignIn(c);
    const options = pending
      ? await passkeyAuthenticationOptions(db, deps, { purpose: 'second-factor', userId: pending.userId })
      : await passkeyAuthenticationOptions(db, deps, { purpose: 'sign-in' });
    return c.json(options, 200);
  })

  /**
   * Sign-in with a passkey alone (user verification makes it both factors): 200 and a session.
   * A failure counts against the address's sign-in failures, as a wrong password does.
   */
  .post('/passkey', jsonBody(passkeySignInSchema), async (c) => {
    noStore(c);
    const { response } = c.req.valid('json');
    const { db, deps } = c.var;
    const failures = `login-fail:ip:${clientIp(c)}`;
    await enforceRateLimits(c, [[failures, RATE_LIMITS.signInFailuresPerIp]]);
    let verified = await verifyPasskeyAssertion(db, deps, { purpose: 'sign-in', response });
    // With a pending sign-in, `/passkey/options` gave the second step's options: their answer (that
    // person's passkey, verified) proves as much as a sign-in's, so it is taken here too.
    const pending = await pendingSignIn(c);
    if (!verified && pending) verified = await verifyPasskeyAssertion(db, deps, { purpose: 'second-factor', userId: pending.userId, response });
    if (!verified) throw new ApiError(401, 'invalid_credentials', 'This passkey was not accepted: try again, or sign in with your password');
    await refundRateLimit(db, deps.clock, failures);
    const user = await findUserById(db, verified.userId);
    if (user?.status === 'disabled') throw new ApiError(403, 'account_disabled', 'This account is disabled. Contact us if you think this is a mistake.');
    if (!user || user.status !== 'active')
      throw new ApiError(401, 'invalid_credentials', 'This passkey was not accepted: try again, or sign in with your password');
    // A password's first step waiting on this browser is over: the passkey signed in.
    if (pending) await consumePendingSignIn(c, pending);
    await startSession(c, user, { secondFactor: true, method: 'passkey' });
    return c.json({ ok: true } as const, 200);
  })

  /** The options of a re-authentication by passkey (signed in; the person's passkeys listed; 409 `no_passkey` without one). */
  .post('/reauth/options', signedIn, async (c) => {
    const { db, deps } = c.var;
    return c.json(await passkeyAuthenticationOptions(db, deps, { purpose: 'reauth', userId: signedInUser(c.get('user')).id }), 200);
  });
