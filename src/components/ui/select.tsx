import type { ComponentProps } from 'react';
import { Select as SelectPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';
import { pageDirection } from '../../shared/i18n.ts';
import { CheckIcon, ChevronDownIcon } from '../icons.tsx';
import { controlClasses } from './input.tsx';

/** docs/product.md §9: the select keeps 10 px from the viewport edges. */
export const SELECT_EDGE_MARGIN = 10;

/** In the page's direction (the list mirrored in Arabic) unless `dir` says otherwise. */
export function Select({ dir, ...props }: ComponentProps<typeof SelectPrimitive.Root>) {
  return <SelectPrimitive.Root dir={dir ?? pageDirection()} {...props} />;
}
export const SelectValue = SelectPrimitive.Value;
export const SelectGroup = SelectPrimitive.Group;

export function SelectTrigger({ className, children, ...props }: ComponentProps<typeof SelectPrimitive.Trigger>) {
  return (
    <SelectPrimitive.Trigger
      className={cn(controlClasses, 'items-center justify-between gap-2 text-start data-[placeholder]:text-muted-foreground [&>span]:truncate', className)}
      {...props}
    >
      {children}
      <SelectPrimitive.Icon asChild>
        <ChevronDownIcon className="size-4 shrink-0 text-muted-foreground" />
      </SelectPrimitive.Icon>
    </SelectPrimitive.Trigger>
  );
}

export function SelectContent({ className, children, ...props }: ComponentProps<typeof SelectPrimitive.Content>) {
  return (
    <SelectPrimitive.Portal>
      <SelectPrimitive.Content
        position="popper"
        sideOffset={4}
        collisionPadding={SELECT_EDGE_MARGIN}
        className={cn(
          'relative z-50 max-h-[min(24rem,var(--radix-select-content-available-height))] w-[var(--radix-select-trigger-width)] min-w-[8rem] overflow-hidden rounded-md border border-border bg-card text-card-foreground shadow-lg',
          className,
        )}
        {...props}
      >
        <SelectPrimitive.Viewport className="p-1">{children}</SelectPrimitive.Viewport>
      </SelectPrimitive.Content>
    </SelectPrimitive.Portal>
  );
}

/** A string that is not empty: `''` is rejected at compile time where the value is a literal. */
type NonEmpty<V extends string> = V extends '' ? never : V;

type SelectItemProps<V extends string> = Omit<ComponentProps<typeof SelectPrimitive.Item>, 'value'> & { value: NonEmpty<V> };

/**
 * One option. docs/product.md §5: an item must not have an empty-string value (the empty value means
 * "nothing chosen", which the placeholder shows); such an item throws at once.
 */
export function SelectItem<V extends string>({ className, children, value, ...props }: SelectItemProps<V>) {
  if (value === '') throw new Error('A <SelectItem /> must not have an empty-string value: "" clears the selection and shows the placeholder.');
  return (
    <SelectPrimitive.Item
      value={value}
      className={cn(
        'relative flex w-full cursor-default select-none items-center rounded-sm py-2 pe-8 ps-2 text-sm outline-none data-[disabled]:pointer-events-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground data-[disabled]:opacity-50',
        className,
      )}
      {...props}
    >
      <SelectPrimitive.ItemText>{children}</SelectPrimitive.ItemText>
      <span className="absolute end-2 flex size-4 items-center justify-center">
        <SelectPrimitive.ItemIndicator>
          <CheckIcon className="size-4" />
        </SelectPrimitive.ItemIndicator>
      </span>
    </SelectPrimitive.Item>
  );
}
