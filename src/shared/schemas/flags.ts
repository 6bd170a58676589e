import { z } from '../zod.ts';
import { FLAG_KEY_PATTERN, type FlagValue } from '../flags.ts';
import { MESSAGES } from '../messages.ts';

/** Serialised size a flag value may have. */
export const FLAG_VALUE_MAX_BYTES = 8 * 1024;

export const flagKeySchema = z
  .string({ error: MESSAGES.required })
  .min(1, { error: MESSAGES.required, abort: true })
  .regex(FLAG_KEY_PATTERN, 'Use lower-case letters, digits, ".", "_" or "-", starting with a letter (at most 64)');

/** `GET /api/feature-flags?feature=`. */
export const featureFlagQuerySchema = z.object({ feature: flagKeySchema });

export const FLAG_NULL_MESSAGE = 'A flag cannot be null: remove it instead';

/** `PUT /api/admin/flags/:key` body: any JSON value but null (an unset flag reads as null), at most 8 KiB. */
export const flagUpdateSchema = z.strictObject({
  // The body is parsed JSON, so any value present is a JSON value.
  value: z
    .custom<FlagValue>((value) => value !== undefined, { error: MESSAGES.required, abort: true })
    .refine((value) => value !== null, { error: FLAG_NULL_MESSAGE, abort: true })
    .refine((value) => new TextEncoder().encode(JSON.stringify(value)).byteLength <= FLAG_VALUE_MAX_BYTES, MESSAGES.tooLong),
});
export type FlagUpdateInput = z.infer<typeof flagUpdateSchema>;
