/** Tooltip timing (docs/product.md §4, §9): open after 700 ms; within 300 ms of closing, the next opens at once. */
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../../shared/ui-constants.ts';

/** Radix Tooltip.Provider props. */
export const tooltipProviderDefaults = {
  delayDuration: TOOLTIP_DELAY_MS,
  skipDelayDuration: TOOLTIP_SKIP_DELAY_MS,
} as const;

/** docs/product.md §4's tooltip states, as Radix names them in `data-state`. */
export const TOOLTIP_STATES = ['closed', 'delayed-open', 'instant-open'] as const;
export type TooltipState = (typeof TOOLTIP_STATES)[number];
