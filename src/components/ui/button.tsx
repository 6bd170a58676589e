import { useEffect, useState, type ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import type { VariantProps } from 'class-variance-authority';
import { cn } from '../../lib/utils.ts';
import { Spinner } from './spinner.tsx';
import { buttonVariants } from './button-variants.ts';

export { buttonVariants };

export interface ButtonProps extends ComponentProps<'button'>, VariantProps<typeof buttonVariants> {
  /** Render the single child (e.g. an <a>) with the button's styles instead of a <button>. */
  asChild?: boolean;
  /** Busy: disabled, with a spinner before the label (the label, and so the name, stays). */
  loading?: boolean;
}

/**
 * False until the button has mounted in the browser. A form's submit button waits for it: clicked
 * before its island has hydrated, the browser would submit the form natively — a GET with the
 * fields (a password too) in the address. An effect (not a store snapshot) so that it turns true
 * for every button, however and whenever it mounted.
 */
function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

export function Button({ className, variant, size, asChild = false, loading = false, type, disabled, children, ...props }: ButtonProps) {
  const hydrated = useMounted();
  if (asChild) {
    return (
      <Slot.Root className={cn(buttonVariants({ variant, size }), className)} {...props}>
        {children}
      </Slot.Root>
    );
  }
  return (
    <button
      type={type ?? 'button'}
      // Before hydration a submit button is disabled, but looks as usual (it is only a moment).
      className={cn(buttonVariants({ variant, size }), type === 'submit' && !hydrated && 'disabled:opacity-100', className)}
      disabled={disabled || loading || (type === 'submit' && !hydrated)}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading && <Spinner />}
      {children}
    </button>
  );
}
