import { useState, type ReactNode } from 'react';
import { cn } from '../lib/utils.ts';
import { m } from '../shared/i18n.ts';
import { Button, type ButtonProps } from './ui/button.tsx';

/**
 * A button that asks once more before it acts: the question, its answer (which takes the focus)
 * and Cancel, in place. The admin screens and the account's security screen use it.
 */
export function ConfirmButton({
  children,
  confirmLabel,
  question,
  onConfirm,
  variant = 'outline',
  confirmVariant = 'default',
  size = 'sm',
  className,
}: {
  children: ReactNode;
  confirmLabel: string;
  question: ReactNode;
  onConfirm: () => Promise<void>;
  variant?: ButtonProps['variant'];
  confirmVariant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <Button variant={variant} size={size} className={className} onClick={() => setAsking(true)}>
        {children}
      </Button>
    );
  }
  return (
    <div role="group" aria-label={m.shell_confirm_button_group()} className={cn('flex flex-wrap items-center gap-2', className)}>
      <span className="text-sm">{question}</span>
      <Button
        variant={confirmVariant}
        size={size}
        loading={busy}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the button just pressed is gone: focus moves to the question's answer instead of being lost
        autoFocus
        onClick={() => {
          setBusy(true);
          void onConfirm().finally(() => {
            setBusy(false);
            setAsking(false);
          });
        }}
      >
        {confirmLabel}
      </Button>
      <Button variant="ghost" size={size} disabled={busy} onClick={() => setAsking(false)}>
        {m.shell_common_cancel()}
      </Button>
    </div>
  );
}
