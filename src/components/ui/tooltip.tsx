import { createContext, useContext } from 'react';
import type { ComponentProps } from 'react';
import { Tooltip as TooltipPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';
import { tooltipProviderDefaults } from '../../lib/ui-kit/tooltip-defaults.ts';

/** True below a TooltipProvider of ours, so a lone Tooltip knows whether to bring its own. */
const ProviderPresent = createContext(false);

/**
 * Shares tooltip timing among the tooltips inside it (docs/product.md §9): open after 700 ms, and within
 * 300 ms of one closing the next opens at once. Put one at the root of an island that has
 * several tooltips; a Tooltip outside any provider brings its own with the same defaults.
 */
export function TooltipProvider({
  delayDuration = tooltipProviderDefaults.delayDuration,
  skipDelayDuration = tooltipProviderDefaults.skipDelayDuration,
  ...props
}: ComponentProps<typeof TooltipPrimitive.Provider>) {
  return (
    <ProviderPresent.Provider value={true}>
      <TooltipPrimitive.Provider delayDuration={delayDuration} skipDelayDuration={skipDelayDuration} {...props} />
    </ProviderPresent.Provider>
  );
}

/** One tooltip: a Trigger (any focusable element, via asChild) and its Content. */
export function Tooltip(props: ComponentProps<typeof TooltipPrimitive.Root>) {
  const inProvider = useContext(ProviderPresent);
  const root = <TooltipPrimitive.Root {...props} />;
  return inProvider ? root : <TooltipProvider>{root}</TooltipProvider>;
}

export const TooltipTrigger = TooltipPrimitive.Trigger;

/**
 * The bubble. It only repeats or explains what the trigger already names (Radix links it with
 * aria-describedby); never put the only label of a control here.
 */
export function TooltipContent({ className, sideOffset = 6, collisionPadding = 8, children, ...props }: ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        sideOffset={sideOffset}
        collisionPadding={collisionPadding}
        className={cn('z-50 max-w-xs rounded-md bg-foreground px-2.5 py-1.5 text-xs text-background shadow-md', className)}
        {...props}
      >
        {children}
        <TooltipPrimitive.Arrow className="fill-foreground" width={10} height={5} />
      </TooltipPrimitive.Content>
    </TooltipPrimitive.Portal>
  );
}
