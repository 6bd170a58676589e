import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { tokenQuerySchema } from '../../shared/schemas/auth.ts';
import { notificationsReadSchema } from '../../shared/schemas/notifications.ts';
import { addressSchema, emailChangeSchema, passwordChangeSchema, preferencesSchema, profileSchema } from '../../shared/schemas/account.ts';
import { pointsHistoryQuerySchema } from '../../shared/schemas/points.ts';
import { probeAnswerSchema } from '../../shared/schemas/review.ts';
import type { AppEnv } from '../context.ts';
import type { Db } from '../db/index.ts';
import { tokens, users, type User } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { clientIp, enforceRateLimits, readJson, readQuery } from '../http.ts';
import { emailChangedNotice, passwordChangedNotice } from '../mail/templates.ts';
import { requireUser } from '../middleware/session.ts';
import { audit } from '../services/audit.ts';
import type { Clock } from '../services/clock.ts';
import { consumeToken, findUsableToken } from '../services/link-tokens.ts';
import { missionHistory, missionHistoryList } from '../services/mission-history.ts';
import { pathId as participationPathId } from '../services/participation.ts';
import { listNotifications, markNotificationsRead, notificationsQuerySchema } from '../services/notifications.ts';
import { hashPassword, verifyPassword } from '../services/passwords.ts';
import { pointsSummary } from '../services/points.ts';
import { answerProbe } from '../services/probes.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { deleteUserSessions, listUserSessions } from '../services/sessions.ts';
import { findUserByEmail, publicUser } from '../services/users.ts';
import { INVALID_TOKEN_MESSAGE } from './auth.ts';

/** Preferences never set read as these (every notification mail on). */
const DEFAULT_PREFERENCES = {
  emailNotifications: true,
  language: 'en',
  colorMode: 'system',
  mailChangesRequested: true,
  mailRejected: true,
  mailProbes: true,
  mailApprovedDigest: true,
  mailReminders: true,
} as const;

/** The address an email change waits to confirm, if any. */
async function pendingEmail(db: Db, clock: Clock, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ data: tokens.data })
    .from(tokens)
    .where(and(eq(tokens.userId, userId), eq(tokens.type, 'update-email'), isNull(tokens.usedAt), gt(tokens.expiresAt, clock.now())))
    .orderBy(desc(tokens.createdAt))
    .limit(1);
  return row?.data.email ?? null;
}

/** The signed-in user as the account screens see it. */
async function accountView(db: Db, clock: Clock, user: User) {
  return {
    ...publicUser(user),
    address: user.address ? { line2: '', region: '', ...user.address } : null,
    preferences: { ...DEFAULT_PREFERENCES, ...user.preferences },
    createdAt: user.createdAt.toISOString(),
    pendingEmail: await pendingEmail(db, clock, user.id),
  };
}

function signedIn(user: User | null): User {
  if (!user) throw new Error('requireUser let an anonymous request through');
  return user;
}

async function checkCurrentPassword(user: User, password: string): Promise<void> {
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, password))) {
    throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { currentPassword: ['Incorrect password'] } });
  }
}

