import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';
import { emailSchema, requiredString } from './common.ts';

import { DATA_DELETION_REASON_MAX_LENGTH } from '../limits.ts';

export { DATA_DELETION_REASON_MAX_LENGTH };

/** Where a data-deletion request stands; a later admin workflow does the deleting. */
export const DATA_DELETION_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled'] as const;
export type DataDeletionStatus = (typeof DATA_DELETION_STATUSES)[number];

/** Which closing step a request in a status allows (the API and the admin screen): completed only once confirmed; cancelled while open. */
export function canMoveTo(from: DataDeletionStatus, to: 'completed' | 'cancelled'): boolean {
  return to === 'completed' ? from === 'confirmed' : from === 'pending' || from === 'confirmed';
}

/** Why the person leaves: optional, free text; blank counts as none. */
const reasonSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .max(DATA_DELETION_REASON_MAX_LENGTH, MESSAGES.tooLong)
  .transform((reason) => (reason === '' ? undefined : reason))
  .optional();

/** Signed in: the current password confirms the request at once. */
export const dataDeletionSignedInSchema = z.strictObject({ currentPassword: requiredString(), reason: reasonSchema });
export type DataDeletionSignedInInput = z.infer<typeof dataDeletionSignedInSchema>;

/** Not signed in: the account's email; a confirmation link goes there. */
export const dataDeletionByEmailSchema = z.strictObject({ email: emailSchema, reason: reasonSchema });
export type DataDeletionByEmailInput = z.infer<typeof dataDeletionByEmailSchema>;

/** An admin closes a request: done (the data is gone) or cancelled. */
export const dataDeletionUpdateSchema = z.strictObject({
  status: z.enum(['completed', 'cancelled'], { error: MESSAGES.invalidEnumValue }),
});
export type DataDeletionUpdateInput = z.infer<typeof dataDeletionUpdateSchema>;
