import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { NOTIFICATION_KINDS, type Notice } from '../../../shared/notifications.ts';
import { missions } from './missions.ts';
import { users } from './users.ts';

/**
 * What happened that a participant should know (changes asked, rejected, a probe waiting, an
 * approval, a reminder), for the header's notifications menu. The table is also the mail outbox:
 * a job mails the immediate kinds within a minute and approvals once a day as a digest
 * (decision 011).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    /** The sentence in English, as it was when written (rows without a notice show it as it is). */
    text: text('text').notNull(),
    /** What happened, as a message and its values: said in the reader's language when read or mailed (services/notices.ts). */
    notice: jsonb('notice').$type<Notice>(),
    /** A same-site path to the screen it is about. */
    link: text('link').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** When the mail step handled it (mailed, or skipped by the preferences or an inactive account); null: not yet. */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    /**
     * What the notification is about, when a user must hear of it once however often it happens
     * (`new_work:survey:12`, `announcement:3`, `points:ledger:81`): a second insert with the same
     * key for the same user is refused (`on conflict do nothing`). Null: no such rule.
     */
    dedupeKey: text('dedupe_key'),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
    index('notifications_digest_idx').on(t.kind, t.mailedAt),
    uniqueIndex('notifications_user_dedupe_key_idx').on(t.userId, t.dedupeKey),
  ],
);
export type Notification = typeof notifications.$inferSelect;

/** One reminder mail per member and mission (two days before it closes), recorded so none goes twice. */
export const missionReminders = pgTable(
  'mission_reminders',
  {
    missionId: integer('mission_id')
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'mission_reminders_pkey', columns: [t.missionId, t.userId] })],
);
