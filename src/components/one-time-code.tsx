/**
 * The authentication code field (a 6-digit code from an authenticator app) and the recovery code
 * field, as the sign-in's second step, the security screen and the re-authentication dialog show
 * them, with the checks they make before sending.
 */
import type { ComponentProps } from 'react';
import { TOTP } from '../shared/second-factors.ts';
import { Input } from './ui/input.tsx';

export const CODE_LABEL = 'Authentication code';
export const RECOVERY_CODE_LABEL = 'Recovery code';
export const CODE_HINT = `The ${TOTP.digits}-digit code your authenticator app shows now.`;

/** The code as typed, without the spaces and dashes some apps show in it. */
export function normaliseCode(text: string): string {
  return text.replace(/[\s-]/g, '');
}

/** What is wrong with a typed authentication code, or null. */
export function codeProblem(text: string): string | null {
  const code = normaliseCode(text);
  if (code === '') return 'Enter the code from your authenticator app';
  return new RegExp(`^\\d{${TOTP.digits}}$`).test(code) ? null : `Enter the ${TOTP.digits} digits your authenticator app shows`;
}

/** What is wrong with a typed recovery code, or null. */
export function recoveryCodeProblem(text: string): string | null {
  return normaliseCode(text) === '' ? 'Enter one of your recovery codes' : null;
}

/** The one-time code input: digits, the browser's and the phone's one-time-code autofill. */
export function OneTimeCodeInput(props: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <Input
      type="text"
      autoComplete="one-time-code"
      inputMode="numeric"
      pattern="[0-9 ]*"
      maxLength={TOTP.digits + 2}
      spellCheck={false}
      className="font-mono tracking-[0.2em]"
      {...props}
    />
  );
}

/** A recovery code input: letters and digits, no autofill from elsewhere. */
export function RecoveryCodeInput(props: Omit<ComponentProps<'input'>, 'type'>) {
  return <Input type="text" autoComplete="off" autoCapitalize="characters" spellCheck={false} className="font-mono tracking-wider" {...props} />;
}
