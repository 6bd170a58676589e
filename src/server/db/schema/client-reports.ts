import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Error reports and actions sent by browsers (docs/product.md §3), one row per content hash. */
export const clientReports = pgTable(
  'client_reports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** SHA-1 of the report's content, as the browser de-duplicates by it. */
    hash: text('hash').notNull().unique(),
    url: text('url').notNull(),
    userAgent: text('user_agent'),
    data: jsonb('data').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    count: integer('count').notNull().default(1),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('client_reports_last_seen_idx').on(t.lastSeenAt),
    // The errors (everything but actions such as page_load): what the screen and the dashboard show by default.
    index('client_reports_errors_idx')
      .on(t.lastSeenAt)
      .where(sql`${t.data}->>'type' <> 'action'`),
  ],
);

export type ClientReport = typeof clientReports.$inferSelect;
