/**
 * Redemptions (issue 30; docs/api.md "Rewards"): a participant turns points into a reward. The
 * request, its points and its stock are one transaction under the participant's points lock
 * (services/points.ts `lockPointsOf`): the checks read what the lock keeps still, so ten requests
 * at once for more than the balance succeed exactly as far as the points go. The points are one
 * ledger row, `held` while the request is open; cancelling (here), rejecting or failing releases it
 * (`voided`), delivering posts it (`available`: spent).
 *
 * A retry is safe: the request carries the participant's key (`Idempotency-Key`), unique per
 * participant; the same key again answers the redemption it made, whatever the body says.
 */
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { pointReference } from '../../shared/points.ts';
import {
  fromMinorUnits,
  OPEN_REDEMPTION_STATUSES,
  offersValue,
  pointsFor,
  REDEMPTION_REFUSALS,
  toMinorUnits,
  type Redemption,
  type RedemptionRefusal,
  type RedemptionStep,
  type RewardSettings,
} from '../../shared/rewards.ts';
import type { ListPage, ListQuery } from '../../shared/list.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { pointsLedger, redemptions, rewardSettings, rewards, users, type RedemptionRow, type Reward } from '../db/schema/index.ts';
import { ApiError, notFound } from '../errors.ts';
import type { JobSender } from '../jobs/queue.ts';
import type { Clock } from './clock.ts';
import { countOf, paginate } from './list.ts';
import { notify } from './notifications.ts';
import { rewardValueText } from './notices.ts';
import { SOURCE_LANGUAGE } from '../../shared/languages.ts';
import { balanceColumns, credit, lockPointsOf, setCreditState } from './points.ts';
import { savedSettingsColumn, settingsOf } from './rewards.ts';
import { containsPattern } from './search.ts';
import { openDelivery, rewardDeliveryKey } from './secret-box.ts';
import { recordRedemptionEvent } from './webhooks.ts';

/** Where a participant follows their rewards (the notifications link there). */
export const REWARDS_PAGE = '/account/rewards';

/** 409 with the participant's words for a refusal. */
const refused = (code: RedemptionRefusal, details?: Record<string, number>) => new ApiError(409, code, REDEMPTION_REFUSALS[code], details ? { details } : {});

/** "25 EUR" (values keep their cents when they have any: "12.50 EUR"), in English: ledger reasons, exports. */
export const valueText = (value: number, currency: string) => rewardValueText(value, currency, SOURCE_LANGUAGE);

/** The ledger reason of a redemption's points: "Reward: Book voucher (25 EUR)". */
const ledgerReason = (title: string, value: number, currency: string) => `Reward: ${title} (${valueText(value, currency)})`;

/** The status times in the order they happened. */
function timelineOf(row: RedemptionRow): RedemptionStep[] {
  const steps: [RedemptionStep['status'], Date | null][] = [
    ['requested', row.requestedAt],
    ['approved', row.approvedAt],
    ['ordering', row.orderingAt],
    ['delivered', row.deliveredAt],
    ['rejected', row.rejectedAt],
    ['failed', row.failedAt],
    ['cancelled', row.cancelledAt],
  ];
  return steps
    .filter((step): step is [RedemptionStep['status'], Date] => step[1] !== null)
    .sort((a, b) => a[1].getTime() - b[1].getTime())
    .map(([status, at]) => ({ status, at: at.toISOString() }));
}

/**
 * A redemption as its owner sees it. `delivery` (the code or link) only when `deliveryKey` is
 * given — the owner's calls give it, staff's never — and only once delivered.
 */
export function redemptionView(row: RedemptionRow, reward: Pick<Reward, 'id' | 'title' | 'kind'>, deliveryKey?: Buffer): Redemption {
  return {
    id: row.id,
    reward: { id: reward.id, title: reward.title, kind: reward.kind },
    value: fromMinorUnits(row.valueMinor),
    currency: row.currency,
    points: row.points,
    status: row.status,
    reason: row.reason,
    timeline: timelineOf(row),
    delivery: deliveryKey && row.status === 'delivered' && row.deliverySealed ? openDelivery(deliveryKey, row.id, row.deliverySealed) : null,
    needsReview: row.needsReview,
    createdAt: row.requestedAt.toISOString(),
  };
}

