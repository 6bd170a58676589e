/** Points bulk update: payload schemas (browser and server). */
import { z } from '../zod.ts';
import { listQuerySchema } from '../list.ts';

const header = z.string().trim().min(1, 'Choose a column').max(200);

/** The multipart field `columns` of a preview (JSON): the file's header each column is read from. */
export const bulkColumnMapSchema = z.strictObject({
  participant: header,
  points: header,
  reason: header,
  reference: header.nullish(),
});
export type BulkColumnMapInput = z.input<typeof bulkColumnMapSchema>;

/** `POST …/{batchId}/apply`: a batch with problems is applied only with `excludeProblemRows: true` (its clean rows). */
export const bulkApplySchema = z.strictObject({
  excludeProblemRows: z.boolean().default(false),
  /** Apply the rows that would take available points below zero too (they are problems of the preview otherwise). */
  allowNegative: z.boolean().default(false),
});

/** `GET …/batches`: newest first. */
export const bulkBatchListQuerySchema = listQuerySchema(['created']);
