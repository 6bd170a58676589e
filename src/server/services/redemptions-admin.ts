/**
 * The fulfilment queue (issue 30 §4; docs/api.md "Rewards"): staff read every participant's
 * redemptions, admins approve, reject (the hold released) and mark manual rewards delivered (the
 * hold posted, the code or link sealed). Each action is one transaction that takes the
 * participant's points lock first (services/points.ts `lockPointsOf`), then the redemption's row
 * `for update` — the order the participant's own calls take — and is audited (never the code or
 * link) and notified to the participant in it.
 *
 * `expectedStatus` is what the admin's screen showed, as review decisions take it
 * (services/review.ts `applyDecision`): another status now is 409 `conflict` with the current
 * status — unless the request is already exactly what this admin decided (a retry after a dropped
 * connection), which answers it as it is and changes nothing.
 */
import { and, asc, count, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { ListPage } from '../../shared/list.ts';
import type { AdminRedemption, RedemptionStatus } from '../../shared/rewards.ts';
import type { AdminRedemptionListQuery, RedemptionDeliverInput } from '../../shared/schemas/redemptions.ts';
import type { Db } from '../db/index.ts';
import { redemptions, rewards, users, type RedemptionRow, type Reward } from '../db/schema/index.ts';
import { ApiError, notFound } from '../errors.ts';
import { audit, auditMany } from './audit.ts';
import { countOf, paginate } from './list.ts';
import { rewardNotice } from './notices.ts';
import { notify, notifyMany } from './notifications.ts';
import { lockPointsOf, lockPointsOfMany, setCreditState } from './points.ts';
import { REWARDS_PAGE, redemptionView, releaseHold, type RedemptionDeps } from './redemptions.ts';
import { rewardDeliveryKey, sealDelivery } from './secret-box.ts';
import { userSearchMatches } from './users.ts';
import { pointReference } from '../../shared/points.ts';
import { recordRedemptionEvent } from './webhooks.ts';

export type { AdminRedemption };

/** Who acts, and from where (for the audit log). */
export interface RedemptionActor {
  id: number;
  ip: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

type RewardBrief = Pick<Reward, 'id' | 'title' | 'kind' | 'fulfilment'>;
type Person = AdminRedemption['user'];

function adminView(row: RedemptionRow, reward: RewardBrief, user: Person): AdminRedemption {
  const { delivery: _never, ...view } = redemptionView(row, reward);
  return {
    ...view,
    reward: { ...view.reward, fulfilment: reward.fulfilment },
    user: { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName },
  };
}

/** The list's WHERE (and the CSV's): `status`, `rewardId`, request days `from` / `to` (inclusive, UTC), `q` in the participant's e-mail or name. */
export function redemptionFilter(query: Partial<Pick<AdminRedemptionListQuery, 'status' | 'rewardId' | 'from' | 'to' | 'q'>>): SQL | undefined {
  return and(
    query.status ? eq(redemptions.status, query.status) : undefined,
    query.rewardId ? eq(redemptions.rewardId, query.rewardId) : undefined,
    query.from ? gte(redemptions.requestedAt, dayStart(query.from)) : undefined,
    query.to ? lt(redemptions.requestedAt, new Date(dayStart(query.to).getTime() + DAY_MS)) : undefined,
    query.q ? userSearchMatches(query.q) : undefined,
  );
}

/** `GET /api/admin/redemptions`: the fulfilment queue, oldest first by default (the list contract). */
export async function listAdminRedemptions(db: Db, query: AdminRedemptionListQuery): Promise<ListPage<AdminRedemption>> {
  const where = redemptionFilter(query);
  const key = query.sort === 'id' ? [redemptions.id] : [redemptions.requestedAt, redemptions.id];
  const order = query.dir === 'desc' ? key.map((column) => desc(column)) : key.map((column) => asc(column));
  return paginate(query, {
    rows: async (limit, offset) => {
      const rows = await db
        .select({
          row: redemptions,
          reward: { id: rewards.id, title: rewards.title, kind: rewards.kind, fulfilment: rewards.fulfilment },
          user: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
        })
        .from(redemptions)
        .innerJoin(rewards, eq(rewards.id, redemptions.rewardId))
        .innerJoin(users, eq(users.id, redemptions.userId))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
      return rows.map((each) => adminView(each.row, each.reward, each.user));
    },
    count: () => countOf(db.select({ value: count() }).from(redemptions).innerJoin(users, eq(users.id, redemptions.userId)).where(where)),
  });
}

/** The id of an existing redemption (404 otherwise). */
export async function existingRedemptionId(db: Db, id: number): Promise<number> {
  const [row] = await db.select({ id: redemptions.id }).from(redemptions).where(eq(redemptions.id, id));
  if (!row) throw notFound('redemption');
  return row.id;
}

/** 409 `conflict`: the request is not in the status the admin's screen showed. */
const changed = (status: RedemptionStatus) =>
  new ApiError(409, 'conflict', 'This request changed while you were looking at it', { details: { current: { status } } });

/** The participant's points lock, then the redemption's row (404 when unknown), its reward and its participant. */
async function lockRedemption(tx: Db, id: number): Promise<{ row: RedemptionRow; reward: Reward; user: Person }> {
  const [owner] = await tx.select({ userId: redemptions.userId }).from(redemptions).where(eq(redemptions.id, id));
  if (!owner) throw notFound('redemption');
  const user = await lockPointsOf(tx, owner.userId);
  const [row] = await tx.select().from(redemptions).where(eq(redemptions.id, id)).for('update');
  if (!row || !user) throw notFound('redemption');
  const [reward] = await tx.select().from(rewards).where(eq(rewards.id, row.rewardId));
  if (!reward) throw new Error(`redemption ${id}: no reward ${row.rewardId}`);
  return { row, reward, user };
}

/** 409 `provider_not_configured`: a provider reward, and no provider (`REWARDS_PROVIDER=none`) to order it from. */
const providerNotConfigured = () =>
  new ApiError(
    409,
    'provider_not_configured',
    'No gift-card provider is set up, so this reward cannot be ordered: set one up first (REWARDS_PROVIDER), or reject the request',
  );

/** Whether a reward needs a provider this server does not have. */
const lacksProvider = (deps: RedemptionDeps, reward: Reward) => reward.fulfilment === 'provider' && !deps.config.rewardsProvider;

/**
 * Approves one locked `requested` row: its time and admin, the audit row, the participant's
 * notification and, for a provider reward, its `rewards.order` job — all in the caller's transaction.
 */
async function approveLocked(tx: Db, deps: RedemptionDeps, row: RedemptionRow, reward: Reward, actor: RedemptionActor): Promise<RedemptionRow> {
  const now = deps.clock.now();
  const [approved] = await tx
    .update(redemptions)
    .set({ status: 'approved', approvedAt: now, approvedBy: actor.id, updatedAt: now })
    .where(eq(redemptions.id, row.id))
    .returning();
  if (!approved) throw new Error('redemption vanished while approved');
  await recordRedemptionEvent(tx, approved);
  await audit(tx, {
    actorId: actor.id,
    via: 'api',
    action: 'redemption.approve',
    targetType: 'redemption',
    targetId: row.id,
    before: { status: row.status },
    after: { status: 'approved', userId: row.userId, rewardId: row.rewardId, points: row.points },
    ip: actor.ip,
  });
  await notify(tx, { userId: row.userId, kind: 'reward', notice: rewardNotice('reward_approved', row, reward), link: REWARDS_PAGE }, deps.jobs);
  if (reward.fulfilment === 'provider') await deps.jobs.send('rewards.order', { redemptionId: row.id }, { tx });
  return approved;
}

/**
 * `POST /api/admin/redemptions/{id}/approve`: a `requested` request becomes `approved`. 404
 * unknown; 409 `conflict` when it is not in `expectedStatus` (a retry of this admin's approval
 * answers it unchanged); 409 `not_approvable` when it is not `requested`; 409
 * `provider_not_configured` for a provider reward while `REWARDS_PROVIDER=none`. A provider
 * reward's order (`rewards.order`) is queued in the approving transaction.
 */
export async function approveRedemption(
  db: Db,
  deps: RedemptionDeps,
  id: number,
  expectedStatus: RedemptionStatus,
  actor: RedemptionActor,
): Promise<AdminRedemption> {
  return db.transaction(async (tx) => {
    const { row, reward, user } = await lockRedemption(tx, id);
    if (row.status !== expectedStatus) {
      if (row.status === 'approved' && row.approvedBy === actor.id) return adminView(row, reward, user);
      throw changed(row.status);
    }
    if (row.status !== 'requested') throw new ApiError(409, 'not_approvable', 'Only a request waiting for approval can be approved');
    if (lacksProvider(deps, reward)) throw providerNotConfigured();
    return adminView(await approveLocked(tx, deps, row, reward, actor), reward, user);
  });
}

/**
 * `POST /api/admin/redemptions/{id}/reject`: a `requested` or `approved` request becomes
 * `rejected` with the reason the participant reads; its points (and stock) come back in the same
 * transaction. 404 unknown; 409 `conflict` (as approve); 409 `not_rejectable` once ordered or closed.
 */
export async function rejectRedemption(
  db: Db,
  deps: RedemptionDeps,
  id: number,
  input: { reason: string; expectedStatus: RedemptionStatus },
  actor: RedemptionActor,
): Promise<AdminRedemption> {
  return db.transaction(async (tx) => {
    const { row, reward, user } = await lockRedemption(tx, id);
    if (row.status !== input.expectedStatus) {
      if (row.status === 'rejected' && row.rejectedBy === actor.id && row.reason === input.reason) return adminView(row, reward, user);
      throw changed(row.status);
    }
    if (row.status !== 'requested' && row.status !== 'approved') {
      throw new ApiError(409, 'not_rejectable', 'Only a request waiting for approval or approved (not yet ordered) can be rejected');
    }
    const now = deps.clock.now();
    const [rejected] = await tx
      .update(redemptions)
      .set({ status: 'rejected', reason: input.reason, rejectedAt: now, rejectedBy: actor.id, updatedAt: now })
      .where(eq(redemptions.id, id))
      .returning();
    if (!rejected) throw new Error('redemption vanished while rejected');
    await recordRedemptionEvent(tx, rejected);
    await releaseHold(tx, deps.clock, rejected);
    await audit(tx, {
      actorId: actor.id,
      via: 'api',
      action: 'redemption.reject',
      targetType: 'redemption',
      targetId: id,
      before: { status: row.status },
      after: { status: 'rejected', reason: input.reason, userId: row.userId, rewardId: row.rewardId, points: row.points },
      ip: actor.ip,
    });
    await notify(tx, { userId: row.userId, kind: 'reward', notice: rewardNotice('reward_rejected', row, reward), link: REWARDS_PAGE }, deps.jobs);
    return adminView(rejected, reward, user);
  });
}

/**
 * `POST /api/admin/redemptions/{id}/deliver` (manual rewards): a `requested` or `approved`
 * request becomes `delivered`, its points spent (the hold posted), the code and/or link sealed
 * for the participant alone, the note kept. 404 unknown; 409 `provider_fulfilment` for a reward
 * the provider delivers; 409 `not_deliverable` in any other status. Audited `{ delivered: true }`:
 * never the code or link.
 */
export async function deliverRedemption(
  db: Db,
  deps: RedemptionDeps,
  id: number,
  input: RedemptionDeliverInput,
  actor: RedemptionActor,
): Promise<AdminRedemption> {
  const key = await rewardDeliveryKey(db, deps.config);
  return db.transaction(async (tx) => {
    const { row, reward, user } = await lockRedemption(tx, id);
    if (reward.fulfilment !== 'manual')
      throw new ApiError(409, 'provider_fulfilment', 'The provider delivers this reward: it cannot be marked delivered by hand');
    if (row.status !== 'requested' && row.status !== 'approved') {
      throw new ApiError(409, 'not_deliverable', 'Only a request waiting for approval or approved can be delivered', {
        details: { current: { status: row.status } },
      });
    }
    const now = deps.clock.now();
    const sealed = sealDelivery(key, id, {
      ...(input.code !== undefined ? { code: input.code } : {}),
      ...(input.link !== undefined ? { link: input.link } : {}),
    });
    const [delivered] = await tx
      .update(redemptions)
      .set({
        status: 'delivered',
        deliverySealed: sealed,
        note: input.note ?? null,
        deliveredAt: now,
        deliveredBy: actor.id,
        // Delivering a request nobody approved approves it too: the timeline shows both.
        ...(row.approvedAt ? {} : { approvedAt: now, approvedBy: actor.id }),
        updatedAt: now,
      })
      .where(eq(redemptions.id, id))
      .returning();
    if (!delivered) throw new Error('redemption vanished while delivered');
    await recordRedemptionEvent(tx, delivered);
    await setCreditState(tx, deps.clock, { userId: row.userId, source: 'redemption', reference: pointReference.redemption(id) }, 'available');
    await audit(tx, {
      actorId: actor.id,
      via: 'api',
      action: 'redemption.deliver',
      targetType: 'redemption',
      targetId: id,
      before: { status: row.status },
      after: { status: 'delivered', delivered: true, note: input.note ?? null, userId: row.userId, rewardId: row.rewardId, points: row.points },
      ip: actor.ip,
    });
    await notify(tx, { userId: row.userId, kind: 'reward', notice: rewardNotice('reward_sent', row, reward), link: REWARDS_PAGE }, deps.jobs);
    return adminView(delivered, reward, user);
  });
}

/** Why a request of a bulk approval was left as it was. */
export type BulkSkipReason = 'not_found' | 'conflict' | 'not_approvable' | 'provider_not_configured';

/**
 * `POST /api/admin/redemptions/approve`: approves the given requests in one transaction. The
 * participants' points locks are taken in ascending user id, then the requests' rows in ascending
 * id (two bulk approvals, or a bulk approval and a participant's own call, cannot deadlock); each
 * request is then approved or skipped in ascending id: `not_found`, `conflict` (not in
 * `expectedStatus`), `not_approvable` (not `requested`), `provider_not_configured` (a provider
 * reward while `REWARDS_PROVIDER=none`). An id given twice counts once. The approved ones are
 * written together: one update, one statement of audit rows, one of notifications (their mails
 * by one `notifications.mail` sweep queued with them), a provider reward's order job each.
 */
export async function bulkApproveRedemptions(
  db: Db,
  deps: RedemptionDeps,
  ids: readonly number[],
  expectedStatus: RedemptionStatus,
  actor: RedemptionActor,
): Promise<{ approved: number[]; skipped: { id: number; reason: BulkSkipReason }[] }> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  return db.transaction(async (tx) => {
    // Set-based: a statement for each step whatever the number (500 requests: a dozen statements, not 2,000).
    const owners = await tx.selectDistinct({ userId: redemptions.userId }).from(redemptions).where(inArray(redemptions.id, unique));
    await lockPointsOfMany(
      tx,
      owners.map((owner) => owner.userId),
    );
    const rows = await tx.select().from(redemptions).where(inArray(redemptions.id, unique)).orderBy(asc(redemptions.id)).for('update');
    const byId = new Map(rows.map((row) => [row.id, row]));
    const rewardIds = [...new Set(rows.map((row) => row.rewardId))];
    const found = rewardIds.length > 0 ? await tx.select().from(rewards).where(inArray(rewards.id, rewardIds)) : [];
    const rewardById = new Map(found.map((reward) => [reward.id, reward]));
    const chosen: { row: RedemptionRow; reward: Reward }[] = [];
    const skipped: { id: number; reason: BulkSkipReason }[] = [];
    for (const id of unique) {
      const row = byId.get(id);
      const reward = row ? rewardById.get(row.rewardId) : undefined;
      if (!row || !reward) skipped.push({ id, reason: 'not_found' });
      else if (row.status !== expectedStatus) skipped.push({ id, reason: 'conflict' });
      else if (row.status !== 'requested') skipped.push({ id, reason: 'not_approvable' });
      else if (lacksProvider(deps, reward)) skipped.push({ id, reason: 'provider_not_configured' });
      else chosen.push({ row, reward });
    }
    if (chosen.length > 0) {
      const now = deps.clock.now();
      await tx
        .update(redemptions)
        .set({ status: 'approved', approvedAt: now, approvedBy: actor.id, updatedAt: now })
        .where(
          inArray(
            redemptions.id,
            chosen.map(({ row }) => row.id),
          ),
        );
      await auditMany(
        tx,
        chosen.map(({ row }) => ({
          actorId: actor.id,
          via: 'api' as const,
          action: 'redemption.approve',
          targetType: 'redemption',
          targetId: row.id,
          before: { status: row.status },
          after: { status: 'approved', userId: row.userId, rewardId: row.rewardId, points: row.points, bulk: true },
          ip: actor.ip,
        })),
      );
      await notifyMany(
        tx,
        chosen.map(({ row, reward }) => ({
          userId: row.userId,
          kind: 'reward' as const,
          notice: rewardNotice('reward_approved', row, reward),
          link: REWARDS_PAGE,
        })),
        deps.jobs,
      );
      for (const { row } of chosen) await recordRedemptionEvent(tx, { ...row, status: 'approved' });
      for (const { row, reward } of chosen) if (reward.fulfilment === 'provider') await deps.jobs.send('rewards.order', { redemptionId: row.id }, { tx });
    }
    return { approved: chosen.map(({ row }) => row.id), skipped };
  });
}
