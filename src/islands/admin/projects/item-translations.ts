/**
 * The editors' "Translations" section (`TranslationsField.tsx`, decision 035): which languages a
 * survey's or mission's `translations` hold, and adding or removing one. A language added is kept
 * as blank texts until something is typed (blank translations are none: the API drops them).
 */
import { LANGUAGES, type Language } from '../../../shared/languages.ts';
import type { ItemTextField, ItemTranslations } from '../../../shared/projects.ts';

/** The languages the map holds a text for (blank ones too), in the interface's order. */
export function translationLanguages(translations: ItemTranslations): Language[] {
  const present = new Set<string>();
  for (const texts of Object.values(translations)) for (const language of Object.keys(texts ?? {})) present.add(language);
  return LANGUAGES.filter((language) => present.has(language));
}

/** The languages that may still be added. */
export function addableLanguages(translations: ItemTranslations): Language[] {
  const present = translationLanguages(translations);
  return LANGUAGES.filter((language) => !present.includes(language));
}

/** The map with `language` added: a blank text for each field (typed texts are kept). */
export function withLanguageAdded(translations: ItemTranslations, fields: readonly ItemTextField[], language: Language): ItemTranslations {
  const out: ItemTranslations = { ...translations };
  for (const field of fields) out[field] = { [language]: '', ...translations[field] };
  return out;
}

/** The map without `language` (a field left with no language is dropped). */
export function withLanguageRemoved(translations: ItemTranslations, language: Language): ItemTranslations {
  const out: ItemTranslations = {};
  for (const [field, texts] of Object.entries(translations) as [ItemTextField, Partial<Record<Language, string>> | undefined][]) {
    const kept = Object.fromEntries(Object.entries(texts ?? {}).filter(([code]) => code !== language));
    if (Object.keys(kept).length > 0) out[field] = kept;
  }
  return out;
}

/** The map with one text set (kept even when blank, so the language stays on screen). */
export function withText(translations: ItemTranslations, field: ItemTextField, language: Language, text: string): ItemTranslations {
  return { ...translations, [field]: { ...translations[field], [language]: text } };
}

/** Whether a translation has a text but its field is empty as written (the API refuses it). */
export function lacksSource(source: string, translation: string | undefined): boolean {
  return source.trim() === '' && (translation ?? '').trim() !== '';
}
