import { sql } from 'drizzle-orm';
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
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

/**
 * Counts one hit on a key in a fixed window, atomically in the database so that every API
 * process shares the count.
 */
export async function hitRateLimit(db: Db, clock: Clock, key: string, rule: RateLimitRule): Promise<RateLimitResult> {
  const now = clock.now();
  const resetAt = new Date(now.getTime() + rule.windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then ${resetAt.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  const count = row?.count ?? 1;
  const windowEnd = row?.resetAt ?? resetAt;
  return {
    allowed: count <= rule.limit,
    remaining: Math.max(0, rule.limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnd.getTime() - now.getTime()) / 1000)),
  };
}

/** Forgets counters whose window has passed. */
export async function pruneRateLimits(db: Db, clock: Clock): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.resetAt} <= ${clock.now().toISOString()}::timestamptz`);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The limits of ARCHITECTURE.md's security rules, by what they protect. */
export const RATE_LIMITS = {
  signInPerIp: { limit: 10, windowMs: MINUTE },
  signInPerEmail: { limit: 10, windowMs: MINUTE },
  registerPerEmail: { limit: 5, windowMs: HOUR },
  registerPerIp: { limit: 30, windowMs: HOUR },
  forgotPerEmail: { limit: 5, windowMs: HOUR },
  forgotPerIp: { limit: 30, windowMs: HOUR },
  /** Token verification and every call that uses a link token. */
  tokenChecksPerIp: { limit: 30, windowMs: MINUTE },
  /** Calls that check the current password of a signed-in user. */
  passwordChecksPerUser: { limit: 10, windowMs: 15 * MINUTE },
  /** Mails a signed-in user can trigger (email change). */
  accountMailsPerUser: { limit: 5, windowMs: HOUR },
  /** Client error reports (POST /api/reports): one call a second, as the browser's queue flushes. */
  reportsPerIp: { limit: 60, windowMs: MINUTE },
  /** The /contact form. */
  contactPerIp: { limit: 5, windowMs: HOUR },
  contactPerEmail: { limit: 5, windowMs: HOUR },
  /** Data-deletion requests by email (each may mail a confirmation link). */
  dataDeletionPerEmail: { limit: 5, windowMs: HOUR },
  dataDeletionPerIp: { limit: 30, windowMs: HOUR },
} as const satisfies Record<string, RateLimitRule>;
