import type { ReactNode } from 'react';
import { Outcome } from '../../components/Outcome.tsx';
import { Failed } from '../../components/states/Failed.tsx';
import { Loading } from '../../components/states/Loading.tsx';
import { m } from '../../shared/i18n.ts';

/** While GET /api/tokens/verify runs. */
export function TokenChecking({ label }: { label: string }) {
  return <Loading label={label} />;
}

/** The link is unknown, used or expired: say so and offer the way to a new one. */
export function TokenInvalid({ title, children, action }: { title: string; children: ReactNode; action: ReactNode }) {
  return (
    <Outcome tone="error" title={title} action={action} focus={false}>
      {children}
    </Outcome>
  );
}

/** The check itself failed (network, rate limit): the message and a retry. */
export function TokenCheckFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return <Failed title={m.shell_token_check_failed()} message={message} onRetry={onRetry} />;
}