/** The owner's view of some rows: their rewards read in one query, the delivery key only when one was delivered. */
async function ownerViews(db: Db, config: Pick<Config, 'rewardDeliveryKey'>, rows: readonly RedemptionRow[]): Promise<Redemption[]> {
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((row) => row.rewardId))];
  const found = await db.select({ id: rewards.id, title: rewards.title, kind: rewards.kind }).from(rewards).where(inArray(rewards.id, ids));
  const byId = new Map(found.map((reward) => [reward.id, reward]));
  const key = rows.some((row) => row.status === 'delivered' && row.deliverySealed) ? await rewardDeliveryKey(db, config) : undefined;
  return rows.map((row) => {
    const reward = byId.get(row.rewardId);
    if (!reward) throw new Error(`redemption ${row.id}: no reward ${row.rewardId}`);
    return redemptionView(row, reward, key);
  });
}

/**
 * What a request's checks read, in one statement taken after the participant's points lock (under
 * READ COMMITTED a statement started after the lock sees everything the lock's previous holder
 * committed; the lock statement itself could not carry these reads). Every figure is the
 * participant's, read through their indexes: the first redemption of this key, the reward and the
 * settings, the available balance, the country of the address, the tax form, how many requests
 * are open and how many were delivered, and the year's value in the tax gate's currency.
 */
