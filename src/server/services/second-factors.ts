/**
 * Second factors (issue 29): the authenticator app (TOTP, RFC 6238), recovery codes, what the
 * second step of a sign-in may use, the account's security view, the rule that staff keep one
 * factor, and an admin's reset. Passkeys are `passkeys.ts`; the sign-in itself `sign-in.ts`.
 *
 * - TOTP: SHA-1, 6 digits, 30-second steps (`TOTP`); the current step and one before are accepted
 *   (`TOTP_PAST_STEPS`), and a step once accepted never again: the step is checked and written in
 *   one conditional UPDATE (`last_step < s`), so two requests with the same code cannot both pass.
 *   Secrets are sealed (AES-256-GCM, `secret-box.ts`) for their owner; a new set-up is a pending
 *   secret (replaced by the next set-up) until a first code confirms it.
 * - Recovery codes: 10 of 80 bits (16 characters of Crockford's base32), stored as the SHA-256 of
 *   the normalised code, spent by a conditional UPDATE (`used_at IS NULL`); a new set replaces
 *   the old one.
 * - `users.second_factor` (a confirmed app or a passkey) is kept by `refreshSecondFactor` in the
 *   transaction of every change. Each change locks the person's row first, so two changes of one
 *   account run one after the other.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { HOTP, Secret, TOTP as Totp } from 'otpauth';
import { renderSVG } from 'uqr';
import { isElevated } from '../../shared/roles.ts';
import {
  formatRecoveryCode,
  normaliseRecoveryCode,
  RECOVERY_CODE_ALPHABET,
  type SecurityView,
  type TotpEnrolment,
} from '../../shared/schemas/second-factors.ts';
import { RECOVERY_CODE_CHARS, RECOVERY_CODE_COUNT, TOTP, TOTP_PAST_STEPS, type SecondFactorMethod } from '../../shared/second-factors.ts';
import type { Config } from '../config.ts';
import { queryRows, type Db } from '../db/index.ts';
import { passkeys, pendingSignIns, recoveryCodes, totpFactors, trustedBrowsers, users, webauthnChallenges, type SessionUser } from '../db/schema/index.ts';
import { ApiError, notFound } from '../errors.ts';
import type { JobSender } from '../jobs/queue.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { sha256Hex } from './crypto.ts';
import { open, seal, secondFactorKey } from './secret-box.ts';
import { deleteUserSessions } from './sessions.ts';

/** What these functions use besides the database. */
export interface SecondFactorDeps {
  clock: Clock;
  config: Pick<Config, 'secondFactorKey' | 'publicUrl'>;
  jobs: JobSender;
}

/** Where a change comes from (the audit log). */
export interface SecondFactorMeta {
  ip: string | null;
}

/** 400 `invalid_code`: a code that is wrong, too old, already used, or with nothing to confirm. */
export function invalidCode(): ApiError {
  return new ApiError(400, 'invalid_code', 'That code is not right: enter the code your authenticator app shows now');
}

/** 409 `last_second_factor` (`assertKeepsAFactor`). */
export function lastSecondFactor(): ApiError {
  return new ApiError(409, 'last_second_factor', 'Add another way to sign in before removing this one: staff accounts need one');
}

/** The AES-GCM context of a person's TOTP secret: a sealed secret opens for its owner only. */
const totpContext = (userId: number) => `totp:${userId}`;

/** Locks the person's row for the rest of the transaction (changes of one account's factors queue); the row's role and factor flag, or undefined. */
export async function lockUser(tx: Db, userId: number) {
  const [row] = await tx
    .select({ id: users.id, role: users.role, email: users.email, firstName: users.firstName, secondFactor: users.secondFactor })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row;
}

// ---------------------------------------------------------------------------------------------
// TOTP

/** The 30-second step of a time (RFC 6238's T). */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP.periodSeconds);
}

/** The code of a step for a base32 secret. */
export function totpCodeAt(secretBase32: string, step: number): string {
  return HOTP.generate({ secret: Secret.fromBase32(secretBase32), algorithm: TOTP.algorithm, digits: TOTP.digits, counter: step });
}

/** The step (current first, then the ones before it allowed) whose code `code` is, or null. Compared in constant time. */
function matchingStep(secretBase32: string, code: string, now: Date): number | null {
  const given = Buffer.from(code.replace(/\s+/g, ''), 'utf8');
  if (given.length !== TOTP.digits) return null;
  const current = totpStep(now);
  for (let back = 0; back <= TOTP_PAST_STEPS; back++) {
    const expected = Buffer.from(totpCodeAt(secretBase32, current - back), 'utf8');
    if (timingSafeEqual(expected, given)) return current - back;
  }
  return null;
}

