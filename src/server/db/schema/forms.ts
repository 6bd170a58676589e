import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { FormDefinition, FormDraft } from '../../../shared/forms/definition.ts';
import { FORM_STATUSES } from '../../../shared/schemas/forms.ts';
import { users } from './users.ts';

/**
 * Forms built in the form builder: a title and one working draft (`fieldwork.form/1`, saved
 * whenever it is well-formed). Publishing freezes the draft as the next row of form_versions.
 * Forms are archived, never deleted: their versions hold the answers' meaning.
 */
export const forms = pgTable(
  'forms',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Follows the draft's title whenever a draft with a non-empty title is saved. */
    title: text('title').notNull(),
    draft: jsonb('draft').$type<FormDraft>().notNull(),
    /** Goes up by one at each draft save; a save names the revision it was based on. */
    revision: integer('revision').notNull().default(1),
    /** `draft` (never published), `published` or `archived`. */
    status: text('status', { enum: FORM_STATUSES }).notNull().default('draft'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [
    index('forms_updated_at_idx').on(t.updatedAt, t.id),
    index('forms_title_lower_idx').on(sql`lower(${t.title})`),
    check('forms_status_check', sql`${t.status} in ('draft', 'published', 'archived')`),
  ],
);

export type Form = typeof forms.$inferSelect;

/** The published versions of a form, numbered 1, 2, … per form; never changed once written. */
export const formVersions = pgTable(
  'form_versions',
  {
    formId: integer('form_id')
      .notNull()
      .references(() => forms.id),
    version: integer('version').notNull(),
    /** The definition as published (strict `formDefinitionSchema` shape). */
    definition: jsonb('definition').$type<FormDefinition>().notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    publishedBy: integer('published_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ name: 'form_versions_pkey', columns: [t.formId, t.version] }), check('form_versions_version_check', sql`${t.version} >= 1`)],
);

export type FormVersionRow = typeof formVersions.$inferSelect;
