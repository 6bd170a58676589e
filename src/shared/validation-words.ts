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
import { FORM_MESSAGES } from './forms/validate.ts';
import { currentLanguage, m } from './i18n.ts';
import type { Language } from './languages.ts';
import { experimentalStaticLocale } from '../paraglide/runtime.js';
import { CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGE_MIN_LENGTH } from './limits.ts';
import { MESSAGES } from './messages.ts';

type Options = { locale?: Language };

/** A value made at its first use (the tables: not at load, so a build that never uses them drops them). */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** A number in the language's digits, without grouping ("5000", as the English texts have it). */
function plainNumber(value: number, locale: Language | undefined): string {
  return value.toLocaleString(locale ?? currentLanguage(), { useGrouping: false, maximumFractionDigits: 20 });
}

/** A number as an English text writes it ("1,250", "-2.5"), or NaN. */
function numberOf(text: string | undefined): number {
  return Number((text ?? '').replace(/,/g, ''));
}

/**
 * Exact English texts → their message. Kept as the message functions themselves (called when a
 * text is shown, in that moment's language), never as texts.
 *
 * The schemas' own constants live in zod modules the browser loads lazily, and the gallery's,
 * announcements', rewards', passkeys', invitations' and media's (`media.ts`: photos, uploads,
 * videos) in modules few screens load (imported here,
 * they went into every page that shows a form error, the survey screen's budget): these are their
 * texts, and tests/unit/i18n/validation-words.test.ts holds each one to its constant.
 */
