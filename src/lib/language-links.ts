/**
 * The language switcher's links (src/components/LanguageSwitcher.astro): one click listener for
 * every switcher, across client-side navigations. A chosen language is handed to `goToLanguage`
 * (src/lib/language-switch.ts), loaded only then.
 */
import { isLanguage, type Language } from '../shared/languages.ts';

let started = false;

export function watchLanguageLinks(load: () => Promise<{ goToLanguage: (language: Language) => Promise<void> }>): void {
  if (started) return;
  started = true;
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('[data-language-switcher] a[data-language]') : null;
    const language = link?.dataset.language;
    if (!link || !isLanguage(language)) return;
    event.preventDefault();
    void load().then(({ goToLanguage }) => goToLanguage(language));
  });
}
