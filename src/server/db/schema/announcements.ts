import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * What staff tell a project's members (a title and a Markdown text): shown on their home while the
 * project is live, and sent to each of them as an `announcement` notification and a mail (the
 * `announcement.send` job, services/announcements.ts).
 */
export const announcements = pgTable(
  'announcements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** Markdown. */
    body: text('body').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('announcements_project_created_idx').on(t.projectId, t.createdAt)],
);
export type Announcement = typeof announcements.$inferSelect;
