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
  /**
   * A submit button of an island hydrated on intent (`client:intent`, whose directive holds a press
   * made before hydration and replays it): enabled meanwhile, the form guarded by a hidden disabled
   * submit button. Other submit buttons are disabled until hydrated (a moment, and nothing would
   * hold the press).
   */
  heldBeforeHydration?: boolean;
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

export function Button({
  className,
  variant,
  size,
  asChild = false,
  loading = false,
  heldBeforeHydration = false,
  type,
  disabled,
  children,
  ...props
}: ButtonProps) {
  const hydrated = useMounted();
  if (asChild) {
    return (
      <Slot.Root className={cn(buttonVariants({ variant, size }), className)} {...props}>
        {children}
      </Slot.Root>
    );
  }
  const waiting = type === 'submit' && !hydrated;
  // Held before hydration (client:intent replays the press, app/directives/intent.ts): a plain,
  // enabled button, and a hidden disabled submit button before it is the form's default, so the
  // browser submits nothing by itself (not on a press, not on Enter in a field) and nobody meets a
  // "Sign in" disabled for no reason (issue 28 §12).
  const held = waiting && heldBeforeHydration;
  const button = (
    <button
      type={held ? 'button' : (type ?? 'button')}
      // Otherwise disabled before hydration, but looking as usual (it is only a moment).
      className={cn(buttonVariants({ variant, size }), waiting && !held && 'disabled:opacity-100', className)}
      disabled={disabled || loading || (waiting && !held)}
      aria-busy={loading || undefined}
      {...props}
      // Hydrated but not yet mounted (React's handlers are in place, the type not yet "submit"): it submits all the same.
      onClick={
        held
          ? (event) => {
              props.onClick?.(event);
              if (!event.defaultPrevented) event.currentTarget.form?.requestSubmit();
            }
          : props.onClick
      }
    >
      {loading && <Spinner />}
      {children}
    </button>
  );
  // One shape whether held or not (the guard's place empty once mounted): the button stays the same
  // element, so a press held before hydration is replayed on it.
  return (
    <>
      {held && <button type="submit" disabled hidden aria-hidden="true" tabIndex={-1} form={props.form} data-submit-guard="" />}
      {button}
    </>
  );
}
