import type { Language } from '../../shared/languages.ts';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { isElevated } from '../../shared/roles.ts';
import type { addressSchema, preferencesSchema, profileSchema } from '../../shared/schemas/account.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { tokens, users, type Preferences, type Token, type User } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { consumeToken } from './tokens.ts';
import { verifyPassword } from './passwords.ts';
import { deleteUserSessions } from './sessions.ts';
import { publicUser } from './users.ts';

/** Who changes an account, and from where (for the audit log). */
export interface AccountActor {
  ip: string;
}

/** What the account calls that mail need besides the database. */
export interface AccountMailDeps {
  clock: Clock;
  jobs: JobQueue;
  config: Pick<Config, 'publicUrl'>;
}

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
  mailNewWork: true,
  mailAnnouncements: true,
  mailPoints: true,
  mailRewards: true,
} as const;

/** A participant's preferences without the staff's review digest switch. */
function withoutReviewDigest(preferences: Preferences): Omit<Preferences, 'mailReviewDigest'> {
  const { mailReviewDigest: _, ...rest } = preferences;
  return rest;
}

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
export async function accountView(db: Db, deps: { clock: Clock; config: Pick<Config, 'requireStaffSecondFactor'> }, user: User) {
  const { clock } = deps;
  return {
    ...publicUser(user, deps.config),
    address: user.address ? { line2: '', region: '', ...user.address } : null,
    birthYear: user.birthYear,
    // The review digest is staff's: off unless turned on, and not part of a participant's preferences.
    preferences: isElevated(user.role)
      ? { ...DEFAULT_PREFERENCES, mailReviewDigest: false, ...user.preferences }
      : { ...DEFAULT_PREFERENCES, ...withoutReviewDigest(user.preferences) },
    createdAt: user.createdAt.toISOString(),
    pendingEmail: await pendingEmail(db, clock, user.id),
    // Issue 30: when an admin recorded the participant's tax form (`PUT /api/admin/users/{id}/tax-form`), or null.
    taxFormOnFileAt: user.taxFormOnFileAt?.toISOString() ?? null,
  };
}

/** 400 on `currentPassword` unless it is the user's password. */
export async function checkCurrentPassword(user: User, password: string): Promise<void> {
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, password))) {
    throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { currentPassword: ['Incorrect password'] } });
  }
}

async function updateUser(db: Db, clock: Clock, userId: number, set: Partial<typeof users.$inferInsert>): Promise<User> {
  const [updated] = await db
    .update(users)
    .set({ ...set, updatedAt: clock.now() })
    .where(eq(users.id, userId))
    .returning();
  if (!updated) throw new Error('update returned no row');
  return updated;
}

/** Names and the optional year of birth (left out: kept; null: cleared); audited `user.profile`. */
export async function updateProfile(db: Db, clock: Clock, user: User, input: z.output<typeof profileSchema>, actor: AccountActor): Promise<User> {
  const { birthYear, ...names } = input;
  const set = birthYear === undefined ? names : { ...names, birthYear };
  const updated = await updateUser(db, clock, user.id, set);
  await audit(db, {
    actorId: user.id,
    via: 'api',
    action: 'user.profile',
    targetType: 'user',
    targetId: user.id,
    before: { firstName: user.firstName, lastName: user.lastName, ...(birthYear === undefined ? {} : { birthYear: user.birthYear }) },
    after: set,
    ip: actor.ip,
  });
  return updated;
}

export function updateAddress(db: Db, clock: Clock, userId: number, address: z.output<typeof addressSchema>): Promise<User> {
  return updateUser(db, clock, userId, { address });
}

/** Switches the request leaves out keep their stored value; the review digest is for moderators and admins only (a participant's is dropped). */
export function updatePreferences(db: Db, clock: Clock, user: User, input: z.output<typeof preferencesSchema>): Promise<User> {
  const { mailReviewDigest, ...rest } = input;
  const preferences: Preferences = { ...user.preferences, ...rest, ...(isElevated(user.role) && mailReviewDigest !== undefined ? { mailReviewDigest } : {}) };
  return updateUser(db, clock, user.id, { preferences });
}

/** `PUT /api/account/language`: the account's language alone (the other preferences as they are). */
export function updateLanguage(db: Db, clock: Clock, user: User, language: Language): Promise<User> {
  return updateUser(db, clock, user.id, { preferences: { ...user.preferences, language } });
}

/**
 * Email change, step 2: uses the token, moves the address, ends the user's other sessions and
 * tells the old address, in one transaction; audited `user.email_change`. Null when the token was
 * used meanwhile.
 */
