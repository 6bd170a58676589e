/**
 * A round avatar with the user's initials (decorative: the name is always written nearby). Plain
 * spans, no tailwind-merge: the header's account menu draws it on every page (`ui-base` chunk,
 * astro.config.mjs). There are no pictures, so Radix's Avatar (image loading, fallback delay) had
 * nothing to do.
 */
import { cva } from 'class-variance-authority';

const avatarVariants = cva('relative inline-flex shrink-0 select-none items-center justify-center overflow-hidden rounded-full', {
  variants: { size: { default: 'size-9', lg: 'size-16' } },
  defaultVariants: { size: 'default' },
});

const initialsVariants = cva('flex size-full items-center justify-center rounded-full bg-primary font-semibold tracking-wide text-primary-foreground', {
  variants: { size: { default: 'text-sm', lg: 'text-xl' } },
  defaultVariants: { size: 'default' },
});

interface AvatarProps {
  /** One or two letters. */
  initials: string;
  /** `default` 36 px (header), `lg` 64 px (the account page). */
  size?: 'default' | 'lg';
}

export function Avatar({ initials, size }: AvatarProps) {
  return (
    <span aria-hidden="true" className={avatarVariants({ size })}>
      <span className={initialsVariants({ size })}>{initials}</span>
    </span>
  );
}
