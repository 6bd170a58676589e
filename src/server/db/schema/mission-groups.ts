import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { GROUP_UNLOCK_ON, GROUP_UNLOCKS } from '../../../shared/mission-groups.ts';
import { missions } from './missions.ts';
import { projectItemColumns, timestampColumns } from './columns.ts';

/**
 * An ordered list of a project's missions shown together: all open at once (`all_open`) or each
 * opening once the one before it is submitted or approved (`in_order`, `unlockOn`).
 */
export const missionGroups = pgTable(
  'mission_groups',
  {
    ...projectItemColumns(),
    description: text('description').notNull().default(''),
    unlock: text('unlock', { enum: GROUP_UNLOCKS }).notNull().default('all_open'),
    unlockOn: text('unlock_on', { enum: GROUP_UNLOCK_ON }).notNull().default('submitted'),
    ...timestampColumns(),
  },
  (t) => [
    index('mission_groups_project_idx').on(t.projectId),
    check('mission_groups_unlock_check', sql`${t.unlock} in ('all_open', 'in_order') and ${t.unlockOn} in ('submitted', 'approved')`),
  ],
);
export type MissionGroup = typeof missionGroups.$inferSelect;

/** The missions of a group, in order (position 0, 1, …). */
export const missionGroupMissions = pgTable(
  'mission_group_missions',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => missionGroups.id, { onDelete: 'cascade' }),
    missionId: integer('mission_id')
      .notNull()
      .references(() => missions.id),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'mission_group_missions_pkey', columns: [t.groupId, t.position] }),
    uniqueIndex('mission_group_missions_group_mission_idx').on(t.groupId, t.missionId),
    index('mission_group_missions_mission_idx').on(t.missionId),
  ],
);
