import { Hono } from 'hono';
import { addressSchema, emailChangeSchema, languageSchema, passwordChangeSchema, preferencesSchema, profileSchema } from '../../shared/schemas/account.ts';
import { tokenQuerySchema } from '../../shared/schemas/auth.ts';
import { describeUserAgent } from '../../shared/user-agent.ts';
import type { AppEnv } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { clientIp, enforceRateLimits, jsonBody, query, recentAuth, signedIn, signedInAccount } from '../http.ts';
import {
  accountView,
  changePassword,
  checkCurrentPassword,
  confirmEmailChange,
  updateAddress,
  updateLanguage,
  updatePreferences,
  updateProfile,
} from '../services/account.ts';
import { clearSessionCookie } from '../middleware/session.ts';
import { audit } from '../services/audit.ts';
import { assertUncommonPassword } from '../services/common-passwords.ts';
import { findUsableToken, invalidToken } from '../services/tokens.ts';
import { hashPassword } from '../services/passwords.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { deleteUserSession, deleteUserSessions, listUserSessions, SESSION_SHORT_ID_LENGTH } from '../services/sessions.ts';
import { findUserByEmail } from '../services/users.ts';

/**
 * The account screens' calls; every one needs a session. Points, notifications, mission history
 * and probe answers under `/api/account` have their own feature files (`points.ts`,
 * `notifications.ts`, `mission-history.ts`, `review.ts`).
 */
export const accountRoutes = new Hono<AppEnv>()
  .use('*', signedIn)

  .get('/', async (c) => {
    const user = await signedInAccount(c);
    const { db, deps } = c.var;
    const sessions = await listUserSessions(db, deps.clock, user, deps.config);
    return c.json({
      user: await accountView(db, deps, user),
      sessions: sessions.map((s) => ({
        id: s.id.slice(0, SESSION_SHORT_ID_LENGTH),
        current: s.id === c.get('sessionId'),
        device: describeUserAgent(s.userAgent).label,
        userAgent: s.userAgent,
        ip: s.ip,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
      })),
    });
  })

  .patch('/profile', jsonBody(profileSchema), async (c) => {
    const user = await signedInAccount(c);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const updated = await updateProfile(db, deps.clock, user, input, { ip: clientIp(c) });
    return c.json({ user: await accountView(db, deps, updated) });
  })

  .put('/address', jsonBody(addressSchema), async (c) => {
    const user = await signedInAccount(c);
    const address = c.req.valid('json');
    const { db, deps } = c.var;
    const updated = await updateAddress(db, deps.clock, user.id, address);
    return c.json({ user: await accountView(db, deps, updated) });
  })

  .patch('/preferences', jsonBody(preferencesSchema), async (c) => {
    const user = await signedInAccount(c);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const updated = await updatePreferences(db, deps.clock, user, input);
    return c.json({ user: await accountView(db, deps, updated) });
  })

  /** The language switcher (issue 31): `{ language }` alone; the account as the preferences save answers it. */
  .put('/language', jsonBody(languageSchema), async (c) => {
    const user = await signedInAccount(c);
    const { language } = c.req.valid('json');
    const { db, deps } = c.var;
    const updated = await updateLanguage(db, deps.clock, user, language);
    return c.json({ user: await accountView(db, deps, updated) });
  })

  /**
   * Email change, step 1: with the current password, a job (`account.email-change`) mails a
   * confirmation link to the new address, or tells that address's owner when it has an account
   * (the answer is the same either way).
   */
  .post('/email', recentAuth, jsonBody(emailChangeSchema), async (c) => {
    const user = await signedInAccount(c);
    const input = c.req.valid('json');
    await enforceRateLimits(c, [
      [`password-check:user:${user.id}`, RATE_LIMITS.passwordChecksPerUser],
      [`account-mail:user:${user.id}`, RATE_LIMITS.accountMailsPerUser],
    ]);
    await checkCurrentPassword(user, input.currentPassword);
    if (input.newEmail === user.email) {
      throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { newEmail: ['This is already your email address'] } });
    }
    await c.get('deps').jobs.send('account.email-change', { userId: user.id, newEmail: input.newEmail });
    return c.json({ ok: true, pendingEmail: input.newEmail } as const, 202);
  })

  /** Email change, step 2 (/update-email/{token}, signed in): the address changes; the old one is told; other sessions end. */
  .post('/email/confirm', query(tokenQuerySchema), async (c) => {
    const user = await signedInAccount(c);
    const { token } = c.req.valid('query');
    await enforceRateLimits(c, [[`token:ip:${clientIp(c)}`, RATE_LIMITS.tokenChecksPerIp]]);
    const { db, deps } = c.var;
    const found = await findUsableToken(db, deps.clock, token, 'update-email');
    const newEmail = found?.data.email;
    if (!found || !newEmail) throw invalidToken();
    if (found.userId !== user.id) throw new ApiError(403, 'wrong_account', 'This link belongs to another account. Sign in with that account to confirm it.');
    const taken = await findUserByEmail(db, newEmail);
    if (taken && taken.id !== user.id) throw new ApiError(409, 'email_taken', 'This address now belongs to another account');
    const updated = await confirmEmailChange(db, deps, { user, token: found, newEmail, keepSessionId: c.get('sessionId') }, { ip: clientIp(c) });
    if (!updated) throw invalidToken();
    return c.json({ user: await accountView(db, deps, updated) });
  })

  /** Password change with the current password (and a recent sign-in); every other session ends. */
  .post('/password', recentAuth, jsonBody(passwordChangeSchema), async (c) => {
    const user = await signedInAccount(c);
    const input = c.req.valid('json');
    await enforceRateLimits(c, [[`password-check:user:${user.id}`, RATE_LIMITS.passwordChecksPerUser]]);
    await checkCurrentPassword(user, input.currentPassword);
    assertUncommonPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    await changePassword(c.get('db'), c.get('deps'), { user, passwordHash, keepSessionId: c.get('sessionId') }, { ip: clientIp(c) });
    return c.json({ ok: true } as const);
  })

  /** Signs out every other device. */
  .post('/sessions/revoke-others', async (c) => {
    const user = await signedInAccount(c);
    const ended = await deleteUserSessions(c.get('db'), user.id, c.get('sessionId') ?? undefined);
    return c.json({ ended });
  })

  /**
   * Signs out one of one's own sessions, by the short id `GET /api/account` lists (404 for an
   * unknown id or another person's session); this browser's own ends its cookie too.
   */
  .delete('/sessions/:id', async (c) => {
    const user = await signedInAccount(c);
    const { db } = c.var;
    const ended = await deleteUserSession(db, user.id, c.req.param('id'));
    if (!ended) throw notFound('session');
    const current = ended.id === c.get('sessionId');
    if (current) clearSessionCookie(c);
    await audit(db, {
      actorId: user.id,
      via: 'api',
      action: 'user.session_end',
      targetType: 'user',
      targetId: user.id,
      after: { device: describeUserAgent(ended.userAgent).label, address: ended.ip, current },
      ip: clientIp(c),
    });
    return c.json({ ok: true, current });
  });
