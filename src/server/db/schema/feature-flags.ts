import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { FlagValue } from '../../../shared/flags.ts';
import { users } from './users.ts';

/** Runtime switches (banner, maintenance, …), changed without a rebuild. */
export const featureFlags = pgTable('feature_flags', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<FlagValue>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

export type FeatureFlag = typeof featureFlags.$inferSelect;
