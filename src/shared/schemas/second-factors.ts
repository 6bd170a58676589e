/**
 * Second factors (issue 29): the bodies of the account security calls and what they answer
 * (docs/api.md, "Account security"), and how a recovery code is written and read back. Shared by
 * the server and the screens.
 */
import { z } from '../zod.ts';
import { RECOVERY_CODE_CHARS, TOTP } from '../second-factors.ts';

export const TOTP_CODE_MESSAGE = `Enter the ${TOTP.digits}-digit code from your authenticator app`;
export const RECOVERY_CODE_MESSAGE = 'Enter one of your recovery codes';

/** A code from an authenticator app: its digits, spaces (as apps show them, `123 456`) taken out. */
export const totpCodeSchema = z
  .string({ error: TOTP_CODE_MESSAGE })
  .max(32, TOTP_CODE_MESSAGE)
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(new RegExp(`^\\d{${TOTP.digits}}$`), TOTP_CODE_MESSAGE));

/** A recovery code as typed: any case, with or without its dashes and spaces (`normaliseRecoveryCode` reads it). */
export const recoveryCodeSchema = z
  .string({ error: RECOVERY_CODE_MESSAGE })
  .trim()
  .min(1, { error: RECOVERY_CODE_MESSAGE, abort: true })
  .max(64, RECOVERY_CODE_MESSAGE);

/** `POST /api/account/totp/confirm`: the first code of the authenticator app being set up. */
export const totpConfirmSchema = z.strictObject({ code: totpCodeSchema });
export type TotpConfirmInput = z.infer<typeof totpConfirmSchema>;

/** Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand is not misread. */
export const RECOVERY_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A recovery code as stored (its SHA-256 is) and compared: upper case, dashes and spaces taken
 * out, the letters people confuse read as Crockford's base32 does (I and L as 1, O as 0). Null
 * when it cannot be a code (wrong length or another character).
 */
export function normaliseRecoveryCode(code: string): string | null {
  const plain = code
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
  if (plain.length !== RECOVERY_CODE_CHARS) return null;
  for (const char of plain) if (!RECOVERY_CODE_ALPHABET.includes(char)) return null;
  return plain;
}

/** A recovery code as shown: lower case in groups of four, `7k3m-q9x2-…`. */
export function formatRecoveryCode(plain: string): string {
  return (plain.toLowerCase().match(/.{1,4}/g) ?? []).join('-');
}

/** `GET /api/account/security`. */
export interface SecurityView {
  /** A confirmed authenticator app. */
  totp: boolean;
  passkeys: { id: number; name: string; createdAt: string; lastUsedAt: string | null }[];
  /** Unused recovery codes. */
  recoveryCodesLeft: number;
  /** The account must have a second factor (staff, while REQUIRE_STAFF_SECOND_FACTOR is on). */
  required: boolean;
}

/** `POST /api/account/totp`: the pending secret to set up, shown once. */
export interface TotpEnrolment {
  /** Base32, as apps take it when typed in. */
  secret: string;
  /** `otpauth://totp/Fieldwork:<email>?secret=…&issuer=Fieldwork&algorithm=SHA1&digits=6&period=30` */
  otpauthUrl: string;
  /** The same URL as a QR code: an `<svg>` document. */
  qrSvg: string;
}

/** `POST /api/account/totp/confirm` and `POST /api/account/recovery-codes`: the new set, shown once. */
export interface RecoveryCodesAnswer {
  recoveryCodes: string[];
}
