/**
 * The reconciliation file (issue 30 §4; docs/api.md "Rewards: fulfilment"): every redemption of a
 * period as CSV — streamed in id order a page at a time (memory bounded however many), every text
 * cell through the formula guard (csv.ts). Never the code or link: a delivered row says when, and
 * the provider's order id.
 */
import { and, asc, eq, gt } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { fromMinorUnits } from '../../shared/rewards.ts';
import type { RedemptionExportQuery } from '../../shared/schemas/redemptions.ts';
import type { Db } from '../db/index.ts';
import { redemptions, rewards, users } from '../db/schema/index.ts';
import { audit } from './audit.ts';
import { keysetCsvStream } from './csv.ts';
import { redemptionFilter } from './redemptions-admin.ts';

export const REDEMPTION_EXPORT_HEADER = [
  'Redemption ID',
  'Participant ID',
  'Email',
  'Reward ID',
  'Reward',
  'Kind',
  'Value',
  'Currency',
  'Points',
  'Status',
  'Requested at',
  'Approved at',
  'Delivered at',
  'Closed at',
  'Provider order ID',
  'Approved by',
];

/** Who approved: the admin's e-mail, `Automatic` when no person had to. */
export const AUTOMATIC_APPROVAL = 'Automatic';

const approver = alias(users, 'approver');
const iso = (at: Date | null) => at?.toISOString() ?? null;

/** The file's name: `redemptions-<from>-to-<to>.csv` (`all` for an open end). */
export function redemptionExportName(query: RedemptionExportQuery): string {
  return `redemptions-${query.from ?? 'all'}-to-${query.to ?? 'all'}${query.status ? `-${query.status}` : ''}.csv`;
}

/** `GET /api/admin/redemptions.csv`: the period's redemptions, oldest id first. */
export function redemptionExportCsv(db: Db, query: RedemptionExportQuery): ReadableStream<Uint8Array> {
  const where = redemptionFilter(query);
  return keysetCsvStream(
    REDEMPTION_EXPORT_HEADER,
    (afterId, limit) =>
      db
        .select({
          id: redemptions.id,
          row: redemptions,
          email: users.email,
          reward: { title: rewards.title, kind: rewards.kind },
          approvedByEmail: approver.email,
        })
        .from(redemptions)
        .innerJoin(users, eq(users.id, redemptions.userId))
        .innerJoin(rewards, eq(rewards.id, redemptions.rewardId))
        .leftJoin(approver, eq(approver.id, redemptions.approvedBy))
        .where(and(where, gt(redemptions.id, afterId)))
        .orderBy(asc(redemptions.id))
        .limit(limit),
    ({ row, email, reward, approvedByEmail }) => [
      row.id,
      row.userId,
      email,
      row.rewardId,
      reward.title,
      reward.kind,
      fromMinorUnits(row.valueMinor),
      row.currency,
      row.points,
      row.status,
      iso(row.requestedAt),
      iso(row.approvedAt),
      iso(row.deliveredAt),
      iso(row.rejectedAt ?? row.failedAt ?? row.cancelledAt),
      row.providerOrderId,
      row.approvedAt ? (approvedByEmail ?? AUTOMATIC_APPROVAL) : null,
    ],
  );
}

/** The audit row of an export (`redemptions.export`): the period and status, never a row of it. */
export async function auditRedemptionExport(db: Db, query: RedemptionExportQuery, actor: { id: number; ip: string | null }): Promise<void> {
  await audit(db, {
    actorId: actor.id,
    via: 'api',
    action: 'redemptions.export',
    targetType: 'redemption',
    after: { status: query.status ?? null, from: query.from ?? null, to: query.to ?? null },
    ip: actor.ip,
  });
}
