import { z } from '../zod.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../limits.ts';
import { atMostCharacters, MESSAGES } from '../messages.ts';
import { ROLES } from '../roles.ts';

/** A required string: missing, not a string or empty all read "Required". */
export const requiredString = () => z.string({ error: MESSAGES.required }).min(1, { error: MESSAGES.required, abort: true });

/**
 * Email as docs/product.md §5: trimmed, lower-cased, required, at most 255 characters ("Too long"
 * there; `tooLong` for a form of ours, such as registration's "At most 255 characters"), valid.
 */
export const emailField = (tooLong: string = MESSAGES.tooLong) =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .toLowerCase()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(EMAIL_MAX_LENGTH, tooLong)
    .pipe(z.email({ error: MESSAGES.invalidEmail }));

export const emailSchema = emailField();

/** True when the password has a digit, a lower-case letter, an upper-case letter and a special character. */
export function hasAllCharacterClasses(password: string): boolean {
  return /\p{Nd}/u.test(password) && /\p{Ll}/u.test(password) && /\p{Lu}/u.test(password) && /[^\p{L}\p{N}\s]/u.test(password);
}

/** A new password: docs/product.md's four character classes and 8 to 128 characters, never truncated. */
export const passwordSchema = z
  .string({ error: MESSAGES.required })
  .min(1, { error: MESSAGES.required, abort: true })
  .min(PASSWORD_MIN_LENGTH, MESSAGES.tooShort)
  .max(PASSWORD_MAX_LENGTH, MESSAGES.tooLong)
  .refine(hasAllCharacterClasses, MESSAGES.missingRequirements);

export const nameSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, { error: MESSAGES.required, abort: true })
  .max(NAME_MAX_LENGTH, atMostCharacters(NAME_MAX_LENGTH));

export const roleSchema = z.enum(ROLES, { error: MESSAGES.invalidEnumValue });
