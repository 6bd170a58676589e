/**
 * The admin tools' own records (docs/api.md "Admin: tools"): points bulk-update batches with their
 * rows, and the log of review exports. The Alchemer export append keeps nothing: it answers a file.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * A points bulk-update batch: one uploaded file, checked (`previewed`), then applied once. The
 * content hash (of the rows as read, whatever the file's name or format) is unique: the same
 * content is one batch, so applying it again changes nothing.
 */
export const pointsBatches = pgTable(
  'points_batches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** SHA-256 (hex) of the batch's rows as read: participant, points, reason, reference per line. */
    contentHash: text('content_hash').notNull(),
    fileName: text('file_name').notNull(),
    status: text('status', { enum: ['previewed', 'applied'] })
      .notNull()
      .default('previewed'),
    /** The column map the rows were read with ({ participant, points, reason, reference } → header). */
    columnMap: jsonb('column_map').$type<Record<string, string | null>>().notNull(),
    /** Data rows in the file (the header not counted). */
    rows: integer('rows').notNull(),
    matched: integer('matched').notNull(),
    problemCount: integer('problem_count').notNull(),
    /** Sum of the positive and of the negative points of the clean rows. */
    totalPositive: integer('total_positive').notNull().default(0),
    totalNegative: integer('total_negative').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    appliedBy: integer('applied_by').references(() => users.id, { onDelete: 'set null' }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    /** Applied with the rows that had problems left out. */
    excludedProblemRows: boolean('excluded_problem_rows').notNull().default(false),
    /** Ledger rows this batch wrote when applied (rows already credited under their reference not counted). */
    appliedRows: integer('applied_rows').notNull().default(0),
  },
  (t) => [
    uniqueIndex('points_batches_content_hash_idx').on(t.contentHash),
    index('points_batches_created_idx').on(t.createdAt, t.id),
    check('points_batches_status_check', sql`${t.status} in ('previewed', 'applied')`),
  ],
);
export type PointsBatch = typeof pointsBatches.$inferSelect;

/** One data row of a batch, by its line in the file (the header is line 1). */
export const pointsBatchRows = pgTable(
  'points_batch_rows',
  {
    batchId: integer('batch_id')
      .notNull()
      .references(() => pointsBatches.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    /** The participant cell as written (an email or a Fieldwork id). */
    participant: text('participant').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The points cell as written, and its value when it is a whole number in range. */
    pointsText: text('points_text').notNull(),
    points: integer('points'),
    reason: text('reason').notNull(),
    reference: text('reference'),
    /** The row's problems (column and message), empty for a clean row. */
    problems: jsonb('problems').$type<{ column: string; message: string }[]>().notNull().default([]),
    /**
     * What the row is credited under in the ledger (decision 015): `bulk:ref:<reference>`, or for a
     * row without a reference `bulk:row:<digest of user, points, reason>:<occurrence>`. Set by the
     * preview; null for a row that cannot be credited (and for rows previewed before keys existed).
     */
    ledgerReference: text('ledger_reference'),
    /** A row without a reference: which identical row of the file it is (same user, points and reason: 1, 2, …). */
    occurrence: integer('occurrence'),
    /** After apply: `applied`, `already_applied` (credited before) or `skipped` (a problem row left out). */
    result: text('result'),
    ledgerId: integer('ledger_id'),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.line] })],
);
export type PointsBatchRow = typeof pointsBatchRows.$inferSelect;

/** Each review export made (who, when, filters, format, rows), for the record. */
export const reviewExports = pgTable(
  'review_exports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    format: text('format').notNull(),
    /** The request as made: missions, dates, states, mapping, campaign. */
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    rows: integer('rows').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('review_exports_created_idx').on(t.createdAt, t.id)],
);
export type ReviewExport = typeof reviewExports.$inferSelect;

/**
 * Secrets the server makes for itself, once, so that every process agrees on them (e.g.
 * `media_link`, the key of signed photo links when `MEDIA_LINK_SECRET` is not set). Never shown
 * through the API, never in the audit log.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ServerSecret = typeof serverSecrets.$inferSelect;
