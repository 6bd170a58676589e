import { describe, expect, it } from 'vitest';
import {
  addableLanguages,
  lacksSource,
  translationLanguages,
  withLanguageAdded,
  withLanguageRemoved,
  withText,
} from '../../../src/islands/admin/projects/item-translations.ts';

describe('the editors’ translations section', () => {
  it('adds a language as blank texts, keeps what is typed, and removes it from every field', () => {
    const fields = ['title', 'description'] as const;
    expect(addableLanguages({})).toEqual(['en', 'de', 'es', 'ar']);
    let value = withLanguageAdded({}, fields, 'ar');
    expect(value).toEqual({ title: { ar: '' }, description: { ar: '' } });
    value = withText(value, 'title', 'ar', 'عادات');
    value = withLanguageAdded(value, fields, 'de');
    // Languages in the interface's order, whatever the order they were added in; the typed text stays.
    expect(translationLanguages(value)).toEqual(['de', 'ar']);
    expect(addableLanguages(value)).toEqual(['en', 'es']);
    expect(value.title).toEqual({ de: '', ar: 'عادات' });
    value = withText(value, 'description', 'de', 'Über Ihre Morgen');
    expect(withLanguageRemoved(value, 'ar')).toEqual({ title: { de: '' }, description: { de: 'Über Ihre Morgen' } });
    expect(withLanguageRemoved(withLanguageRemoved(value, 'ar'), 'de')).toEqual({});
  });

  it('a translation of a text empty as written is the one problem it words itself', () => {
    expect(lacksSource('', 'Beschreibung')).toBe(true);
    expect(lacksSource('  ', 'Beschreibung')).toBe(true);
    expect(lacksSource('', '')).toBe(false);
    expect(lacksSource('', undefined)).toBe(false);
    expect(lacksSource('Description', 'Beschreibung')).toBe(false);
  });
});
