/** Redemptions (issue 30): the participant's payload schemas (browser and server). */
import { listQuerySchema } from '../list.ts';
import { MESSAGES } from '../messages.ts';
import { REWARD_LIMITS } from '../rewards.ts';
import { z } from '../zod.ts';

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
