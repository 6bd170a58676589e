import type { ComponentProps, ReactNode } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '../../lib/utils.ts';
import { AlertCircleIcon, CheckCircleIcon, InfoIcon } from '../icons.tsx';

const alertVariants = cva('flex items-start gap-3 rounded-lg border px-4 py-3 text-sm', {
  variants: {
    variant: {
      info: 'border-border bg-muted text-foreground',
      success: 'border-[color-mix(in_oklab,var(--success)_45%,transparent)] bg-[color-mix(in_oklab,var(--success)_10%,var(--card))] text-foreground',
      destructive: 'border-[color-mix(in_oklab,var(--destructive)_50%,transparent)] bg-[color-mix(in_oklab,var(--destructive)_8%,var(--card))] text-foreground',
    },
  },
  defaultVariants: { variant: 'info' },
});

const ICONS = {
  info: <InfoIcon className="mt-0.5 size-5 shrink-0 text-primary" />,
  success: <CheckCircleIcon className="mt-0.5 size-5 shrink-0 text-success" />,
  destructive: <AlertCircleIcon className="mt-0.5 size-5 shrink-0 text-destructive" />,
};

export interface AlertProps extends Omit<ComponentProps<'div'>, 'title'>, VariantProps<typeof alertVariants> {
  title?: ReactNode;
}

/**
 * A message block. Errors are `role="alert"` (announced at once), success and info are
 * `role="status"`; render it when the message appears so assistive technology hears it.
 */
export function Alert({ variant, title, children, className, role, ...props }: AlertProps) {
  const kind = variant ?? 'info';
  return (
    <div role={role ?? (kind === 'destructive' ? 'alert' : 'status')} className={cn(alertVariants({ variant: kind }), className)} {...props}>
      {ICONS[kind]}
      <div className="flex min-w-0 flex-col gap-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className="text-foreground/90 [&_a]:font-medium [&_a]:text-primary [&_a]:underline">{children}</div>}
      </div>
    </div>
  );
}
