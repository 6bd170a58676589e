import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { Answers } from '../../../shared/forms/definition.ts';
import { ENTRY_STATUSES } from '../../../shared/mission-entries.ts';
import { REVIEW_MODES } from '../../../shared/missions.ts';
import { LANGUAGES } from '../../../shared/languages.ts';
import { ACTIVITY_STATUSES, type ItemTranslations } from '../../../shared/projects.ts';
import { forms } from './forms.ts';
import { projectItemColumns, timestampColumns } from './columns.ts';
import { users } from './users.ts';

/**
 * Missions of a project: instructions and a pinned form version; each participant makes between
 * `entriesMin` and `entriesMax` entries, at most `perDay` a calendar day of their own (a diary).
 */
export const missions = pgTable(
  'missions',
  {
    ...projectItemColumns(),
    /** Markdown; images uploaded in the editor are media the instructions link to. */
    instructions: text('instructions').notNull().default(''),
    /** The title's and instructions' translations (decision 035): `{ "instructions": { "ar": "…" } }`. */
    translations: jsonb('translations').$type<ItemTranslations>().notNull().default({}),
    formId: integer('form_id')
      .notNull()
      .references(() => forms.id),
    formVersion: integer('form_version').notNull(),
    points: integer('points').notNull().default(0),
    /** The product a product-review mission is about (GTIN, EAN or SKU): the review export's product id. */
    productId: text('product_id'),
    opensAt: timestamp('opens_at', { withTimezone: true }),
    closesAt: timestamp('closes_at', { withTimezone: true }),
    review: text('review', { enum: REVIEW_MODES }).notNull().default('manual'),
    entriesMin: integer('entries_min').notNull().default(1),
    entriesMax: integer('entries_max').notNull().default(1),
    /** Most entries per calendar day of the participant; null: no daily limit. */
    perDay: integer('per_day'),
    status: text('status', { enum: ACTIVITY_STATUSES }).notNull().default('draft'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestampColumns(),
  },
  (t) => [
    index('missions_project_idx').on(t.projectId),
    index('missions_form_idx').on(t.formId),
    check('missions_status_check', sql`${t.status} in ('draft', 'live', 'closed')`),
    check('missions_review_check', sql`${t.review} in ('manual', 'automatic')`),
    check('missions_entries_check', sql`${t.entriesMin} >= 1 and ${t.entriesMax} >= ${t.entriesMin} and (${t.perDay} is null or ${t.perDay} >= 1)`),
    check('missions_points_check', sql`${t.points} >= 0`),
  ],
);
export type Mission = typeof missions.$inferSelect;

/**
 * A participant's entry in a mission (a "submission" to reviewers): a draft (autosaved), then
 * submitted, then reviewed (approved, changes requested or rejected: `services/review.ts`). A draft counts against the limits until it is deleted.
 */
export const missionEntries = pgTable(
  'mission_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    missionId: integer('mission_id')
      .notNull()
      .references(() => missions.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    formVersion: integer('form_version').notNull(),
    answers: jsonb('answers').$type<Answers>().notNull().default({}),
    /** Bumped by every save and submit: a save names the revision it was based on (two devices never overwrite each other). */
    revision: integer('revision').notNull().default(0),
    status: text('status', { enum: ENTRY_STATUSES }).notNull().default('draft'),
    /** The language the answers were last saved or submitted in (one the version offers; decision 035); null: its source language. */
    language: text('language', { enum: LANGUAGES }),
    /** The participant's calendar day when the entry was made (their time zone), for the per-day limit. */
    localDate: date('local_date', { mode: 'string' }).notNull(),
    timeZone: text('time_zone').notNull().default('UTC'),
    ...timestampColumns(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    /** Times submitted: 2 or more means the latest submission is a resubmission after changes were asked. */
    submissionCount: integer('submission_count').notNull().default(0),
    /** The reviewer's reason for the current decision (changes requested, rejected), shown to the participant. */
    reviewReason: text('review_reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    index('mission_entries_mission_user_idx').on(t.missionId, t.userId, t.localDate),
    index('mission_entries_user_idx').on(t.userId),
    index('mission_entries_mission_status_idx').on(t.missionId, t.status, t.submittedAt),
    // The review queue across projects (oldest first, keyset) and the dashboard's waiting count.
    index('mission_entries_waiting_idx')
      .on(t.submittedAt, t.id)
      .where(sql`${t.status} = 'submitted'`),
    // A mission's review queue, latest first by its moment (`reviewQueue`, services/review.ts; keyset or page):
    // one status (the screen's `status=submitted`), and every status but drafts.
    index('mission_entries_queue_idx').on(t.missionId, t.status, sql`(coalesce(${t.submittedAt}, ${t.createdAt}))`, t.id),
    index('mission_entries_queue_reviewable_idx')
      .on(t.missionId, sql`(coalesce(${t.submittedAt}, ${t.createdAt}))`, t.id)
      .where(sql`${t.status} <> 'draft'`),
    // Submissions per day on the dashboard.
    index('mission_entries_submitted_at_idx')
      .on(t.submittedAt)
      .where(sql`${t.submittedAt} is not null`),
    check('mission_entries_status_check', sql`${t.status} in ('draft', 'submitted', 'approved', 'changes_requested', 'rejected')`),
  ],
);
export type MissionEntry = typeof missionEntries.$inferSelect;
