import { Hono } from 'hono';
import { rememberedLanguage } from '../../shared/languages.ts';
import { canonicalTimeZone } from '../../shared/time-zone.ts';
import { forgotPasswordSchema, loginSchema, onboardSchema, registerSchema, resetPasswordSchema, tokenQuerySchema } from '../../shared/schemas/auth.ts';
import { reauthSchema, secondFactorSchema } from '../../shared/schemas/sign-in.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { clientIp, enforceRateLimits, jsonBody, query, requestLanguage, signedIn, signedInAccount, signedInUser, type RateLimitList } from '../http.ts';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../middleware/session.ts';
import { completeOnboarding, resetPassword } from '../services/account.ts';
import { audit } from '../services/audit.ts';
import { COMMON_PASSWORD_MESSAGE, assertUncommonPassword, isCommonPassword } from '../services/common-passwords.ts';
import { noteNewBrowser } from '../services/new-sign-in.ts';
import { findUsableToken, invalidToken, onboardingLinkError } from '../services/tokens.ts';
import { hashPassword, verifyDummyPassword, verifyPassword } from '../services/passwords.ts';
import { verifyPasskeyAssertion } from '../services/passkeys.ts';
import { RATE_LIMITS, refundRateLimit } from '../services/rate-limit.ts';
import { methodsOf, spendRecoveryCode, verifyTotpCode } from '../services/second-factors.ts';
import { createSession, deleteSession, markReauthenticated } from '../services/sessions.ts';
import {
  clearPendingCookie,
  consumePendingSignIn,
  countSecondStep,
  createPendingSignIn,
  endAfterWrongStep,
  isTrustedBrowser,
  pendingSignIn,
  recentUntil,
  startSession,
  trustBrowser,
} from '../services/sign-in.ts';
import { findUserByEmail, findUserById, publicUser } from '../services/users.ts';

/** The sign-in failure limits of an address and an account: the password and the second step count against both. */
function signInFailureLimits(ip: string, email: string): RateLimitList {
  return [
    [`login-fail:ip:${ip}`, RATE_LIMITS.signInFailuresPerIp],
    [`login-fail:email:${email}`, RATE_LIMITS.signInFailuresPerEmail],
  ];
}

/** 401 of a second step without a live pending sign-in (none, expired, ended by five wrong steps, or used). */
const noPendingSignIn = () => new ApiError(401, 'unauthenticated', 'Your sign-in has expired: enter your email and password again');

