import type { ComponentProps } from 'react';
import { DropdownMenu as MenuPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';
import { pageDirection } from '../../shared/i18n.ts';

/** In the page's direction (submenus and arrow keys mirrored in Arabic) unless `dir` says otherwise. */
export function DropdownMenu({ dir, ...props }: ComponentProps<typeof MenuPrimitive.Root>) {
  return <MenuPrimitive.Root dir={dir ?? pageDirection()} {...props} />;
}
export const DropdownMenuTrigger = MenuPrimitive.Trigger;
export const DropdownMenuGroup = MenuPrimitive.Group;

/**
 * The menu, in a portal: at the end of <body> unless `container` says where (e.g. the header, so
 * an open menu stays inside the header's landmark: axe's `region`).
 */
export function DropdownMenuContent({
  className,
  sideOffset = 6,
  align = 'end',
  container,
  ...props
}: ComponentProps<typeof MenuPrimitive.Content> & { container?: HTMLElement | null }) {
  return (
    <MenuPrimitive.Portal container={container ?? undefined}>
      <MenuPrimitive.Content
        sideOffset={sideOffset}
        align={align}
        collisionPadding={8}
        className={cn(
          'z-50 min-w-[14rem] max-w-[calc(100vw-1rem)] overflow-hidden rounded-lg border border-border bg-card p-1 text-card-foreground shadow-lg',
          className,
        )}
        {...props}
      />
    </MenuPrimitive.Portal>
  );
}

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof MenuPrimitive.Item>) {
  return (
    <MenuPrimitive.Item
      className={cn(
        'relative flex min-h-10 cursor-default select-none items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-foreground no-underline outline-none data-[disabled]:pointer-events-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground data-[disabled]:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof MenuPrimitive.Label>) {
  return <MenuPrimitive.Label className={cn('px-2.5 py-2 text-sm', className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof MenuPrimitive.Separator>) {
  return <MenuPrimitive.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />;
}
