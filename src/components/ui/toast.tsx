/**
 * Radix Toast in the shadcn/ui style (docs/product.md §3, §4, §9): the provider (label, duration, swipe),
 * the viewport (F8, at most 420 px wide from medium screens) and the parts of one toast.
 */
import type { ComponentProps } from 'react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';
import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_SWIPE_DIRECTION, TOAST_SWIPE_THRESHOLD_PX } from '../../shared/ui-constants.ts';
import { m } from '../../shared/i18n.ts';

/** docs/product.md §5: the provider's label must not be empty (screen readers announce it with the hotkey). */
export function toastProviderLabel(label: string | undefined): string {
  const value = (label ?? m.shell_toast_label()).trim();
  if (value === '') throw new Error('The toast provider label must not be empty');
  return value;
}

export function ToastProvider({ label, duration = TOAST_DURATION_MS, ...props }: ComponentProps<typeof ToastPrimitive.Provider>) {
  return (
    <ToastPrimitive.Provider
      label={toastProviderLabel(label)}
      duration={duration}
      swipeDirection={TOAST_SWIPE_DIRECTION}
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      {...props}
    />
  );
}

export function ToastViewport({ className, ...props }: ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      hotkey={[...TOAST_HOTKEY]}
      label={`${m.shell_toast_label()} ({hotkey})`}
      className={cn(
        // At the bottom on every screen, never over the page's header (logo, bell, account) that
        // the person needs next; on a phone above a sticky action bar (a form's Back/Next) when
        // the page has one (issue 17).
        'fixed end-0 bottom-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 pb-[max(1rem,env(safe-area-inset-bottom))] outline-none md:max-w-[420px] max-sm:[body:has([data-sticky-actions])_&]:bottom-[4.75rem]',
        className,
      )}
      {...props}
    />
  );
}

export function Toast({ className, variant = 'default', ...props }: ComponentProps<typeof ToastPrimitive.Root> & { variant?: 'default' | 'destructive' }) {
  return (
    <ToastPrimitive.Root
      className={cn(
        'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pe-10 shadow-lg',
        'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
        'motion-safe:data-[state=open]:animate-[toast-in_160ms_ease-out] motion-safe:data-[state=closed]:animate-[toast-out_120ms_ease-in]',
        variant === 'destructive' ? 'border-destructive bg-destructive text-destructive-foreground' : 'border-border bg-card text-card-foreground',
        className,
      )}
      {...props}
    />
  );
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({ className, ...props }: ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={cn('text-sm opacity-90', className)} {...props} />;
}

export function ToastAction({ className, ...props }: ComponentProps<typeof ToastPrimitive.Action>) {
  return (
    <ToastPrimitive.Action
      className={cn(
        'inline-flex h-8 shrink-0 items-center justify-center rounded-md border border-input bg-transparent px-3 text-sm font-medium hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        className,
      )}
      {...props}
    />
  );
}

export function ToastClose({ className, ...props }: ComponentProps<typeof ToastPrimitive.Close>) {
  return (
    <ToastPrimitive.Close
      aria-label={m.shell_common_close()}
      className={cn(
        'absolute top-2 end-2 inline-flex size-7 items-center justify-center rounded-md opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
      {...props}
    >
      <svg viewBox="0 0 16 16" className="size-4" aria-hidden="true" focusable="false">
        <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
    </ToastPrimitive.Close>
  );
}
