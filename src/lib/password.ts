/**
 * The password rules as a checklist the forms show while the user types. The rules themselves
 * (and their messages) live in src/shared/schemas/common.ts; these tests are the same ones.
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../shared/limits.ts';

export interface PasswordRule {
  id: string;
  label: string;
  test: (password: string) => boolean;
}

export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    id: 'length',
    label: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    test: (p) => p.length >= PASSWORD_MIN_LENGTH && p.length <= PASSWORD_MAX_LENGTH,
  },
  { id: 'lower', label: 'A lower-case letter', test: (p) => /\p{Ll}/u.test(p) },
  { id: 'upper', label: 'An upper-case letter', test: (p) => /\p{Lu}/u.test(p) },
  { id: 'digit', label: 'A digit', test: (p) => /\p{Nd}/u.test(p) },
  { id: 'special', label: 'A special character, such as ! ? # or @', test: (p) => /[^\p{L}\p{N}\s]/u.test(p) },
];
