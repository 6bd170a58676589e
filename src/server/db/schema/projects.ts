import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { PROJECT_STATUSES } from '../../../shared/projects.ts';
import { users } from './users.ts';

/**
 * Projects hold surveys, missions and mission groups for their members. Participants only ever
 * see live projects they belong to. `draft` → `live` → `closed`; `archived` hides a project.
 */
export const projects = pgTable(
  'projects',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    client: text('client').notNull().default(''),
    description: text('description').notNull().default(''),
    status: text('status', { enum: PROJECT_STATUSES }).notNull().default('draft'),
    /** Calendar dates (`YYYY-MM-DD`), informative: what opens and closes is set per survey and mission. */
    startsAt: date('starts_at', { mode: 'string' }),
    endsAt: date('ends_at', { mode: 'string' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('projects_status_updated_idx').on(t.status, t.updatedAt),
    index('projects_name_lower_idx').on(sql`lower(${t.name})`),
    check('projects_status_check', sql`${t.status} in ('draft', 'live', 'closed', 'archived')`),
  ],
);
export type Project = typeof projects.$inferSelect;

/** Who takes part in a project. */
export const projectMembers = pgTable(
  'project_members',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedBy: integer('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the member first submitted something in the project (a survey response, an external
     * survey's return, a mission entry): the dashboard's completion per project counts these.
     */
    firstContributionAt: timestamp('first_contribution_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'project_members_pkey', columns: [t.projectId, t.userId] }),
    index('project_members_user_idx').on(t.userId),
    // The token API's participants of a project, oldest member first, by keyset (`GET /api/v1/projects/{id}/participants`).
    index('project_members_added_idx').on(t.projectId, t.addedAt, t.userId),
    index('project_members_contributed_idx')
      .on(t.projectId)
      .where(sql`${t.firstContributionAt} is not null`),
  ],
);
export type ProjectMember = typeof projectMembers.$inferSelect;