/** docs/product.md §7 auth calls. */
export const authRoutes = new Hono<AppEnv>()
  /** The current user (docs/product.md §4: run at startup and after sign-in). */
  .get('/', signedIn, (c) => c.json(publicUser(signedInUser(c.get('user')), c.get('deps').config), 200))

  /**
   * Registration: the same answer whatever the address. New → an invited account and a link to
   * finish; invited → a fresh link; active → a mail with sign-in and reset links. The lookup and
   * the mail are a job (`auth.register`), so the answer's timing says nothing either.
   */
  .post('/register', jsonBody(registerSchema), async (c) => {
    const input = c.req.valid('json');
    await enforceRateLimits(c, [
      [`register:email:${input.email}`, RATE_LIMITS.registerPerEmail],
      [`register:ip:${clientIp(c)}`, RATE_LIMITS.registerPerIp],
    ]);
    const { deps } = c.var;
    const language = requestLanguage(c);
    await deps.jobs.send('auth.register', {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      ip: clientIp(c),
      ...(language ? { language } : {}),
    });
    return c.json({ ok: true } as const, 202);
  })

  /** Onboarding: sets the password (and what the account lacks), signs in, returns the user. */
  .post('/onboard', query(tokenQuerySchema), jsonBody(onboardSchema), async (c) => {
    const { token } = c.req.valid('query');
    await enforceRateLimits(c, [[`token:ip:${clientIp(c)}`, RATE_LIMITS.tokenChecksPerIp]]);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const found = await findUsableToken(db, deps.clock, token, 'onboarding');
    const user = found ? await findUserById(db, found.userId) : null;
    if (!found || !user || user.status !== 'invited') throw await onboardingLinkError(db, token);

    const missing: Record<string, string[]> = {};
    if (!user.firstName && !input.firstName) missing.firstName = ['Required'];
    if (!user.lastName && !input.lastName) missing.lastName = ['Required'];
    if (!user.termsAcceptedAt && input.acceptTerms !== true) missing.acceptTerms = ['Accept the terms of use and the privacy policy to continue'];
    if (isCommonPassword(input.password)) missing.password = [COMMON_PASSWORD_MESSAGE];
    if (Object.keys(missing).length > 0) throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: missing });

    const passwordHash = await hashPassword(input.password);
    // The browser's zone becomes the participant's (the day diary entries count on), unless set.
    const timeZone = canonicalTimeZone(input.timeZone);
    const withZone = timeZone && !user.preferences.timeZone ? { ...user.preferences, timeZone } : user.preferences;
    // The language chosen on this device becomes the account's, unless it has one (issue 31).
    const language = rememberedLanguage(c.req.header('cookie'));
    const preferences = language && !withZone.language ? { ...withZone, language } : withZone;
    const set = {
      passwordHash,
      firstName: user.firstName || (input.firstName ?? ''),
      lastName: user.lastName || (input.lastName ?? ''),
      termsAcceptedAt: user.termsAcceptedAt ?? deps.clock.now(),
      preferences,
    };
    const updated = await completeOnboarding(db, deps.clock, { token: found, userId: user.id, set }, { ip: clientIp(c) });
    if (!updated) throw await onboardingLinkError(db, token);
    const session = await createSession(db, deps.clock, updated.id, {
      userAgent: c.req.header('user-agent'),
      ip: clientIp(c),
      role: updated.role,
      limits: deps.config,
    });
    setSessionCookie(c, session.token, session.expiresAt);
    await noteNewBrowser(c, updated.id);
    return c.json({ user: publicUser(updated, deps.config) }, 200);
  })

  /**
   * Sign-in. One generic answer for an unknown email or a wrong password, spending the same
   * time on both. A new session every time; the previous one of this browser ends. An account
   * with a second factor gets no session yet: `{ ok, next: 'second_factor', methods }` and a
   * pending sign-in (its cookie) that `POST /second-factor` (or a passkey) completes, unless it
   * is a participant's on a browser they trusted.
   */
  .post('/login', jsonBody(loginSchema), async (c) => {
    const input = c.req.valid('json');
    const email = input.email.trim().toLowerCase();
    const ip = clientIp(c);
    const { db, deps } = c.var;
    // Failures count against the address and the account; each attempt is counted first (so
    // parallel guesses cannot slip past) and a success takes its hit back. Once an account's
    // limit is reached even its right password waits for the window: guessing gains nothing.
    const failureLimits = signInFailureLimits(ip, email);
    await enforceRateLimits(c, failureLimits);
    const user = await findUserByEmail(db, email);
    const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : await verifyDummyPassword(input.password);
    if (!user || !valid) throw new ApiError(401, 'invalid_credentials', 'Incorrect email or password');
    for (const [key] of failureLimits) await refundRateLimit(db, deps.clock, key);
    if (user.status === 'disabled') throw new ApiError(403, 'account_disabled', 'This account is disabled. Contact us if you think this is a mistake.');
    if (user.status !== 'active') throw new ApiError(401, 'invalid_credentials', 'Incorrect email or password');

    if (user.secondFactor) {
      if (user.role === 'participant' && (await isTrustedBrowser(c, user.id))) {
        await startSession(c, user, { secondFactor: false, method: 'password+trusted-browser' });
        return c.json({ ok: true } as const, 200);
      }
      // Whoever this browser was signed in as, it is not until the second step.
      const previous = sessionToken(c);
      if (previous) {
        await deleteSession(db, previous);
        clearSessionCookie(c);
      }
      await createPendingSignIn(c, user.id);
      // "Trust this browser" is offered to participants only (staff are always asked).
      return c.json({ ok: true, next: 'second_factor', methods: await methodsOf(db, user.id), canTrustBrowser: user.role === 'participant' } as const, 200);
    }
    await startSession(c, user, { secondFactor: false, method: 'password' });
    return c.json({ ok: true } as const, 200);
  })

  /**
   * The second step of a sign-in (issue 29 §2): one of a code of the authenticator app, a
   * recovery code or a passkey, for this browser's pending sign-in (401 `unauthenticated` with
   * none). Wrong: 401 `invalid_code`, counted with the password failures (per account and per
   * address) and on the pending sign-in, which the fifth ends; audited `user.second_factor_failed`.
   * Right: the session starts; `trustBrowser` (participants) skips this step on this browser for
   * 30 days.
   */
  .post('/second-factor', jsonBody(secondFactorSchema), async (c) => {
    const { proof, trustBrowser: wantsTrust } = c.req.valid('json');
    const { db, deps } = c.var;
    const ip = clientIp(c);
    const pending = await pendingSignIn(c);
    if (!pending) throw noPendingSignIn();
    const user = await findUserById(db, pending.userId);
    if (!user || user.status !== 'active') {
      await consumePendingSignIn(c, pending);
      if (user?.status === 'disabled') throw new ApiError(403, 'account_disabled', 'This account is disabled. Contact us if you think this is a mistake.');
      throw noPendingSignIn();
    }
    const failureLimits = signInFailureLimits(ip, user.email.toLowerCase());
    await enforceRateLimits(c, failureLimits);
    // Counted before it is checked: five at most per pending sign-in, however many arrive at once.
    const step = await countSecondStep(c, pending);
    if (step === null) {
      clearPendingCookie(c);
      throw noPendingSignIn();
    }

    const passed =
      proof.method === 'totp'
        ? await verifyTotpCode(db, deps, user.id, proof.code)
        : proof.method === 'recovery'
          ? await spendRecoveryCode(db, deps, user.id, proof.recoveryCode)
          : (await verifyPasskeyAssertion(db, deps, { purpose: 'second-factor', userId: user.id, response: proof.passkey }))?.userId === user.id;
    if (!passed) {
      const ended = await endAfterWrongStep(c, pending, step);
      await audit(db, {
        actorId: user.id,
        via: 'api',
        action: 'user.second_factor_failed',
        targetType: 'user',
        targetId: user.id,
        after: { method: proof.method, failures: step, ended },
        ip,
      });
      throw new ApiError(
        401,
        'invalid_code',
        proof.method === 'passkey' ? 'That passkey could not be checked: try again' : 'That code is not right: try again',
      );
    }
    for (const [key] of failureLimits) await refundRateLimit(db, deps.clock, key);
    // Of two right second steps sent at once, one signs in.
    if (!(await consumePendingSignIn(c, pending))) throw noPendingSignIn();
    await startSession(c, user, { secondFactor: true, method: `password+${proof.method}` });
    if (wantsTrust && user.role === 'participant') await trustBrowser(c, user.id);
    return c.json({ ok: true } as const, 200);
  })

  /**
   * Re-authentication (issue 29 §4): the password (and, for an account with an authenticator
   * app, its code) or a passkey; the session's proof of who is there becomes now, for the
   * sensitive calls of the next 15 minutes (`until`). Counted as a password check; audited `user.reauth`.
   */
  .post('/reauth', signedIn, jsonBody(reauthSchema), async (c) => {
    const proof = c.req.valid('json');
    const { db, deps } = c.var;
    const account = await signedInAccount(c);
    const sessionId = c.get('sessionId');
    if (!sessionId) throw new ApiError(401, 'unauthenticated', 'Sign in to continue');
    await enforceRateLimits(c, [[`password-check:user:${account.id}`, RATE_LIMITS.passwordChecksPerUser]]);
    if (proof.method === 'password') {
      if (!account.passwordHash || !(await verifyPassword(account.passwordHash, proof.password))) {
        throw new ApiError(401, 'invalid_credentials', 'Incorrect password');
      }
      if ((await methodsOf(db, account.id)).includes('totp')) {
        if (proof.code === undefined) throw new ApiError(401, 'invalid_code', 'Enter the code your authenticator app shows');
        if (!(await verifyTotpCode(db, deps, account.id, proof.code))) throw new ApiError(401, 'invalid_code', 'That code is not right: try again');
      }
    } else {
      const verified = await verifyPasskeyAssertion(db, deps, { purpose: 'reauth', userId: account.id, response: proof.passkey });
      if (verified?.userId !== account.id) throw new ApiError(401, 'invalid_code', 'That passkey could not be checked: try again');
    }
    await markReauthenticated(db, deps.clock, sessionId);
    await audit(db, {
      actorId: account.id,
      via: 'api',
      action: 'user.reauth',
      targetType: 'user',
      targetId: account.id,
      after: { method: proof.method },
      ip: clientIp(c),
    });
    return c.json({ ok: true, until: recentUntil(deps.clock.now()).toISOString() } as const, 200);
  })

  /** Sign-out: the session ends on the server and the cookie is cleared. */
  .post('/logout', async (c) => {
    const token = sessionToken(c);
    if (token) await deleteSession(c.get('db'), token);
    clearSessionCookie(c);
    return c.json({ ok: true } as const, 200);
  })

  /** Forgot password: the same answer always; a job (`auth.forgot-password`) mails a reset link (or, if never onboarded, the setup link). */
  .post('/password/forgot', jsonBody(forgotPasswordSchema), async (c) => {
    const { email } = c.req.valid('json');
    await enforceRateLimits(c, [
      [`forgot:email:${email}`, RATE_LIMITS.forgotPerEmail],
      [`forgot:ip:${clientIp(c)}`, RATE_LIMITS.forgotPerIp],
    ]);
    const language = requestLanguage(c);
    await c.get('deps').jobs.send('auth.forgot-password', { email, ...(language ? { language } : {}) });
    return c.json({ ok: true } as const, 202);
  })

  /** Reset: a new password from a reset link; every session of the user ends. */
  .post('/password/reset', query(tokenQuerySchema), jsonBody(resetPasswordSchema), async (c) => {
    const { token } = c.req.valid('query');
    await enforceRateLimits(c, [[`token:ip:${clientIp(c)}`, RATE_LIMITS.tokenChecksPerIp]]);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const found = await findUsableToken(db, deps.clock, token, 'reset-password');
    // A disabled account's links stop working (docs/product.md §2.5), like every other link call.
    const owner = found ? await findUserById(db, found.userId) : null;
    if (!found || !owner || owner.status === 'disabled') throw invalidToken();
    assertUncommonPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    if (!(await resetPassword(db, deps, { token: found, passwordHash }, { ip: clientIp(c) }))) throw invalidToken();
    clearSessionCookie(c);
    return c.json({ ok: true } as const, 200);
  });
