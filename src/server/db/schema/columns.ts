/**
 * Column sets several tables share, spread into their definitions. Each call makes new column
 * builders, so every table gets its own columns (the SQL is that of the columns written out).
 */
import { integer, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';

/** The head of a project's survey, mission or mission group: its id, its project and its title. */
export const projectItemColumns = () => ({
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  projectId: integer('project_id')
    .notNull()
    .references(() => projects.id),
  title: text('title').notNull(),
});

/** When the row was made and last changed. */
export const timestampColumns = () => ({
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
