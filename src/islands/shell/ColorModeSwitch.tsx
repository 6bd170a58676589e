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
import { MonitorIcon } from '../../components/icons.tsx';

const svg = (children: ReactNode) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    className="size-4"
  >
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

export const COLOR_MODE_OPTIONS: Readonly<Record<ColorModeValue, { label: string; icon: () => ReactNode }>> = {
  system: { label: 'System', icon: () => <MonitorIcon /> },
  light: { label: 'Light', icon: SunIcon },
  dark: { label: 'Dark', icon: MoonIcon },
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
