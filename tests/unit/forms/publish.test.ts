import { describe, expect, it } from 'vitest';
import type { FormDefinition, FormElement } from '../../../src/shared/forms/definition.ts';
import { formDraftSchema } from '../../../src/shared/forms/definition.ts';
import { checkForPublish } from '../../../src/shared/forms/publish.ts';
import { copy, form, formWithPages, options } from './helpers.ts';

/** The problems of a one-page form of these elements (raw objects: drafts may hold anything). */
function problemsOf(...elements: unknown[]): Record<string, string[]> {
  return checkForPublish(form(...(elements as FormElement[]))).problems;
}

const valid: FormDefinition = formWithPages(
  {
    id: 'about',
    title: 'About you',
    elements: [
      { id: 'name', type: 'short_text', title: 'Name', required: true, maxLength: 100 },
      { id: 'pet', type: 'single_choice', title: 'Pet?', options: options('yes', 'no'), allowOther: true },
      { id: 'food', type: 'multiple_choice', title: 'Food', options: options('bread', 'none'), exclusive: ['none'], maxSelected: 2 },
      { id: 'mood', type: 'scale', title: 'Mood', min: 0, max: 1, step: 0.25 },
      { id: 'stars', type: 'rating', title: 'Stars', max: 5 },
      { id: 'born', type: 'date', title: 'Born', minDate: '1900-01-01', maxDate: 'today' },
    ],
  },
  {
    id: 'more',
    visibleIf: { ref: 'pet', op: 'eq', value: 'yes' },
    elements: [
      {
        id: 'grid',
        type: 'matrix',
        title: 'Grid',
        rows: options('speed'),
        columns: options('bad', 'good'),
        visibleIf: {
          all: [
            { ref: 'food', op: 'includes_any', value: ['bread'] },
            { any: [{ ref: 'mood', op: 'gte', value: 0.5 }, { not: { ref: 'born', op: 'lt', value: 'today' } }] },
            { ref: 'stars', op: 'in', value: [4, 5] },
            { ref: 'name', op: 'answered' },
          ],
        },
      },
      { id: 'photos', type: 'photo', title: 'Photos', minFiles: 1, maxFiles: 3 },
      { id: 'agree', type: 'consent', title: 'Consent', statement: 'I agree', visibleIf: { ref: 'photos', op: 'answered' } },
      { id: 'rank', type: 'ranking', title: 'Rank', options: options('a', 'b'), rankAll: true },
      { id: 'bye', type: 'statement', title: 'Thanks', body: 'Thank you' },
    ],
  },
);