async function requestGround(tx: Db, now: Date, input: CreateRedemptionInput) {
  const mine = sql`${redemptions.userId} = ${input.userId}`;
  const yearStart = new Date(Date.UTC(now.getUTCFullYear(), 0, 1)).toISOString();
  const yearEnd = new Date(Date.UTC(now.getUTCFullYear() + 1, 0, 1)).toISOString();
  const open = sql.join(
    OPEN_REDEMPTION_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const [row] = await tx
    .select({
      againId: sql<number | null>`(select ${redemptions.id} from ${redemptions} where ${mine} and ${redemptions.idempotencyKey} = ${input.key})`,
      reward: rewards,
      settings: savedSettingsColumn,
      available: sql<number>`(select ${balanceColumns.available} from ${pointsLedger} where ${pointsLedger.userId} = ${input.userId})`.mapWith(Number),
      country: sql<string | null>`${users.address}->>'country'`,
      taxFormOnFile: sql<boolean>`${users.taxFormOnFileAt} is not null`,
      openCount: sql<number>`(select count(*) from ${redemptions} where ${mine} and ${redemptions.status} in (${open}))::int`,
      deliveredCount: sql<number>`(select count(*) from ${redemptions} where ${mine} and ${redemptions.status} = 'delivered')::int`,
      // The tax gate's currency is in the settings: the sum reads it there.
      yearValueMinor: sql<number>`(select coalesce(sum(${redemptions.valueMinor}), 0) from ${redemptions}
        where ${mine} and ${redemptions.status} in (${open}, 'delivered')
          and ${redemptions.requestedAt} >= ${yearStart}::timestamptz and ${redemptions.requestedAt} < ${yearEnd}::timestamptz
          and ${redemptions.currency} = (select ${rewardSettings.settings}->'taxForm'->>'currency' from ${rewardSettings} where ${rewardSettings.id} = 1))::bigint`.mapWith(
        Number,
      ),
    })
    .from(users)
    .leftJoin(rewards, eq(rewards.id, input.rewardId))
    .where(eq(users.id, input.userId));
  if (!row) throw new ApiError(401, 'unauthenticated', 'Sign in to continue');
  return row;
}
type RequestGround = Awaited<ReturnType<typeof requestGround>>;

/**
 * The tax-form gate: whether this request would take the participant's value of the calendar year
 * (UTC) above the yearly value with no tax form on file. Only values in the setting's currency
 * count (delivered and open requests, and this one): there is no exchange rate in Fieldwork, and a
 * guessed one would be worse than none — a community paying in several currencies sets the gate
 * in the one its tax rules are written in.
 */
function needsTaxForm(ground: RequestGround, settings: RewardSettings, reward: Reward, valueMinor: number): boolean {
  const gate = settings.taxForm;
  if (!gate || reward.currency !== gate.currency || ground.taxFormOnFile) return false;
  return ground.yearValueMinor + valueMinor > toMinorUnits(gate.yearlyValue);
}

/** Whether a request waits for a person: a first redemption (when set), above the approval value (same currency), or a reward delivered by hand. */
function needsReview(ground: RequestGround, settings: RewardSettings, reward: Reward, valueMinor: number): boolean {
  if (reward.fulfilment === 'manual') return true;
  const above = settings.approvalAbove;
  if (above && above.currency === reward.currency && valueMinor > toMinorUnits(above.value)) return true;
  return settings.reviewFirstRedemption && ground.deliveredCount === 0;
}

export interface RedemptionDeps {
  clock: Clock;
  config: Pick<Config, 'rewardDeliveryKey' | 'rewardsProvider'>;
  jobs: JobSender;
}

export interface CreateRedemptionInput {
  userId: number;
  rewardId: number;
  value: number;
  key: string;
}

/**
 * `POST /api/redemptions`. The same key again answers the first redemption (`created: false`).
 * Else, in this order: 404 for an unknown or inactive reward; 400 on `value` for a value it does
 * not offer; 409 `not_available_here` (no rate for its currency, or not offered in the
 * participant's country, or no address while it is offered in some countries only),
 * `out_of_stock`, `below_minimum`, `open_request_exists`, `tax_form_required`,
 * `insufficient_points`. On success the redemption, its held points, one of its stock and the
 * participant's notification are one transaction. A request that needs no review (a provider
 * reward, a provider configured, no first-redemption or value check applying) is `approved` at once
 * and its `rewards.order` job queued in that transaction.
 */
export async function createRedemption(db: Db, deps: RedemptionDeps, input: CreateRedemptionInput): Promise<{ redemption: Redemption; created: boolean }> {
  // Eight statements a request (bench: docs/benchmarks.md "Rewards"): the lock; everything the
  // checks read, in one (`requestGround`; a retry's key too: a retry waits for the first request to
  // commit, then finds it); the stock when it is counted; the redemption, its hold, the
  // notification and its mail job. The answer is made from the rows at hand.
  const made = await db.transaction(async (tx) => {
    const person = await lockPointsOf(tx, input.userId);
    if (!person) throw new ApiError(401, 'unauthenticated', 'Sign in to continue');
    const now = deps.clock.now();
    const ground = await requestGround(tx, now, input);
    if (ground.againId !== null) {
      const [again] = await tx.select().from(redemptions).where(eq(redemptions.id, ground.againId));
      if (again) return { row: again, reward: null, created: false };
    }

    const { reward } = ground;
    if (!reward?.active) throw notFound('reward');
    const settings = settingsOf(ground.settings);
    if (!offersValue(reward.denominations, input.value)) {
      throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { value: ['Choose one of the values this reward offers'] } });
    }
    const rate = settings.pointsPerUnit[reward.currency];
    if (rate === undefined) throw refused('not_available_here');
    if (reward.countries.length > 0 && (!ground.country || !reward.countries.includes(ground.country))) throw refused('not_available_here');
    if (reward.stock !== null) {
      // Taken now (the reward's row stays locked to the end): two requests for the last one never both get it.
      const [left] = await tx
        .update(rewards)
        .set({ stock: sql`${rewards.stock} - 1` })
        .where(and(eq(rewards.id, reward.id), sql`${rewards.stock} > 0`))
        .returning({ id: rewards.id });
      if (!left) throw refused('out_of_stock');
    }
    const valueMinor = toMinorUnits(input.value);
    const cost = pointsFor(input.value, rate);
    // A price past a ledger row's integer (a huge value at a huge rate) is more than anyone holds.
    if (cost > 2_147_483_647) throw refused('insufficient_points', { points: cost });
    if (cost < settings.minimumPoints) throw refused('below_minimum', { minimumPoints: settings.minimumPoints });
    if (settings.oneOpenRequest && ground.openCount > 0) throw refused('open_request_exists');
    if (needsTaxForm(ground, settings, reward, valueMinor)) throw refused('tax_form_required');
    const { available } = ground;
    if (available < cost) throw refused('insufficient_points', { available, points: cost, missing: cost - available });

    // A request nobody needs to look at is approved at once (`approvedBy` null: automatically), and
    // its order queued with it. Without a configured provider there is nothing to order it from: it
    // stays `requested` (an admin's approval then answers 409 `provider_not_configured`).
    const review = needsReview(ground, settings, reward, valueMinor);
    const approved = !review && reward.fulfilment === 'provider' && deps.config.rewardsProvider !== null;
    const [row] = await tx
      .insert(redemptions)
      .values({
        userId: input.userId,
        rewardId: reward.id,
        valueMinor,
        currency: reward.currency,
        points: cost,
        status: approved ? 'approved' : 'requested',
        needsReview: review,
        idempotencyKey: input.key,
        requestedAt: now,
        ...(approved ? { approvedAt: now } : {}),
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('redemption insert returned no row');
    await recordRedemptionEvent(tx, row);
    const value = fromMinorUnits(valueMinor);
    await credit(tx, deps.clock, {
      userId: input.userId,
      points: -cost,
      state: 'held',
      reason: ledgerReason(reward.title, value, reward.currency),
      source: 'redemption',
      reference: pointReference.redemption(row.id),
    });
    await notify(
      tx,
      { userId: input.userId, kind: 'reward', notice: { key: 'reward_requested', reward: reward.title, value, currency: reward.currency }, link: REWARDS_PAGE },
      deps.jobs,
    );
    if (approved) await deps.jobs.send('rewards.order', { redemptionId: row.id }, { tx });
    return { row, reward, created: true };
  });
  // A new request has no delivery yet: its view needs nothing more; a repeated key's is read as any.
  const redemption = made.reward ? redemptionView(made.row, made.reward) : ((await ownerViews(db, deps.config, [made.row]))[0] as Redemption);
  return { redemption, created: made.created };
}

/**
 * Gives a redemption's points back (its hold `voided`) and its stock (custom rewards), in the
 * transaction that moves it to `rejected`, `failed` or `cancelled`. The caller holds the
 * participant's points lock.
 */
export async function releaseHold(tx: Db, clock: Clock, row: Pick<RedemptionRow, 'id' | 'userId' | 'rewardId'>): Promise<void> {
  await setCreditState(tx, clock, { userId: row.userId, source: 'redemption', reference: pointReference.redemption(row.id) }, 'voided');
  await tx
    .update(rewards)
    .set({ stock: sql`${rewards.stock} + 1` })
    .where(and(eq(rewards.id, row.rewardId), sql`${rewards.stock} is not null`));
}

/**
 * `POST /api/redemptions/{id}/cancel`: the participant's own request, while still `requested`
 * (409 `not_cancellable` once approved or closed); its points and stock come back. Another's or
 * an unknown one: 404.
 */
export async function cancelRedemption(db: Db, deps: RedemptionDeps, userId: number, id: number): Promise<Redemption> {
  const row = await db.transaction(async (tx) => {
    await lockPointsOf(tx, userId);
    const [found] = await tx
      .select()
      .from(redemptions)
      .where(and(eq(redemptions.id, id), eq(redemptions.userId, userId)))
      .for('update');
    if (!found) throw notFound('redemption');
    if (found.status !== 'requested') throw new ApiError(409, 'not_cancellable', 'This request can no longer be cancelled: it is being handled or is closed');
    const now = deps.clock.now();
    const [cancelled] = await tx.update(redemptions).set({ status: 'cancelled', cancelledAt: now, updatedAt: now }).where(eq(redemptions.id, id)).returning();
    if (!cancelled) throw new Error('redemption vanished while cancelled');
    await recordRedemptionEvent(tx, cancelled);
    await releaseHold(tx, deps.clock, cancelled);
    const [reward] = await tx.select({ title: rewards.title }).from(rewards).where(eq(rewards.id, cancelled.rewardId));
    await notify(
      tx,
      {
        userId,
        kind: 'reward',
        notice: { key: 'reward_cancelled', reward: reward?.title ?? null, points: cancelled.points },
        link: REWARDS_PAGE,
      },
      deps.jobs,
    );
    return cancelled;
  });
  return (await ownerViews(db, deps.config, [row]))[0] as Redemption;
}

/** `GET /api/redemptions/{id}`: the participant's own (another's or an unknown one: 404). */
export async function getRedemption(db: Db, config: Pick<Config, 'rewardDeliveryKey'>, userId: number, id: number): Promise<Redemption> {
  const [row] = await db
    .select()
    .from(redemptions)
    .where(and(eq(redemptions.id, id), eq(redemptions.userId, userId)))
    .limit(1);
  if (!row) throw notFound('redemption');
  return (await ownerViews(db, config, [row]))[0] as Redemption;
}

/** `GET /api/redemptions`: the participant's own, newest first (the list contract; `q` searches the reward's title). */
export async function listRedemptions(
  db: Db,
  config: Pick<Config, 'rewardDeliveryKey'>,
  userId: number,
  query: ListQuery<'requested'>,
): Promise<ListPage<Redemption>> {
  const where = and(
    eq(redemptions.userId, userId),
    query.q
      ? sql`exists (select 1 from ${rewards} where ${rewards.id} = ${redemptions.rewardId} and ${rewards.title} ilike ${containsPattern(query.q)})`
      : undefined,
  );
  const order = query.dir === 'asc' ? [redemptions.requestedAt, redemptions.id] : [desc(redemptions.requestedAt), desc(redemptions.id)];
  return paginate(query, {
    rows: async (limit, offset) =>
      ownerViews(
        db,
        config,
        await db
          .select()
          .from(redemptions)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
      ),
    count: () => countOf(db.select({ value: count() }).from(redemptions).where(where)),
  });
}