// `@__PURE__`: a build that never reads the table (English, below) drops the call and every text it names.
const exactTexts = /* @__PURE__ */ once(
  (): ReadonlyMap<string, (options: Options) => string> =>
    new Map<string, (options: Options) => string>([
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
      ['Enter the 6-digit code from your authenticator app', (o) => m.validation_totp_code({ digits: plainNumber(6, o.locale) }, o)],
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
      // An outgoing webhook's address (src/shared/webhook-url.ts, WEBHOOK_URL_MESSAGES)
      ['Enter a full web address, starting with https://', (o) => m.validation_webhook_url_invalid({}, o)],
      ['Use an https:// address', (o) => m.validation_webhook_url_https({}, o)],
      ['Leave the user name and password out of the address', (o) => m.validation_webhook_url_credentials({}, o)],
      ['Use an address of at most 2000 characters', (o) => m.validation_webhook_url_too_long({ count: plainNumber(2000, o.locale) }, o)],
      ['This address is not reachable from the internet', (o) => m.validation_webhook_url_not_public({}, o)],
      ['The host name of this address could not be found', (o) => m.validation_webhook_url_not_found({}, o)],
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
      // Rewards (src/shared/rewards.ts): a redemption's refusals, a provider's failure, why a reward cannot be chosen
      ['You do not have enough points for this reward', (o) => m.common_refusal_insufficient_points({}, o)],
      ['This is below the smallest redemption', (o) => m.common_refusal_below_minimum({}, o)],
      ['You already have a reward request open: wait until it is sent, or cancel it', (o) => m.common_refusal_open_request_exists({}, o)],
      ['This reward is not offered in your country', (o) => m.common_refusal_not_available_here({}, o)],
      ['We need a tax form from you before we can send more rewards this year: contact us', (o) => m.common_refusal_tax_form_required({}, o)],
      ['This reward is out of stock', (o) => m.common_refusal_out_of_stock({}, o)],
      [
        'The gift-card provider could not send this reward. Your points are back: choose another reward, or contact us.',
        (o) => m.common_reward_provider_failed({}, o),
      ],
      ['Not offered in your country', (o) => m.common_reward_unavailable_country({}, o)],
      ['Add your postal address to see the rewards offered in your country', (o) => m.common_reward_unavailable_no_country({}, o)],
      ['Out of stock', (o) => m.common_reward_unavailable_out_of_stock({}, o)],
      ['Not available yet', (o) => m.common_reward_unavailable_no_rate({}, o)],
      // Photos (src/shared/media.ts, gallery.ts)
      ['Choose a photo to upload', (o) => m.common_media_file_required({}, o)],
      ['This file is empty: choose a photo', (o) => m.common_media_empty({}, o)],
      ['The upload could not be read: send the photo as multipart/form-data in the field "file"', (o) => m.common_media_invalid_upload({}, o)],
      ['This photo is larger than 20 MB', (o) => m.common_media_too_large({}, o)],
      ['Upload a JPEG, PNG, WebP or HEIC photo', (o) => m.common_media_not_an_image({}, o)],
      [
        'HEIC photos cannot be read on this server yet: choose JPEG or PNG (on iPhone: Settings → Camera → Formats → Most Compatible)',
        (o) => m.common_media_heic_unsupported({}, o),
      ],
      ['This photo could not be read: it may be damaged. Choose another one', (o) => m.common_media_unreadable({}, o)],
      ['This photo is larger than 50 megapixels', (o) => m.common_media_too_many_pixels({}, o)],
      ['You have uploaded as much as you can today. Try again later.', (o) => m.common_media_daily_bytes({}, o)],
      ['The server is busy with other photos. Try again in a moment.', (o) => m.common_media_busy({}, o)],
      ['You are already uploading 2 photos: wait until one has finished, then try again.', (o) => m.common_media_too_many_uploads({ count: 2 }, o)],
      ['The upload stopped arriving: check your connection and try again.', (o) => m.common_media_stalled({}, o)],
      ['This photo is part of a submitted answer and cannot be removed', (o) => m.common_media_in_use({}, o)],
      ['No such photo', (o) => m.common_media_not_found({}, o)],
      // Field capture (src/shared/media.ts): the resumable uploads' and the videos' refusals, a failed upload's reason in the outbox
      ['No such upload', (o) => m.common_upload_not_found({}, o)],
      ['This upload has expired: send the file again', (o) => m.common_upload_expired({}, o)],
      ['Say the file\'s name and type in Upload-Metadata ("filename", "filetype")', (o) => m.common_upload_metadata({}, o)],
      ['This file is too large', (o) => m.common_upload_too_large({}, o)],
      ['The upload could not be finished. Try again', (o) => m.common_upload_failed_here({}, o)],
      ['This upload has already been received', (o) => m.common_upload_finished({}, o)],
      ["Say the file's size in bytes in Upload-Length", (o) => m.common_upload_length({}, o)],
      ['This upload request is not valid: start the upload again', (o) => m.common_upload_invalid_request({}, o)],
      ['The upload is not where this request says: ask where it stands (HEAD) and go on from there', (o) => m.common_upload_offset_mismatch({}, o)],
      ['Send the header Tus-Resumable: 1.0.0', (o) => m.common_upload_tus_resumable({}, o)],
      ['This video is larger than 1 GB', (o) => m.common_video_too_large({}, o)],
      ['Upload a video (MP4, MOV or WebM)', (o) => m.common_video_not_a_video({}, o)],
      ['This video could not be read: it may be damaged. Choose another one', (o) => m.common_video_unreadable({}, o)],
      ['This video could not be processed. Choose another one, or record it again', (o) => m.common_video_processing_failed({}, o)],
      ['This video took too long to process. Record a shorter one and try again', (o) => m.common_video_processing_timed_out({}, o)],
      ['This video is still being processed', (o) => m.common_video_not_ready({}, o)],
      ['No such video', (o) => m.common_video_not_found({}, o)],
      ['This part of the video does not exist: ask for bytes within its length', (o) => m.common_video_range_not_satisfiable({}, o)],
      // A photo or video answer the server refuses (src/server/services/participation.ts)
      ['This photo could not be found; upload it again', (o) => m.common_form_photo_not_found({}, o)],
      ['This video could not be found; upload it again', (o) => m.common_form_video_not_found({}, o)],
      ['This question takes photos, not videos', (o) => m.common_form_photo_not_video({}, o)],
      ['This question takes videos, not photos', (o) => m.common_form_video_not_photo({}, o)],
      ['This cursor is not one the gallery gave: start again from the first page', (o) => m.common_gallery_bad_cursor({}, o)],
      ['The tags of this photo were changed by someone else since you opened it', (o) => m.common_gallery_conflict({}, o)],
      ['At most 20 tags', (o) => m.common_gallery_too_many_tags({ count: 20 }, o)],
      ['A tag is at most 40 characters', (o) => m.common_gallery_tag_too_long({ count: 40 }, o)],
      ['At most 200 photos at a time', (o) => m.common_gallery_zip_too_many({ count: 200 }, o)],
      ['Some of these photos do not exist (any more)', (o) => m.common_gallery_zip_unknown({}, o)],
      // Announcements, invitations, passkeys (src/shared/announcements.ts, tokens.ts, second-factors.ts)
      ['Announcements cannot show pictures: link to them instead', (o) => m.common_announcement_no_pictures({}, o)],
      ['Announcements go to the members of a live project: make the project live first', (o) => m.common_announcement_not_live({}, o)],
      ['This invitation was already used — sign in', (o) => m.common_invitation_used({}, o)],
      ['You have 20 passkeys, the most one account can have: remove one you no longer use first', (o) => m.common_too_many_passkeys({ count: 20 }, o)],
      // Answers of a form (src/shared/forms/validate.ts, FORM_MESSAGES; the numbered ones are PATTERNS)
      [FORM_MESSAGES.invalidUrl, (o) => m.common_form_invalid_url({}, o)],
      [FORM_MESSAGES.invalidPhone, (o) => m.common_form_invalid_phone({}, o)],
      [FORM_MESSAGES.text, (o) => m.common_form_text({}, o)],
      [FORM_MESSAGES.chooseOption, (o) => m.common_form_choose_option({}, o)],
      [FORM_MESSAGES.chooseOptions, (o) => m.common_form_choose_options({}, o)],
      [FORM_MESSAGES.otherNotAllowed, (o) => m.common_form_other_not_allowed({}, o)],
      [FORM_MESSAGES.oneOther, (o) => m.common_form_one_other({}, o)],
      [FORM_MESSAGES.chooseOnce, (o) => m.common_form_choose_once({}, o)],
      [FORM_MESSAGES.number, (o) => m.common_form_number({}, o)],
      [FORM_MESSAGES.date, (o) => m.common_form_date({}, o)],
      [FORM_MESSAGES.photos, (o) => m.common_form_photos({}, o)],
      [FORM_MESSAGES.photoOnce, (o) => m.common_form_photo_once({}, o)],
      [FORM_MESSAGES.videos, (o) => m.common_form_videos({}, o)],
      [FORM_MESSAGES.videoOnce, (o) => m.common_form_video_once({}, o)],
      [FORM_MESSAGES.consent, (o) => m.common_form_consent({}, o)],
      [FORM_MESSAGES.matrix, (o) => m.common_form_matrix({}, o)],
      [FORM_MESSAGES.unknownRow, (o) => m.common_form_unknown_row({}, o)],
      [FORM_MESSAGES.chooseColumn, (o) => m.common_form_choose_column({}, o)],
      [FORM_MESSAGES.everyRow, (o) => m.common_form_every_row({}, o)],
      [FORM_MESSAGES.ranking, (o) => m.common_form_ranking({}, o)],
      [FORM_MESSAGES.rankOnce, (o) => m.common_form_rank_once({}, o)],
      [FORM_MESSAGES.rankEvery, (o) => m.common_form_rank_every({}, o)],
    ]),
);

