/**
 * Mission entries' payloads (zod) for taking part; the admin's list of a mission's entries is the
 * review queue (`./review.ts`). Constants and answer types: `../mission-entries.ts`.
 */
import { z } from '../zod.ts';
import { answersSchema } from '../forms/definition.ts';
import { TIME_ZONE_MAX } from '../time-zone.ts';
import { answerLanguageSchema, revisionSchema } from './answers.ts';

/** `POST /api/missions/{id}/entries`: the browser's IANA time zone (the diary's calendar day); UTC when absent. */
export const entryCreateSchema = z.strictObject({ timeZone: z.string().max(TIME_ZONE_MAX).optional() });
/** `PUT /api/missions/{id}/entries/{entryId}`: `revision` may be left out only while the entry was never saved. */
export const entrySaveSchema = z.strictObject({ answers: answersSchema, revision: revisionSchema.optional(), language: answerLanguageSchema.optional() });
/** `POST /api/missions/{id}/entries/{entryId}/submit`: `{}`, or the answers to save first; `revision` (optional): when given, a stale one is 409 `conflict`. */
export const entrySubmitSchema = z.strictObject({
  answers: answersSchema.optional(),
  revision: revisionSchema.optional(),
  language: answerLanguageSchema.optional(),
});
