import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Answers } from '../../../shared/forms/definition.ts';
import { LANGUAGES } from '../../../shared/languages.ts';
import { ACTIVITY_STATUSES, type ItemTranslations } from '../../../shared/projects.ts';
import { EXTERNAL_OUTCOMES, RESPONSE_STATUSES, SURVEY_KINDS } from '../../../shared/surveys.ts';
import { forms } from './forms.ts';
import { projectItemColumns, timestampColumns } from './columns.ts';
import { users } from './users.ts';

/**
 * Surveys of a project: `native` (a pinned published version of a form) or `external` (an
 * Alchemer link that carries an opaque per-participant reference and returns to Fieldwork).
 */
export const surveys = pgTable(
  'surveys',
  {
    ...projectItemColumns(),
    description: text('description').notNull().default(''),
    /** The title's and description's translations (decision 035): `{ "title": { "de": "…" } }`. */
    translations: jsonb('translations').$type<ItemTranslations>().notNull().default({}),
    kind: text('kind', { enum: SURVEY_KINDS }).notNull(),
    formId: integer('form_id').references(() => forms.id),
    /** The published version new responses are given; a response keeps the version it started on. */
    formVersion: integer('form_version'),
    externalUrl: text('external_url'),
    /** External surveys: a "complete" return credits points at once instead of waiting for the export. */
    trustReturns: boolean('trust_returns').notNull().default(false),
    /** External surveys: the secret each outcome's return key (`k`) is derived from; made with the survey. */
    returnKey: text('return_key'),
    /** External surveys: SHA-256 (hex) of the webhook secret Alchemer sends; null until one is made. */
    webhookSecretHash: text('webhook_secret_hash'),
    points: integer('points').notNull().default(0),
    estimatedMinutes: integer('estimated_minutes'),
    opensAt: timestamp('opens_at', { withTimezone: true }),
    closesAt: timestamp('closes_at', { withTimezone: true }),
    status: text('status', { enum: ACTIVITY_STATUSES }).notNull().default('draft'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestampColumns(),
  },
  (t) => [
    index('surveys_project_idx').on(t.projectId),
    index('surveys_form_idx').on(t.formId),
    check('surveys_kind_check', sql`${t.kind} in ('native', 'external')`),
    check('surveys_status_check', sql`${t.status} in ('draft', 'live', 'closed')`),
    check('surveys_native_form_check', sql`${t.kind} <> 'native' or (${t.formId} is not null and ${t.formVersion} is not null)`),
    check('surveys_points_check', sql`${t.points} >= 0`),
  ],
);
export type Survey = typeof surveys.$inferSelect;

/** The head of a participant's response or external reference: its id, its survey and its participant. */
const surveyParticipantColumns = () => ({
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  surveyId: integer('survey_id')
    .notNull()
    .references(() => surveys.id),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
});

/** A participant's answers to a native survey: one per (survey, participant), autosaved, then submitted once. */
export const surveyResponses = pgTable(
  'survey_responses',
  {
    ...surveyParticipantColumns(),
    /** The form version this response was shown (pinned when it started). */
    formVersion: integer('form_version').notNull(),
    answers: jsonb('answers').$type<Answers>().notNull().default({}),
    /** Bumped by every save and submit (1 after the first): a save names the revision it was based on. */
    revision: integer('revision').notNull().default(1),
    /** The page the participant was on at the last autosave: they resume there, on any device. */
    pageId: text('page_id'),
    /** The language the answers were last saved or submitted in (one the version offers; decision 035); null: its source language. */
    language: text('language', { enum: LANGUAGES }),
    status: text('status', { enum: RESPONSE_STATUSES }).notNull().default('draft'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('survey_responses_survey_user_idx').on(t.surveyId, t.userId),
    index('survey_responses_user_idx').on(t.userId),
    index('survey_responses_survey_status_idx').on(t.surveyId, t.status, t.submittedAt),
    // The CSV export's pages and the results' slices: by id within the survey (docs/api.md, "Results").
    index('survey_responses_survey_id_idx').on(t.surveyId, t.id),
    check('survey_responses_status_check', sql`${t.status} in ('draft', 'submitted')`),
  ],
);
export type SurveyResponse = typeof surveyResponses.$inferSelect;

/**
 * External survey references: each start hands the participant an opaque `pid` (≥128 random bits)
 * that Alchemer carries back; only its SHA-256 is stored. The first outcome returned for a
 * reference is kept, later ones change nothing.
 */
export const surveyExternalRefs = pgTable(
  'survey_external_refs',
  {
    ...surveyParticipantColumns(),
    pidHash: text('pid_hash').notNull(),
    outcome: text('outcome', { enum: EXTERNAL_OUTCOMES }),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    /** When Alchemer's webhook confirmed this reference's outcome server to server. */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('survey_external_refs_pid_hash_idx').on(t.pidHash),
    index('survey_external_refs_survey_user_idx').on(t.surveyId, t.userId),
    check('survey_external_refs_outcome_check', sql`${t.outcome} is null or ${t.outcome} in ('complete', 'screened_out', 'over_quota')`),
  ],
);
export type SurveyExternalRef = typeof surveyExternalRefs.$inferSelect;
