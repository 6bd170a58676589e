/**
 * Radix Dialog in the shadcn/ui style: a modal centred on the screen, or a sheet that rises from
 * the bottom (phones: the form builder's side panel). Focus is trapped inside and returns to the
 * opener on close (also when it was opened without a `DialogTrigger`, unless something else took
 * focus meanwhile); Escape and the Close button close it. Every dialog needs a `DialogTitle`; pass
 * `aria-describedby={undefined}` to `DialogContent` when it has no `DialogDescription`.
 */
import { useRef, type ComponentProps } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';
import { m } from '../../shared/i18n.ts';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export interface DialogContentProps extends ComponentProps<typeof DialogPrimitive.Content> {
  /** `center` (default): a box in the middle; `sheet`: from the bottom edge, full width; `wide`: a large centred box. */
  variant?: 'center' | 'sheet' | 'wide';
  /** Leave out the × button (the dialog has its own way out). */
  hideClose?: boolean;
}

// Centred with `left-1/2` and a translation, which is the same in both directions (`start-1/2`
// would not centre right to left).
const variants = {
  // eslint-disable-next-line no-restricted-syntax -- centring, the same in both directions
  center: 'top-1/2 left-1/2 w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-xl max-h-[calc(100dvh-2rem)]',
  // eslint-disable-next-line no-restricted-syntax -- centring, the same in both directions
  wide: 'top-1/2 left-1/2 w-[calc(100%-2rem)] max-w-5xl -translate-x-1/2 -translate-y-1/2 rounded-xl h-[calc(100dvh-2rem)]',
  sheet: 'inset-x-0 bottom-0 max-h-[90dvh] rounded-t-2xl pb-[max(1.5rem,env(safe-area-inset-bottom))]',
} as const;

export function DialogContent({ className, children, variant = 'center', hideClose = false, onOpenAutoFocus, onCloseAutoFocus, ...props }: DialogContentProps) {
  // The element that had focus when the dialog opened.
  const opener = useRef<Element | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <DialogPrimitive.Content
        className={cn(
          'fixed z-50 flex flex-col gap-4 overflow-y-auto border border-border bg-card p-6 text-card-foreground shadow-xl outline-none',
          variants[variant],
          className,
        )}
        onOpenAutoFocus={(event) => {
          opener.current = document.activeElement;
          onOpenAutoFocus?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (event.defaultPrevented) return;
          event.preventDefault();
          const active = document.activeElement;
          // Focus already moved on (the dialog led somewhere): leave it there.
          if (active && active !== document.body && active.isConnected) return;
          const target = opener.current;
          if (target instanceof HTMLElement && target.isConnected) target.focus();
        }}
        {...props}
      >
        {children}
        {!hideClose && (
          <DialogPrimitive.Close
            aria-label={m.shell_common_close()}
            className="absolute top-3 end-3 inline-flex size-9 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-ring"
          >
            <svg viewBox="0 0 16 16" className="size-4" aria-hidden="true" focusable="false">
              <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
            </svg>
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 pe-8', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-lg leading-tight font-semibold tracking-tight', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />;
}
