import { createHash } from 'node:crypto';
import { and, ilike, or, sql, type SQL } from 'drizzle-orm';
import { redactReport, reportContent, type ClientReportKind, type Report } from '../../shared/client-reports.ts';
import type { ListPage } from '../../shared/list.ts';
import type { ClientReportListQuery } from '../../shared/schemas/admin.ts';
import type { Db } from '../db/index.ts';
import { clientReports, type ClientReport } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { listOrder, pageWithUser, type ListUser } from './list.ts';
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

/** A stored report as the "Client errors" list shows it. */
function reportView(report: ClientReport, user: ListUser | null) {
  return {
    id: report.id,
    hash: report.hash,
    url: report.url,
    userAgent: report.userAgent,
    data: report.data,
    count: report.count,
    firstSeenAt: report.firstSeenAt.toISOString(),
    lastSeenAt: report.lastSeenAt.toISOString(),
    user,
  };
}
export type ClientReportView = ReturnType<typeof reportView>;

/**
 * The reports of a kind: errors are everything but actions (the expression of the partial index
 * `client_reports_errors_idx`, repeated exactly so it serves the list and its count).
 */
function reportKindFilter(kind: ClientReportKind): SQL | undefined {
  if (kind === 'error') return sql`${clientReports.data}->>'type' <> 'action'`;
  if (kind === 'action') return sql`${clientReports.data}->>'type' = 'action'`;
  return undefined;
}

/**
 * `GET /api/admin/reports`: errors by default (`kind`: `error`, `action`, `all`); searched in the
 * url, the browser and the data; last seen first by default (`sort`: `lastSeen`, `firstSeen`,
 * `count`, all newest or most first).
 */
export function listReports(db: Db, query: ClientReportListQuery): Promise<ListPage<ClientReportView>> {
  const pattern = query.q ? containsPattern(query.q) : null;
  const search = pattern
    ? or(ilike(clientReports.url, pattern), ilike(clientReports.userAgent, pattern), sql`${clientReports.data}::text ilike ${pattern}`)
    : undefined;
  const where = and(reportKindFilter(query.kind), search);
  const order = listOrder(
    query,
    {
      lastSeen: { by: clientReports.lastSeenAt, dir: 'desc' },
      firstSeen: { by: clientReports.firstSeenAt, dir: 'desc' },
      count: { by: clientReports.count, dir: 'desc' },
    },
    clientReports.id,
  );
  return pageWithUser(db, query, { table: clientReports, userId: clientReports.userId, where, order }, reportView);
}