/** Marks the QR code's SVG as an image with a name, for screen readers. */
function labelledSvg(svg: string): string {
  return svg.replace(/^<svg /, '<svg role="img" aria-label="QR code to scan with your authenticator app" ');
}

/**
 * A new secret to set up, kept pending (sealed) until `confirmTotp`: it replaces any pending one;
 * a confirmed app keeps working until the new one is confirmed. Nothing is audited (nothing
 * changes how the person signs in yet).
 */
export async function startTotpEnrolment(db: Db, deps: SecondFactorDeps, user: Pick<SessionUser, 'id' | 'email'>): Promise<TotpEnrolment> {
  const key = await secondFactorKey(db, deps.config);
  const secret = new Secret({ size: 20 }).base32;
  const now = deps.clock.now();
  const pendingSecret = seal(key, secret, totpContext(user.id));
  await db
    .insert(totpFactors)
    .values({ userId: user.id, pendingSecret, pendingCreatedAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: totpFactors.userId, set: { pendingSecret, pendingCreatedAt: now, updatedAt: now } });
  const otpauthUrl = new Totp({
    issuer: TOTP.issuer,
    label: user.email,
    secret: Secret.fromBase32(secret),
    algorithm: TOTP.algorithm,
    digits: TOTP.digits,
    period: TOTP.periodSeconds,
  }).toString();
  return { secret, otpauthUrl, qrSvg: labelledSvg(renderSVG(otpauthUrl, { ecc: 'M', border: 2 })) };
}

/**
 * Confirms the pending secret with a code of it: it becomes the app (replacing a confirmed one),
 * that code's step counts as used, and a new set of recovery codes replaces any old one; audited
 * `user.totp_enabled`. 400 `invalid_code` for a wrong or old code or with nothing pending (a
 * second confirmation of the same set-up, or one racing a new set-up, finds nothing pending).
 */
export async function confirmTotp(db: Db, deps: SecondFactorDeps, userId: number, code: string, meta: SecondFactorMeta): Promise<{ recoveryCodes: string[] }> {
  const key = await secondFactorKey(db, deps.config);
  const [row] = await db
    .select({ pendingSecret: totpFactors.pendingSecret, secret: totpFactors.secret })
    .from(totpFactors)
    .where(eq(totpFactors.userId, userId));
  if (!row?.pendingSecret) throw invalidCode();
  let pending: string;
  try {
    pending = open(key, row.pendingSecret, totpContext(userId));
  } catch {
    throw invalidCode(); // sealed under a key since changed: a new set-up is needed
  }
  const step = matchingStep(pending, code, deps.clock.now());
  if (step === null) throw invalidCode();
  const pendingSecret = row.pendingSecret;
  return db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const now = deps.clock.now();
    const [confirmed] = await tx
      .update(totpFactors)
      .set({ secret: pendingSecret, confirmedAt: now, pendingSecret: null, pendingCreatedAt: null, lastStep: step, updatedAt: now })
      .where(and(eq(totpFactors.userId, userId), eq(totpFactors.pendingSecret, pendingSecret)))
      .returning({ userId: totpFactors.userId });
    if (!confirmed) throw invalidCode();
    const codes = await replaceRecoveryCodes(tx, deps.clock, userId);
    await refreshSecondFactor(tx, userId);
    await audit(tx, {
      actorId: userId,
      via: 'api',
      action: 'user.totp_enabled',
      targetType: 'user',
      targetId: userId,
      after: { replaced: row.secret !== null, recoveryCodes: codes.length },
      ip: meta.ip,
    });
    return { recoveryCodes: codes };
  });
}

/**
 * Whether `code` is the person's current (or previous) code, never used before; when it is, its
 * step is used up in the same statement that checks it (the one conditional UPDATE: a code sent
 * twice at once passes once).
 */
export async function verifyTotpCode(db: Db, deps: Pick<SecondFactorDeps, 'clock' | 'config'>, userId: number, code: string): Promise<boolean> {
  const [row] = await db
    .select({ secret: totpFactors.secret })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.secret)));
  if (!row?.secret) return false;
  const key = await secondFactorKey(db, deps.config);
  let secret: string;
  try {
    secret = open(key, row.secret, totpContext(userId));
  } catch {
    return false; // sealed under a key since lost: the app no longer works (module comment of secret-box.ts)
  }
  const step = matchingStep(secret, code, deps.clock.now());
  if (step === null) return false;
  const used = await db
    .update(totpFactors)
    .set({ lastStep: step })
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.secret), sql`(${totpFactors.lastStep} is null or ${totpFactors.lastStep} < ${step})`))
    .returning({ userId: totpFactors.userId });
  return used.length > 0;
}

