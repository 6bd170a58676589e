import { describe, expect, it } from 'vitest';
import type { AnswerValue, Answers, FormElement } from '../../../src/shared/forms/definition.ts';
import { FORM_MESSAGES, validateAnswers, validateElement } from '../../../src/shared/forms/validate.ts';
import { MESSAGES } from '../../../src/shared/messages.ts';
import { form, formWithPages, options } from './helpers.ts';

type Case = [string, unknown, string[]];

/** Runs a table of (name, answer, expected messages) against one element. */
function table(element: FormElement, cases: Case[], today?: string) {
  it.each(cases)('%s', (_name, value, expected) => {
    expect(validateElement(element, value as AnswerValue | undefined, today === undefined ? {} : { today })).toEqual(expected);
  });
}

describe('messages', () => {
  it("uses docs/product.md's wording where it fits", () => {
    expect(FORM_MESSAGES.required).toBe('Required');
    expect(FORM_MESSAGES.tooLong).toBe('Too long');
    expect(FORM_MESSAGES.tooShort).toBe('Too short');
    expect(FORM_MESSAGES.invalidEmail).toBe('Invalid email');
    expect(FORM_MESSAGES.tooLong).toBe(MESSAGES.tooLong);
  });
});

describe('required', () => {
  const required: FormElement = { id: 'name', type: 'short_text', title: 'Name', required: true };
  const optional: FormElement = { id: 'name', type: 'short_text', title: 'Name' };
  it.each([undefined, '', '   ', null])('%j is Required when required, fine when optional', (value) => {
    expect(validateElement(required, value as never)).toEqual([MESSAGES.required]);
    expect(validateElement(optional, value as never)).toEqual([]);
  });
  it('applies to every answerable type', () => {
    const elements: FormElement[] = [
      { id: 'a', type: 'multiple_choice', title: 'A', options: options('x'), required: true },
      { id: 'b', type: 'matrix', title: 'B', rows: options('r'), columns: options('c'), required: true },
      { id: 'c', type: 'consent', title: 'C', statement: 'I agree', required: true },
      { id: 'd', type: 'photo', title: 'D', maxFiles: 2, required: true },
    ];
    expect(validateElement(elements[0] as FormElement, [])).toEqual([MESSAGES.required]);
    expect(validateElement(elements[1] as FormElement, {})).toEqual([MESSAGES.required]);
    expect(validateElement(elements[1] as FormElement, { r: '' })).toEqual([MESSAGES.required]);
    expect(validateElement(elements[2] as FormElement, false)).toEqual([MESSAGES.required]);
    expect(validateElement(elements[3] as FormElement, [])).toEqual([MESSAGES.required]);
  });
  it('never applies to a statement', () => {
    expect(validateElement({ id: 's', type: 'statement', title: 'S', body: 'Hello', required: true }, undefined)).toEqual([]);
  });
});

