/**
 * The second step of sign-in and re-authentication (issue 29 §2, §4): payloads (zod). The code,
 * recovery code and passkey fields are those of `second-factors.ts` and `passkeys.ts`; constants in
 * `../second-factors.ts`. docs/api.md "Account security".
 */
import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';
import { passkeyAssertionSchema, type PasskeyAssertion } from './passkeys.ts';
import { recoveryCodeSchema, totpCodeSchema } from './second-factors.ts';

export const SIGN_IN_MESSAGES = {
  oneSecondStep: 'Give one of: a code, a recovery code or a passkey',
  onePassword: 'Give your password (and code), or use a passkey',
  codeWithPassword: 'A code goes with the password',
  trustBrowser: 'Must be true or false',
} as const;

/** The second step's proof, as the handler takes it: exactly one method. */
export type SecondStepProof =
  { method: 'totp'; code: string } | { method: 'recovery'; recoveryCode: string } | { method: 'passkey'; passkey: PasskeyAssertion };

/**
 * `POST /api/auth/second-factor`: exactly one of `{ code }`, `{ recoveryCode }`, `{ passkey }`,
 * and `trustBrowser` (honoured for participants). Written as one strict object checked for "exactly
 * one" (not a zod union) so that a mistake is reported on its field.
 */
export const secondFactorSchema = z
  .strictObject({
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
    passkey: passkeyAssertionSchema.optional(),
    trustBrowser: z.boolean({ error: SIGN_IN_MESSAGES.trustBrowser }).optional(),
  })
  .superRefine((value, ctx) => {
    const given = [value.code, value.recoveryCode, value.passkey].filter((proof) => proof !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', path: ['code'], message: SIGN_IN_MESSAGES.oneSecondStep });
  })
  .transform(({ code, recoveryCode, passkey, trustBrowser }, ctx): { proof: SecondStepProof; trustBrowser: boolean } => {
    const trusted = trustBrowser === true;
    if (code !== undefined) return { proof: { method: 'totp', code }, trustBrowser: trusted };
    if (recoveryCode !== undefined) return { proof: { method: 'recovery', recoveryCode }, trustBrowser: trusted };
    if (passkey !== undefined) return { proof: { method: 'passkey', passkey }, trustBrowser: trusted };
    ctx.addIssue({ code: 'custom', path: ['code'], message: SIGN_IN_MESSAGES.oneSecondStep });
    return z.NEVER;
  });
export type SecondFactorInput = z.input<typeof secondFactorSchema>;

/** Re-authentication's proof, as the handler takes it. */
export type ReauthProof = { method: 'password'; password: string; code: string | undefined } | { method: 'passkey'; passkey: PasskeyAssertion };

/** `POST /api/auth/reauth`: `{ password, code? }` (the code when the account has an authenticator app) or `{ passkey }`. */
export const reauthSchema = z
  .strictObject({
    password: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required).max(1024, MESSAGES.tooLong).optional(),
    code: totpCodeSchema.optional(),
    passkey: passkeyAssertionSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.password === undefined) === (value.passkey === undefined))
      ctx.addIssue({ code: 'custom', path: ['password'], message: SIGN_IN_MESSAGES.onePassword });
    else if (value.passkey !== undefined && value.code !== undefined)
      ctx.addIssue({ code: 'custom', path: ['code'], message: SIGN_IN_MESSAGES.codeWithPassword });
  })
  .transform(({ password, code, passkey }, ctx): ReauthProof => {
    if (password !== undefined) return { method: 'password', password, code };
    if (passkey !== undefined) return { method: 'passkey', passkey };
    ctx.addIssue({ code: 'custom', path: ['password'], message: SIGN_IN_MESSAGES.onePassword });
    return z.NEVER;
  });
export type ReauthInput = z.input<typeof reauthSchema>;
