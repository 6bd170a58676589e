/**
 * The colour-mode switch in the header (docs/product.md §3): System, Light or Dark, kept in local storage
 * and applied at once. Signed in, the choice is saved to the account's preferences too, so the
 * next sign-in on another device looks the same.
 *
 * Until someone shows an intent to use it (pointer over, focus, press) it is a stand-in button of
 * the same look; the menu itself (ColorModeMenu.tsx, Radix) loads then.
 */
import { lazyModule, useLazyTrigger } from '../../lib/lazy-module.ts';
import { useClientStore } from '../../lib/use-client-store.ts';
import { $colorMode } from '../../stores/color-mode.ts';
import { m } from '../../shared/i18n.ts';
import { COLOR_MODE_OPTIONS, COLOR_MODE_TRIGGER_CLASSES } from './color-mode-options.tsx';

const menu = lazyModule(() => import('./ColorModeMenu.tsx'));

export default function ColorModeSwitch() {
  const mode = useClientStore($colorMode, 'system');
  const { loaded: Menu, handoff, standIn } = useLazyTrigger(menu);
  if (Menu) return <Menu.default mode={mode} {...handoff} />;
  return (
    <button {...standIn} aria-label={m.shell_color_mode_label()} className={COLOR_MODE_TRIGGER_CLASSES}>
      {COLOR_MODE_OPTIONS[mode].icon()}
    </button>
  );
}
