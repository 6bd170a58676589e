import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';
import { emailSchema, nameSchema } from './common.ts';

import { CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGE_MIN_LENGTH } from '../limits.ts';

export { CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGE_MIN_LENGTH };

/** The messages of the contact form beyond the generic ones. */
export const CONTACT_MESSAGES = {
  messageTooShort: `Write at least ${CONTACT_MESSAGE_MIN_LENGTH} characters`,
  messageTooLong: `Keep it under ${CONTACT_MESSAGE_MAX_LENGTH} characters`,
} as const;

/** The /contact form: who you are, how to answer you, and what you want to tell us. */
export const contactSchema = z.strictObject({
  name: nameSchema,
  email: emailSchema,
  message: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .min(CONTACT_MESSAGE_MIN_LENGTH, CONTACT_MESSAGES.messageTooShort)
    .max(CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGES.messageTooLong),
});
export type ContactInput = z.infer<typeof contactSchema>;
