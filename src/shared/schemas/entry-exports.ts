/** The answers export's query (zod). Constants and the address: `../entry-exports.ts`. */
import { z } from '../zod.ts';
import { filterDaySchema } from './fields.ts';
import { ENTRY_EXPORT_DAYS_MESSAGE, ENTRY_EXPORT_FORMATS, ENTRY_EXPORT_STATUSES } from '../entry-exports.ts';

/** A query value left empty (`status=`) is the same as one not given. */
const blankIsUnset = (value: unknown) => (value === '' ? undefined : value);

const day = z.preprocess(blankIsUnset, filterDaySchema.optional());

/**
 * `GET /api/admin/{missions|projects}/{id}/entries/export?format=&status=&from=&to=`: `format`
 * `csv` (default) or `xlsx`; `status` one entry status or `all` (default: every status but
 * drafts); `from`, `to` UTC days, inclusive, on when the entry was submitted (created, for drafts).
 */
export const entryExportQuerySchema = z
  .object({
    format: z.preprocess(blankIsUnset, z.enum(ENTRY_EXPORT_FORMATS, { error: 'Choose csv or xlsx' }).default('csv')),
    status: z.preprocess(blankIsUnset, z.enum(ENTRY_EXPORT_STATUSES, { error: `Choose one of ${ENTRY_EXPORT_STATUSES.join(', ')}` }).default('all')),
    from: day,
    to: day,
  })
  .superRefine((value, ctx) => {
    if (value.from && value.to && value.to < value.from) ctx.addIssue({ code: 'custom', path: ['to'], message: ENTRY_EXPORT_DAYS_MESSAGE });
  });
export type EntryExportQuery = z.output<typeof entryExportQuerySchema>;
