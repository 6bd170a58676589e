/**
 * The site-wide banner of the `banner` feature flag (docs/product.md §4, §7): shown while the flag's
 * value is truthy; a string value is its text.
 */
import { atom } from 'nanostores';

export const DEFAULT_BANNER_TEXT = 'Fieldwork has an announcement: some features may be briefly unavailable.';

/** The banner's text, or null when no banner is shown. */
export const $siteBanner = atom<string | null>(null);

/** The text for a flag value: null for falsy values, the string itself, or the default text. */
export function bannerText(value: unknown): string | null {
  if (!value) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  return DEFAULT_BANNER_TEXT;
}
