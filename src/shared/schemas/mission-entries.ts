/** Mission entries' payloads (zod): the admin's submission list, and taking part. Constants and answer types: `../mission-entries.ts`. */
import { z } from '../zod.ts';
import { answersSchema } from '../forms/definition.ts';
import { ENTRY_STATUSES } from '../mission-entries.ts';
import { TIME_ZONE_MAX } from '../time-zone.ts';
import { revisionSchema } from './answers.ts';
import { enumOf } from './fields.ts';

export const submissionListQuerySchema = z.object({
  status: enumOf(ENTRY_STATUSES).optional(),
  /** Participant's name or email contains. */
  q: z.string().trim().max(200).optional(),
  /** Submitted (or created, for drafts) on or after / before, `YYYY-MM-DD`. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

/** `POST /api/missions/{id}/entries`: the browser's IANA time zone (the diary's calendar day); UTC when absent. */
export const entryCreateSchema = z.strictObject({ timeZone: z.string().max(TIME_ZONE_MAX).optional() });
/** `PUT /api/missions/{id}/entries/{entryId}`: `revision` may be left out only while the entry was never saved. */
export const entrySaveSchema = z.strictObject({ answers: answersSchema, revision: revisionSchema.optional() });
/** `POST /api/missions/{id}/entries/{entryId}/submit`: `{}`, or the answers to save first; `revision` (optional): when given, a stale one is 409 `conflict`. */
export const entrySubmitSchema = z.strictObject({ answers: answersSchema.optional(), revision: revisionSchema.optional() });
