/**
 * Passkeys in the browser (WebAuthn through @simplewebauthn/browser, loaded only when a passkey is
 * used: it is not part of any page's start-up JavaScript). The server makes the options and
 * checks the answers (docs/api.md, "Account security"); these helpers ask for the options, hand
 * them to the browser's passkey prompt and return what the server wants back.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { ApiError, apiSend } from '../platform/api.ts';
import { m } from '../shared/i18n.ts';
import { errorMessage } from './form-errors.ts';

const webauthn = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys at all (a button for them is pointless otherwise). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && typeof navigator.credentials?.get === 'function';
}

/** The options of an options call: the answer itself, or under `options` should the server wrap them. */
function optionsOf<T>(answer: unknown): T {
  if (typeof answer === 'object' && answer !== null && 'options' in answer && typeof answer.options === 'object') return answer.options as T;
  return answer as T;
}

/**
 * Asks the server for an assertion's options (`optionsPath`: POST /api/auth/passkey/options for a
 * sign-in or a second step, POST /api/auth/reauth/options for a re-authentication) and the
 * browser for a passkey's answer to them.
 */
export async function passkeyAssertion(optionsPath: string): Promise<AuthenticationResponseJSON> {
  const [answer, { startAuthentication }] = await Promise.all([apiSend<unknown>('POST', optionsPath, {}), webauthn()]);
  return startAuthentication({ optionsJSON: optionsOf<PublicKeyCredentialRequestOptionsJSON>(answer) });
}

/** Asks the server for a new passkey's options (POST /api/account/passkeys/options) and the browser to make it. */
export async function passkeyRegistration(): Promise<RegistrationResponseJSON> {
  const [answer, { startRegistration }] = await Promise.all([apiSend<unknown>('POST', '/api/account/passkeys/options', {}), webauthn()]);
  return startRegistration({ optionsJSON: optionsOf<PublicKeyCredentialCreationOptionsJSON>(answer) });
}

/** What the browser's refusal names (`NotAllowedError`, …) or @simplewebauthn's code for it. */
function refusalOf(error: unknown): { name: string; code: string } | null {
  if (!(error instanceof Error) || error instanceof ApiError) return null;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  return { name: error.name, code };
}

/** One sentence for a passkey that did not work: the prompt closed, no passkey here, or the server's words. */
export function passkeyErrorMessage(error: unknown): string {
  const refusal = refusalOf(error);
  if (!refusal) return errorMessage(error);
  if (refusal.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || refusal.name === 'InvalidStateError') {
    return m.common_passkey_already_registered();
  }
  if (refusal.name === 'NotAllowedError' || refusal.name === 'AbortError' || refusal.code === 'ERROR_CEREMONY_ABORTED') {
    return m.common_passkey_closed();
  }
  if (refusal.name === 'NotSupportedError' || refusal.name === 'SecurityError') return m.common_passkey_unsupported();
  return m.common_passkey_failed();
}
