/** The staff screens' one localization helper (review, gallery, survey results; decision 035). */
import { describe, expect, it } from 'vitest';
import { localizedResults, staffContent } from '../../../src/islands/admin/content-language.tsx';
import type { FormDefinition } from '../../../src/shared/forms/definition.ts';
import type { ElementSummary } from '../../../src/shared/surveys.ts';

/** English source, offered in Arabic too; Spanish is not offered. */
const definition: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Breakfast',
  language: 'en',
  languages: ['en', 'ar'],
  pages: [
    {
      id: 'p1',
      elements: [
        {
          id: 'drink',
          type: 'single_choice',
          title: 'What do you drink?',
          required: false,
          options: [
            { id: 'tea', label: 'Tea' },
            { id: 'coffee', label: 'Coffee' },
          ],
        },
        {
          id: 'grid',
          type: 'matrix',
          title: 'Rate them',
          required: false,
          rows: [{ id: 'r1', label: 'Taste' }],
          columns: [{ id: 'c1', label: 'Good' }],
        },
      ],
    },
  ],
  translations: {
    'elements.drink.title': { ar: 'ماذا تشرب؟' },
    'elements.drink.options.tea': { ar: 'شاي' },
    'elements.grid.rows.r1': { ar: 'المذاق' },
  },
} as unknown as FormDefinition;

const drink = (def: FormDefinition) => def.pages[0]?.elements[0] as unknown as { title: string; options: { id: string; label: string }[] };

describe('staffContent', () => {
  it('shows a version in the staff member’s language when it offers it, the untranslated texts in the source', () => {
    const content = staffContent(definition, 'ar');
    expect(content.language).toBe('ar');
    expect(content.attributes).toEqual({});
    expect(drink(content.definition).title).toBe('ماذا تشرب؟');
    expect(drink(content.definition).options.map((option) => option.label)).toEqual(['شاي', 'Coffee']);
  });

  it('falls back to the source language, marked with its lang and dir, when the version does not offer theirs', () => {
    const content = staffContent(definition, 'es');
    expect(content.language).toBe('en');
    expect(content.attributes).toEqual({ lang: 'en', dir: 'ltr' });
    expect(drink(content.definition).title).toBe('What do you drink?');
    // Arabic content on an English page is marked right to left.
    const arabicOnly = { ...definition, language: 'ar', languages: ['ar'], translations: {} } as FormDefinition;
    expect(staffContent(arabicOnly, 'en').attributes).toEqual({ lang: 'ar', dir: 'rtl' });
  });
});

describe('localizedResults', () => {
  it('relabels the results by id with the localized definition, leaving what it does not hold', () => {
    const results: ElementSummary[] = [
      {
        id: 'drink',
        type: 'single_choice',
        title: 'What do you drink?',
        answered: 3,
        options: [
          { id: 'tea', label: 'Tea', count: 2 },
          { id: 'coffee', label: 'Coffee', count: 1 },
          { id: 'juice', label: 'juice', count: 0 },
          { id: '_other', label: 'Other', count: 0 },
        ],
      },
      { id: 'grid', type: 'matrix', title: 'Rate them', answered: 1, rows: [{ id: 'r1', label: 'Taste', columns: [{ id: 'c1', label: 'Good', count: 1 }] }] },
      { id: 'gone', type: 'short_text', title: 'An older question', answered: 0 },
    ];
    const [choice, matrix, gone] = localizedResults(results, staffContent(definition, 'ar').definition);
    expect(choice?.title).toBe('ماذا تشرب؟');
    expect(choice?.options?.map((option) => [option.label, option.count])).toEqual([
      ['شاي', 2],
      ['Coffee', 1],
      ['juice', 0],
      ['Other', 0],
    ]);
    expect(matrix?.rows?.[0]).toEqual({ id: 'r1', label: 'المذاق', columns: [{ id: 'c1', label: 'Good', count: 1 }] });
    expect(gone?.title).toBe('An older question');
  });
});