describe('checkForPublish', () => {
  it('accepts a valid definition and returns it', () => {
    const result = checkForPublish(valid);
    expect(result.problems).toEqual({});
    expect(result.definition).toEqual(valid);
  });

  it('returns no definition when there is any problem', () => {
    const draft = copy(valid);
    (draft.pages[0]?.elements[0] as { maxLength: number }).maxLength = -1;
    const result = checkForPublish(draft);
    expect(result.definition).toBeNull();
    expect(result.problems).toEqual({ name: ['"name": maxLength must be at least 0'] });
  });

  it('reports a draft that is not an object, and form-level problems under "form"', () => {
    expect(checkForPublish(null).problems).toEqual({ form: ['the form must be an object'] });
    expect(checkForPublish({ schema: 'fieldwork.form/1', title: 'T', pages: [] }).problems).toEqual({ form: ['pages: Add at least one page'] });
    expect(checkForPublish({ ...valid, extra: 1 }).problems).toEqual({ form: ['unknown key "extra"'] });
  });

  describe('draft vs publish', () => {
    const draft = {
      schema: 'fieldwork.form/1',
      title: 'Work in progress',
      pages: [{ id: 'p1', elements: [{ id: 'w', type: 'widget', title: 'Widget', colour: 'red' }] }],
    };

    it('an unknown type passes formDraftSchema but fails checkForPublish, naming the element', () => {
      expect(formDraftSchema.safeParse(draft).success).toBe(true);
      const result = checkForPublish(draft);
      expect(result.definition).toBeNull();
      expect(result.problems).toEqual({ w: ['"w": unknown type "widget"'] });
    });

    it('a mistyped setting passes the draft schema but not publishing', () => {
      const mistyped = { schema: 'fieldwork.form/1', title: 'T', pages: [{ id: 'p1', elements: [{ id: 'n', type: 'number', title: 'N', min: '1' }] }] };
      expect(formDraftSchema.safeParse(mistyped).success).toBe(true);
      expect(checkForPublish(mistyped).problems).toEqual({ n: ['"n": min must be a number'] });
    });
  });

  describe('zod issues become messages naming the element', () => {
    it.each<[string, unknown, string]>([
      [
        'a bad element id',
        { id: 'What', type: 'short_text', title: 'T' },
        '"What": id: Use a lower-case letter, then lower-case letters, digits or _ (64 at most)',
      ],
      ['an unknown setting', { id: 'q', type: 'short_text', title: 'T', colour: 'red' }, '"q": unknown setting "colour"'],
      ['a wrong enum', { id: 'q', type: 'short_text', title: 'T', format: 'postcode' }, '"q": format must be one of "text", "email", "url", "phone"'],
      ['a rating max out of bounds', { id: 'q', type: 'rating', title: 'T', max: 11 }, '"q": max must be at most 10'],
      ['a missing setting', { id: 'q', type: 'photo', title: 'T' }, '"q": maxFiles is missing'],
      ['a whole number needed', { id: 'q', type: 'rating', title: 'T', max: 4.5 }, '"q": max must be a whole number'],
      [
        'a bad option id',
        { id: 'q', type: 'dropdown', title: 'T', options: [{ id: 'Yes!', label: 'Yes' }] },
        '"q": options[0].id: Use lower-case letters, digits or _ (64 at most)',
      ],
      ['a title too long', { id: 'q', type: 'short_text', title: 'x'.repeat(301) }, '"q": title: Too long'],
      ['no type', { id: 'q', title: 'T' }, '"q": the element has no type'],
    ])('%s', (_name, element, message) => {
      expect(problemsOf(element)).toEqual({ [(element as { id: string }).id]: [message] });
    });

    it('names an element without an id by its position', () => {
      expect(problemsOf({ type: 'short_text', title: 'T' })).toEqual({ 'pages[0].elements[0]': ['"pages[0].elements[0]": id is missing'] });
    });

    it('names the page for page problems', () => {
      const draft = formWithPages({ id: 'p1', title: 'x'.repeat(301), elements: [{ id: 'q', type: 'short_text', title: 'Q' }] });
      expect(checkForPublish(draft).problems).toEqual({ p1: ['"p1": title: Too long'] });
    });
  });

  describe('ids', () => {
    it('element ids are unique', () => {
      expect(problemsOf({ id: 'q', type: 'short_text', title: 'A' }, { id: 'q', type: 'long_text', title: 'B' })).toEqual({
        q: ['"q": 2 elements have this id; each needs its own'],
      });
    });

    it('page ids are unique, and differ from element ids', () => {
      const pages = formWithPages(
        { id: 'p1', elements: [{ id: 'p2', type: 'short_text', title: 'A' }] },
        { id: 'p1', elements: [{ id: 'b', type: 'short_text', title: 'B' }] },
        { id: 'p2', elements: [{ id: 'c', type: 'short_text', title: 'C' }] },
      );
      expect(checkForPublish(pages).problems).toEqual({
        p1: ['"p1": 2 pages have this id; each needs its own'],
        p2: ['"p2": a page and an element have this id; each needs its own'],
      });
    });

    it('option, row and column ids are unique within their element', () => {
      expect(problemsOf({ id: 'q', type: 'single_choice', title: 'A', options: [...options('a', 'b'), { id: 'a', label: 'Again' }] })).toEqual({
        q: ['"q": option id "a" is used more than once'],
      });
      expect(
        problemsOf({
          id: 'm',
          type: 'matrix',
          title: 'M',
          rows: [...options('r'), { id: 'r', label: 'R2' }],
          columns: [...options('c'), { id: 'c', label: 'C2' }],
        }),
      ).toEqual({
        m: ['"m": row id "r" is used more than once', '"m": column id "c" is used more than once'],
      });
    });
  });

  describe('nothing blank reaches participants', () => {
    it('the report of issue 28: a single choice without a title, its options without labels', () => {
      expect(
        problemsOf({
          id: 'q',
          type: 'single_choice',
          title: '',
          options: [
            { id: 'option_1', label: '' },
            { id: 'option_2', label: ' ' },
          ],
        }),
      ).toEqual({
        q: ['"q": the question has no title', '"q": option 1 has no label', '"q": option 2 has no label'],
      });
    });

    it.each<[string, unknown, string[]]>([
      ['a title of spaces', { id: 'q', type: 'short_text', title: '  ' }, ['"q": the question has no title']],
      [
        'two options alike (case and spaces aside)',
        {
          id: 'q',
          type: 'dropdown',
          title: 'Q',
          options: [
            { id: 'a', label: 'Yes' },
            { id: 'b', label: ' yes' },
          ],
        },
        ['"q": options 1 and 2 have the same label "yes"'],
      ],
      [
        'a matrix row and column without labels, two columns alike',
        { id: 'q', type: 'matrix', title: 'Q', rows: [{ id: 'r', label: '' }], columns: [...options('a'), { id: 'b', label: 'A' }, { id: 'c', label: '' }] },
        ['"q": row 1 has no label', '"q": columns 1 and 2 have the same label "A"', '"q": column 3 has no label'],
      ],
      [
        'a ranking option without a label',
        { id: 'q', type: 'ranking', title: 'Q', options: [...options('a'), { id: 'b', label: '' }] },
        ['"q": option 2 has no label'],
      ],
      ['a consent with nothing to tick', { id: 'q', type: 'consent', title: 'Q', statement: ' ' }, ['"q": the statement to tick is empty']],
      ['a statement with neither title nor text', { id: 'q', type: 'statement', title: '', body: '' }, ['"q": the statement has neither a title nor a text']],
      ['a statement with a text only is fine', { id: 'q', type: 'statement', title: '', body: 'Thanks!' }, []],
      [
        'an id that is not one',
        { id: 'Bad Id!', type: 'short_text', title: 'Q' },
        ['"Bad Id!": id: Use a lower-case letter, then lower-case letters, digits or _ (64 at most)'],
      ],
    ])('%s', (_name, element, messages) => {
      const { id } = element as { id: string };
      expect(problemsOf(element)).toEqual(messages.length === 0 ? {} : { [id]: messages });
    });

    it('an empty page', () => {
      const pages = formWithPages({ id: 'p1', elements: [{ id: 'a', type: 'short_text', title: 'A' }] }, { id: 'p2', elements: [] });
      expect(checkForPublish(pages).problems).toEqual({ p2: ['"p2": the page is empty; add a question or delete the page'] });
    });
  });

  describe('empty lists', () => {
    it.each(['single_choice', 'multiple_choice', 'dropdown', 'ranking'])('%s needs options', (type) => {
      expect(problemsOf({ id: 'q', type, title: 'Q', options: [] })).toEqual({ q: ['"q": add at least one option'] });
    });

    it('a matrix needs rows and columns', () => {
      expect(problemsOf({ id: 'm', type: 'matrix', title: 'M', rows: [], columns: [] })).toEqual({
        m: ['"m": add at least one row', '"m": add at least one column'],
      });
    });
  });

  describe('min ≤ max', () => {
    it.each<[string, unknown, string[]]>([
      ['minLength/maxLength', { id: 'q', type: 'short_text', title: 'Q', minLength: 10, maxLength: 5 }, ['"q": minLength (10) is greater than maxLength (5)']],
      [
        'minLength over the default maxLength',
        { id: 'q', type: 'short_text', title: 'Q', minLength: 300 },
        ['"q": minLength (300) is greater than the default maxLength (255)'],
      ],
      [
        'long text minLength/maxLength',
        { id: 'q', type: 'long_text', title: 'Q', minLength: 10, maxLength: 5 },
        ['"q": minLength (10) is greater than maxLength (5)'],
      ],
      [
        'minSelected/maxSelected',
        { id: 'q', type: 'multiple_choice', title: 'Q', options: options('a', 'b', 'c'), minSelected: 3, maxSelected: 2 },
        ['"q": minSelected (3) is greater than maxSelected (2)'],
      ],
      [
        'maxSelected ≤ options',
        { id: 'q', type: 'multiple_choice', title: 'Q', options: options('a', 'b'), maxSelected: 3 },
        ['"q": maxSelected (3) is more than the number of options (2)'],
      ],
      ['"Other" counts as an option', { id: 'q', type: 'multiple_choice', title: 'Q', options: options('a', 'b'), maxSelected: 3, allowOther: true }, []],
      [
        'minSelected ≤ options',
        { id: 'q', type: 'multiple_choice', title: 'Q', options: options('a', 'b'), minSelected: 3 },
        ['"q": minSelected (3) is more than the number of options (2)'],
      ],
      ['scale min < max', { id: 'q', type: 'scale', title: 'Q', min: 5, max: 5 }, ['"q": min (5) must be less than max (5)']],
      [
        'scale step divides the range',
        { id: 'q', type: 'scale', title: 'Q', min: 0, max: 1, step: 0.3 },
        ['"q": the step (0.3) does not divide the range 0 to 1'],
      ],
      [
        'scale default step (1) divides the range',
        { id: 'q', type: 'scale', title: 'Q', min: 0, max: 2.5 },
        ['"q": the step (1) does not divide the range 0 to 2.5'],
      ],
      ['scale decimal step', { id: 'q', type: 'scale', title: 'Q', min: 0, max: 0.3, step: 0.1 }, []],
      ['number min/max', { id: 'q', type: 'number', title: 'Q', min: 10, max: 1 }, ['"q": min (10) is greater than max (1)']],
      [
        'minDate/maxDate',
        { id: 'q', type: 'date', title: 'Q', minDate: '2026-02-01', maxDate: '2026-01-01' },
        ['"q": minDate (2026-02-01) is after maxDate (2026-01-01)'],
      ],
      ['dates with "today" are not compared', { id: 'q', type: 'date', title: 'Q', minDate: '2999-01-01', maxDate: 'today' }, []],
      ['a date that does not exist', { id: 'q', type: 'date', title: 'Q', maxDate: '2026-02-30' }, ['"q": maxDate "2026-02-30" is not a real date']],
      ['minFiles/maxFiles', { id: 'q', type: 'photo', title: 'Q', minFiles: 3, maxFiles: 2 }, ['"q": minFiles (3) is greater than maxFiles (2)']],
    ])('%s', (_name, element, messages) => {
      expect(problemsOf(element)).toEqual(messages.length === 0 ? {} : { q: messages });
    });
  });

  it('exclusive ids exist among the options', () => {
    expect(problemsOf({ id: 'q', type: 'multiple_choice', title: 'Q', options: options('a', 'b'), exclusive: ['none'] })).toEqual({
      q: ['"q": exclusive option "none" is not one of its options'],
    });
  });

  describe('conditions', () => {
    const base = [
      { id: 'colour', type: 'single_choice', title: 'Colour', options: options('red', 'blue') },
      { id: 'age', type: 'number', title: 'Age' },
      { id: 'name', type: 'short_text', title: 'Name' },
      { id: 'food', type: 'multiple_choice', title: 'Food', options: options('bread', 'rice') },
      { id: 'intro', type: 'statement', title: 'Intro', body: 'Hi' },
    ];
    const withCondition = (visibleIf: unknown) =>
      problemsOf(...base, { id: 'what', type: 'short_text', title: 'What', visibleIf }, { id: 'later', type: 'short_text', title: 'Later' });

    it.each<[string, unknown, string]>([
      ['a later element', { ref: 'later', op: 'answered' }, '"what": the condition refers to "later", which comes after it'],
      ['an unknown id', { ref: 'nope', op: 'answered' }, '"what": the condition refers to "nope", which does not exist'],
      ['itself', { ref: 'what', op: 'answered' }, '"what": the condition refers to the element itself'],
      ['a page', { ref: 'page_1', op: 'answered' }, '"what": the condition refers to "page_1", which is a page, not an element'],
      ['a statement', { ref: 'intro', op: 'answered' }, '"what": the condition refers to "intro", a statement, which takes no answer'],
      [
        'an op that does not apply',
        { ref: 'name', op: 'gt', value: 'a' },
        '"what": the condition\'s "gt" does not apply to "name" (short_text); use "eq", "neq", "in", "answered", "not_answered"',
      ],
      [
        'an unknown option',
        { ref: 'colour', op: 'eq', value: 'green' },
        '"what": the condition compares "colour" with "green", which is not one of its options',
      ],
      ['a number compared with text', { ref: 'age', op: 'gt', value: 'ten' }, '"what": the condition compares "age" with "ten", which is not a number'],
      ['a value where none is taken', { ref: 'age', op: 'answered', value: 1 }, '"what": the condition\'s "answered" on "age" takes no value'],
      ['no value where one is needed', { ref: 'age', op: 'eq' }, '"what": the condition\'s "eq" on "age" needs a value'],
      ['in without a list', { ref: 'colour', op: 'in', value: 'red' }, '"what": the condition\'s "in" on "colour" needs a list of values'],
      ['an unknown op', { ref: 'age', op: 'between', value: 1 }, '"what": the condition has an unknown op "between"'],
      [
        'a nested problem',
        { all: [{ ref: 'age', op: 'gt', value: 1 }, { not: { ref: 'food', op: 'includes_all', value: ['cake'] } }] },
        '"what": the condition compares "food" with "cake", which is not one of its options',
      ],
      ['an empty any', { any: [] }, '"what": the condition has an empty "any"'],
      ['mixed keys', { all: [], ref: 'age' }, '"what": the condition mixes "all" with "ref"'],
      ['no kind', { foo: 1 }, '"what": the condition needs "all", "any", "not" or "ref"'],
    ])('%s', (_name, condition, message) => {
      expect(withCondition(condition).what).toContain(message);
    });

    it('accepts earlier elements with fitting ops and values', () => {
      expect(
        withCondition({
          all: [
            { ref: 'colour', op: 'in', value: ['red', 'blue'] },
            { ref: 'age', op: 'lte', value: 30 },
            { ref: 'name', op: 'neq', value: 'Bob' },
            { ref: 'food', op: 'includes_any', value: ['rice'] },
            { not: { ref: 'food', op: 'not_answered' } },
          ],
        }),
      ).toEqual({});
    });

    it('limits nesting to 8 levels', () => {
      let deep: unknown = { ref: 'age', op: 'answered' };
      for (let i = 0; i < 8; i++) deep = { not: deep };
      expect(withCondition(deep)).toEqual({});
      expect(withCondition({ not: deep }).what).toEqual(['"what": the condition is nested more than 8 levels deep']);
    });

    it("a page's condition may refer only to elements on earlier pages", () => {
      const pages = formWithPages(
        { id: 'p1', elements: [{ id: 'a', type: 'short_text', title: 'A' }] },
        { id: 'p2', visibleIf: { ref: 'a', op: 'answered' }, elements: [{ id: 'b', type: 'short_text', title: 'B' }] },
        { id: 'p3', visibleIf: { ref: 'c', op: 'answered' }, elements: [{ id: 'c', type: 'short_text', title: 'C' }] },
      );
      expect(checkForPublish(pages).problems).toEqual({ p3: ['"p3": the condition refers to "c", which is not on an earlier page'] });
    });

    it("an element's condition may refer to elements on earlier pages", () => {
      const pages = formWithPages(
        { id: 'p1', elements: [{ id: 'a', type: 'short_text', title: 'A' }] },
        { id: 'p2', elements: [{ id: 'b', type: 'short_text', title: 'B', visibleIf: { ref: 'a', op: 'answered' } }] },
      );
      expect(checkForPublish(pages).problems).toEqual({});
    });
  });

  it('reports every problem of a draft at once, each starting with the quoted id', () => {
    const { problems } = checkForPublish(
      form(
        { id: 'a', type: 'widget', title: 'A' } as unknown as FormElement,
        { id: 'b', type: 'scale', title: 'B', min: 3, max: 1, visibleIf: { ref: 'c', op: 'answered' } },
        { id: 'c', type: 'single_choice', title: 'C', options: [] },
      ),
    );
    expect(problems).toEqual({
      a: ['"a": unknown type "widget"'],
      b: ['"b": min (3) must be less than max (1)', '"b": the condition refers to "c", which comes after it'],
      c: ['"c": add at least one option'],
    });
    for (const [key, messages] of Object.entries(problems)) for (const message of messages) expect(message.startsWith(`"${key}": `)).toBe(true);
  });
});
