import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { TOKEN_TYPES } from '../../../shared/tokens.ts';
import { users } from './users.ts';

/** Single-use tokens carried by links in mails. Only the SHA-256 (hex) of the token is stored. */
export const tokens = pgTable(
  'tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: text('token_hash').notNull().unique(),
    type: text('type', { enum: TOKEN_TYPES }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What the link acts on beyond the user, e.g. the new address of an email change. */
    data: jsonb('data').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('tokens_user_type_idx').on(t.userId, t.type),
    check('tokens_type_check', sql`${t.type} in ('onboarding', 'reset-password', 'update-email', 'verify-email', 'data-deletion')`),
  ],
);

export type Token = typeof tokens.$inferSelect;
