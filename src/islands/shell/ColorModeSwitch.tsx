/**
 * The colour-mode switch in the header (SPEC.md §3): System, Light or Dark, kept in local storage
 * and applied at once. Signed in, the choice is saved to the account's preferences too, so the
 * next sign-in on another device looks the same.
 */
import type { ReactNode } from 'react';
import { useClientStore } from '../../lib/use-client-store.ts';
import { DropdownMenu as MenuPrimitive } from 'radix-ui';
import { $colorMode, COLOR_MODES, isColorMode, setColorMode, type ColorModeValue } from '../../stores/color-mode.ts';
import { saveAccountColorMode } from '../../lib/account-color-mode.ts';
import { DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuTrigger } from '../../components/ui/dropdown-menu.tsx';
import { CheckIcon, MonitorIcon } from '../../components/icons.tsx';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '../../components/ui/tooltip.tsx';

const svg = (children: ReactNode) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className="size-4">
    {children}
  </svg>
);
const SunIcon = () =>
  svg(
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.93 4.93l1.41 1.41M17.66 17.66l1.41 1.41M2 12h2M20 12h2M6.34 17.66l-1.41 1.41M19.07 4.93l-1.41 1.41" />
    </>,
  );
const MoonIcon = () => svg(<path d="M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9Z" />);

const OPTIONS: Readonly<Record<ColorModeValue, { label: string; icon: () => ReactNode }>> = {
  system: { label: 'System', icon: () => <MonitorIcon /> },
  light: { label: 'Light', icon: SunIcon },
  dark: { label: 'Dark', icon: MoonIcon },
};

export default function ColorModeSwitch() {
  const mode = useClientStore($colorMode, 'system');
  const current = OPTIONS[mode];
  return (
    <TooltipProvider>
      <DropdownMenu modal={false}>
        <Tooltip>
          <TooltipTrigger asChild>
            <DropdownMenuTrigger
              aria-label="Colour mode"
              className="inline-flex size-10 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              {current.icon()}
            </DropdownMenuTrigger>
          </TooltipTrigger>
          <TooltipContent>Colour mode: {current.label}</TooltipContent>
        </Tooltip>
        <DropdownMenuContent className="min-w-[11rem]">
          <DropdownMenuLabel className="text-muted-foreground">Colour mode</DropdownMenuLabel>
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
                className="relative flex min-h-10 cursor-default select-none items-center gap-2.5 rounded-md py-2 pr-8 pl-2.5 text-sm outline-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:text-muted-foreground"
              >
                {OPTIONS[value].icon()}
                {OPTIONS[value].label}
                <MenuPrimitive.ItemIndicator className="absolute right-2.5 inline-flex">
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
