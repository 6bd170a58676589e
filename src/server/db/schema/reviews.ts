import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Answers } from '../../../shared/forms/definition.ts';
import { REASON_TEMPLATE_KINDS, REVIEW_DECISION_STATUSES } from '../../../shared/review.ts';
import { missionEntries } from './missions.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * Every submission of an entry, kept: a resubmission after changes were asked is a new version,
 * and the reviewer compares it with the earlier ones. Versions are never changed once written;
 * the decisions taken on them are rows of `entry_decisions`.
 */
export const entrySubmissions = pgTable(
  'entry_submissions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => missionEntries.id, { onDelete: 'cascade' }),
    /** 1, 2, … per entry. */
    version: integer('version').notNull(),
    formVersion: integer('form_version').notNull(),
    answers: jsonb('answers').$type<Answers>().notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('entry_submissions_entry_version_idx').on(t.entryId, t.version)],
);
export type EntrySubmission = typeof entrySubmissions.$inferSelect;

/**
 * Every decision taken on an entry, in order: each is a new row on the version it decided (the
 * latest submitted one at the time), never an update of an earlier row, so the history shows
 * every decision as it was taken. The entry's current status is its latest decision's.
 */
export const entryDecisions = pgTable(
  'entry_decisions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => missionEntries.id, { onDelete: 'cascade' }),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => entrySubmissions.id, { onDelete: 'cascade' }),
    decision: text('decision', { enum: REVIEW_DECISION_STATUSES }).notNull(),
    reason: text('reason'),
    /** Null for an automatic review (and when the account has since been deleted). */
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('entry_decisions_entry_idx').on(t.entryId, t.id),
    index('entry_decisions_submission_idx').on(t.submissionId, t.id),
    check('entry_decisions_decision_check', sql`${t.decision} in ('approved', 'changes_requested', 'rejected')`),
  ],
);
export type EntryDecision = typeof entryDecisions.$inferSelect;

/** Internal notes on an entry: moderators and admins only, never shown to participants. */
export const reviewNotes = pgTable(
  'review_notes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => missionEntries.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('review_notes_entry_idx').on(t.entryId, t.createdAt)],
);
export type ReviewNote = typeof reviewNotes.$inferSelect;

/** Follow-up questions a moderator asks on an entry; the participant answers from their mission history. */
export const probes = pgTable(
  'probes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => missionEntries.id, { onDelete: 'cascade' }),
    askedBy: integer('asked_by').references(() => users.id, { onDelete: 'set null' }),
    question: text('question').notNull(),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull().defaultNow(),
    answer: text('answer'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    index('probes_entry_idx').on(t.entryId, t.askedAt),
    index('probes_waiting_idx')
      .on(t.entryId)
      .where(sql`${t.answeredAt} is null`),
  ],
);
export type Probe = typeof probes.$inferSelect;

/** Reasons a project keeps for asking changes or rejecting, so reviewers need not type them again. */
export const reasonTemplates = pgTable(
  'reason_templates',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REASON_TEMPLATE_KINDS }).notNull(),
    text: text('text').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reason_templates_project_idx').on(t.projectId, t.kind), check('reason_templates_kind_check', sql`${t.kind} in ('request_changes', 'reject')`)],
);
export type ReasonTemplate = typeof reasonTemplates.$inferSelect;
