/** Business constants and limits (docs/product.md §9) that both sides need. */
export const EMAIL_MAX_LENGTH = 255;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;
/** The contact form's message length. */
export const CONTACT_MESSAGE_MIN_LENGTH = 10;
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;
/** The reason given with a data-deletion request. */
export const DATA_DELETION_REASON_MAX_LENGTH = 2000;
/** Account preferences: the languages (src/shared/languages.ts) and colour modes there are. */
export { LANGUAGES } from './languages.ts';
export const COLOR_MODES = ['system', 'light', 'dark'] as const;
/** Largest request body the API accepts (bytes); uploads get their own limit. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
