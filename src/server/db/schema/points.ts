import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { POINT_SOURCES, POINT_STATES } from '../../../shared/points.ts';
import { users } from './users.ts';

/**
 * The points ledger: append-only. An entry's amount never changes; its state moves pending →
 * available, or to voided (a rejected entry). Corrections are new entries. One (user, source,
 * reference) is credited at most once — the unique key makes retries, double clicks and several
 * processes safe.
 */
export const pointsLedger = pgTable(
  'points_ledger',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Signed: adjustments may take points away. */
    points: integer('points').notNull(),
    state: text('state', { enum: POINT_STATES }).notNull(),
    /** Shown to the participant. */
    reason: text('reason').notNull(),
    source: text('source', { enum: POINT_SOURCES }).notNull(),
    /** What was credited: `mission-entry:42`, `survey:7`, `external-survey:7`, or an adjustment's own reference. */
    reference: text('reference').notNull(),
    /** Who made an adjustment (null for credits the system made). */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the state last moved (pending → available, → voided). */
    stateChangedAt: timestamp('state_changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('points_ledger_user_source_reference_idx').on(t.userId, t.source, t.reference),
    index('points_ledger_user_created_idx').on(t.userId, t.createdAt),
    // The dashboard's points of the month: an index-only scan.
    index('points_ledger_created_idx').on(t.createdAt, t.state, t.points),
    check('points_ledger_state_check', sql`${t.state} in ('pending', 'available', 'voided', 'held')`),
    check('points_ledger_source_check', sql`${t.source} in ('survey', 'mission', 'adjustment', 'bulk', 'external_survey', 'redemption')`),
  ],
);
export type PointsEntry = typeof pointsLedger.$inferSelect;