/**
 * Removes the app (confirmed or pending); 404 when there is none; 409 `last_second_factor` when
 * it is a staff account's last factor. With no factor left the recovery codes go too. Audited
 * `user.totp_removed` (when a confirmed app is removed).
 */
export async function removeTotp(db: Db, _deps: SecondFactorDeps, user: Pick<SessionUser, 'id' | 'role'>, meta: SecondFactorMeta): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUser(tx, user.id);
    const [row] = await tx.select({ secret: totpFactors.secret }).from(totpFactors).where(eq(totpFactors.userId, user.id));
    if (!row) throw notFound('authenticator app');
    if (row.secret !== null) await assertKeepsAFactor(tx, user, 'totp');
    await tx.delete(totpFactors).where(eq(totpFactors.userId, user.id));
    const hasFactor = await refreshSecondFactor(tx, user.id);
    if (!hasFactor) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    if (row.secret !== null) {
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'user.totp_removed',
        targetType: 'user',
        targetId: user.id,
        after: { secondFactor: hasFactor },
        ip: meta.ip,
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Recovery codes

/** A new recovery code (16 characters of Crockford's base32 from 10 random bytes: 80 bits), as stored (upper case, no dashes). */
function newRecoveryCode(): string {
  const bytes = randomBytes((RECOVERY_CODE_CHARS * 5) / 8);
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      code += RECOVERY_CODE_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return code;
}

/** Deletes the person's codes and makes a new set; the codes as shown (`xxxx-xxxx-xxxx-xxxx`). */
async function replaceRecoveryCodes(tx: Db, clock: Clock, userId: number): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode());
  const now = clock.now();
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values([...codes].map((code) => ({ userId, codeHash: sha256Hex(code), createdAt: now })));
  return [...codes].map(formatRecoveryCode);
}

/**
 * "Make new codes": a new set replaces the old one (unused codes of the old set stop working);
 * audited `user.recovery_codes_made`. 409 `no_second_factor` without an app or a passkey (codes
 * stand in for a second factor, so they need one).
 */
export async function makeRecoveryCodes(db: Db, deps: SecondFactorDeps, userId: number, meta: SecondFactorMeta): Promise<string[]> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (!user?.secondFactor) {
      throw new ApiError(409, 'no_second_factor', 'Set up an authenticator app or a passkey first: recovery codes stand in for one');
    }
    const codes = await replaceRecoveryCodes(tx, deps.clock, userId);
    await audit(tx, {
      actorId: userId,
      via: 'api',
      action: 'user.recovery_codes_made',
      targetType: 'user',
      targetId: userId,
      after: { count: codes.length },
      ip: meta.ip,
    });
    return codes;
  });
}

/** Spends one of the person's unused recovery codes (any case, dashes and spaces or not): true once; the conditional UPDATE lets one of two parallel uses win. */
export async function spendRecoveryCode(db: Db, deps: Pick<SecondFactorDeps, 'clock'>, userId: number, code: string): Promise<boolean> {
  const plain = normaliseRecoveryCode(code);
  if (!plain) return false;
  const spent = await db
    .update(recoveryCodes)
    .set({ usedAt: deps.clock.now() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, sha256Hex(plain)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return spent.length > 0;
}

// ---------------------------------------------------------------------------------------------
// The account's factors

/** Sets `users.second_factor` from what the person has now (a confirmed app or a passkey), in the caller's transaction; returns it. */
export async function refreshSecondFactor(tx: Db, userId: number): Promise<boolean> {
  const [row] = await tx
    .update(users)
    .set({
      secondFactor: sql`(exists (select 1 from totp_factors t where t.user_id = ${userId} and t.secret is not null)
        or exists (select 1 from passkeys p where p.user_id = ${userId}))`,
    })
    .where(eq(users.id, userId))
    .returning({ secondFactor: users.secondFactor });
  return row?.secondFactor ?? false;
}

/**
 * 409 `last_second_factor` when `user` is staff (moderator or admin, as the locked row says now)
 * and removing the app (`'totp'`) or that passkey would leave no factor. Call it inside the
 * removing transaction: it locks the person's row, so two removals cannot each leave the other.
 */
export async function assertKeepsAFactor(tx: Db, user: Pick<SessionUser, 'id'>, removing: 'totp' | { passkeyId: number }): Promise<void> {
  const row = await lockUser(tx, user.id);
  if (!row || !isElevated(row.role)) return;
  const [totp] = await tx
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, user.id), isNotNull(totpFactors.secret)));
  const keys = await tx.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, user.id));
  const left = (totp && removing !== 'totp' ? 1 : 0) + keys.filter((key) => removing === 'totp' || key.id !== removing.passkeyId).length;
  if (left === 0) throw lastSecondFactor();
}

