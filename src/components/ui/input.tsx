import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils.ts';

/**
 * A text control's look without its height. Plain strings, not `cn()`: a module's top level that
 * calls tailwind-merge builds its class map (~12 ms on a laptop, four times that on a phone) while
 * the page's scripts are evaluated (decision 039).
 */
const controlLook =
  'flex w-full min-w-0 rounded-md border border-input bg-card px-3 py-2 text-base text-foreground shadow-xs transition-colors placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive sm:text-sm';

/** Shared by every text-like control (input, select trigger). */
export const controlClasses = `${controlLook} h-10`;

/** Text-like controls of the form renderer: 44 px high for fingers. */
export const fieldControlClasses = `${controlLook} h-11`;

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return <input type={type} className={cn(controlClasses, className)} {...props} />;
}