describe('short_text', () => {
  table({ id: 'name', type: 'short_text', title: 'Name', minLength: 2 }, [
    ['valid', 'Ada', []],
    ['too short', 'A', [MESSAGES.tooShort]],
    ['trimmed before measuring', ' A ', [MESSAGES.tooShort]],
    ['at the default maximum (255)', 'a'.repeat(255), []],
    ['over the default maximum', 'a'.repeat(256), [MESSAGES.tooLong]],
    ['emoji count once', '😀'.repeat(255), []],
    ['a number', 42, [FORM_MESSAGES.text]],
    ['an array', ['Ada'], [FORM_MESSAGES.text]],
  ]);
  describe('maxLength', () => {
    table({ id: 'code', type: 'short_text', title: 'Code', maxLength: 3 }, [
      ['at the maximum', 'abc', []],
      ['over it', 'abcd', [MESSAGES.tooLong]],
    ]);
  });
  describe('email', () => {
    table({ id: 'email', type: 'short_text', title: 'Email', format: 'email' }, [
      ['valid', 'ada@example.org', []],
      ['no domain', 'ada@', [MESSAGES.invalidEmail]],
      ['no @', 'ada.example.org', [MESSAGES.invalidEmail]],
    ]);
  });
  describe('url', () => {
    table({ id: 'site', type: 'short_text', title: 'Site', format: 'url' }, [
      ['https', 'https://example.org/page?x=1', []],
      ['http', 'http://example.org', []],
      ['no scheme', 'example.org', [FORM_MESSAGES.invalidUrl]],
      ['another scheme', 'javascript:alert(1)', [FORM_MESSAGES.invalidUrl]],
      ['no dot in the host', 'https://localhost', [FORM_MESSAGES.invalidUrl]],
      ['spaces', 'https://exa mple.org', [FORM_MESSAGES.invalidUrl]],
    ]);
    it('reads "Enter a valid web address"', () => expect(FORM_MESSAGES.invalidUrl).toBe('Enter a valid web address'));
  });
  describe('phone', () => {
    table({ id: 'tel', type: 'short_text', title: 'Phone', format: 'phone' }, [
      ['international', '+44 20 7946 0958', []],
      ['with brackets and dashes', '(555) 123-4567', []],
      ['letters', '555-CALL-NOW', [FORM_MESSAGES.invalidPhone]],
      ['too few digits', '12 34', [FORM_MESSAGES.invalidPhone]],
      ['too many digits', '+1234567890123456', [FORM_MESSAGES.invalidPhone]],
    ]);
  });
});

describe('long_text', () => {
  table({ id: 'story', type: 'long_text', title: 'Story', minLength: 10 }, [
    ['valid', 'Once upon a time', []],
    ['too short', 'Once', [MESSAGES.tooShort]],
    ['at the default maximum (5000)', 'a'.repeat(5000), []],
    ['over it', 'a'.repeat(5001), [MESSAGES.tooLong]],
    ['a boolean', true, [FORM_MESSAGES.text]],
  ]);
});

describe('single_choice', () => {
  table({ id: 'colour', type: 'single_choice', title: 'Colour', options: options('red', 'blue') }, [
    ['an option id', 'blue', []],
    ['a label instead of an id', 'Blue', [FORM_MESSAGES.chooseOption]],
    ['an unknown id', 'green', [FORM_MESSAGES.chooseOption]],
    ['a number', 1, [FORM_MESSAGES.chooseOption]],
    ['an array', ['red'], [FORM_MESSAGES.chooseOption]],
    ['"Other" when it is off', { other: 'Green' }, [FORM_MESSAGES.otherNotAllowed]],
  ]);
  describe('with allowOther', () => {
    table({ id: 'colour', type: 'single_choice', title: 'Colour', options: options('red'), allowOther: true }, [
      ['an option id', 'red', []],
      ['"Other" with text', { other: 'Green' }, []],
      ['"Other" too long', { other: 'g'.repeat(501) }, [MESSAGES.tooLong]],
    ]);
  });
});

describe('dropdown', () => {
  table({ id: 'country', type: 'dropdown', title: 'Country', options: options('fr', 'de'), searchable: true }, [
    ['an option id', 'fr', []],
    ['an unknown id', 'es', [FORM_MESSAGES.chooseOption]],
    ['"Other" (dropdowns have none)', { other: 'Spain' }, [FORM_MESSAGES.otherNotAllowed]],
  ]);
});

