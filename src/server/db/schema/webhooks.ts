import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { WebhookDeliveryStatus, WebhookDisabledReason, WebhookEventType, WebhookMessageType } from '../../../shared/webhooks.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * Outgoing webhooks' endpoints (issue 32 §1): where an admin wants events sent. The signing secret
 * is sealed (AES-256-GCM, services/secret-box.ts, context `webhook:<id>`), never in clear; during
 * a rotation the previous one still signs until `previous_secret_until`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').array().$type<WebhookEventType[]>().notNull(),
    /** Only this project's events (null: every project's, and those of no project). A deleted project takes its endpoints with it. */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull().default(true),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    disabledReason: text('disabled_reason').$type<WebhookDisabledReason>(),
    /** Since when every delivery has failed: set by the first failure, cleared by any success. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_project_idx').on(t.projectId),
    check('webhook_endpoints_disabled_reason_check', sql`${t.disabledReason} is null or ${t.disabledReason} in ('failing', 'admin')`),
  ],
);
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * The outbox: one row per event, written in the transaction of the change it reports (only while
 * an enabled endpoint asks for its type). `id` (`msg_…`) is the `webhook-id` of every attempt.
 * `fanned_out_at` is set when its deliveries were made (the `webhooks.fan-out` job, or the
 * `webhooks.sweep` safety net for an event whose job did not run).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    type: text('type').$type<WebhookMessageType>().notNull(),
    /** The event's `data`. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    projectId: integer('project_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    fannedOutAt: timestamp('fanned_out_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_events_created_idx').on(t.createdAt, t.id),
    // The sweep's look for events whose fan-out did not run.
    index('webhook_events_unfanned_idx')
      .on(t.createdAt)
      .where(sql`${t.fannedOutAt} is null`),
  ],
);
export type WebhookEventRow = typeof webhookEvents.$inferSelect;

/**
 * One attempt to send an event to an endpoint: `pending` when queued (due at `scheduled_at`), then
 * `succeeded` or `failed` with what the receiver answered (at most 64 KB kept). The attempts of an
 * (endpoint, event) are numbered from 1; `manual` marks a resend or a test (one attempt, no retries).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    manual: boolean('manual').notNull().default(false),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    responseStatus: integer('response_status'),
    latencyMs: integer('latency_ms'),
    responseExcerpt: text('response_excerpt'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_attempt_idx').on(t.endpointId, t.eventId, t.attempt),
    // An endpoint's deliveries, newest first (its list and its last delivery).
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_event_idx').on(t.eventId),
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
    check('webhook_deliveries_attempt_check', sql`${t.attempt} >= 1`),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
