/**
 * Provider fulfilment (issue 30 §4; docs/decisions/033-reward-provider.md): an approved
 * `provider` redemption is ordered from the gift-card provider by the durable job `rewards.order`,
 * queued in the transaction that approved it (services/redemptions.ts, redemptions-admin.ts).
 *
 * The job, for one redemption:
 * 1. one transaction takes it: `approved` → `ordering` (its time), or an `ordering` one again (a
 *    retry); anything else is done with. Committed before the provider is asked, so a second
 *    attempt knows an order may exist.
 * 2. asks the provider with the redemption's own key (`redemption:{id}`, the same every time): a
 *    provider that has it answers the order it made. A process killed between the order and its
 *    record is retried, asks again with the same key, and nothing is paid twice.
 * 3. one transaction records the answer under the participant's points lock: delivered (the link
 *    or code sealed, the hold posted — points spent — the participant notified), failed (the hold
 *    released, notified) or still pending (its order id kept; the webhook or the poll finish it).
 *
 * A final refusal (a 4xx: an unknown product, insufficient funds) fails the redemption at once; a
 * timeout, a 5xx or a 429 throws, and the queue retries with back-off — with the same key.
 * `rewards.poll` asks about orders left `ordering` (a pending order, a retry that ran out); the
 * provider's webhook (signed, each event once) queues the job for the redemption it names.
 */
import { and, asc, eq, lt } from 'drizzle-orm';
import { pointReference } from '../../shared/points.ts';
import { fromMinorUnits, REWARD_PROVIDER_FAILED } from '../../shared/rewards.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { redemptions, rewards, rewardWebhookEvents, type RedemptionRow } from '../db/schema/index.ts';
import type { JobSender } from '../jobs/queue.ts';
import type { Logger } from '../logger.ts';
import { audit } from './audit.ts';
import { rewardNotice } from './notices.ts';
import type { Clock } from './clock.ts';
import { notify } from './notifications.ts';
import { lockPointsOf, personName, setCreditState } from './points.ts';
import { providerExternalId, ProviderRefusal, type ProviderOrder, type ProviderWebhookEvent, type RewardProvider } from './reward-provider.ts';
import { TremendousProvider } from './reward-provider-tremendous.ts';
import { REWARDS_PAGE, releaseHold } from './redemptions.ts';
import { rewardDeliveryKey, sealDelivery } from './secret-box.ts';
import { recordRedemptionEvent } from './webhooks.ts';

export interface FulfilmentDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'rewardsProvider' | 'rewardDeliveryKey' | 'rewardsStaleMs'>;
  jobs: JobSender;
  logger: Logger;
}

/** What `rewards.order` did with a redemption. */
export type FulfilmentOutcome = 'delivered' | 'failed' | 'pending' | 'skipped';

const made = new WeakMap<object, RewardProvider>();

/** The configured provider (one per configuration), or null with `REWARDS_PROVIDER=none`. */
export function rewardProviderOf(config: Pick<Config, 'rewardsProvider'>): RewardProvider | null {
  const settings = config.rewardsProvider;
  if (!settings) return null;
  let provider = made.get(settings);
  if (!provider) {
    provider = new TremendousProvider(settings);
    made.set(settings, provider);
  }
  return provider;
}

function providerOrThrow(deps: FulfilmentDeps): RewardProvider {
  const provider = rewardProviderOf(deps.config);
  // Approved while a provider was configured, run after it was removed: kept for a retry (an operator sets it again).
  if (!provider) throw new Error('REWARDS_PROVIDER is none: a provider reward cannot be ordered until a provider is configured');
  return provider;
}

/** Step 1: takes the redemption for ordering; null when there is nothing to order (not approved or ordering, not a provider reward). */
async function take(deps: FulfilmentDeps, id: number) {
  return deps.db.transaction(async (tx) => {
    const [owner] = await tx.select({ userId: redemptions.userId }).from(redemptions).where(eq(redemptions.id, id));
    if (!owner) return null;
    const person = await lockPointsOf(tx, owner.userId);
    const [row] = await tx.select().from(redemptions).where(eq(redemptions.id, id)).for('update');
    if (!row || !person || (row.status !== 'approved' && row.status !== 'ordering')) return null;
    const [reward] = await tx.select().from(rewards).where(eq(rewards.id, row.rewardId));
    if (reward?.fulfilment !== 'provider') return null;
    const now = deps.clock.now();
    // `updatedAt` is when the provider was last asked: the poll asks about the oldest first.
    await tx
      .update(redemptions)
      .set({ status: 'ordering', ...(row.status === 'approved' ? { orderingAt: now } : {}), updatedAt: now })
      .where(eq(redemptions.id, id));
    if (row.status === 'approved') await recordRedemptionEvent(tx, { ...row, status: 'ordering' });
    return {
      providerOrderId: row.providerOrderId,
      request: {
        externalId: providerExternalId(id),
        productId: reward.providerProductId ?? '',
        value: fromMinorUnits(row.valueMinor),
        currency: row.currency,
        recipient: { email: person.email, name: personName(person) },
      },
    };
  });
}

