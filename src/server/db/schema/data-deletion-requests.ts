import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { DATA_DELETION_STATUSES } from '../../../shared/schemas/data-deletion.ts';
import { users } from './users.ts';

/**
 * Requests to delete a person's data (/data-deletion). pending: asked by email, waiting for the
 * mailed link; confirmed: the owner confirmed (password or link); completed / cancelled: closed by
 * an admin. Nothing here deletes data: an admin workflow does that.
 */
export const dataDeletionRequests = pgTable(
  'data_deletion_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The account's address when the request was made (kept when the account is gone). */
    email: text('email').notNull(),
    reason: text('reason'),
    status: text('status', { enum: DATA_DELETION_STATUSES }).notNull().default('pending'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** When and by whom it was completed or cancelled. */
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledBy: integer('handled_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('data_deletion_requests_created_at_idx').on(t.createdAt),
    index('data_deletion_requests_user_idx').on(t.userId),
    check('data_deletion_requests_status_check', sql`${t.status} in ('pending', 'confirmed', 'completed', 'cancelled')`),
  ],
);

export type DataDeletionRequest = typeof dataDeletionRequests.$inferSelect;