/** A length as formatSeconds words it, in the language: minutes, seconds, or both. */
function durationText(minutesText: string | undefined, secondsText: string | undefined, o: Options): string {
  const minutes = minutesText === undefined ? null : m.common_duration_minutes({ count: Number(minutesText) }, o);
  const seconds = secondsText === undefined ? null : m.common_duration_seconds({ count: Number(secondsText) }, o);
  return minutes && seconds ? m.common_duration_minutes_seconds({ minutes, seconds }, o) : (minutes ?? seconds ?? '');
}

/** A number of a text: digits, an optional minus and decimals. */
const NUMBER = '(-?\\d+(?:\\.\\d+)?)';
/** A count of a text, grouped as English groups it ("1,250"). */
const COUNT = '(\\d{1,3}(?:,\\d{3})*|\\d+)';

/** Texts with a number in them: a pattern and the message it becomes. */
const patterns = /* @__PURE__ */ once((): readonly { pattern: RegExp; message: (match: RegExpExecArray, options: Options) => string }[] => [
  // src/shared/messages.ts, atMostCharacters
  {
    pattern: /^At most (\d+) characters$/,
    message: (match, o) => m.validation_at_most_characters({ count: plainNumber(Number(match[1]), o.locale) }, o),
  },
  // src/shared/rewards.ts, morePointsNeeded; src/shared/points.ts, pointsText
  { pattern: new RegExp(`^You need ${COUNT} more points$`), message: (match, o) => m.common_more_points_needed({ count: numberOf(match[1]) }, o) },
  { pattern: new RegExp(`^${COUNT} points?$`), message: (match, o) => m.common_points({ count: numberOf(match[1]) }, o) },
  // src/shared/forms/validate.ts, FORM_MESSAGES
  { pattern: /^"(.+)" cannot be combined with other choices$/, message: (match, o) => m.common_form_exclusive({ label: match[1] ?? '' }, o) },
  {
    pattern: new RegExp(`^Choose at least ${NUMBER}$`),
    message: (match, o) => m.common_form_choose_at_least({ count: plainNumber(numberOf(match[1]), o.locale) }, o),
  },
  {
    pattern: new RegExp(`^Choose at most ${NUMBER}$`),
    message: (match, o) => m.common_form_choose_at_most({ count: plainNumber(numberOf(match[1]), o.locale) }, o),
  },
  {
    pattern: new RegExp(`^Enter a number from ${NUMBER} to ${NUMBER}$`),
    message: (match, o) => m.common_form_number_from_to({ min: plainNumber(numberOf(match[1]), o.locale), max: plainNumber(numberOf(match[2]), o.locale) }, o),
  },
  {
    pattern: new RegExp(`^Enter a number of at least ${NUMBER}$`),
    message: (match, o) => m.common_form_number_at_least({ min: plainNumber(numberOf(match[1]), o.locale) }, o),
  },
  {
    pattern: new RegExp(`^Enter a number of at most ${NUMBER}$`),
    message: (match, o) => m.common_form_number_at_most({ max: plainNumber(numberOf(match[1]), o.locale) }, o),
  },
  {
    pattern: new RegExp(`^Choose a value from ${NUMBER} to ${NUMBER} in steps of ${NUMBER}$`),
    message: (match, o) =>
      m.common_form_scale_step(
        { min: plainNumber(numberOf(match[1]), o.locale), max: plainNumber(numberOf(match[2]), o.locale), step: plainNumber(numberOf(match[3]), o.locale) },
        o,
      ),
  },
  {
    pattern: /^Choose a date on or after (today|\d{4}-\d{2}-\d{2})$/,
    message: (match, o) => (match[1] === 'today' ? m.common_form_date_on_or_after_today({}, o) : m.common_form_date_on_or_after({ date: match[1] ?? '' }, o)),
  },
  {
    pattern: /^Choose a date on or before (today|\d{4}-\d{2}-\d{2})$/,
    message: (match, o) => (match[1] === 'today' ? m.common_form_date_on_or_before_today({}, o) : m.common_form_date_on_or_before({ date: match[1] ?? '' }, o)),
  },
  { pattern: /^Add at least (\d+) photos?$/, message: (match, o) => m.common_form_photos_at_least({ count: Number(match[1]) }, o) },
  { pattern: /^Add at most (\d+) photos?$/, message: (match, o) => m.common_form_photos_at_most({ count: Number(match[1]) }, o) },
  // src/shared/media.ts, VIDEO_MESSAGES.tooLong (formatSeconds: "3 minutes", "1 minute 30 seconds", "45 seconds")
  {
    pattern: /^This video is longer than (?:(\d+) minutes?)? ?(?:(\d+) seconds?)?$/,
    message: (match, o) => m.common_video_too_long({ length: durationText(match[1], match[2], o) }, o),
  },
  { pattern: /^Add at least (\d+) videos?$/, message: (match, o) => m.common_form_videos_at_least({ count: Number(match[1]) }, o) },
  { pattern: /^Add at most (\d+) videos?$/, message: (match, o) => m.common_form_videos_at_most({ count: Number(match[1]) }, o) },
]);

/**
 * A validation message of ours (English, as the schemas and the API send it) in the page's
 * language, or in `language`; any other text unchanged.
 */
export function translateValidation(text: string, language?: Language): string {
  // A build of the English pages alone (scripts/build.ts; 'en' is SOURCE_LANGUAGE, written out so
  // the bundler folds the test): the texts are the messages, and the
  // tables below (and the modules their texts come from) drop out of its scripts.
  if (experimentalStaticLocale === 'en') return text;
  const options: Options = language === undefined ? {} : { locale: language };
  const exact = exactTexts().get(text);
  if (exact) return exact(options);
  for (const { pattern, message } of patterns()) {
    const match = pattern.exec(text);
    if (match) return message(match, options);
  }
  return text;
}

/** Every English text translateValidation knows exactly (for tests). */
export function knownValidationTexts(): string[] {
  return [...exactTexts().keys()];
}