export async function confirmEmailChange(
  db: Db,
  deps: AccountMailDeps,
  input: { user: User; token: Token; newEmail: string; keepSessionId: string | null },
  actor: AccountActor,
): Promise<User | null> {
  const { user, newEmail } = input;
  const updated = await db.transaction(async (tx) => {
    if (!(await consumeToken(tx, deps.clock, input.token.id))) return null;
    const [row] = await tx.update(users).set({ email: newEmail, updatedAt: deps.clock.now() }).where(eq(users.id, user.id)).returning();
    await deleteUserSessions(tx, user.id, input.keepSessionId ?? undefined);
    // Written when the job runs, in the account's language then (issue 31), to the old address.
    await deps.jobs.send('account.notice', { notice: 'email-changed', to: user.email, userId: user.id, newEmail }, { tx });
    return row ?? null;
  });
  if (!updated) return null;
  await audit(db, {
    actorId: user.id,
    via: 'api',
    action: 'user.email_change',
    targetType: 'user',
    targetId: user.id,
    before: { email: user.email },
    after: { email: newEmail },
    ip: actor.ip,
  });
  return updated;
}

/** Queues the security notice after a password change or reset (always sent): what to do if it was not them. */
function passwordChangedMail(deps: AccountMailDeps, tx: Db, user: Pick<User, 'id' | 'email'>) {
  return deps.jobs.send('account.notice', { notice: 'password-changed', to: user.email, userId: user.id }, { tx });
}

/** A new password (already hashed); every other session ends and the user is told; audited `user.password_change`. */
export async function changePassword(
  db: Db,
  deps: AccountMailDeps,
  input: { user: User; passwordHash: string; keepSessionId: string | null },
  actor: AccountActor,
): Promise<void> {
  const { user } = input;
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash: input.passwordHash, updatedAt: deps.clock.now() }).where(eq(users.id, user.id));
    await deleteUserSessions(tx, user.id, input.keepSessionId ?? undefined);
    await passwordChangedMail(deps, tx, user);
  });
  await audit(db, { actorId: user.id, via: 'api', action: 'user.password_change', targetType: 'user', targetId: user.id, ip: actor.ip });
}

// ---------------------------------------------------------------------------------------------
// Sign-in and the link flows (`routes/auth.ts`)

/**
 * Onboarding: uses the token and activates the account with its password, names, terms and
 * preferences, in one transaction; audited `user.onboard`. Null when the token was used meanwhile.
 */
export async function completeOnboarding(
  db: Db,
  clock: Clock,
  input: { token: Token; userId: number; set: Pick<User, 'passwordHash' | 'firstName' | 'lastName' | 'termsAcceptedAt' | 'preferences'> },
  actor: AccountActor,
): Promise<User | null> {
  const now = clock.now();
  const updated = await db.transaction(async (tx) => {
    if (!(await consumeToken(tx, clock, input.token.id))) return null;
    const [row] = await tx
      .update(users)
      .set({ ...input.set, status: 'active', lastSignInAt: now, lastActiveAt: now, updatedAt: now })
      .where(eq(users.id, input.userId))
      .returning();
    return row ?? null;
  });
  if (updated) await audit(db, { actorId: updated.id, via: 'api', action: 'user.onboard', targetType: 'user', targetId: updated.id, ip: actor.ip });
  return updated;
}

/** Remembers when the user last signed in. */
export async function recordSignIn(db: Db, clock: Clock, userId: number): Promise<void> {
  await db.update(users).set({ lastSignInAt: clock.now(), lastActiveAt: clock.now() }).where(eq(users.id, userId));
}

/**
 * Reset: uses the token, sets the new password (already hashed), ends every session of the user
 * and tells them by mail (issue 28 §9), in one transaction; audited `user.password_reset`. False
 * when the token was used meanwhile.
 */
export async function resetPassword(db: Db, deps: AccountMailDeps, input: { token: Token; passwordHash: string }, actor: AccountActor): Promise<boolean> {
  const { clock } = deps;
  const userId = input.token.userId;
  const done = await db.transaction(async (tx) => {
    if (!(await consumeToken(tx, clock, input.token.id))) return false;
    const [user] = await tx.update(users).set({ passwordHash: input.passwordHash, updatedAt: clock.now() }).where(eq(users.id, userId)).returning();
    await deleteUserSessions(tx, userId);
    if (user) await passwordChangedMail(deps, tx, user);
    return true;
  });
  if (done) await audit(db, { actorId: userId, via: 'api', action: 'user.password_reset', targetType: 'user', targetId: userId, ip: actor.ip });
  return done;
}
