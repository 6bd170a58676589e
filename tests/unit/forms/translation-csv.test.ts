import { describe, expect, it } from 'vitest';
import {
  applyTranslationCsv,
  parseTranslationCsv,
  translationCsv,
  translationCsvFileName,
  type TranslationCsvRow,
} from '../../../src/shared/forms/translation-csv.ts';
import { translatableTexts, translationCounts, withLanguages, withTranslation } from '../../../src/shared/forms/translations.ts';

const form = withLanguages(
  {
    schema: 'fieldwork.form/1',
    title: 'Pets',
    pages: [
      {
        id: 'p1',
        title: '',
        elements: [
          {
            id: 'pet',
            type: 'single_choice',
            title: 'Which pet?',
            options: [
              { id: 'dog', label: 'Dog, "the best"' },
              { id: 'cat', label: '=cat' },
            ],
          },
          { id: 'why', type: 'long_text', title: 'Why?\nTell us', placeholder: '' },
        ],
      },
    ],
  },
  ['es'],
);

const textOf = (key: string) => translatableTexts(form).find((text) => text.key === key)!;

describe('the translation CSV', () => {
  it('writes key, kind, source and translation, UTF-8 with a BOM, every cell quoted and formula-safe', () => {
    const draft = withTranslation(form, textOf('elements.pet.title'), 'es', '¿Qué mascota?');
    const csv = translationCsv(draft, 'es');
    expect(csv.startsWith('\ufeff"key","kind","source","translation"\r\n')).toBe(true);
    expect(csv).toContain('"elements.pet.title","title","Which pet?","¿Qué mascota?"\r\n');
    expect(csv).toContain('"elements.pet.options.dog","option","Dog, ""the best""",""');
    // A cell that starts like a formula gets the guard's leading quote mark.
    expect(csv).toContain(`"elements.pet.options.cat","option","'=cat",""`);
    expect(csv).toContain('"elements.why.title","title","Why?\nTell us",""');
    expect(translationCsvFileName('Pets & more!', 'es')).toBe('pets-more-es.csv');
  });

  it('reads its own file back unchanged, guarded cells as they were', () => {
    let draft = withTranslation(form, textOf('elements.pet.options.cat'), 'es', '=gato');
    draft = withTranslation(draft, textOf('elements.why.title'), 'es', '¿Por qué?\nCuéntanos');
    const parsed = parseTranslationCsv(translationCsv(draft, 'es'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rows.map((row) => [row.key, row.source, row.translation])).toEqual([
      ['form.title', 'Pets', ''],
      ['elements.pet.title', 'Which pet?', ''],
      ['elements.pet.options.dog', 'Dog, "the best"', ''],
      ['elements.pet.options.cat', '=cat', '=gato'],
      ['elements.why.title', 'Why?\nTell us', '¿Por qué?\nCuéntanos'],
    ]);
    const applied = applyTranslationCsv(draft, 'es', parsed.rows);
    expect(applied.applied).toEqual([]);
    expect(applied.unchanged.map((row) => row.key)).toEqual(['elements.pet.options.cat', 'elements.why.title']);
    expect(applied.draft).toBe(draft);
  });

  it('applies translations by key; reports unknown keys, changed sources, duplicates and blanks, and applies none of them', () => {
    const csv = [
      'key;source;translation',
      'form.title;Pets;Mascotas',
      'elements.pet.title;Which animal?;¿Qué animal?',
      'elements.gone.title;Gone;Ido',
      'form.title;Pets;Otra',
      'elements.pet.options.dog;Dog, "the best";',
      `elements.pet.options.cat;'=cat;'=gato`,
    ].join('\n');
    const parsed = parseTranslationCsv(csv);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const result = applyTranslationCsv(form, 'es', parsed.rows);
    const keys = (rows: TranslationCsvRow[]) => rows.map((row) => `${row.line}:${row.key}`);
    expect(keys(result.applied)).toEqual(['2:form.title', '7:elements.pet.options.cat']);
    expect(keys(result.sourceChanged)).toEqual(['3:elements.pet.title']);
    expect(keys(result.unknown)).toEqual(['4:elements.gone.title']);
    expect(keys(result.duplicate)).toEqual(['5:form.title']);
    expect(keys(result.blank)).toEqual(['6:elements.pet.options.dog']);
    expect((result.draft as unknown as { translations: unknown }).translations).toEqual({
      'form.title': { es: 'Mascotas' },
      'elements.pet.options.cat': { es: '=gato' },
    });
    expect(translationCounts(result.draft)).toEqual([{ language: 'es', total: 5, translated: 2, missing: 3, outdated: 0 }]);
  });

  it('saves an outdated translation again when the file has it for the current source', () => {
    const translated = withTranslation(form, textOf('form.title'), 'es', 'Mascotas');
    const changed = { ...translated, title: 'Pets!' };
    expect(translationCounts(changed)[0]?.outdated).toBe(1);
    const parsed = parseTranslationCsv('key,kind,source,translation\r\nform.title,title,Pets!,Mascotas\r\n');
    if (!parsed.ok) throw new Error('not read');
    const result = applyTranslationCsv(changed, 'es', parsed.rows);
    expect(result.applied.map((row) => row.key)).toEqual(['form.title']);
    expect(translationCounts(result.draft)[0]?.outdated).toBe(0);
  });

  it('says why a file is not a translation CSV', () => {
    expect(parseTranslationCsv('\ufeff  \n')).toEqual({ ok: false, error: { code: 'empty' } });
    expect(parseTranslationCsv('{"schema":"fieldwork.form/1"}')).toEqual({
      ok: false,
      error: { code: 'missing_columns', columns: ['key', 'source', 'translation'] },
    });
    expect(parseTranslationCsv('key,source\nform.title,Pets')).toEqual({ ok: false, error: { code: 'missing_columns', columns: ['translation'] } });
    const unclosed = parseTranslationCsv('key,source,translation\nform.title,Pets,Mascotas\nelements.pet.title,"Which pet?,x\n');
    expect(unclosed).toEqual({ ok: false, error: { code: 'bad_quotes', line: 3 } });
    expect(parseTranslationCsv('x'.repeat(5_000_001))).toEqual({ ok: false, error: { code: 'too_large' } });
  });
});
