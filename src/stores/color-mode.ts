/**
 * Colour mode (docs/product.md §3): `system` (follow the device), `light` or `dark`, kept in local storage.
 * An inline script in BaseLayout's <head> applies the stored value before the first paint
 * (COLOR_MODE_INLINE_SCRIPT); the store applies every change and keeps it across client-side
 * navigations, which replace <html>'s attributes.
 */
import { atom } from 'nanostores';
import { local, readItem, writeItem, type StorageLike } from '../platform/storage.ts';

export const COLOR_MODE_STORAGE_KEY = 'fieldwork-color-mode';
export const COLOR_MODES = ['system', 'light', 'dark'] as const;
export type ColorModeValue = (typeof COLOR_MODES)[number];

export const isColorMode = (value: unknown): value is ColorModeValue => typeof value === 'string' && (COLOR_MODES as readonly string[]).includes(value);

export const $colorMode = atom<ColorModeValue>('system');

export function readColorMode(storage: StorageLike | null = local()): ColorModeValue {
  const value = readItem(storage, COLOR_MODE_STORAGE_KEY);
  return isColorMode(value) ? value : 'system';
}

/** `.light` / `.dark` on <html> for an explicit choice; none for `system` (the media query decides). */
export function applyColorMode(
  mode: ColorModeValue,
  root: { classList: Pick<DOMTokenList, 'add' | 'remove' | 'toggle'> } | null = globalThis.document?.documentElement ?? null,
): void {
  if (!root) return;
  root.classList.toggle('light', mode === 'light');
  root.classList.toggle('dark', mode === 'dark');
}

/** Sets, stores and applies a colour mode. */
export function setColorMode(mode: ColorModeValue, storage: StorageLike | null = local()): void {
  if (!isColorMode(mode)) return;
  writeItem(storage, COLOR_MODE_STORAGE_KEY, mode);
  $colorMode.set(mode);
  applyColorMode(mode);
}

/** Loads the stored mode into the store (the inline script has already applied it). */
export function loadColorMode(storage: StorageLike | null = local()): ColorModeValue {
  const mode = readColorMode(storage);
  $colorMode.set(mode);
  applyColorMode(mode);
  return mode;
}

/**
 * The script that runs in <head> before the body is painted. Keep it tiny and in step with
 * COLOR_MODE_STORAGE_KEY; the build hashes it into the page CSP.
 */
export const COLOR_MODE_INLINE_SCRIPT = `try{var m=localStorage.getItem(${JSON.stringify(COLOR_MODE_STORAGE_KEY)});if(m==='light'||m==='dark')document.documentElement.classList.add(m)}catch(e){}`;