describe('multiple_choice', () => {
  const element: FormElement = {
    id: 'food',
    type: 'multiple_choice',
    title: 'Food',
    options: options('bread', 'rice', 'pasta', 'fish', 'none'),
    minSelected: 2,
    maxSelected: 3,
    exclusive: ['none'],
  };
  table(element, [
    ['two options', ['bread', 'rice'], []],
    ['three options', ['bread', 'rice', 'fish'], []],
    ['too few', ['bread'], ['Choose at least 2']],
    ['too many', ['bread', 'rice', 'pasta', 'fish'], ['Choose at most 3']],
    ['the exclusive option alone (minSelected does not apply)', ['none'], []],
    ['the exclusive option with others', ['none', 'rice'], ['"None" cannot be combined with other choices']],
    ['an unknown id', ['bread', 'cake'], [FORM_MESSAGES.chooseOption]],
    ['the same id twice', ['bread', 'bread'], [FORM_MESSAGES.chooseOnce]],
    ['a single id, not an array', 'bread', [FORM_MESSAGES.chooseOptions]],
    ['a number inside', ['bread', 3], [FORM_MESSAGES.chooseOption]],
    ['"Other" when it is off', ['bread', { other: 'Cake' }], [FORM_MESSAGES.otherNotAllowed]],
  ]);
  describe('with allowOther', () => {
    table({ id: 'food', type: 'multiple_choice', title: 'Food', options: options('bread', 'rice'), allowOther: true, maxSelected: 2 }, [
      ['an option and "Other"', ['bread', { other: 'Cake' }], []],
      ['"Other" counts as a choice', ['bread', 'rice', { other: 'Cake' }], ['Choose at most 2']],
      ['two "Other" answers', [{ other: 'Cake' }, { other: 'Pie' }], [FORM_MESSAGES.oneOther]],
    ]);
  });
});

describe('rating', () => {
  table({ id: 'stars', type: 'rating', title: 'Stars', max: 10 }, [
    ['1', 1, []],
    ['max', 10, []],
    ['0', 0, ['Enter a number from 1 to 10']],
    ['over max', 11, ['Enter a number from 1 to 10']],
    ['not whole', 2.5, ['Enter a whole number']],
    ['a string', '5', ['Enter a number from 1 to 10']],
  ]);
});

describe('scale', () => {
  table({ id: 'mood', type: 'scale', title: 'Mood', min: 0, max: 10 }, [
    ['min', 0, []],
    ['max', 10, []],
    ['off the default step of 1', 2.5, [FORM_MESSAGES.scaleStep(0, 10, 1)]],
    ['below min', -1, ['Enter a number from 0 to 10']],
    ['above max', 11, ['Enter a number from 0 to 10']],
    ['a string', 'five', ['Enter a number from 0 to 10']],
  ]);
  describe('with a decimal step', () => {
    table({ id: 'mood', type: 'scale', title: 'Mood', min: 0, max: 1, step: 0.1 }, [
      ['on the step (despite floating point)', 0.3, []],
      ['on the step', 0.7, []],
      ['off the step', 0.35, ['Choose a value from 0 to 1 in steps of 0.1']],
    ]);
  });
});

describe('number', () => {
  table({ id: 'age', type: 'number', title: 'Age', min: 18, max: 99, integer: true, unit: 'years' }, [
    ['valid', 42, []],
    ['bounds', 18, []],
    ['not whole', 42.5, ['Enter a whole number']],
    ['below min', 17, ['Enter a number from 18 to 99']],
    ['above max', 100, ['Enter a number from 18 to 99']],
    ['a numeric string', '42', [FORM_MESSAGES.number]],
  ]);
  describe('one bound', () => {
    table({ id: 'weight', type: 'number', title: 'Weight', min: 0 }, [
      ['decimals are fine', 2.5, []],
      ['below min', -1, ['Enter a number of at least 0']],
    ]);
    table({ id: 'weight', type: 'number', title: 'Weight', max: 5 }, [['above max', 6, ['Enter a number of at most 5']]]);
  });
});

describe('date', () => {
  table(
    { id: 'visit', type: 'date', title: 'Visit', minDate: '2026-01-01', maxDate: 'today' },
    [
      ['valid', '2026-02-01', []],
      ['the bounds', '2026-01-01', []],
      ['before minDate', '2025-12-31', ['Choose a date on or after 2026-01-01']],
      ['after today', '2026-03-02', ['Choose a date on or before today']],
      ['not a real day', '2026-02-30', [FORM_MESSAGES.date]],
      ['another format', '01/02/2026', [FORM_MESSAGES.date]],
      ['a number', 20260101, [FORM_MESSAGES.date]],
    ],
    '2026-03-01',
  );
});

