import { z } from '../zod.ts';
import { atMostCharacters, MESSAGES } from '../messages.ts';
import { PASSKEY_NAME_MAX } from '../second-factors.ts';

/**
 * Passkeys (WebAuthn; issue 29, docs/api.md "Account security"): the bodies of the passkey calls.
 * A browser's answer (`PublicKeyCredential.toJSON()`, or @simplewebauthn/browser's
 * `startRegistration` / `startAuthentication`) is checked for its shape and sizes here; what it
 * proves is checked on the server (services/passkeys.ts).
 */

/** The longest binary field of a browser's answer we take, as base64url (an attestation object without certificates is far smaller). */
const WEBAUTHN_FIELD_MAX = 16_384;

/** base64url (padding tolerated), 1 … 16 KiB. */
const base64url = (max = WEBAUTHN_FIELD_MAX) =>
  z
    .string({ error: MESSAGES.required })
    .min(1, { error: MESSAGES.required, abort: true })
    .max(max, MESSAGES.tooLong)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'Not base64url');

/** A credential id: at most 1023 bytes by the WebAuthn spec, so at most 1364 base64url characters. */
const credentialId = base64url(1364);

const common = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', { error: 'Must be "public-key"' }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string().max(64), z.unknown()).default({}),
};

/** The answer of `navigator.credentials.create()` (RegistrationResponseJSON). */
export const passkeyRegistrationResponseSchema = z.object({
  ...common,
  response: z.object({
    clientDataJSON: base64url(),
    attestationObject: base64url(),
    authenticatorData: base64url().optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url().optional(),
  }),
});

/** The answer of `navigator.credentials.get()` (AuthenticationResponseJSON): a passkey's assertion. */
export const passkeyAssertionSchema = z.object({
  ...common,
  response: z.object({
    clientDataJSON: base64url(),
    authenticatorData: base64url(),
    signature: base64url(),
    userHandle: base64url(1024).optional(),
  }),
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/** A passkey's name as the person gives it: trimmed, 1 … PASSKEY_NAME_MAX characters. */
export const passkeyNameSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, { error: MESSAGES.required, abort: true })
  .max(PASSKEY_NAME_MAX, atMostCharacters(PASSKEY_NAME_MAX));

/** `POST /api/account/passkeys`: the name and the browser's registration answer. */
export const passkeyRegistrationSchema = z.strictObject({ name: passkeyNameSchema, response: passkeyRegistrationResponseSchema });

/** `PATCH /api/account/passkeys/{id}`. */
export const passkeyRenameSchema = z.strictObject({ name: passkeyNameSchema });

/** `POST /api/auth/passkey`: sign-in with a passkey alone. */
export const passkeySignInSchema = z.strictObject({ response: passkeyAssertionSchema });

/** A passkey as the account screen lists it (`GET /api/account/security`, the answers of the passkey calls). */
export interface PasskeyView {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}
