import type { ComponentProps } from 'react';
import { cva } from 'class-variance-authority';

/** No tailwind-merge here: buttons and the header's account menu draw it on every page (`ui-base` chunk, astro.config.mjs). */
const spinnerVariants = cva('shrink-0 animate-spin motion-reduce:animate-[spin_1.5s_linear_infinite]', {
  variants: { size: { default: 'size-4', lg: 'size-6' } },
  defaultVariants: { size: 'default' },
});

interface SpinnerProps extends Omit<ComponentProps<'svg'>, 'children'> {
  /** When given, the spinner is announced (role="status") with this text; otherwise it is decorative. */
  label?: string;
  /** `default` 16 px, `lg` 24 px. */
  size?: 'default' | 'lg';
  /** Extra classes (colour, margin), appended: the size comes from `size`. */
  className?: string;
}

/** A small rotating ring in the current text colour. */
export function Spinner({ label, size, className, ...props }: SpinnerProps) {
  const svg = (
    <svg viewBox="0 0 24 24" fill="none" aria-hidden="true" focusable="false" className={spinnerVariants({ size, className })} {...props}>
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
  if (!label) return svg;
  return (
    <span role="status" className="inline-flex items-center gap-2">
      {svg}
      <span className="sr-only">{label}</span>
    </span>
  );
}