describe('photo', () => {
  table({ id: 'shots', type: 'photo', title: 'Photos', minFiles: 2, maxFiles: 3 }, [
    ['two media ids', ['m1', 'm2'], []],
    ['too few', ['m1'], ['Add at least 2 photos']],
    ['too many', ['m1', 'm2', 'm3', 'm4'], ['Add at most 3 photos']],
    ['the same photo twice', ['m1', 'm1'], [FORM_MESSAGES.photoOnce]],
    ['not strings', [1, 2], [FORM_MESSAGES.photos]],
    ['a single id', 'm1', [FORM_MESSAGES.photos]],
  ]);
  table({ id: 'shot', type: 'photo', title: 'Photo', maxFiles: 1 }, [['one too many', ['m1', 'm2'], ['Add at most 1 photo']]]);
});

describe('consent', () => {
  table({ id: 'agree', type: 'consent', title: 'Consent', statement: 'I agree' }, [
    ['true', true, []],
    ['a string', 'yes', [FORM_MESSAGES.consent]],
    ['a number', 1, [FORM_MESSAGES.consent]],
  ]);
});

describe('matrix', () => {
  const rows = options('speed', 'price');
  const columns = options('bad', 'ok', 'good');
  table({ id: 'grid', type: 'matrix', title: 'Grid', rows, columns }, [
    ['some rows', { speed: 'good' }, []],
    ['all rows', { speed: 'good', price: 'bad' }, []],
    ['an unknown column', { speed: 'great' }, [FORM_MESSAGES.chooseColumn]],
    ['an unknown row', { speed: 'good', colour: 'ok' }, [FORM_MESSAGES.unknownRow]],
    ['a list in a single-column matrix', { speed: ['good'] }, [FORM_MESSAGES.chooseColumn]],
    ['not an object', ['good'], [FORM_MESSAGES.matrix]],
    ['a string', 'good', [FORM_MESSAGES.matrix]],
  ]);
  describe('allRowsRequired', () => {
    table({ id: 'grid', type: 'matrix', title: 'Grid', rows, columns, allRowsRequired: true }, [
      ['all rows', { speed: 'good', price: 'ok' }, []],
      ['a row missing', { speed: 'good' }, ['Answer every row']],
      ['a row left empty', { speed: 'good', price: '' }, ['Answer every row']],
    ]);
  });
  describe('multiple', () => {
    table({ id: 'grid', type: 'matrix', title: 'Grid', rows, columns, multiple: true }, [
      ['lists of columns', { speed: ['good', 'ok'], price: ['bad'] }, []],
      ['a single column, not a list', { speed: 'good' }, [FORM_MESSAGES.chooseColumn]],
      ['an unknown column', { speed: ['good', 'great'] }, [FORM_MESSAGES.chooseColumn]],
      ['a column twice', { speed: ['good', 'good'] }, [FORM_MESSAGES.chooseOnce]],
    ]);
  });
});

describe('ranking', () => {
  table({ id: 'rank', type: 'ranking', title: 'Rank', options: options('a', 'b', 'c') }, [
    ['every option', ['c', 'a', 'b'], []],
    ['some options', ['b'], []],
    ['an unknown option', ['a', 'z'], [FORM_MESSAGES.chooseOption]],
    ['an option twice', ['a', 'a'], [FORM_MESSAGES.rankOnce]],
    ['not an array', 'a', [FORM_MESSAGES.ranking]],
  ]);
  describe('rankAll', () => {
    table({ id: 'rank', type: 'ranking', title: 'Rank', options: options('a', 'b', 'c'), rankAll: true }, [
      ['every option', ['b', 'c', 'a'], []],
      ['one missing', ['b', 'c'], ['Rank every option']],
    ]);
  });
});

