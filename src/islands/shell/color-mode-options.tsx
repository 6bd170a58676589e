/**
 * The colour modes as the header's switch shows them (label, in the page's language, and icon) and the trigger's classes,
 * shared by the stand-in button (ColorModeSwitch) and the lazily loaded menu, so the menu never
 * imports the switch back.
 */
import type { ReactNode } from 'react';
import type { ColorModeValue } from '../../stores/color-mode.ts';
import { m } from '../../shared/i18n.ts';
import { MonitorIcon, MoonIcon, SunIcon } from '../../components/icons.tsx';

export const COLOR_MODE_OPTIONS: Readonly<Record<ColorModeValue, { label: () => string; icon: () => ReactNode }>> = {
  system: { label: m.shell_color_mode_system, icon: () => <MonitorIcon /> },
  light: { label: m.shell_color_mode_light, icon: () => <SunIcon /> },
  dark: { label: m.shell_color_mode_dark, icon: () => <MoonIcon /> },
};

export const COLOR_MODE_TRIGGER_CLASSES =
  'inline-flex size-10 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';