/**
 * Step 3: records the provider's answer, if the redemption is still `ordering` (a webhook's job and
 * the poll may both have asked: the first to record wins, the other changes nothing).
 */
async function record(deps: FulfilmentDeps, id: number, order: ProviderOrder): Promise<FulfilmentOutcome> {
  const key = order.state === 'delivered' ? await rewardDeliveryKey(deps.db, deps.config) : undefined;
  return deps.db.transaction(async (tx) => {
    const [owner] = await tx.select({ userId: redemptions.userId }).from(redemptions).where(eq(redemptions.id, id));
    if (!owner) return 'skipped';
    await lockPointsOf(tx, owner.userId);
    const [row] = await tx.select().from(redemptions).where(eq(redemptions.id, id)).for('update');
    if (row?.status !== 'ordering') return 'skipped';
    const [reward] = await tx.select({ title: rewards.title }).from(rewards).where(eq(rewards.id, row.rewardId));
    const now = deps.clock.now();
    if (order.state === 'pending') {
      await tx.update(redemptions).set({ providerOrderId: order.orderId, updatedAt: now }).where(eq(redemptions.id, id));
      return 'pending';
    }
    if (order.state === 'failed') {
      await failLocked(tx, deps, row, reward, order.message, order.orderId);
      return 'failed';
    }
    if (!key) throw new Error('no delivery key');
    await tx
      .update(redemptions)
      .set({ status: 'delivered', providerOrderId: order.orderId, deliverySealed: sealDelivery(key, id, order.delivery), deliveredAt: now, updatedAt: now })
      .where(eq(redemptions.id, id));
    await recordRedemptionEvent(tx, { ...row, status: 'delivered' });
    await setCreditState(tx, deps.clock, { userId: row.userId, source: 'redemption', reference: pointReference.redemption(id) }, 'available');
    await audit(tx, {
      via: 'system',
      action: 'redemption.deliver',
      targetType: 'redemption',
      targetId: id,
      before: { status: 'ordering' },
      // Never the link or code: that one was delivered, and by which order.
      after: { status: 'delivered', delivered: true, provider: deps.config.rewardsProvider?.name ?? null, providerOrderId: order.orderId, userId: row.userId },
    });
    await notify(tx, { userId: row.userId, kind: 'reward', notice: rewardNotice('reward_sent', row, reward), link: REWARDS_PAGE }, deps.jobs);
    return 'delivered';
  });
}

/** Fails a locked `ordering` row: the participant's reason, the hold released, audited with the provider's words, notified. */
async function failLocked(
  tx: Db,
  deps: FulfilmentDeps,
  row: RedemptionRow,
  reward: { title: string } | undefined,
  providerMessage: string,
  orderId: string | null,
): Promise<void> {
  const now = deps.clock.now();
  await tx
    .update(redemptions)
    .set({ status: 'failed', reason: REWARD_PROVIDER_FAILED, failedAt: now, updatedAt: now, ...(orderId ? { providerOrderId: orderId } : {}) })
    .where(eq(redemptions.id, row.id));
  await recordRedemptionEvent(tx, { ...row, status: 'failed' });
  await releaseHold(tx, deps.clock, row);
  await audit(tx, {
    via: 'system',
    action: 'redemption.fail',
    targetType: 'redemption',
    targetId: row.id,
    before: { status: 'ordering' },
    after: { status: 'failed', providerMessage, provider: deps.config.rewardsProvider?.name ?? null, providerOrderId: orderId || null, userId: row.userId },
  });
  await notify(tx, { userId: row.userId, kind: 'reward', notice: rewardNotice('reward_failed', row, reward), link: REWARDS_PAGE }, deps.jobs);
}

