/**
 * What the forms that mail a link share (sign-up, forgot password, data deletion by email): the
 * style of a link in their text, a button that looks like one, and the "Check your inbox" outcome.
 */
import type { ReactNode } from 'react';
import { cn } from '../lib/utils.ts';
import { m } from '../shared/i18n.ts';
import { Outcome } from './Outcome.tsx';

export const LINK_CLASS = 'font-medium text-primary underline underline-offset-4 hover:no-underline';

/** A button in running text, styled as a link. */
export function LinkButton({ onClick, className, children }: { onClick: () => void; className?: string; children: ReactNode }) {
  return (
    <button type="button" onClick={onClick} className={cn(LINK_CLASS, className)}>
      {children}
    </button>
  );
}

/**
 * "Check your inbox" once a link is mailed: what was sent (`children`); with `retry`, where to look
 * when nothing came and a way to start again. The action defaults to "Back to sign in".
 */
export function CheckInbox({
  children,
  retry,
  action = (
    <a href="/login" className={LINK_CLASS}>
      {m.shell_check_inbox_back_to_sign_in()}
    </a>
  ),
}: {
  children: ReactNode;
  retry?: { lead: string; label: string; onRestart: () => void };
  action?: ReactNode;
}) {
  return (
    <Outcome tone="info" title={m.shell_check_inbox_title()} action={action}>
      {children}
      {retry && (
        <p className="text-sm">
          {retry.lead} {m.shell_check_inbox_spam_before()} <LinkButton onClick={retry.onRestart}>{retry.label}</LinkButton>
          {m.shell_check_inbox_spam_after()}
        </p>
      )}
    </Outcome>
  );
}
