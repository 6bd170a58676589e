/**
 * `client:toast`: hydrates the toaster when the first toast is added, or when the visitor presses
 * F8 (the toast region's hotkey, docs/product.md §9: the press is replayed once the toaster listens), so
 * pages that never show a toast do not load its code.
 */
import type { ClientDirective } from 'astro';
import { hydrateOnce } from './hydrate-once.ts';
import { TOAST_EVENT, wasSent } from '../../platform/events.ts';

const toast: ClientDirective = (load, _options, island) => {
  let started = false;
  const hydrate = async (replayHotkey: boolean): Promise<void> => {
    if (started) return;
    started = true;
    await hydrateOnce(island, load);
    if (replayHotkey) setTimeout(() => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8', code: 'F8', bubbles: true })), 50);
  };
  document.addEventListener(TOAST_EVENT, () => void hydrate(false), { once: true });
  // A toast added before this listener (another island handled a click first): show it now.
  if (wasSent(TOAST_EVENT)) void hydrate(false);
  document.addEventListener('keydown', (event) => {
    if (!started && event.code === 'F8') void hydrate(true);
  });
};

export default toast;
