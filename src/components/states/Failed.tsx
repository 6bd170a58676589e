/**
 * A load that failed: what could not be loaded (the alert's title), why (the API's words), and the
 * way to try again. `heading`: the failure stands for the whole page, under the page's <h1>.
 */
import { cn } from '../../lib/utils.ts';
import { m } from '../../shared/i18n.ts';
import { Alert } from '../ui/alert.tsx';
import { Button } from '../ui/button.tsx';

export function Failed({
  title,
  message,
  onRetry,
  heading,
  retryLabel = m.shell_common_try_again(),
  className,
}: {
  title: string;
  message: string;
  onRetry: () => void;
  heading?: string;
  retryLabel?: string;
  className?: string;
}) {
  return (
    <div className={cn('flex max-w-xl flex-col items-start gap-4', className)}>
      {heading && <h1 className="text-3xl font-semibold tracking-tight">{heading}</h1>}
      <Alert variant="destructive" title={title}>
        {message}
      </Alert>
      <Button variant="outline" size="lg" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
