import { describe, expect, it } from 'vitest';
import { FORM_SCHEMA_ID } from '../../../src/shared/forms/constants.ts';
import type { FormDraft } from '../../../src/shared/forms/definition.ts';
import { checkForPublish } from '../../../src/shared/forms/publish.ts';
import { exportFileName } from '../../../src/islands/admin/forms/ImportExport.tsx';
import { EMPTY_FILE_MESSAGE, NOT_JSON_MESSAGE, readImport } from '../../../src/islands/admin/forms/import-check.ts';
import { previewDefinition } from '../../../src/islands/admin/forms/preview.ts';

describe('import', () => {
  it('refuses text that is not JSON in its own words, and JSON that is not a well-formed draft in the publish check’s words', () => {
    expect(readImport('{ nope')).toEqual({ ok: false, problems: [NOT_JSON_MESSAGE] });
    expect(readImport('Name,Email\nAda,ada@example.org')).toEqual({ ok: false, problems: [NOT_JSON_MESSAGE] });
    expect(readImport(' \n')).toEqual({ ok: false, problems: [EMPTY_FILE_MESSAGE] });
    const value = { schema: FORM_SCHEMA_ID, pages: [{ elements: [{ id: 'a' }] }] };
    const bad = readImport(JSON.stringify(value));
    expect(bad).toEqual({ ok: false, problems: Object.values(checkForPublish(value).problems).flat() });
    expect(bad.problems).toEqual(['title is missing', '"pages[0]": id is missing', '"a": the element has no type']);
    expect(readImport('[1, 2]')).toEqual({ ok: false, problems: ['the form must be an object'] });
  });

  it('takes a well-formed draft with its publish problems listed', () => {
    const draft = { schema: FORM_SCHEMA_ID, title: 'T', pages: [{ id: 'p', elements: [{ id: 'x', type: 'mystery', title: 'X' }] }] };
    const result = readImport(JSON.stringify(draft));
    expect(result).toEqual({ ok: true, draft, problems: ['"x": unknown type "mystery"'] });
  });

  it('names the exported file after the title', () => {
    expect(exportFileName('Pet survey: Été 2026!')).toBe('pet-survey-ete-2026.json');
    expect(exportFileName('   ')).toBe('form.json');
  });
});

describe('preview definition', () => {
  it('leaves out elements that are not valid yet (and repeated ids), and says why', () => {
    const draft: FormDraft = {
      schema: FORM_SCHEMA_ID,
      title: 'T',
      pages: [
        {
          id: 'p1',
          title: 'One',
          visibleIf: { bogus: true },
          elements: [
            { id: 'ok', type: 'short_text', title: 'Fine' },
            { id: 'rating', type: 'rating', title: 'No max' },
            { id: 'ok', type: 'number', title: 'Same id' },
          ],
        },
      ],
    };
    const { definition, leftOut } = previewDefinition(draft);
    expect(definition.pages[0]?.elements.map((element) => element.id)).toEqual(['ok']);
    expect(definition.pages[0]?.visibleIf).toBeUndefined();
    expect(leftOut.map((item) => [item.id, item.title])).toEqual([
      ['rating', 'No max'],
      ['ok', 'Same id'],
    ]);
    expect(leftOut[1]?.reason).toBe('another element or page has the same id');
  });
});
