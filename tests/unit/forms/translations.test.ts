import { describe, expect, it } from 'vitest';
import { checkForPublish, FORM_SCHEMA_ID } from '../../../src/shared/forms/index.ts';
import {
  contentLanguageFor,
  localizeDefinition,
  missingTranslations,
  offeredLanguages,
  translatableTexts,
  translationCounts,
  withLanguages,
  withTranslation,
} from '../../../src/shared/forms/translations.ts';

const form = {
  schema: FORM_SCHEMA_ID,
  title: 'Breakfast',
  pages: [
    {
      id: 'p1',
      title: '',
      elements: [
        {
          id: 'drink',
          type: 'single_choice',
          title: 'What do you drink?',
          options: [
            { id: 'tea', label: 'Tea' },
            { id: 'coffee', label: 'Coffee' },
          ],
        },
        { id: 'why', type: 'long_text', title: 'Why?', placeholder: 'A few words' },
      ],
    },
  ],
};

describe('content in several languages', () => {
  it('lists every translatable text by key, leaving out texts empty in the source', () => {
    expect(translatableTexts(form).map((text) => text.key)).toEqual([
      'form.title',
      'elements.drink.title',
      'elements.drink.options.tea',
      'elements.drink.options.coffee',
      'elements.why.title',
      'elements.why.placeholder',
    ]);
  });

  it('counts translated, missing and outdated texts per offered language', () => {
    let draft = withLanguages(form, ['ar', 'de']);
    expect(offeredLanguages(draft)).toEqual(['en', 'de', 'ar']);
    const [title, drink] = translatableTexts(draft);
    draft = withTranslation(draft, title!, 'ar', 'الفطور');
    draft = withTranslation(draft, drink!, 'ar', 'ماذا تشرب؟');
    expect(translationCounts(draft)).toEqual([
      { language: 'de', total: 6, translated: 0, missing: 6, outdated: 0 },
      { language: 'ar', total: 6, translated: 2, missing: 4, outdated: 0 },
    ]);
    // The source changes after the translation: outdated until translated again.
    const changed = { ...draft, title: 'Your breakfast' };
    expect(translationCounts(changed)[1]).toMatchObject({ translated: 1, outdated: 1 });
    const [newTitle] = translatableTexts(changed);
    expect(translationCounts(withTranslation(changed, newTitle!, 'ar', 'فطورك'))[1]).toMatchObject({ translated: 2, outdated: 0 });
    // A blank translation is no translation; dropping a language drops its translations.
    expect(translationCounts(withTranslation(draft, title!, 'ar', '  '))[1]).toMatchObject({ translated: 1, missing: 5 });
    expect(withLanguages(draft, []).translations).toEqual({});
  });

  it('localizes into an offered language with the source wherever a translation is missing, never a blank', () => {
    const [, drink, tea] = translatableTexts(form);
    const draft = withTranslation(withTranslation(withLanguages(form, ['es']), drink!, 'es', '¿Qué bebes?'), tea!, 'es', 'Té');
    const localized = localizeDefinition(draft, 'es');
    const element = localized.pages[0]!.elements[0]!;
    expect(element.title).toBe('¿Qué bebes?');
    expect(element.options).toEqual([
      { id: 'tea', label: 'Té' },
      { id: 'coffee', label: 'Coffee' },
    ]);
    expect(localized.title).toBe('Breakfast');
    expect(localizeDefinition(draft, 'en')).toBe(draft);
    expect(contentLanguageFor(draft, 'es')).toBe('es');
    expect(contentLanguageFor(draft, 'ar')).toBe('en');
    expect(contentLanguageFor({ ...draft, language: 'de', languages: ['de', 'es'] }, null)).toBe('de');
  });

  it('refuses at publishing a language not offered and a translation of a text the source lacks; reports missing ones', () => {
    const draft = {
      ...withLanguages(form, ['de']),
      translations: { 'elements.why.title': { de: 'Warum?', ar: 'لماذا؟' }, 'elements.why.description': { de: 'Beschreibung' } },
    };
    expect(checkForPublish(draft).problems.form).toEqual([
      'the text "elements.why.title" is translated into "ar", which the form does not offer',
      'the text "elements.why.description" has a translation but no text in the source language',
    ]);
    expect(checkForPublish({ ...draft, languages: ['en', 'fr'] }).problems.form).toContain('languages[1] must be one of "en", "de", "es", "ar"');
    const valid = { ...withLanguages(form, ['de']), translations: { 'elements.why.title': { de: 'Warum?' } } };
    expect(checkForPublish(valid).problems).toEqual({});
    expect(missingTranslations(valid)).toEqual({ de: 5 });
  });
});
