/**
 * Account security (issue 29): second factors, the second step of sign-in, re-authentication and
 * the staff sessions' limits. One source for the browser and the server (docs/product.md, docs/api.md).
 */

/** The second factors a person can use. `recovery` is a one-time recovery code. */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** TOTP (RFC 6238) as every authenticator app supports it: SHA-1, 6 digits, 30-second steps. */
export const TOTP = { digits: 6, periodSeconds: 30, algorithm: 'SHA1', issuer: 'Fieldwork' } as const;
/** Steps accepted before the current one (the current and the one before; never one twice). */
export const TOTP_PAST_STEPS = 1;

/** Recovery codes made at once; each carries at least 80 bits (16 base32 characters = 80 bits). */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_CHARS = 16;

/** A password's first step waits this long for its second (the pending cookie's life). */
export const PENDING_SIGN_IN_MS = 5 * 60 * 1000;
/** Wrong second steps that end a pending sign-in. */
export const PENDING_SIGN_IN_MAX_FAILURES = 5;
/** A WebAuthn challenge's life; it is deleted when used. */
export const WEBAUTHN_CHALLENGE_MS = 5 * 60 * 1000;
/** "Trust this browser" (participants only): no second step on this browser for this long. */
export const TRUSTED_BROWSER_MS = 30 * 24 * 60 * 60 * 1000;

/** A sensitive action needs a sign-in proof (sign-in or re-authentication) younger than this. */
export const REAUTH_MAX_AGE_MS = 15 * 60 * 1000;

/** A passkey's name as the person gives it. */
export const PASSKEY_NAME_MAX = 60;
/** Passkeys one person may register (a phone, a laptop, a security key or two … with room to spare). */
export const PASSKEYS_MAX = 20;
export const TOO_MANY_PASSKEYS = `You have ${PASSKEYS_MAX} passkeys, the most one account can have: remove one you no longer use first`;
