/** Redemptions (issue 30): the participant's payload schemas (browser and server). */
import { listQuerySchema } from '../list.ts';
import { MESSAGES } from '../messages.ts';
import { REDEMPTION_STATUSES, REWARD_LIMITS } from '../rewards.ts';
import { z } from '../zod.ts';
import { filterDaySchema } from './fields.ts';

/** 1 to 200 printable characters: what a retry sends again. */
export const idempotencyKeySchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, 'Send an Idempotency-Key header')
  .max(REWARD_LIMITS.idempotencyKeyMax, MESSAGES.tooLong)
  .regex(/^[\x21-\x7e]+$/, 'Use printable characters only (no spaces)');

/**
 * `POST /api/redemptions`: a reward and one of its values. The retry key comes in the
 * `Idempotency-Key` header or as `key` here (the header wins when both are sent).
 */
export const redemptionCreateSchema = z.strictObject({
  rewardId: z.number({ error: MESSAGES.required }).int('Choose a reward').positive('Choose a reward').max(2_147_483_647, 'Choose a reward'),
  value: z
    .number({ error: MESSAGES.required })
    .positive('Choose a value')
    .max(REWARD_LIMITS.valueMax, `At most ${REWARD_LIMITS.valueMax.toLocaleString('en')}`)
    // Values are in the currency's units with at most two decimals (cents).
    .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, 'At most two decimals'),
  key: idempotencyKeySchema.optional(),
});
export type RedemptionCreateInput = z.input<typeof redemptionCreateSchema>;

/** `GET /api/redemptions`: the list contract; newest first. */
export const redemptionListQuerySchema = listQuerySchema(['requested']);

/** The fulfilment queue's sorts: when requested (the first: oldest first by default), then id. */
export const ADMIN_REDEMPTION_SORTS = ['requested', 'id'] as const;
export type AdminRedemptionSort = (typeof ADMIN_REDEMPTION_SORTS)[number];

const dayFilter = filterDaySchema.optional();
const statusField = z.enum(REDEMPTION_STATUSES, { error: MESSAGES.invalidEnumValue });

/**
 * `GET /api/admin/redemptions`: the list contract plus `status`, `rewardId`, `from` / `to` (request
 * days, inclusive, UTC); `q` searches the participant's e-mail and name. Oldest first.
 */
export const adminRedemptionListQuerySchema = listQuerySchema(ADMIN_REDEMPTION_SORTS)
  .extend({
    status: statusField.optional(),
    rewardId: z.coerce
      .number({ error: 'Must be a positive integer' })
      .int('Must be a positive integer')
      .min(1, 'Must be a positive integer')
      .max(2_147_483_647)
      .optional(),
    from: dayFilter,
    to: dayFilter,
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ['to'], message: 'Must be on or after the start date' });
export type AdminRedemptionListQuery = z.output<typeof adminRedemptionListQuerySchema>;

/**
 * `GET /api/admin/redemptions.csv`: the reconciliation file of a period — request days `from` /
 * `to` (inclusive, UTC) and an optional `status`; every redemption of them, in id order.
 */
export const redemptionExportQuerySchema = z
  .object({ status: statusField.optional(), from: dayFilter, to: dayFilter })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ['to'], message: 'Must be on or after the start date' });
export type RedemptionExportQuery = z.output<typeof redemptionExportQuerySchema>;

/** `POST /api/admin/redemptions/{id}/approve`: the status the screen showed (409 `conflict` when it moved on). */
export const redemptionApproveSchema = z.strictObject({ expectedStatus: statusField });

/** `POST /api/admin/redemptions/{id}/reject`: the reason the participant reads, and the status the screen showed. */
export const redemptionRejectSchema = z.strictObject({
  reason: z.string({ error: MESSAGES.required }).trim().min(1, 'Say why').max(REWARD_LIMITS.reasonMax, MESSAGES.tooLong),
  expectedStatus: statusField,
});

const optionalText = (max: number) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), z.string().trim().max(max, MESSAGES.tooLong).optional());

/** `POST /api/admin/redemptions/{id}/deliver` (manual rewards): a code, an https link or both, and a note for the participant. */
export const redemptionDeliverSchema = z
  .strictObject({
    code: optionalText(REWARD_LIMITS.codeMax),
    link: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      z
        .string()
        .trim()
        .max(REWARD_LIMITS.linkMax, MESSAGES.tooLong)
        .refine((value) => {
          try {
            return new URL(value).protocol === 'https:';
          } catch {
            return false;
          }
        }, 'Give an https:// link')
        .optional(),
    ),
    note: optionalText(REWARD_LIMITS.noteMax),
  })
  .refine((input) => input.code !== undefined || input.link !== undefined, { path: ['code'], message: 'Give a code or a link' });
export type RedemptionDeliverInput = z.output<typeof redemptionDeliverSchema>;

/** The most requests one bulk approval takes. */
export const REDEMPTION_BULK_MAX = 500;

/** `POST /api/admin/redemptions/approve`: 1 to 500 ids, and the status the screen showed. */
export const redemptionBulkApproveSchema = z.strictObject({
  ids: z
    .array(z.number({ error: 'Must be a positive integer' }).int().min(1).max(2_147_483_647), { error: MESSAGES.required })
    .min(1, 'Choose at least one request')
    .max(REDEMPTION_BULK_MAX, `At most ${REDEMPTION_BULK_MAX} at a time`),
  expectedStatus: statusField,
});
