import type { ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '../../lib/utils.ts';

/**
 * Card styles: `raised` (the default, a light shadow), `flat` (no shadow: loading shapes, panels
 * inside a screen's frame) and `dashed` (an empty state's frame). Padding and layout come from the
 * caller's `className`, which wins over these (tailwind-merge).
 */
export const cardVariants = cva('rounded-xl border border-border bg-card text-card-foreground', {
  variants: {
    variant: {
      raised: 'shadow-sm',
      flat: '',
      dashed: 'border-dashed',
    },
  },
  defaultVariants: { variant: 'raised' },
});

/** Card styles, shared with .astro markup that cannot render the React components. */
export const cardClasses = cardVariants();

export interface CardProps extends ComponentProps<'div'>, VariantProps<typeof cardVariants> {
  /** Render the single child (a `<section>`, `<article>`, `<li>`, `<details>`, `<a>`…) with the card's styles instead of a `<div>`. */
  asChild?: boolean;
}

export function Card({ className, variant, asChild = false, ...props }: CardProps) {
  const Comp = asChild ? Slot.Root : 'div';
  return <Comp className={cn(cardVariants({ variant }), className)} {...props} />;
}

export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 p-6', className)} {...props} />;
}

export function CardTitle({ className, children, ...props }: ComponentProps<'h2'>) {
  return (
    <h2 className={cn('text-xl font-semibold leading-tight tracking-tight', className)} {...props}>
      {children}
    </h2>
  );
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('text-sm text-muted-foreground', className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('p-6 pt-0', className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-wrap items-center gap-3 p-6 pt-0', className)} {...props} />;
}
