/**
 * The Intl warm-up's worker (src/platform/intl-warmup.ts): builds one formatter of each kind the
 * pages use, in the page's language (the worker's name), then ends. Its work is done off the main
 * thread; what the engine keeps from it (each kind's list of available locales, the locale's
 * data) is the renderer process's, so the page's own first formatter no longer pays for it.
 */
import { INTL_LOCALES, isLanguage, SOURCE_LANGUAGE } from '../shared/languages.ts';

const language = isLanguage(self.name) ? self.name : SOURCE_LANGUAGE;
const warmups: (() => unknown)[] = [
  () => new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(1234),
  () => new Intl.NumberFormat(language, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(5),
  () => new Intl.PluralRules(language).select(2),
  () => new Intl.DateTimeFormat(INTL_LOCALES[language], { dateStyle: 'medium', timeStyle: 'short' }).format(0),
  () => new Intl.RelativeTimeFormat(language, { numeric: 'auto' }).format(-1, 'day'),
];
for (const warmup of warmups) {
  try {
    warmup();
  } catch {
    // A browser without one of these: the page builds its own, as it would anyway.
  }
}
self.close();
