/** Points: payload schemas (browser and server). */
import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';
import { POINTS_LIMITS } from '../points.ts';

/** `POST /api/admin/users/{id}/points`: a signed, non-zero whole number with a reason; the same reference twice answers the first entry. */
export const pointsAdjustSchema = z.strictObject({
  points: z
    .number({ error: MESSAGES.required })
    .int('Enter a whole number')
    .refine((value) => value !== 0, 'Enter a number other than 0')
    .refine((value) => Math.abs(value) <= POINTS_LIMITS.adjustmentMax, `At most ${POINTS_LIMITS.adjustmentMax} either way`),
  reason: z.string({ error: MESSAGES.required }).trim().min(1, { error: MESSAGES.required, abort: true }).max(POINTS_LIMITS.reasonMax, MESSAGES.tooLong),
  reference: z.string().trim().min(1, MESSAGES.required).max(POINTS_LIMITS.referenceMax, MESSAGES.tooLong).optional(),
  /** Take points away even below zero `available` (else 409 `insufficient_points`). */
  allowNegative: z.boolean().optional(),
});
export type PointsAdjustInput = z.input<typeof pointsAdjustSchema>;

export const pointsHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
