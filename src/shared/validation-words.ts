/**
 * The product's validation messages in the reader's language (issue 31). The zod schemas and the
 * API keep saying them in English, word for word as docs/product.md §5 and §8 give them: the
 * English text is the key. The browser turns each into its message where it shows a field error
 * or a form's alert (src/lib/form-errors.ts, src/lib/lazy-resolver.ts), a mail where it words one
 * (`translateValidation(text, language)`); a text none of these is (a sentence of a screen's own,
 * or one already translated) is shown as it is.
 *
 * Never a process-wide zod locale: the server answers every caller in English.
 */
import { currentLanguage, m } from './i18n.ts';
import type { Language } from './languages.ts';
import { CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGE_MIN_LENGTH } from './limits.ts';
import { MESSAGES } from './messages.ts';
import { TOTP } from './second-factors.ts';

type Options = { locale?: Language };

/** A number in the language's digits, without grouping ("5000", as the English texts have it). */
function plainNumber(value: number, locale: Language | undefined): string {
  return value.toLocaleString(locale ?? currentLanguage(), { useGrouping: false });
}

/**
 * Exact English texts → their message. Kept as the message functions themselves (called when a
 * text is shown, in that moment's language), never as texts.
 *
 * The schemas' own constants live in zod modules the browser loads lazily; these are their texts,
 * and tests/unit/i18n/validation-words.test.ts holds each one to its constant.
 */
