import { createHash } from 'node:crypto';
import { count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { redactReport, reportContent, type Report } from '../../shared/schemas/reports.ts';
import type { Db } from '../db/index.ts';
import { clientReports, users } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { containsPattern } from './search.ts';

/** The SHA-1 (hex) that de-duplicates a report: of its url, userAgent and data as canonical JSON. */
export function reportHash(report: Report): string {
  return createHash('sha1').update(reportContent(report)).digest('hex');
}

/**
 * Stores reports, one row per content hash: a new hash is inserted, a known one counts up and
 * moves its last-seen time. The signed-in user (if any) is attached. One statement for the batch.
 *
 * Whatever a client sends, link tokens and secrets are taken out first (url, browser, stack
 * trace, HTTP body and cause, every string of the data: `redactReport`), and the hash is that of
 * the redacted report: moderators read this list (docs/permissions.md, "Secrets").
 */
export async function storeReports(db: Db, clock: Clock, reports: readonly Report[], userId: number | null): Promise<void> {
  const byHash = new Map<string, { report: Report; times: number }>();
  for (const report of reports.map(redactReport)) {
    const hash = reportHash(report);
    const seen = byHash.get(hash);
    if (seen) seen.times += 1;
    else byHash.set(hash, { report, times: 1 });
  }
  if (byHash.size === 0) return;
  const now = clock.now();
  await db
    .insert(clientReports)
    .values(
      [...byHash].map(([hash, { report, times }]) => ({
        hash,
        url: report.url,
        userAgent: report.userAgent,
        data: report.data,
        userId,
        count: times,
        firstSeenAt: now,
        lastSeenAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: clientReports.hash,
      set: {
        count: sql`${clientReports.count} + excluded.count`,
        lastSeenAt: sql`excluded.last_seen_at`,
        userId: sql`coalesce(excluded.user_id, ${clientReports.userId})`,
      },
    });
}

/** The admin list: newest (last seen) first, searched in the url, the browser and the data. */
export async function listReports(db: Db, query: { search?: string | undefined; page: number; perPage: number }) {
  const pattern = query.search ? containsPattern(query.search) : null;
  const where = pattern
    ? or(ilike(clientReports.url, pattern), ilike(clientReports.userAgent, pattern), sql`${clientReports.data}::text ilike ${pattern}`)
    : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ report: clientReports, user: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName } })
      .from(clientReports)
      .leftJoin(users, eq(users.id, clientReports.userId))
      .where(where)
      .orderBy(desc(clientReports.lastSeenAt), desc(clientReports.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage),
    db.select({ value: count() }).from(clientReports).where(where),
  ]);
  return {
    reports: rows.map(({ report, user }) => ({
      id: report.id,
      hash: report.hash,
      url: report.url,
      userAgent: report.userAgent,
      data: report.data,
      count: report.count,
      firstSeenAt: report.firstSeenAt.toISOString(),
      lastSeenAt: report.lastSeenAt.toISOString(),
      user: user?.id ? user : null,
    })),
    total: total?.value ?? 0,
  };
}