describe('validateAnswers', () => {
  const definition = formWithPages(
    {
      id: 'first',
      elements: [
        { id: 'pet', type: 'single_choice', title: 'Pet?', options: options('yes', 'no'), required: true },
        { id: 'pet_name', type: 'short_text', title: 'Name?', required: true, visibleIf: { ref: 'pet', op: 'eq', value: 'yes' } },
        { id: 'intro', type: 'statement', title: 'Intro', body: 'Hello' },
      ],
    },
    {
      id: 'second',
      visibleIf: { ref: 'pet', op: 'eq', value: 'yes' },
      elements: [{ id: 'food', type: 'short_text', title: 'Food?', required: true }],
    },
    { id: 'third', elements: [{ id: 'age', type: 'number', title: 'Age', required: true, integer: true }] },
  );

  it('reports every problem per element id', () => {
    const result = validateAnswers(definition, { pet: 'yes', age: 4.5 });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual({ pet_name: [MESSAGES.required], food: [MESSAGES.required], age: ['Enter a whole number'] });
  });

  it('does not require hidden elements or the elements of hidden pages', () => {
    const result = validateAnswers(definition, { pet: 'no', age: 4 });
    expect(result).toEqual({ valid: true, errors: {}, answers: { pet: 'no', age: 4 } });
  });

  it('does not validate hidden elements, and drops their answers and unknown keys', () => {
    const result = validateAnswers(definition, { pet: 'no', pet_name: 12, food: ['x'], age: 4, stray: 'y', intro: 'z' } as Answers);
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual({});
    expect(result.answers).toEqual({ pet: 'no', age: 4 });
  });

  it('cleans the answers it keeps: trimmed text, blank answers left out', () => {
    const result = validateAnswers(definition, { pet: 'yes', pet_name: '  Rex ', food: 'Meat', age: 4 });
    expect(result).toEqual({ valid: true, errors: {}, answers: { pet: 'yes', pet_name: 'Rex', food: 'Meat', age: 4 } });
    const blank = validateAnswers(form({ id: 'note', type: 'long_text', title: 'Note' }), { note: '   ' });
    expect(blank).toEqual({ valid: true, errors: {}, answers: {} });
  });

  it('with pageId, checks only the visible elements of that page', () => {
    const first = validateAnswers(definition, { pet: 'yes' }, { pageId: 'first' });
    expect(first.errors).toEqual({ pet_name: [MESSAGES.required] });
    expect(validateAnswers(definition, { pet: 'yes', pet_name: 'Rex' }, { pageId: 'first' }).valid).toBe(true);
    expect(validateAnswers(definition, { pet: 'yes' }, { pageId: 'third' }).errors).toEqual({ age: [MESSAGES.required] });
    // A hidden page has nothing to check.
    expect(validateAnswers(definition, { pet: 'no' }, { pageId: 'second' }).valid).toBe(true);
  });

  it('uses the given day for "today" bounds', () => {
    const dated = form({ id: 'when', type: 'date', title: 'When', maxDate: 'today' });
    expect(validateAnswers(dated, { when: '2026-05-02' }, { today: '2026-05-01' }).errors).toEqual({ when: ['Choose a date on or before today'] });
    expect(validateAnswers(dated, { when: '2026-05-02' }, { today: '2026-05-02' }).valid).toBe(true);
  });

  it('treats answers that are not an object as no answers', () => {
    expect(validateAnswers(definition, null as unknown as Answers).errors).toEqual({ pet: [MESSAGES.required], age: [MESSAGES.required] });
  });

  it('reads only own keys (an element may be called "constructor")', () => {
    const tricky = form({ id: 'constructor', type: 'short_text', title: 'Tricky', required: true });
    expect(validateAnswers(tricky, {}).errors).toEqual({ constructor: [MESSAGES.required] });
    expect(validateAnswers(tricky, { constructor: 'ok' } as Answers).answers).toEqual({ constructor: 'ok' });
  });
});