const EXACT: ReadonlyMap<string, (options: Options) => string> = new Map<string, (options: Options) => string>([
  // docs/product.md §5, §8 (src/shared/messages.ts)
  [MESSAGES.required, (o) => m.validation_required({}, o)],
  [MESSAGES.tooLong, (o) => m.validation_too_long({}, o)],
  [MESSAGES.invalidEmail, (o) => m.validation_invalid_email({}, o)],
  [MESSAGES.missingRequirements, (o) => m.validation_missing_requirements({}, o)],
  [MESSAGES.passwordsDoNotMatch, (o) => m.validation_passwords_do_not_match({}, o)],
  [MESSAGES.tooShort, (o) => m.validation_too_short({}, o)],
  [MESSAGES.invalidEnumValue, (o) => m.validation_invalid_enum_value({}, o)],
  // The contact form (src/shared/schemas/contact-messages.ts, CONTACT_MESSAGES)
  [
    `Write at least ${CONTACT_MESSAGE_MIN_LENGTH} characters`,
    (o) => m.validation_contact_message_too_short({ count: plainNumber(CONTACT_MESSAGE_MIN_LENGTH, o.locale) }, o),
  ],
  [
    `Keep it under ${CONTACT_MESSAGE_MAX_LENGTH} characters`,
    (o) => m.validation_contact_message_too_long({ count: plainNumber(CONTACT_MESSAGE_MAX_LENGTH, o.locale) }, o),
  ],
  // Sign-in's second step (src/shared/schemas/sign-in.ts, second-factors.ts)
  ['Give one of: a code, a recovery code or a passkey', (o) => m.validation_sign_in_one_second_step({}, o)],
  ['Give your password (and code), or use a passkey', (o) => m.validation_sign_in_one_password({}, o)],
  ['A code goes with the password', (o) => m.validation_sign_in_code_with_password({}, o)],
  ['Must be true or false', (o) => m.validation_true_or_false({}, o)],
  [`Enter the ${TOTP.digits}-digit code from your authenticator app`, (o) => m.validation_totp_code({ digits: plainNumber(TOTP.digits, o.locale) }, o)],
  ['Enter one of your recovery codes', (o) => m.validation_recovery_code({}, o)],
  // Passwords and the account (src/server/services/common-passwords.ts, account.ts; routes/account.ts)
  ['This password is too common: choose another', (o) => m.validation_common_password({}, o)],
  ['Incorrect password', (o) => m.validation_incorrect_password({}, o)],
  ['This is already your email address', (o) => m.validation_already_your_email({}, o)],
  ['Choose a time zone from the list', (o) => m.validation_time_zone_from_list({}, o)],
  // Date ranges (src/shared/schemas: users, projects, redemptions, audit, review-exports)
  ['Must be on or after the start date', (o) => m.validation_on_or_after_start_date({}, o)],
  // Other fields' messages of the schemas (src/shared/schemas) and the API (src/server), screens of every area
  ['Accept the terms of use and the privacy policy to continue', (o) => m.validation_accept_terms({}, o)],
  ['Choose a country', (o) => m.validation_choose_country({}, o)],
  ['Enter the year as four digits, like 1985', (o) => m.validation_birth_year_digits({}, o)],
  ['Year of birth cannot be in the future', (o) => m.validation_birth_year_future({}, o)],
  ['Choose a reward', (o) => m.validation_choose_reward({}, o)],
  ['Choose one of the values this reward offers', (o) => m.validation_reward_value_offered({}, o)],
  ['Must be text', (o) => m.validation_must_be_text({}, o)],
  ['Must be a number', (o) => m.validation_must_be_number({}, o)],
  ['Must be a positive integer', (o) => m.validation_must_be_positive_integer({}, o)],
  ['Must be a whole number', (o) => m.validation_must_be_whole_number({}, o)],
  ['Must be a positive number', (o) => m.validation_must_be_positive_number({}, o)],
  ['Must be 1 or more', (o) => m.validation_must_be_one_or_more({}, o)],
  ['Enter a whole number', (o) => m.validation_enter_whole_number({}, o)],
  ['Enter a whole number of points', (o) => m.validation_enter_whole_points({}, o)],
  ['Enter a date (YYYY-MM-DD)', (o) => m.validation_enter_date({}, o)],
  ['Enter a date and time', (o) => m.validation_enter_date_time({}, o)],
  ['Enter a date from 1900 to 9998', (o) => m.validation_date_from_1900({}, o)],
  ['Too large', (o) => m.validation_too_large({}, o)],
  ['At least 1', (o) => m.validation_at_least_one({}, o)],
  ['Enter 0 or more', (o) => m.validation_zero_or_more({}, o)],
  ['Enter 1 or more', (o) => m.validation_one_or_more({}, o)],
  ['Enter a number other than 0', (o) => m.validation_not_zero({}, o)],
  ['At most two decimals', (o) => m.validation_two_decimals({}, o)],
  ['Say why', (o) => m.validation_say_why({}, o)],
  ['Must be on or after the “from” day', (o) => m.validation_entry_export_days({}, o)],
  ['Enter a currency code (ISO 4217, e.g. EUR)', (o) => m.validation_currency_code({}, o)],
  ['Upload an image', (o) => m.validation_upload_image({}, o)],
  ['Give a role or a status', (o) => m.validation_role_or_status({}, o)],
  ['Give fixed values or a range, not both', (o) => m.validation_values_or_range({}, o)],
  ['Give a code or a link', (o) => m.validation_code_or_link({}, o)],
  ['Must be at least the minimum', (o) => m.validation_at_least_minimum({}, o)],
  ['Must be after the opening time', (o) => m.validation_after_opening_time({}, o)],
  ['Choose a form', (o) => m.validation_choose_form({}, o)],
  ['Enter the survey’s https:// link', (o) => m.validation_survey_link({}, o)],
  ['Enter the campaign id for Bazaarvoice', (o) => m.validation_bazaarvoice_campaign({}, o)],
  ['Choose at least one mission', (o) => m.validation_choose_mission({}, o)],
  ['Choose at least one request', (o) => m.validation_choose_request({}, o)],
  ['Choose a column', (o) => m.validation_choose_column({}, o)],
  ['Choose the column that holds the participant reference', (o) => m.validation_choose_reference_column({}, o)],
  ['Enter an amount', (o) => m.validation_enter_amount({}, o)],
  ['Enter the values offered', (o) => m.validation_enter_values_offered({}, o)],
  ['Enter min, max and step', (o) => m.validation_enter_min_max_step({}, o)],
  ['Enter at least one value', (o) => m.validation_enter_one_value({}, o)],
  ['Each value once', (o) => m.validation_each_value_once({}, o)],
  ['A mission can be in the list once', (o) => m.validation_mission_once({}, o)],
  ['At most 500 at a time', (o) => m.validation_at_most_500({}, o)],
  ['At most 200 missions', (o) => m.validation_at_most_200_missions({}, o)],
  ['Choose active or disabled', (o) => m.validation_choose_active_disabled({}, o)],
  ['Choose csv or xlsx', (o) => m.validation_choose_csv_xlsx({}, o)],
  ['Choose CSV, Excel, PowerReviews or Bazaarvoice', (o) => m.validation_choose_export_format({}, o)],
  ['Choose approved, submitted or both', (o) => m.validation_choose_approved_submitted({}, o)],
  ['Choose a question of the form', (o) => m.validation_choose_question({}, o)],
  ['Use letters, digits, -, _ or . (a GTIN, EAN or SKU)', (o) => m.validation_product_code_characters({}, o)],
  // The API's alerts (src/server/http.ts) and the browser's own (src/platform/api.ts)
  ['Check the highlighted fields', (o) => m.validation_check_highlighted_fields({}, o)],
  ['Too many attempts. Try again later.', (o) => m.validation_too_many_attempts_later({}, o)],
  ['We could not reach Fieldwork. Check your connection and try again.', (o) => m.validation_network_error({}, o)],
  ['Something went wrong on our side. Please try again in a moment.', (o) => m.validation_server_error({}, o)],
]);

/** Texts with a number in them: a pattern and the message it becomes. */
const PATTERNS: readonly { pattern: RegExp; message: (match: RegExpExecArray, options: Options) => string }[] = [
  // src/shared/messages.ts, atMostCharacters
  {
    pattern: /^At most (\d+) characters$/,
    message: (match, o) => m.validation_at_most_characters({ count: plainNumber(Number(match[1]), o.locale) }, o),
  },
];

/**
 * A validation message of ours (English, as the schemas and the API send it) in the page's
 * language, or in `language`; any other text unchanged.
 */
export function translateValidation(text: string, language?: Language): string {
  const options: Options = language === undefined ? {} : { locale: language };
  const exact = EXACT.get(text);
  if (exact) return exact(options);
  for (const { pattern, message } of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return message(match, options);
  }
  return text;
}

/** Every English text translateValidation knows exactly (for tests). */
export function knownValidationTexts(): string[] {
  return [...EXACT.keys()];
}