/** What the second step of this person's sign-in may use, in `SECOND_FACTOR_METHODS` order. */
export async function methodsOf(db: Db, userId: number): Promise<SecondFactorMethod[]> {
  const [row] = await queryRows<{ totp: boolean; passkey: boolean; recovery: boolean }>(
    db,
    sql`select
      exists (select 1 from totp_factors where user_id = ${userId} and secret is not null) as totp,
      exists (select 1 from passkeys where user_id = ${userId}) as passkey,
      exists (select 1 from recovery_codes where user_id = ${userId} and used_at is null) as recovery`,
  );
  const methods: SecondFactorMethod[] = [];
  if (row?.totp) methods.push('totp');
  if (row?.passkey) methods.push('passkey');
  if (row?.recovery) methods.push('recovery');
  return methods;
}

/** `GET /api/account/security`. */
export async function securityView(db: Db, user: Pick<SessionUser, 'id' | 'role'>, config: Pick<Config, 'requireStaffSecondFactor'>): Promise<SecurityView> {
  const [totp] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, user.id), isNotNull(totpFactors.secret)));
  const keys = await db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id))
    .orderBy(passkeys.createdAt, passkeys.id);
  const [codes] = await db
    .select({ left: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)));
  return {
    totp: totp !== undefined,
    passkeys: keys.map((key) => ({ id: key.id, name: key.name, createdAt: key.createdAt.toISOString(), lastUsedAt: key.lastUsedAt?.toISOString() ?? null })),
    recoveryCodesLeft: codes?.left ?? 0,
    required: isElevated(user.role) && config.requireStaffSecondFactor,
  };
}

/**
 * An admin's reset of another person's second factors: their app, passkeys, recovery codes,
 * trusted browsers and pending sign-ins go, and every session of theirs ends, in one transaction
 * with the audit row (`user.second_factors_reset`: what was removed, counted) and the notice mail
 * (queued: "Your Fieldwork second factors were reset"). 409 `self_change` on oneself (one's own
 * factors change on one's own security page, where the last one of a staff account stays).
 */
export async function resetSecondFactors(
  db: Db,
  deps: SecondFactorDeps,
  targetUserId: number,
  actor: Pick<SessionUser, 'id'>,
  meta: SecondFactorMeta,
): Promise<{ endedSessions: number }> {
  if (targetUserId === actor.id) {
    throw new ApiError(409, 'self_change', 'You cannot reset your own second factors: change them on your security page');
  }
  return db.transaction(async (tx) => {
    const target = await lockUser(tx, targetUserId);
    if (!target) throw notFound('user');
    const totp = await tx.delete(totpFactors).where(eq(totpFactors.userId, targetUserId)).returning({ secret: totpFactors.secret });
    const keys = await tx.delete(passkeys).where(eq(passkeys.userId, targetUserId)).returning({ id: passkeys.id });
    const codes = await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, targetUserId)).returning({ usedAt: recoveryCodes.usedAt });
    const trusted = await tx.delete(trustedBrowsers).where(eq(trustedBrowsers.userId, targetUserId)).returning({ id: trustedBrowsers.id });
    await tx.delete(pendingSignIns).where(eq(pendingSignIns.userId, targetUserId));
    await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, targetUserId));
    const endedSessions = await deleteUserSessions(tx, targetUserId);
    await refreshSecondFactor(tx, targetUserId);
    // Written when the job runs, in the account's language then (issue 31).
    await deps.jobs.send('account.notice', { notice: 'second-factors-reset', to: target.email, userId: target.id }, { tx });
    await audit(tx, {
      actorId: actor.id,
      via: 'api',
      action: 'user.second_factors_reset',
      targetType: 'user',
      targetId: targetUserId,
      before: {
        totp: totp.some((row) => row.secret !== null),
        passkeys: keys.length,
        recoveryCodesLeft: codes.filter((row) => row.usedAt === null).length,
        trustedBrowsers: trusted.length,
      },
      after: { endedSessions },
      ip: meta.ip,
    });
    return { endedSessions };
  });
}
