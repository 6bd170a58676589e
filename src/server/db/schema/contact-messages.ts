import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Messages sent through the /contact form; each is also mailed to SUPPORT_EMAIL. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** The sender's address (trimmed, lower-cased); replies go there. */
    email: text('email').notNull(),
    message: text('message').notNull(),
    /** The signed-in sender, if any. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a moderator or admin marked it answered; null while open. */
    handledAt: timestamp('handled_at', { withTimezone: true }),
  },
  (t) => [index('contact_messages_created_at_idx').on(t.createdAt)],
);

export type ContactMessage = typeof contactMessages.$inferSelect;