/** The account screens' calls; every one needs a session. */
export const accountRoutes = new Hono<AppEnv>()
  .use('*', requireUser())
  .use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  })

  .get('/', async (c) => {
    const user = signedIn(c.var.user);
    const { db, deps } = c.var;
    const sessions = await listUserSessions(db, user.id);
    return c.json({
      user: await accountView(db, deps.clock, user),
      sessions: sessions.map((s) => ({
        id: s.id.slice(0, 12),
        current: s.id === c.var.sessionId,
        userAgent: s.userAgent,
        ip: s.ip,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
      })),
    });
  })

  .patch('/profile', async (c) => {
    const user = signedIn(c.var.user);
    const input = await readJson(c, profileSchema);
    const { db, deps } = c.var;
    const [updated] = await db
      .update(users)
      .set({ ...input, updatedAt: deps.clock.now() })
      .where(eq(users.id, user.id))
      .returning();
    if (!updated) throw new Error('update returned no row');
    await audit(db, {
      actorId: user.id,
      via: 'api',
      action: 'user.profile',
      targetType: 'user',
      targetId: user.id,
      before: { firstName: user.firstName, lastName: user.lastName },
      after: input,
      ip: clientIp(c),
    });
    return c.json({ user: await accountView(db, deps.clock, updated) });
  })

  .put('/address', async (c) => {
    const user = signedIn(c.var.user);
    const address = await readJson(c, addressSchema);
    const { db, deps } = c.var;
    const [updated] = await db.update(users).set({ address, updatedAt: deps.clock.now() }).where(eq(users.id, user.id)).returning();
    if (!updated) throw new Error('update returned no row');
    return c.json({ user: await accountView(db, deps.clock, updated) });
  })

  .patch('/preferences', async (c) => {
    const user = signedIn(c.var.user);
    const input = await readJson(c, preferencesSchema);
    const { db, deps } = c.var;
    // Switches the request leaves out keep their stored value.
    const preferences = { ...user.preferences, ...input };
    const [updated] = await db.update(users).set({ preferences, updatedAt: deps.clock.now() }).where(eq(users.id, user.id)).returning();
    if (!updated) throw new Error('update returned no row');
    return c.json({ user: await accountView(db, deps.clock, updated) });
  })

  /** The header's notifications: a page, newest first (`?page=&pageSize=`, 20 by default), and the unread count. */
  .get('/notifications', async (c) => {
    const user = signedIn(c.var.user);
    const query = readQuery(c, notificationsQuerySchema);
    return c.json(await listNotifications(c.var.db, user.id, query), 200);
  })

  /** Marks the given notifications read (`{ ids }`; another user's are ignored), or all of them (`{}`); answers the unread count. */
  .post('/notifications/read', async (c) => {
    const user = signedIn(c.var.user);
    const { ids } = await readJson(c, notificationsReadSchema);
    return c.json({ unread: await markNotificationsRead(c.var.db, c.var.deps.clock, user.id, ids) }, 200);
  })

  /**
   * Email change, step 1: with the current password, a job (`account.email-change`) mails a
   * confirmation link to the new address, or tells that address's owner when it has an account
   * (the answer is the same either way).
   */
  .post('/email', async (c) => {
    const user = signedIn(c.var.user);
    const input = await readJson(c, emailChangeSchema);
    const { db, deps } = c.var;
    await enforceRateLimits(c, [
      [`password-check:user:${user.id}`, RATE_LIMITS.passwordChecksPerUser],
      [`account-mail:user:${user.id}`, RATE_LIMITS.accountMailsPerUser],
    ]);
    await checkCurrentPassword(user, input.currentPassword);
    if (input.newEmail === user.email) {
      throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { newEmail: ['This is already your email address'] } });
    }
    await deps.jobs.send('account.email-change', { userId: user.id, newEmail: input.newEmail });
    return c.json({ ok: true, pendingEmail: input.newEmail } as const, 202);
  })

  /** Email change, step 2 (/update-email/{token}, signed in): the address changes; the old one is told; other sessions end. */
  .post('/email/confirm', async (c) => {
    const user = signedIn(c.var.user);
    const { token } = readQuery(c, tokenQuerySchema);
    await enforceRateLimits(c, [[`token:ip:${clientIp(c)}`, RATE_LIMITS.tokenChecksPerIp]]);
    const { db, deps } = c.var;
    const found = await findUsableToken(db, deps.clock, token, 'update-email');
    const newEmail = found?.data.email;
    if (!found || !newEmail) throw new ApiError(404, 'invalid_token', INVALID_TOKEN_MESSAGE);
    if (found.userId !== user.id) throw new ApiError(403, 'wrong_account', 'This link belongs to another account. Sign in with that account to confirm it.');
    const taken = await findUserByEmail(db, newEmail);
    if (taken && taken.id !== user.id) throw new ApiError(409, 'email_taken', 'This address now belongs to another account');
    const updated = await db.transaction(async (tx) => {
      if (!(await consumeToken(tx, deps.clock, found.id))) return null;
      const [row] = await tx.update(users).set({ email: newEmail, updatedAt: deps.clock.now() }).where(eq(users.id, user.id)).returning();
      await deleteUserSessions(tx, user.id, c.var.sessionId ?? undefined);
      await deps.jobs.mail(emailChangedNotice({ to: user.email, firstName: user.firstName, newEmail, supportUrl: `${deps.config.publicUrl}/contact` }), { tx });
      return row ?? null;
    });
    if (!updated) throw new ApiError(404, 'invalid_token', INVALID_TOKEN_MESSAGE);
    await audit(db, {
      actorId: user.id,
      via: 'api',
      action: 'user.email_change',
      targetType: 'user',
      targetId: user.id,
      before: { email: user.email },
      after: { email: newEmail },
      ip: clientIp(c),
    });
    return c.json({ user: await accountView(db, deps.clock, updated) });
  })

  /** Password change with the current password; every other session ends. */
  .post('/password', async (c) => {
    const user = signedIn(c.var.user);
    const input = await readJson(c, passwordChangeSchema);
    const { db, deps } = c.var;
    await enforceRateLimits(c, [[`password-check:user:${user.id}`, RATE_LIMITS.passwordChecksPerUser]]);
    await checkCurrentPassword(user, input.currentPassword);
    const passwordHash = await hashPassword(input.password);
    await db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: deps.clock.now() }).where(eq(users.id, user.id));
      await deleteUserSessions(tx, user.id, c.var.sessionId ?? undefined);
      await deps.jobs.mail(passwordChangedNotice({ to: user.email, firstName: user.firstName, supportUrl: `${deps.config.publicUrl}/contact` }), { tx });
    });
    await audit(db, { actorId: user.id, via: 'api', action: 'user.password_change', targetType: 'user', targetId: user.id, ip: clientIp(c) });
    return c.json({ ok: true } as const);
  })

  /** Signs out every other device. */
  .post('/sessions/revoke-others', async (c) => {
    const user = signedIn(c.var.user);
    const ended = await deleteUserSessions(c.var.db, user.id, c.var.sessionId ?? undefined);
    return c.json({ ended });
  })

  // Points, mission history and probes (review issue; `services/points.ts`, `mission-history.ts`, `probes.ts`)

  /** Balance (available), pending, and a page of the ledger, newest first. */
  .get('/points', async (c) => {
    const user = signedIn(c.var.user);
    const query = readQuery(c, pointsHistoryQuerySchema);
    return c.json(await pointsSummary(c.var.db, user.id, query), 200);
  })

  /** The missions the user has entries in. */
  .get('/mission-history', async (c) => {
    const user = signedIn(c.var.user);
    return c.json({ items: await missionHistoryList(c.var.db, user.id) }, 200);
  })

  /** The user's entries in one mission; 404 when they have none or cannot see it. */
  .get('/mission-history/:missionId', async (c) => {
    const user = signedIn(c.var.user);
    const missionId = participationPathId(c.req.param('missionId'), 'mission');
    return c.json(await missionHistory(c.var.db, user.id, missionId), 200);
  })

  /** Answers a probe on one of the user's entries, once (404 for anyone else's; 409 `already_answered`). */
  .post('/probes/:id/answer', async (c) => {
    const user = signedIn(c.var.user);
    const probeId = participationPathId(c.req.param('id'), 'probe');
    const input = await readJson(c, probeAnswerSchema);
    return c.json(await answerProbe(c.var.db, c.var.deps.clock, probeId, user.id, input.answer), 200);
  });
