/**
 * The staff's daily review digest (the `digest.review` job, docs/product.md §2.5): when entries have
 * waited for review more than a day, each active moderator or admin who turned on
 * `mailReviewDigest` (off unless they did) gets one mail: how many wait, how long the oldest has
 * waited, the count per project, and the link to the review inbox (`/admin/review`).
 *
 * At most one digest per person per UTC day, however often the job runs: the mail is queued in the
 * transaction that writes a marker row `digest.review:{userId}:{day}` into `rate_limits`, whose
 * primary key refuses a second one (no table of its own: `reset_at` is the day after, so
 * `pruneRateLimits` clears the markers as it clears expired counters).
 */
import { and, asc, count, desc, eq, inArray, isNotNull, lt, min, sql } from 'drizzle-orm';
import { REVIEW_DIGEST_WAIT_MS } from '../../shared/review.ts';
import { ELEVATED_ROLES } from '../../shared/roles.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { missionEntries, missions, projects, rateLimits, users } from '../db/schema/index.ts';
import type { JobSender } from '../jobs/queue.ts';
import { mailLanguageOf, preferencesUrl, reviewDigestMail } from '../mail/templates.ts';
import type { Clock } from './clock.ts';

export interface ReviewDigestDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  jobs: Pick<JobSender, 'mail'>;
}

/** The marker of a person's digest of a UTC day (a `rate_limits` key). */
export const reviewDigestKey = (userId: number, now: Date): string => `digest.review:${userId}:${now.toISOString().slice(0, 10)}`;

/** Mails today's review digest to every opted-in active moderator and admin not mailed today; returns how many were queued. */
export async function mailReviewDigests(deps: ReviewDigestDeps): Promise<number> {
  const { db, clock, config, jobs } = deps;
  const now = clock.now();
  const cutoff = new Date(now.getTime() - REVIEW_DIGEST_WAIT_MS);
  const waitingEntry = and(eq(missionEntries.status, 'submitted'), isNotNull(missionEntries.submittedAt));
  const [longest] = await db
    .select({ oldest: min(missionEntries.submittedAt), overADay: count() })
    .from(missionEntries)
    .where(and(waitingEntry, lt(missionEntries.submittedAt, cutoff)));
  if (!longest?.oldest || longest.overADay === 0) return 0;

  const staff = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, preferences: users.preferences })
    .from(users)
    .where(
      and(
        inArray(users.role, [...ELEVATED_ROLES]),
        eq(users.status, 'active'),
        sql`${users.preferences} ->> 'mailReviewDigest' = 'true'`,
        sql`coalesce(${users.preferences} ->> 'emailNotifications', 'true') <> 'false'`,
      ),
    )
    .orderBy(asc(users.id));
  if (staff.length === 0) return 0;

  const perProject = await db
    .select({ id: projects.id, name: projects.name, waiting: count() })
    .from(missionEntries)
    .innerJoin(missions, eq(missions.id, missionEntries.missionId))
    .innerJoin(projects, eq(projects.id, missions.projectId))
    .where(waitingEntry)
    .groupBy(projects.id, projects.name)
    .orderBy(desc(count()), asc(projects.name));
  const waiting = perProject.reduce((sum, project) => sum + project.waiting, 0);
  const oldest = new Date(longest.oldest);
  const resetAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2));

  let queued = 0;
  for (const person of staff) {
    const sent = await db.transaction(async (tx) => {
      const [marked] = await tx
        .insert(rateLimits)
        .values({ key: reviewDigestKey(person.id, now), count: 1, resetAt })
        .onConflictDoNothing()
        .returning({ key: rateLimits.key });
      if (!marked) return false;
      const message = reviewDigestMail({
        to: person.email,
        language: mailLanguageOf(person.preferences),
        firstName: person.firstName,
        waiting,
        overADay: longest.overADay,
        oldestWaitedMs: now.getTime() - oldest.getTime(),
        projects: perProject.map((project) => ({
          name: project.name,
          waiting: project.waiting,
          url: `${config.publicUrl}/admin/review?projectId=${project.id}`,
        })),
        url: `${config.publicUrl}/admin/review`,
        preferencesUrl: preferencesUrl(config.publicUrl),
      });
      await jobs.mail(message, { tx });
      return true;
    });
    if (sent) queued++;
  }
  return queued;
}
