import type { ReactNode } from 'react';
import { Outcome } from '../../components/Outcome.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';

/** While GET /api/tokens/verify runs. */
export function TokenChecking({ label }: { label: string }) {
  return <LoadingBlock label={label} />;
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
  return (
    <div className="flex flex-col items-start gap-4">
      <Alert variant="destructive" title="We could not check your link">
        {message}
      </Alert>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
