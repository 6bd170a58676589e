/**
 * The authentication code field (a 6-digit code from an authenticator app) and the recovery code
 * field, as the sign-in's second step, the security screen and the re-authentication dialog show
 * them, with the checks they make before sending.
 */
import type { ComponentProps } from 'react';
import { TOTP } from '../shared/second-factors.ts';
import { m } from '../shared/i18n.ts';
import { Input } from './ui/input.tsx';

/** The fields' words in the page's language. */
export const codeLabel = (): string => m.shell_code_label();
export const recoveryCodeLabel = (): string => m.shell_code_recovery_label();
export const codeHint = (): string => m.shell_code_hint({ digits: String(TOTP.digits) });

/**
 * @deprecated English only (a constant keeps the language it was made in): use codeLabel(),
 * recoveryCodeLabel() and codeHint(). Kept while src/islands/account/SecurityScreen.tsx uses them.
 */
export const CODE_LABEL = 'Authentication code';
/** @deprecated English only: use recoveryCodeLabel(). */
export const RECOVERY_CODE_LABEL = 'Recovery code';
/** @deprecated English only: use codeHint(). */
export const CODE_HINT = `The ${TOTP.digits}-digit code your authenticator app shows now.`;

/** The code as typed, without the spaces and dashes some apps show in it. */
export function normaliseCode(text: string): string {
  return text.replace(/[\s-]/g, '');
}

/** What is wrong with a typed authentication code, or null. */
export function codeProblem(text: string): string | null {
  const code = normaliseCode(text);
  if (code === '') return m.shell_code_required();
  return new RegExp(`^\\d{${TOTP.digits}}$`).test(code) ? null : m.shell_code_digits({ digits: String(TOTP.digits) });
}

/** What is wrong with a typed recovery code, or null. */
export function recoveryCodeProblem(text: string): string | null {
  return normaliseCode(text) === '' ? m.shell_code_recovery_required() : null;
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
