/** The content languages' names in the page's language ("Spanish", "Spanisch", …): the builder's language bar, translation editor and publish dialog. */
import type { Language } from '../../../shared/languages.ts';
import { m } from '../../../shared/i18n.ts';

const NAMES: Readonly<Record<Language, () => string>> = {
  en: m.forms_language_en,
  de: m.forms_language_de,
  es: m.forms_language_es,
  ar: m.forms_language_ar,
};

export function languageName(language: Language): string {
  return NAMES[language]();
}
