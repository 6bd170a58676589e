/** Business constants and limits (SPEC.md §9) that both sides need. */
export const EMAIL_MAX_LENGTH = 255;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;
/** Largest request body the API accepts (bytes); uploads get their own limit. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
