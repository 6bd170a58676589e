/** Reviewing mission entries, probes, notes and reason templates: payload schemas (browser and server). */
import { z } from '../zod.ts';
import { answerLanguageFilterSchema } from './answers.ts';
import { filterDaySchema } from './fields.ts';
import { LIST_SEARCH_MAX, listQuerySchema } from '../list.ts';
import { MESSAGES } from '../messages.ts';
import { ENTRY_STATUSES } from '../mission-entries.ts';
import {
  decodeInboxCursor,
  decodeQueueCursor,
  REVIEW_QUEUE_SORTS,
  DECISIONS_NEEDING_A_REASON,
  PROBE_FILTERS,
  REASON_TEMPLATE_KINDS,
  REVIEW_DECISIONS,
  REVIEW_INBOX_ALL,
  REVIEW_INBOX_LIMIT,
  REVIEW_LIMITS,
  type ReviewDecision,
} from '../review.ts';

const requiredText = (max: number) =>
  z.string({ error: MESSAGES.required }).trim().min(1, { error: MESSAGES.required, abort: true }).max(max, MESSAGES.tooLong);

/**
 * `POST /api/admin/submissions/{id}/review`: a reason is required to ask for changes or reject;
 * `expectedStatus` (what the screen showed) makes a decision on a changed entry a 409.
 */
export const reviewDecisionSchema = z
  .strictObject({
    decision: z.enum(REVIEW_DECISIONS, { error: MESSAGES.invalidEnumValue }),
    reason: z.string({ error: 'Must be text' }).trim().max(REVIEW_LIMITS.reasonMax, MESSAGES.tooLong).optional(),
    /** The status the moderator's screen showed: a decision on an entry that has changed since is 409 `changed`. */
    expectedStatus: z.enum(ENTRY_STATUSES, { error: MESSAGES.invalidEnumValue }).optional(),
  })
  .superRefine((value, ctx) => {
    if (DECISIONS_NEEDING_A_REASON.includes(value.decision as ReviewDecision) && !value.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: MESSAGES.required });
  });
export type ReviewDecisionInput = z.input<typeof reviewDecisionSchema>;

/** `POST /api/admin/submissions/review`: bulk approve of the selected entries. */
export const bulkReviewSchema = z.strictObject({
  ids: z
    .array(z.number().int().min(1).max(2_147_483_647), { error: MESSAGES.required })
    .min(1, MESSAGES.required)
    .max(REVIEW_LIMITS.bulkMax, `At most ${REVIEW_LIMITS.bulkMax} at a time`),
  decision: z.literal('approve', { error: 'Only approve can be done in bulk' }),
});

/** `POST /api/admin/submissions/{id}/probes`. */
export const probeCreateSchema = z.strictObject({ question: requiredText(REVIEW_LIMITS.questionMax) });
/** `POST /api/account/probes/{id}/answer`. */
export const probeAnswerSchema = z.strictObject({ answer: requiredText(REVIEW_LIMITS.answerMax) });
/** `POST /api/admin/submissions/{id}/notes`. */
export const reviewNoteSchema = z.strictObject({ body: requiredText(REVIEW_LIMITS.noteMax) });
/** `POST /api/admin/projects/{id}/reason-templates`. */
export const reasonTemplateSchema = z.strictObject({
  kind: z.enum(REASON_TEMPLATE_KINDS, { error: MESSAGES.invalidEnumValue }),
  text: requiredText(REVIEW_LIMITS.templateMax),
});

/** What the inbox says of a cursor it did not give out (or one spoilt on the way). */
export const BAD_CURSOR_MESSAGE = 'This cursor is not one the queue gave out: ask for the first page again';

/** A `cursor` query parameter read by `decode`: absent or empty is none; one it cannot read is a 400 on `cursor`. */
const cursorParam = <C>(decode: (raw: string) => C | null) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      const cursor = decode(raw);
      if (!cursor) {
        ctx.addIssue({ code: 'custom', message: BAD_CURSOR_MESSAGE });
        return z.NEVER;
      }
      return cursor;
    });

/**
 * The review queue: `GET /api/admin/missions/{id}/submissions?status=&q=&from=&to=&probes=&page=&pageSize=&sort=&dir=`
 * (the list contract, `../list.ts`; the first sort key is the default).
 */
export { REVIEW_QUEUE_SORTS };
export const reviewQueueQuerySchema = listQuerySchema(REVIEW_QUEUE_SORTS)
  .extend({
    status: z.enum(ENTRY_STATUSES, { error: MESSAGES.invalidEnumValue }).optional(),
    from: filterDaySchema.optional(),
    to: filterDaySchema.optional(),
    /** `waiting`: only entries with a probe waiting for the participant's answer. */
    probes: z.enum(PROBE_FILTERS).optional(),
    /** Only entries answered in this language (decision 035). */
    language: answerLanguageFilterSchema.optional(),
    /** The `nextCursor` of the page before (keyset paging on the sort; `page` then only names the page). */
    cursor: cursorParam(decodeQueueCursor),
  })
  .superRefine((value, ctx) => {
    // A cursor is a row's place in one order: the sort and direction it was given out for.
    const dir = value.dir ?? (value.sort === 'name' ? 'asc' : 'desc');
    if (value.cursor && (value.cursor.sort !== value.sort || value.cursor.dir !== dir))
      ctx.addIssue({ code: 'custom', path: ['cursor'], message: BAD_CURSOR_MESSAGE });
  });

const rowId = z.coerce.number({ error: 'Must be a number' }).int('Must be a whole number').min(1, 'Must be 1 or more').max(2_147_483_647, 'Too large');

/**
 * The review inbox, the queue across projects:
 * `GET /api/admin/submissions?status=&projectId=&missionId=&q=&from=&to=&probes=&cursor=&limit=`.
 * `status` defaults to `submitted` (`all`: every status but drafts); `limit` 1–100, 20 by default;
 * `cursor` is the `nextCursor` of the page before (parsed here; anything else is a 400 on `cursor`).
 */
export const reviewInboxQuerySchema = z.object({
  status: z.enum([REVIEW_INBOX_ALL, ...ENTRY_STATUSES], { error: MESSAGES.invalidEnumValue }).default('submitted'),
  projectId: rowId.optional(),
  missionId: rowId.optional(),
  q: z.string().trim().max(LIST_SEARCH_MAX, MESSAGES.tooLong).optional(),
  from: filterDaySchema.optional(),
  to: filterDaySchema.optional(),
  /** `waiting`: only entries with a probe waiting for the participant's answer. */
  probes: z.enum(PROBE_FILTERS).optional(),
  /** Only entries answered in this language (decision 035). */
  language: answerLanguageFilterSchema.optional(),
  cursor: cursorParam(decodeInboxCursor),
  limit: z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1, 'Must be 1 or more')
    .max(REVIEW_INBOX_LIMIT.max, `At most ${REVIEW_INBOX_LIMIT.max}`)
    .default(REVIEW_INBOX_LIMIT.default),
});
export type ReviewInboxQuery = z.output<typeof reviewInboxQuerySchema>;
