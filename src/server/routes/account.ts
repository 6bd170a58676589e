import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { tokenQuerySchema } from '../../shared/schemas/auth.ts';
import { addressSchema, emailChangeSchema, passwordChangeSchema, preferencesSchema, profileSchema } from '../../shared/schemas/account.ts';
import type { AppEnv } from '../context.ts';
import type { Db } from '../db/index.ts';
import { tokens, users, type User } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { clientIp, enforceRateLimits, readJson, readQuery } from '../http.ts';
import { confirmEmailChangeMail, emailChangedNotice, emailInUseNotice, passwordChangedNotice } from '../mail/templates.ts';
import { requireUser } from '../middleware/session.ts';
import { audit } from '../services/audit.ts';
import type { Clock } from '../services/clock.ts';
import { consumeToken, findUsableToken, issueLinkToken, linkUrl } from '../services/link-tokens.ts';
import { hashPassword, verifyPassword } from '../services/passwords.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { deleteUserSessions, listUserSessions } from '../services/sessions.ts';
import { findUserByEmail, publicUser } from '../services/users.ts';
import { INVALID_TOKEN_MESSAGE } from './auth.ts';

const DEFAULT_PREFERENCES = { emailNotifications: true, language: 'en', colorMode: 'system' } as const;

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
    const [updated] = await db.update(users).set({ ...input, updatedAt: deps.clock.now() }).where(eq(users.id, user.id)).returning();
    if (!updated) throw new Error('update returned no row');
    await audit(db, { actorId: user.id, via: 'api', action: 'user.profile', targetType: 'user', targetId: user.id, before: { firstName: user.firstName, lastName: user.lastName }, after: input, ip: clientIp(c) });
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
    const preferences = await readJson(c, preferencesSchema);
    const { db, deps } = c.var;
    const [updated] = await db.update(users).set({ preferences, updatedAt: deps.clock.now() }).where(eq(users.id, user.id)).returning();
    if (!updated) throw new Error('update returned no row');
    return c.json({ user: await accountView(db, deps.clock, updated) });
  })

  /** Email change, step 1: with the current password, mail a confirmation link to the new address. */
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
    const supportUrl = `${deps.config.publicUrl}/contact`;
    if (await findUserByEmail(db, input.newEmail)) {
      // Say nothing here about who has an account; tell the owner of that address instead.
      await deps.mailer.send(emailInUseNotice({ to: input.newEmail, supportUrl }));
      return c.json({ ok: true, pendingEmail: input.newEmail } as const, 202);
    }
    const { token, expiresAt } = await issueLinkToken(db, deps.clock, { type: 'update-email', userId: user.id, data: { email: input.newEmail } });
    const url = linkUrl(deps.config.publicUrl, 'update-email', token);
    await deps.mailer.send(confirmEmailChangeMail({ to: input.newEmail, firstName: user.firstName, url, expiresAt, now: deps.clock.now() }));
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
      return row ?? null;
    });
    if (!updated) throw new ApiError(404, 'invalid_token', INVALID_TOKEN_MESSAGE);
    await audit(db, { actorId: user.id, via: 'api', action: 'user.email_change', targetType: 'user', targetId: user.id, before: { email: user.email }, after: { email: newEmail }, ip: clientIp(c) });
    await deps.mailer.send(emailChangedNotice({ to: user.email, firstName: user.firstName, newEmail, supportUrl: `${deps.config.publicUrl}/contact` }));
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
    });
    await audit(db, { actorId: user.id, via: 'api', action: 'user.password_change', targetType: 'user', targetId: user.id, ip: clientIp(c) });
    await deps.mailer.send(passwordChangedNotice({ to: user.email, firstName: user.firstName, supportUrl: `${deps.config.publicUrl}/contact` }));
    return c.json({ ok: true } as const);
  })

  /** Signs out every other device. */
  .post('/sessions/revoke-others', async (c) => {
    const user = signedIn(c.var.user);
    const ended = await deleteUserSessions(c.var.db, user.id, c.var.sessionId ?? undefined);
    return c.json({ ended });
  });
