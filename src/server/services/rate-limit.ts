import { sql } from 'drizzle-orm';
import { ANNOUNCEMENT_LIMITS } from '../../shared/announcements.ts';
import { API_TOKEN_LIMITS } from '../../shared/api-tokens.ts';
import { INVITATION_MAIL_LIMIT } from '../../shared/invitations.ts';
import { MEDIA_LIMITS } from '../../shared/media.ts';
import type { Db } from '../db/index.ts';
import { rateLimits } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';

export interface RateLimitRule {
  /** Most hits allowed in one window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Hits counted in the window, these included. */
  count: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

/**
 * Counts one hit (or `hits`) on a key in a fixed window, atomically in the database so that every
 * API process shares the count; `remaining` is what is left after them.
 */
export async function hitRateLimit(db: Db, clock: Clock, key: string, rule: RateLimitRule, hits = 1): Promise<RateLimitResult> {
  const now = clock.now();
  const resetAt = new Date(now.getTime() + rule.windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: hits, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then ${hits}::int else ${rateLimits.count} + ${hits}::int end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then ${resetAt.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  const count = row?.count ?? hits;
  const windowEnd = row?.resetAt ?? resetAt;
  return {
    allowed: count <= rule.limit,
    remaining: Math.max(0, rule.limit - count),
    count,
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000)),
  };
}

/**
 * Takes back one hit (a sign-in that succeeded after `hitRateLimit` counted it), so only
 * failures stay counted. Never below zero; a window that has passed is left alone.
 */
export async function refundRateLimit(db: Db, clock: Clock, key: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(sql`${rateLimits.key} = ${key} and ${rateLimits.resetAt} > ${clock.now().toISOString()}::timestamptz`);
}

/** Forgets counters whose window has passed. */
export async function pruneRateLimits(db: Db, clock: Clock): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.resetAt} <= ${clock.now().toISOString()}::timestamptz`);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The limits of docs/architecture.md's security rules, by what they protect.
 *
 * Per-address limits are sized for a room of people behind one address (a test room, a venue's
 * Wi-Fi, a university or a mobile carrier's NAT): 200 people signing up within an hour must not
 * lock each other out. Accounts and email addresses carry the tight limits.
 */
export const RATE_LIMITS = {
  /** Failed sign-ins from one address (successful ones are not counted). */
  signInFailuresPerIp: { limit: 300, windowMs: 15 * MINUTE },
  /** Passkey sign-in options from one address (each keeps a challenge 5 minutes): bounds the rows a stranger can make. */
  passkeyOptionsPerIp: { limit: 600, windowMs: 15 * MINUTE },
  /** Failed sign-ins for one account: stops guessing its password; then even the right one waits. */
  signInFailuresPerEmail: { limit: 10, windowMs: 15 * MINUTE },
  registerPerEmail: { limit: 5, windowMs: HOUR },
  registerPerIp: { limit: 1000, windowMs: HOUR },
  forgotPerEmail: { limit: 5, windowMs: HOUR },
  forgotPerIp: { limit: 1000, windowMs: HOUR },
  /** Token verification and every call that uses a link token. */
  tokenChecksPerIp: { limit: 30, windowMs: MINUTE },
  /** Calls that check the current password of a signed-in user. */
  passwordChecksPerUser: { limit: 10, windowMs: 15 * MINUTE },
  /** Mails a signed-in user can trigger (email change). */
  accountMailsPerUser: { limit: 5, windowMs: HOUR },
  /** Client error reports (POST /api/reports): one call a second, as the browser's queue flushes. */
  reportsPerIp: { limit: 60, windowMs: MINUTE },
  /** The /contact form: two messages each for 200 people on one address. */
  contactPerIp: { limit: 400, windowMs: HOUR },
  contactPerEmail: { limit: 5, windowMs: HOUR },
  /** Data-deletion requests by email (each may mail a confirmation link). */
  dataDeletionPerEmail: { limit: 5, windowMs: HOUR },
  dataDeletionPerIp: { limit: 30, windowMs: HOUR },
  /**
   * External survey returns (GET /api/surveys/return) per address. A reference cannot be guessed
   * (256 bits); this only bounds the work. Sized so a room finishing a survey together is not
   * refused (a refused return would lose the participant's outcome).
   */
  externalReturnsPerIp: { limit: 300, windowMs: MINUTE },
  /**
   * External survey webhooks (POST /api/surveys/{id}/webhook) per address. Alchemer posts from a
   * few servers for every participant, so this is roomier than the browser returns; the secret
   * (256 bits) cannot be guessed, this only bounds the work.
   */
  externalWebhooksPerIp: { limit: 1200, windowMs: MINUTE },
  /** Invitation mails (one, each row of a CSV, a resend) per staff member, counted by `services/invitations.ts`. */
  invitationMailsPerUser: { limit: INVITATION_MAIL_LIMIT.mails, windowMs: INVITATION_MAIL_LIMIT.windowHours * HOUR },
  /** Photo uploads (POST /api/media) per signed-in user; the bytes per day are summed from `media`. */
  mediaUploadsPerUser: { limit: MEDIA_LIMITS.uploadsPerHour, windowMs: HOUR },
  /** Project announcements (each mails every member): per project, all staff together, and per staff member. */
  announcementsPerProject: { limit: ANNOUNCEMENT_LIMITS.perProjectPerDay, windowMs: 24 * HOUR },
  announcementsPerUser: { limit: ANNOUNCEMENT_LIMITS.perUserPerDay, windowMs: 24 * HOUR },
  /** Reward requests (POST /api/redemptions) per participant: far above a person choosing rewards, it bounds a script's retries. */
  redemptionsPerUser: { limit: 30, windowMs: MINUTE },
  /** Calls of the token API (`/api/v1/`) per API token (issue 32; the limit applied is `config.apiTokenRateLimit`, which the token suite lowers). */
  apiTokenRequests: { limit: API_TOKEN_LIMITS.requestsPerMinute, windowMs: MINUTE },
} as const satisfies Record<string, RateLimitRule>;
