/**
 * Button styles (class-variance-authority, no tailwind-merge), apart from the Button component so
 * that the header's islands can style a link or a stand-in button without loading the rest of the
 * UI kit (`ui-base` chunk, astro.config.mjs); also usable on links from .astro files:
 * `class={buttonVariants({ variant: 'outline' })}`. A `className` given here is appended as is:
 * where it may conflict with the variant's classes, merge with `cn` (src/lib/utils.ts).
 */
import { cva } from 'class-variance-authority';

export const buttonVariants = cva(
  'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium no-underline transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-60 [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground hover:bg-primary/90',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary/80',
        outline: 'border border-input bg-card text-foreground hover:bg-accent hover:text-accent-foreground',
        ghost: 'text-foreground hover:bg-accent hover:text-accent-foreground',
        destructive: 'bg-destructive text-destructive-foreground hover:bg-destructive/90',
        link: 'text-primary underline underline-offset-4 hover:no-underline',
      },
      size: {
        default: 'h-10 px-4 py-2',
        sm: 'h-9 px-3',
        lg: 'h-11 px-6 text-base',
        icon: 'size-10',
      },
    },
    compoundVariants: [{ variant: 'link', className: 'h-auto px-0 py-0' }],
    defaultVariants: { variant: 'default', size: 'default' },
  },
);
