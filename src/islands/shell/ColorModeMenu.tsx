/**
 * The colour-mode menu itself (Radix DropdownMenu and Tooltip), loaded on first intent by
 * ColorModeSwitch.tsx.
 */
import { useRef } from 'react';
import { DropdownMenu as MenuPrimitive } from 'radix-ui';
import { COLOR_MODES, isColorMode, setColorMode, type ColorModeValue } from '../../stores/color-mode.ts';
import { saveAccountColorMode } from '../../lib/account-color-mode.ts';
import { useTriggerHandoff, type TriggerHandoff } from '../../lib/lazy-module.ts';
import { DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuTrigger } from '../../components/ui/dropdown-menu.tsx';
import { CheckIcon } from '../../components/icons.tsx';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '../../components/ui/tooltip.tsx';
import { m } from '../../shared/i18n.ts';
import { COLOR_MODE_OPTIONS, COLOR_MODE_TRIGGER_CLASSES } from './color-mode-options.tsx';

export interface ColorModeMenuProps extends TriggerHandoff {
  mode: ColorModeValue;
}

export default function ColorModeMenu({ mode, defaultOpen, focusTrigger }: ColorModeMenuProps) {
  const current = COLOR_MODE_OPTIONS[mode];
  const triggerRef = useRef<HTMLButtonElement>(null);
  useTriggerHandoff(triggerRef, { defaultOpen, focusTrigger });
  return (
    <TooltipProvider>
      <DropdownMenu modal={false} defaultOpen={defaultOpen}>
        <Tooltip>
          <TooltipTrigger asChild>
            <DropdownMenuTrigger ref={triggerRef} aria-label={m.shell_color_mode_label()} className={COLOR_MODE_TRIGGER_CLASSES}>
              {current.icon()}
            </DropdownMenuTrigger>
          </TooltipTrigger>
          <TooltipContent>{m.shell_color_mode_current({ mode: current.label() })}</TooltipContent>
        </Tooltip>
        <DropdownMenuContent className="min-w-[11rem]">
          <DropdownMenuLabel className="text-muted-foreground">{m.shell_color_mode_label()}</DropdownMenuLabel>
          <MenuPrimitive.RadioGroup
            value={mode}
            onValueChange={(value) => {
              if (!isColorMode(value)) return;
              setColorMode(value);
              void saveAccountColorMode(value);
            }}
          >
            {COLOR_MODES.map((value) => (
              <MenuPrimitive.RadioItem
                key={value}
                value={value}
                className="relative flex min-h-10 cursor-default select-none items-center gap-2.5 rounded-md py-2 pe-8 ps-2.5 text-sm outline-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:text-muted-foreground"
              >
                {COLOR_MODE_OPTIONS[value].icon()}
                {COLOR_MODE_OPTIONS[value].label()}
                <MenuPrimitive.ItemIndicator className="absolute end-2.5 inline-flex">
                  <CheckIcon />
                </MenuPrimitive.ItemIndicator>
              </MenuPrimitive.RadioItem>
            ))}
          </MenuPrimitive.RadioGroup>
        </DropdownMenuContent>
      </DropdownMenu>
    </TooltipProvider>
  );
}
