import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { RewardSettings, RewardValues } from '../../../shared/rewards.ts';
import { REDEMPTION_STATUSES, REWARD_FULFILMENTS, REWARD_KINDS } from '../../../shared/rewards.ts';
import { media } from './media.ts';
import { users } from './users.ts';

/** The rewards catalogue (issue 30): what points can become. */
export const rewards = pgTable(
  'rewards',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: REWARD_KINDS }).notNull(),
    fulfilment: text('fulfilment', { enum: REWARD_FULFILMENTS }).notNull(),
    /** The gift-card provider's product id (provider fulfilment). */
    providerProductId: text('provider_product_id'),
    /** ISO 4217, upper case. */
    currency: text('currency').notNull(),
    /** Fixed denominations (`[10, 25]`) or a range (`{ min, max, step }`), in the currency's units. */
    denominations: jsonb('denominations').$type<RewardValues>().notNull(),
    /** ISO 3166-1 alpha-2 codes where it may be redeemed; empty: everywhere. */
    countries: jsonb('countries').$type<string[]>().notNull().default([]),
    imageMediaId: text('image_media_id').references(() => media.id, { onDelete: 'set null' }),
    active: boolean('active').notNull().default(true),
    /** Custom rewards: how many are left (null: no limit). Taken in the transaction of a request, given back on release. */
    stock: integer('stock'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('rewards_active_idx').on(t.active, t.id),
    check('rewards_kind_check', sql`${t.kind} in ('gift_card', 'donation', 'custom')`),
    check('rewards_fulfilment_check', sql`${t.fulfilment} in ('manual', 'provider')`),
    check('rewards_stock_check', sql`${t.stock} is null or ${t.stock} >= 0`),
  ],
);
export type Reward = typeof rewards.$inferSelect;

/** The community's rewards settings: one row (id 1), written whole by `PUT /api/admin/rewards/settings`. */
export const rewardSettings = pgTable(
  'reward_settings',
  {
    id: integer('id').primaryKey().default(1),
    settings: jsonb('settings').$type<RewardSettings>().notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('reward_settings_one_row', sql`${t.id} = 1`)],
);

/**
 * A participant's request to turn points into a reward. Its points are held in the ledger (a
 * `redemption` entry in state `held`, reference `redemption:{id}`) from the request on; the hold
 * is posted (`available`: spent) on delivery and released (`voided`) on rejection, failure or
 * cancellation, in the transaction that moves the status. Each status has its time.
 */
export const redemptions = pgTable(
  'redemptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rewardId: integer('reward_id')
      .notNull()
      .references(() => rewards.id, { onDelete: 'restrict' }),
    /** The value in the currency's minor units (cents). */
    valueMinor: integer('value_minor').notNull(),
    currency: text('currency').notNull(),
    points: integer('points').notNull(),
    status: text('status', { enum: REDEMPTION_STATUSES }).notNull(),
    /** Whether it waits for a person's approval (first redemption, above the approval value, manual fulfilment). */
    needsReview: boolean('needs_review').notNull().default(true),
    /** Why it was rejected or failed, as the participant reads it. */
    reason: text('reason'),
    /** The participant's `Idempotency-Key`: the same key again answers this redemption. */
    idempotencyKey: text('idempotency_key').notNull(),
    /** The provider's order id (provider fulfilment). */
    providerOrderId: text('provider_order_id'),
    /** The delivered code and/or link, sealed (AES-256-GCM, services/secret-box.ts): never in clear. */
    deliverySealed: text('delivery_sealed'),
    /** Staff's note on the delivery (never the code). */
    note: text('note'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: integer('approved_by').references(() => users.id, { onDelete: 'set null' }),
    orderingAt: timestamp('ordering_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    deliveredBy: integer('delivered_by').references(() => users.id, { onDelete: 'set null' }),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    rejectedBy: integer('rejected_by').references(() => users.id, { onDelete: 'set null' }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('redemptions_user_key_idx').on(t.userId, t.idempotencyKey),
    index('redemptions_user_requested_idx').on(t.userId, t.requestedAt, t.id),
    // The fulfilment queue: a status, oldest first.
    index('redemptions_status_requested_idx').on(t.status, t.requestedAt, t.id),
    index('redemptions_reward_idx').on(t.rewardId),
    // The provider's webhooks name its order (services/reward-fulfilment.ts).
    index('redemptions_provider_order_idx').on(t.providerOrderId),
    check('redemptions_status_check', sql`${t.status} in ('requested', 'approved', 'ordering', 'delivered', 'rejected', 'failed', 'cancelled')`),
    check('redemptions_points_check', sql`${t.points} > 0 and ${t.valueMinor} > 0`),
  ],
);
export type RedemptionRow = typeof redemptions.$inferSelect;

/**
 * The gift-card provider's webhook events already handled (services/reward-fulfilment.ts): a
 * second delivery of the same event (the provider retries until it hears 200) changes nothing.
 * `event_id` is the provider's own id of the event (Tremendous: `uuid`).
 */
export const rewardWebhookEvents = pgTable(
  'reward_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
