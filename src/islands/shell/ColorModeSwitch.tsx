/**
 * The colour-mode switch in the header (docs/product.md §3): System, Light or Dark, kept in local storage
 * and applied at once. Signed in, the choice is saved to the account's preferences too, so the
 * next sign-in on another device looks the same.
 *
 * Until someone shows an intent to use it (pointer over, focus, press) it is a stand-in button of
 * the same look; the menu itself (ColorModeMenu.tsx, Radix) loads then.
 */
import type { ReactNode } from 'react';
import { lazyModule, useLazyTrigger } from '../../lib/lazy-module.ts';
import { useClientStore } from '../../lib/use-client-store.ts';
import { $colorMode, type ColorModeValue } from '../../stores/color-mode.ts';
import { MonitorIcon, MoonIcon, SunIcon } from '../../components/icons.tsx';

export const COLOR_MODE_OPTIONS: Readonly<Record<ColorModeValue, { label: string; icon: () => ReactNode }>> = {
  system: { label: 'System', icon: () => <MonitorIcon /> },
  light: { label: 'Light', icon: () => <SunIcon /> },
  dark: { label: 'Dark', icon: () => <MoonIcon /> },
};

export const COLOR_MODE_TRIGGER_CLASSES =
  'inline-flex size-10 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

const menu = lazyModule(() => import('./ColorModeMenu.tsx'));

export default function ColorModeSwitch() {
  const mode = useClientStore($colorMode, 'system');
  const { loaded: Menu, handoff, standIn } = useLazyTrigger(menu);
  if (Menu) return <Menu.default mode={mode} {...handoff} />;
  return (
    <button {...standIn} aria-label="Colour mode" className={COLOR_MODE_TRIGGER_CLASSES}>
      {COLOR_MODE_OPTIONS[mode].icon()}
    </button>
  );
}
