import { describe, expect, it } from 'vitest';
import type { Answers, Condition } from '../../../src/shared/forms/definition.ts';
import { evaluateCondition, isAnswered, pruneHidden, visibleElementIds, visiblePages } from '../../../src/shared/forms/logic.ts';
import { form, formWithPages, options } from './helpers.ts';

describe('isAnswered', () => {
  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty string', ''],
    ['blank string', '   \n'],
    ['false (unticked consent)', false],
    ['empty array', []],
    ['array of blanks', ['']],
    ['empty matrix', {}],
    ['matrix of empty rows', { speed: '', price: [] }],
    ['blank other', { other: ' ' }],
    ['NaN', Number.NaN],
  ])('%s is not answered', (_name, value) => {
    expect(isAnswered(value as never)).toBe(false);
  });

  it.each([
    ['text', 'hi'],
    ['zero', 0],
    ['true', true],
    ['option ids', ['a']],
    ['other text', { other: 'Mango' }],
    ['array with an other', [{ other: 'Mango' }]],
    ['a matrix row', { speed: 'good' }],
    ['a multiple matrix row', { speed: ['good'] }],
  ])('%s is answered', (_name, value) => {
    expect(isAnswered(value as never)).toBe(true);
  });
});

describe('evaluateCondition', () => {
  const answers: Answers = {
    name: 'Ada',
    colour: 'blue',
    toppings: ['cheese', 'ham'],
    age: 42,
    born: '1990-05-01',
    agree: true,
    fruit: { other: 'Mango' },
    grid: { speed: 'good' },
    empty: '',
  };
  const holds = (condition: Condition, today?: string) => evaluateCondition(condition, answers, today === undefined ? {} : { today });

  it('holds without a condition', () => {
    expect(evaluateCondition(null, {})).toBe(true);
    expect(evaluateCondition(undefined, {})).toBe(true);
  });

  it.each<[string, Condition, boolean]>([
    // eq / neq
    ['eq text', { ref: 'name', op: 'eq', value: 'Ada' }, true],
    ['eq other text', { ref: 'name', op: 'eq', value: 'Bob' }, false],
    ['eq option', { ref: 'colour', op: 'eq', value: 'blue' }, true],
    ['eq number', { ref: 'age', op: 'eq', value: 42 }, true],
    ['eq boolean', { ref: 'agree', op: 'eq', value: true }, true],
    ['eq number vs text is a mismatch', { ref: 'age', op: 'eq', value: '42' }, false],
    ['neq differs', { ref: 'colour', op: 'neq', value: 'red' }, true],
    ['neq same', { ref: 'colour', op: 'neq', value: 'blue' }, false],
    ['neq on a mismatch is false too', { ref: 'age', op: 'neq', value: 'x' }, false],
    ['"Other" is never an option', { ref: 'fruit', op: 'eq', value: 'mango' }, false],
    ['"Other" differs from every option', { ref: 'fruit', op: 'neq', value: 'apple' }, true],
    ['eq on arrays compares sets', { ref: 'toppings', op: 'eq', value: ['ham', 'cheese'] }, true],
    ['eq on arrays of a different set', { ref: 'toppings', op: 'eq', value: ['ham'] }, false],
    ['eq array vs scalar is a mismatch', { ref: 'toppings', op: 'eq', value: 'ham' }, false],
    // comparisons
    ['gt', { ref: 'age', op: 'gt', value: 41 }, true],
    ['gt equal', { ref: 'age', op: 'gt', value: 42 }, false],
    ['gte', { ref: 'age', op: 'gte', value: 42 }, true],
    ['lt', { ref: 'age', op: 'lt', value: 43 }, true],
    ['lt equal', { ref: 'age', op: 'lt', value: 42 }, false],
    ['lte', { ref: 'age', op: 'lte', value: 42 }, true],
    ['gt on a text is a mismatch', { ref: 'name', op: 'gt', value: 'A' }, false],
    ['gt number vs text is a mismatch', { ref: 'age', op: 'gt', value: '1' }, false],
    ['gt on an array is a mismatch', { ref: 'toppings', op: 'gt', value: 1 }, false],
    ['dates compare', { ref: 'born', op: 'lt', value: '2000-01-01' }, true],
    ['dates compare (gte)', { ref: 'born', op: 'gte', value: '1990-05-02' }, false],
    // in
    ['in', { ref: 'colour', op: 'in', value: ['red', 'blue'] }, true],
    ['in, absent', { ref: 'colour', op: 'in', value: ['red', 'green'] }, false],
    ['in numbers', { ref: 'age', op: 'in', value: [41, 42] }, true],
    ['in with a scalar value is a mismatch', { ref: 'colour', op: 'in', value: 'blue' }, false],
    ['in on an array answer is a mismatch', { ref: 'toppings', op: 'in', value: ['ham'] }, false],
    // includes
    ['includes_any', { ref: 'toppings', op: 'includes_any', value: ['ham', 'egg'] }, true],
    ['includes_any, none', { ref: 'toppings', op: 'includes_any', value: ['egg'] }, false],
    ['includes_any with one value', { ref: 'toppings', op: 'includes_any', value: 'ham' }, true],
    ['includes_all', { ref: 'toppings', op: 'includes_all', value: ['ham', 'cheese'] }, true],
    ['includes_all, one missing', { ref: 'toppings', op: 'includes_all', value: ['ham', 'egg'] }, false],
    ['includes_all of nothing', { ref: 'toppings', op: 'includes_all', value: [] }, false],
    ['includes on a text is a mismatch', { ref: 'colour', op: 'includes_any', value: ['blue'] }, false],
    // answered
    ['answered', { ref: 'name', op: 'answered' }, true],
    ['answered, blank', { ref: 'empty', op: 'answered' }, false],
    ['not_answered, blank', { ref: 'empty', op: 'not_answered' }, true],
    ['not_answered, answered', { ref: 'grid', op: 'not_answered' }, false],
    // missing refs
    ['eq on a missing ref', { ref: 'nothing', op: 'eq', value: 'x' }, false],
    ['neq on a missing ref', { ref: 'nothing', op: 'neq', value: 'x' }, false],
    ['gt on a missing ref', { ref: 'nothing', op: 'gt', value: 1 }, false],
    ['answered on a missing ref', { ref: 'nothing', op: 'answered' }, false],
    ['not_answered on a missing ref', { ref: 'nothing', op: 'not_answered' }, true],
    ['a ref inherited from Object.prototype', { ref: 'constructor', op: 'answered' }, false],
    ['a comparison without a value', { ref: 'age', op: 'eq' }, false],
  ])('%s', (_name, condition, expected) => {
    expect(holds(condition)).toBe(expected);
  });

  it('reads "today" as the given day', () => {
    expect(holds({ ref: 'born', op: 'lt', value: 'today' }, '2026-01-01')).toBe(true);
    expect(holds({ ref: 'born', op: 'gt', value: 'today' }, '1980-01-01')).toBe(true);
    expect(holds({ ref: 'born', op: 'eq', value: 'today' }, '1990-05-01')).toBe(true);
    expect(holds({ ref: 'born', op: 'eq', value: 'today' }, '1990-05-02')).toBe(false);
  });

  it('nests all, any and not', () => {
    const yes: Condition = { ref: 'name', op: 'eq', value: 'Ada' };
    const no: Condition = { ref: 'name', op: 'eq', value: 'Bob' };
    expect(holds({ all: [yes, yes] })).toBe(true);
    expect(holds({ all: [yes, no] })).toBe(false);
    expect(holds({ any: [no, yes] })).toBe(true);
    expect(holds({ any: [no, no] })).toBe(false);
    expect(holds({ not: no })).toBe(true);
    expect(holds({ not: yes })).toBe(false);
    expect(holds({ all: [] })).toBe(true);
    expect(holds({ any: [] })).toBe(false);
    expect(holds({ all: [yes, { any: [no, { not: { all: [no, yes] } }] }] })).toBe(true);
    expect(holds({ not: { any: [{ all: [yes, no] }, { not: yes }] } })).toBe(true);
    // `not eq` includes unanswered elements; `neq` does not.
    expect(holds({ not: { ref: 'nothing', op: 'eq', value: 'x' } })).toBe(true);
  });

  it('is false for malformed conditions instead of throwing', () => {
    expect(holds({ all: 'x' } as unknown as Condition)).toBe(false);
    expect(holds({ ref: 'name', op: 'nope', value: 'Ada' } as unknown as Condition)).toBe(false);
    expect(holds({ foo: 1 } as unknown as Condition)).toBe(false);
  });
});

