import { Hono } from 'hono';
import { canonicalTimeZone } from '../../shared/time-zone.ts';
import { forgotPasswordSchema, loginSchema, onboardSchema, registerSchema, resetPasswordSchema, tokenQuerySchema } from '../../shared/schemas/auth.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { clientIp, enforceRateLimits, jsonBody, query, signedIn, signedInUser } from '../http.ts';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../middleware/session.ts';
import { completeOnboarding, recordSignIn, resetPassword } from '../services/account.ts';
import { findUsableToken, invalidToken, onboardingLinkError } from '../services/tokens.ts';
import { hashPassword, verifyDummyPassword, verifyPassword } from '../services/passwords.ts';
import { RATE_LIMITS, refundRateLimit } from '../services/rate-limit.ts';
import { createSession, deleteSession } from '../services/sessions.ts';
import { findUserByEmail, findUserById, publicUser } from '../services/users.ts';

/** docs/product.md §7 auth calls. */
export const authRoutes = new Hono<AppEnv>()
  /** The current user (docs/product.md §4: run at startup and after sign-in). */
  .get('/', signedIn, (c) => c.json(publicUser(signedInUser(c.get('user'))), 200))

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
    await deps.jobs.send('auth.register', { email: input.email, firstName: input.firstName, lastName: input.lastName, ip: clientIp(c) });
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
    if (Object.keys(missing).length > 0) throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: missing });

    const passwordHash = await hashPassword(input.password);
    // The browser's zone becomes the participant's (the day diary entries count on), unless set.
    const timeZone = canonicalTimeZone(input.timeZone);
    const preferences = timeZone && !user.preferences.timeZone ? { ...user.preferences, timeZone } : user.preferences;
    const set = {
      passwordHash,
      firstName: user.firstName || (input.firstName ?? ''),
      lastName: user.lastName || (input.lastName ?? ''),
      termsAcceptedAt: user.termsAcceptedAt ?? deps.clock.now(),
      preferences,
    };
    const updated = await completeOnboarding(db, deps.clock, { token: found, userId: user.id, set }, { ip: clientIp(c) });
    if (!updated) throw await onboardingLinkError(db, token);
    const session = await createSession(db, deps.clock, updated.id, { userAgent: c.req.header('user-agent'), ip: clientIp(c) });
    setSessionCookie(c, session.token, session.expiresAt);
    return c.json({ user: publicUser(updated) }, 200);
  })

  /**
   * Sign-in. One generic answer for an unknown email or a wrong password, spending the same
   * time on both. A new session every time; the previous one of this browser ends.
   */
  .post('/login', jsonBody(loginSchema), async (c) => {
    const input = c.req.valid('json');
    const email = input.email.trim().toLowerCase();
    const ip = clientIp(c);
    const { db, deps } = c.var;
    // Failures count against the address and the account; each attempt is counted first (so
    // parallel guesses cannot slip past) and a success takes its hit back. Once an account's
    // limit is reached even its right password waits for the window: guessing gains nothing.
    const failureLimits = [
      [`login-fail:ip:${ip}`, RATE_LIMITS.signInFailuresPerIp],
      [`login-fail:email:${email}`, RATE_LIMITS.signInFailuresPerEmail],
    ] as const;
    await enforceRateLimits(c, failureLimits);
    const user = await findUserByEmail(db, email);
    const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : await verifyDummyPassword(input.password);
    if (!user || !valid) throw new ApiError(401, 'invalid_credentials', 'Incorrect email or password');
    for (const [key] of failureLimits) await refundRateLimit(db, deps.clock, key);
    if (user.status === 'disabled') throw new ApiError(403, 'account_disabled', 'This account is disabled. Contact us if you think this is a mistake.');
    if (user.status !== 'active') throw new ApiError(401, 'invalid_credentials', 'Incorrect email or password');

    const previous = sessionToken(c);
    if (previous) await deleteSession(db, previous);
    const session = await createSession(db, deps.clock, user.id, { userAgent: c.req.header('user-agent'), ip });
    await recordSignIn(db, deps.clock, user.id);
    setSessionCookie(c, session.token, session.expiresAt);
    return c.json({ ok: true } as const, 200);
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
    await c.get('deps').jobs.send('auth.forgot-password', { email });
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
    const passwordHash = await hashPassword(input.password);
    if (!(await resetPassword(db, deps, { token: found, passwordHash }, { ip: clientIp(c) }))) throw invalidToken();
    clearSessionCookie(c);
    return c.json({ ok: true } as const, 200);
  });
