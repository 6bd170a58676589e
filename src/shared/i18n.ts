/**
 * The messages (issue 31; docs/decisions/034-messages.md): every text of the interface is a
 * message of `messages/{area}/{language}.json`, compiled by Paraglide JS into typed functions
 * (`m.auth_login_title()`); a page's bundle carries only the messages it uses. Import `m` from
 * here, never from src/paraglide/ directly: this module sets where the language comes from first.
 *
 * - In the browser: the page's `<html lang>` (each language's pages are prerendered under its
 *   prefix; a change of language is a full page load, src/app/guard.ts).
 * - While a page is prerendered: the page's path (src/middleware.ts keeps it for the render).
 * - On the API server: none is guessed: a mail or message for a person passes their language
 *   (`m.mail_x(params, { locale })`); without one it is English.
 */
import { getLocale, overwriteGetLocale } from '../paraglide/runtime.js';
import { directionOf, isLanguage, SOURCE_LANGUAGE, type Language } from './languages.ts';

export { m } from '../paraglide/messages.js';

/** Paraglide's own lookup: the prerender's language (its async local storage), else English. */
const serverLanguage = getLocale;

/** The language texts are shown in now (see above). */
export function currentLanguage(): Language {
  if (typeof document === 'undefined') return serverLanguage();
  const lang = document.documentElement.lang;
  return isLanguage(lang) ? lang : SOURCE_LANGUAGE;
}

overwriteGetLocale(currentLanguage);

/**
 * The page's writing direction, for the Radix primitives that take one (radio groups, tabs, menus,
 * selects): without it they set `dir="ltr"` on their own element and stay left to right in Arabic.
 */
export function pageDirection(): 'ltr' | 'rtl' {
  return directionOf(currentLanguage());
}

const numberFormats = new Map<Language, Intl.NumberFormat>();

/** A whole number in the language's digits and grouping ("1,250", "1.250", "١٬٢٥٠"). */
export function formatCount(value: number): string {
  const language = currentLanguage();
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
    numberFormats.set(language, format);
  }
  return format.format(value);
}

/**
 * A length of time in words, in the current language ("3 minutes", "1 minute 30 seconds",
 * "3 Minuten"): minutes and seconds through `Intl.NumberFormat`'s units, which know each
 * language's plurals. Rounded to the second.
 */
export function formatDuration(totalSeconds: number): string {
  const language = currentLanguage();
  const rounded = Math.max(0, Math.round(totalSeconds));
  const minutes = Math.floor(rounded / 60);
  const seconds = rounded % 60;
  const unit = (value: number, name: 'minute' | 'second') => new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'long' }).format(value);
  const parts: string[] = [];
  if (minutes > 0) parts.push(unit(minutes, 'minute'));
  if (seconds > 0 || minutes === 0) parts.push(unit(seconds, 'second'));
  return parts.join(' ');
}