describe('visibility', () => {
  const definition = formWithPages(
    {
      id: 'about',
      elements: [
        { id: 'pet', type: 'single_choice', title: 'Do you have a pet?', options: options('yes', 'no'), required: true },
        { id: 'pet_name', type: 'short_text', title: 'Its name?', required: true, visibleIf: { ref: 'pet', op: 'eq', value: 'yes' } },
        { id: 'name_note', type: 'statement', title: 'Nice name', body: 'Nice!', visibleIf: { ref: 'pet_name', op: 'answered' } },
      ],
    },
    {
      id: 'pets',
      visibleIf: { ref: 'pet', op: 'eq', value: 'yes' },
      elements: [{ id: 'food', type: 'long_text', title: 'What does it eat?', required: true }],
    },
    { id: 'end', elements: [{ id: 'comment', type: 'long_text', title: 'Anything else?' }] },
  );

  it('shows conditional pages and elements when their condition holds', () => {
    const answers = { pet: 'yes', pet_name: 'Rex' };
    expect(visiblePages(definition, answers).map((page) => page.id)).toEqual(['about', 'pets', 'end']);
    expect([...visibleElementIds(definition, answers)]).toEqual(['pet', 'pet_name', 'name_note', 'food', 'comment']);
  });

  it('skips a hidden page and hides its elements', () => {
    const answers = { pet: 'no' };
    expect(visiblePages(definition, answers).map((page) => page.id)).toEqual(['about', 'end']);
    const ids = visibleElementIds(definition, answers);
    expect(ids.has('food')).toBe(false);
    expect(ids.has('pet_name')).toBe(false);
    expect(ids.has('comment')).toBe(true);
  });

  it('ignores the stale answer of a hidden element in later conditions', () => {
    // pet_name still holds "Rex", but pet_name is hidden, so the statement that depends on it is too.
    const ids = visibleElementIds(definition, { pet: 'no', pet_name: 'Rex' });
    expect(ids.has('name_note')).toBe(false);
  });

  it('pruneHidden keeps only answered, visible, answerable elements of the form', () => {
    const pruned = pruneHidden(definition, { pet: 'no', pet_name: 'Rex', food: 'Meat', comment: '', name_note: 'x', stray: 'y' } as Answers);
    expect(pruned).toEqual({ pet: 'no' });
    expect(pruneHidden(definition, { pet: 'yes', pet_name: 'Rex', food: 'Meat', comment: 'Bye' })).toEqual({
      pet: 'yes',
      pet_name: 'Rex',
      food: 'Meat',
      comment: 'Bye',
    });
  });

  it('passes "today" on to date conditions', () => {
    const dated = form(
      { id: 'when', type: 'date', title: 'When?' },
      { id: 'future', type: 'statement', title: 'Future', body: 'That is in the future', visibleIf: { ref: 'when', op: 'gt', value: 'today' } },
    );
    expect(visibleElementIds(dated, { when: '2026-06-01' }, { today: '2026-05-01' }).has('future')).toBe(true);
    expect(visibleElementIds(dated, { when: '2026-06-01' }, { today: '2026-07-01' }).has('future')).toBe(false);
  });
});
