/**
 * The password rules as a checklist the forms show while the user types. The rules themselves
 * (and their messages) live in src/shared/schemas/common.ts; these tests are the same ones.
 */
import { formatCount, m } from '../shared/i18n.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../shared/limits.ts';

export interface PasswordRule {
  id: string;
  /** In the page's language, read when shown. */
  readonly label: string;
  test: (password: string) => boolean;
}

/** A rule whose label is its message, said in the language of the moment it is read. */
function rule(id: string, label: () => string, test: (password: string) => boolean): PasswordRule {
  return {
    id,
    get label() {
      return label();
    },
    test,
  };
}

export const PASSWORD_RULES: readonly PasswordRule[] = [
  rule(
    'length',
    () => m.common_password_rule_length({ min: formatCount(PASSWORD_MIN_LENGTH), max: formatCount(PASSWORD_MAX_LENGTH) }),
    (p) => p.length >= PASSWORD_MIN_LENGTH && p.length <= PASSWORD_MAX_LENGTH,
  ),
  rule('lower', m.common_password_rule_lower, (p) => /\p{Ll}/u.test(p)),
  rule('upper', m.common_password_rule_upper, (p) => /\p{Lu}/u.test(p)),
  rule('digit', m.common_password_rule_digit, (p) => /\p{Nd}/u.test(p)),
  rule('special', m.common_password_rule_special, (p) => /[^\p{L}\p{N}\s]/u.test(p)),
];
