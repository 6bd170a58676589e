import type { ComponentProps } from 'react';
import { Avatar as AvatarPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';

interface AvatarProps extends ComponentProps<typeof AvatarPrimitive.Root> {
  /** One or two letters shown when there is no picture. */
  initials: string;
}

/** A round avatar with the user's initials (decorative: the name is always written nearby). */
export function Avatar({ initials, className, ...props }: AvatarProps) {
  return (
    <AvatarPrimitive.Root
      aria-hidden="true"
      className={cn('relative inline-flex size-9 shrink-0 select-none items-center justify-center overflow-hidden rounded-full', className)}
      {...props}
    >
      <AvatarPrimitive.Fallback className="flex size-full items-center justify-center rounded-full bg-primary text-sm font-semibold tracking-wide text-primary-foreground">
        {initials}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