/** A final refusal of the order: the redemption fails (if still `ordering`). */
async function refuse(deps: FulfilmentDeps, id: number, refusal: ProviderRefusal): Promise<FulfilmentOutcome> {
  return record(deps, id, { state: 'failed', orderId: '', message: `${refusal.status}: ${refusal.message}` });
}

/**
 * `rewards.order`: orders (or asks again about) one redemption — the three steps of the module's
 * comment. Throws what may pass (the queue retries with the same key).
 */
export async function fulfilRedemption(deps: FulfilmentDeps, id: number): Promise<FulfilmentOutcome> {
  const provider = providerOrThrow(deps);
  const taken = await take(deps, id);
  if (!taken) return 'skipped';
  let order: ProviderOrder;
  try {
    // Known to the provider: read it; not known (or never recorded): order with the same key, which answers an order already made.
    order = (taken.providerOrderId ? await provider.getOrder(taken.providerOrderId) : null) ?? (await provider.placeOrder(taken.request));
  } catch (error) {
    if (!(error instanceof ProviderRefusal)) throw error;
    deps.logger.warn({ redemptionId: id, status: error.status, providerMessage: error.message }, 'the reward provider refused an order');
    return refuse(deps, id, error);
  }
  const outcome = await record(deps, id, order);
  deps.logger.info({ redemptionId: id, providerOrderId: order.orderId, outcome }, 'reward order recorded');
  return outcome;
}

/**
 * `rewards.poll`: asks the provider about every redemption left `ordering` for longer than
 * `rewardsStaleMs` (10 minutes), the longest waiting first, 100 at a time. One that cannot be asked
 * now is logged and asked again at the next run.
 */
export async function pollProviderOrders(deps: FulfilmentDeps): Promise<Record<FulfilmentOutcome | 'errors', number>> {
  const done = { delivered: 0, failed: 0, pending: 0, skipped: 0, errors: 0 };
  if (!rewardProviderOf(deps.config)) return done;
  const before = new Date(deps.clock.now().getTime() - deps.config.rewardsStaleMs);
  const waiting = await deps.db
    .select({ id: redemptions.id })
    .from(redemptions)
    .where(and(eq(redemptions.status, 'ordering'), lt(redemptions.updatedAt, before)))
    .orderBy(asc(redemptions.updatedAt), asc(redemptions.id))
    .limit(100);
  for (const { id } of waiting) {
    try {
      done[await fulfilRedemption(deps, id)]++;
    } catch (error) {
      done.errors++;
      deps.logger.warn({ err: error, redemptionId: id }, 'reward order could not be checked; the next poll asks again');
    }
  }
  return done;
}

/** What a webhook delivery did. */
export type WebhookOutcome = 'queued' | 'duplicate' | 'ignored';

/**
 * A verified webhook event: recorded once (a second delivery of the same id is `duplicate` and
 * changes nothing), and when it names an order of a redemption still `ordering`, `rewards.order`
 * is queued for it in the same transaction — the job asks the provider how the order stands
 * (the event's word alone moves no points).
 */
export async function handleProviderEvent(deps: FulfilmentDeps, provider: RewardProvider, event: ProviderWebhookEvent): Promise<WebhookOutcome> {
  const [seen] = await deps.db
    .select({ id: rewardWebhookEvents.eventId })
    .from(rewardWebhookEvents)
    .where(and(eq(rewardWebhookEvents.provider, provider.name), eq(rewardWebhookEvents.eventId, event.id)));
  if (seen) return 'duplicate';
  // Rewards' events name the reward: its order is asked for first (outside the transaction; a failure answers 503 and the provider retries).
  const orderId =
    event.resource.kind === 'order' ? event.resource.id : event.resource.kind === 'reward' ? await provider.orderIdOfReward(event.resource.id) : null;
  return deps.db.transaction(async (tx) => {
    const [first] = await tx
      .insert(rewardWebhookEvents)
      .values({ provider: provider.name, eventId: event.id, event: event.type.slice(0, 200) })
      .onConflictDoNothing()
      .returning({ id: rewardWebhookEvents.eventId });
    if (!first) return 'duplicate';
    if (!orderId) return 'ignored';
    const [row] = await tx
      .select({ id: redemptions.id })
      .from(redemptions)
      .where(and(eq(redemptions.providerOrderId, orderId), eq(redemptions.status, 'ordering')));
    if (!row) return 'ignored';
    await deps.jobs.send('rewards.order', { redemptionId: row.id }, { tx });
    return 'queued';
  });
}
