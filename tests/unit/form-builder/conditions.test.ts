import { describe, expect, it } from 'vitest';
import { FORM_SCHEMA_ID } from '../../../src/shared/forms/constants.ts';
import type { FormDraft } from '../../../src/shared/forms/definition.ts';
import {
  conditionCandidates,
  conditionSummary,
  elementIndex,
  fitRow,
  fromSimpleRule,
  newRow,
  toSimpleRule,
} from '../../../src/islands/admin/forms/conditions.ts';

const draft: FormDraft = {
  schema: FORM_SCHEMA_ID,
  title: 'Pets',
  pages: [
    {
      id: 'p1',
      title: 'About',
      elements: [
        { id: 'intro', type: 'statement', title: 'Hello', body: 'Hi' },
        {
          id: 'dog',
          type: 'single_choice',
          title: 'Do you have a dog?',
          options: [
            { id: 'yes', label: 'Yes' },
            { id: 'no', label: 'No' },
          ],
        },
        { id: 'age', type: 'number', title: 'Age', min: 0, max: 30 },
        { id: 'name', type: 'short_text', title: "Dog's name" },
      ],
    },
    { id: 'p2', title: 'More', elements: [{ id: 'walks', type: 'rating', title: 'Walks', max: 5 }] },
  ],
};

describe('candidates', () => {
  it('offers earlier answerable elements only', () => {
    expect(conditionCandidates(draft, { kind: 'element', id: 'name' }).map((c) => c.id)).toEqual(['dog', 'age']);
    expect(conditionCandidates(draft, { kind: 'element', id: 'dog' })).toEqual([]);
    expect(conditionCandidates(draft, { kind: 'page', id: 'p2' }).map((c) => c.id)).toEqual(['dog', 'age', 'name']);
    expect(conditionCandidates(draft, { kind: 'page', id: 'p1' })).toEqual([]);
  });
});

describe('simple rules', () => {
  it('reads single rows and all/any groups, and calls anything else complex', () => {
    expect(toSimpleRule(undefined)).toBeNull();
    expect(toSimpleRule({ ref: 'dog', op: 'eq', value: 'yes' })).toEqual({ mode: 'all', rows: [{ ref: 'dog', op: 'eq', value: 'yes' }] });
    expect(
      toSimpleRule({
        any: [
          { ref: 'dog', op: 'eq', value: 'yes' },
          { ref: 'age', op: 'gt', value: 3 },
        ],
      }),
    ).toMatchObject({ mode: 'any' });
    expect(toSimpleRule({ not: { ref: 'dog', op: 'eq', value: 'yes' } })).toBe('complex');
    expect(toSimpleRule({ all: [{ any: [{ ref: 'dog', op: 'answered' }] }] })).toBe('complex');
    expect(toSimpleRule({ ref: 'dog', op: 'bogus' })).toBe('complex');
  });

  it('writes one row alone and several in a group; none is no condition', () => {
    expect(fromSimpleRule({ mode: 'any', rows: [] })).toBeNull();
    expect(fromSimpleRule({ mode: 'any', rows: [{ ref: 'dog', op: 'answered', value: 'x' }] })).toEqual({ ref: 'dog', op: 'answered' });
    expect(
      fromSimpleRule({
        mode: 'any',
        rows: [
          { ref: 'dog', op: 'eq', value: 'yes' },
          { ref: 'age', op: 'lt', value: 2 },
        ],
      }),
    ).toEqual({
      any: [
        { ref: 'dog', op: 'eq', value: 'yes' },
        { ref: 'age', op: 'lt', value: 2 },
      ],
    });
  });

  it('fits values to the element and op: an option for choices, a number for numbers', () => {
    const candidates = conditionCandidates(draft, { kind: 'page', id: 'p2' });
    expect(newRow(candidates, '2026-01-01')).toEqual({ ref: 'name', op: 'eq', value: '' });
    const dog = candidates.find((c) => c.id === 'dog');
    const age = candidates.find((c) => c.id === 'age');
    expect(fitRow({ ref: 'dog', op: 'gt', value: 3 }, dog, '2026-01-01')).toEqual({ ref: 'dog', op: 'eq', value: 'yes' });
    expect(fitRow({ ref: 'dog', op: 'in', value: 'no' }, dog, '2026-01-01')).toEqual({ ref: 'dog', op: 'in', value: ['yes'] });
    expect(fitRow({ ref: 'age', op: 'gte', value: 'yes' }, age, '2026-01-01')).toEqual({ ref: 'age', op: 'gte', value: 0 });
    expect(fitRow({ ref: 'age', op: 'answered', value: 4 }, age, '2026-01-01')).toEqual({ ref: 'age', op: 'answered' });
  });

  it('summarises a condition in words with option labels', () => {
    const index = elementIndex(draft);
    expect(conditionSummary({ ref: 'dog', op: 'eq', value: 'yes' }, index)).toBe('Shown when “Do you have a dog?” is “Yes”');
    expect(
      conditionSummary(
        {
          any: [
            { ref: 'age', op: 'gte', value: 3 },
            { ref: 'name', op: 'answered' },
          ],
        },
        index,
      ),
    ).toBe("Shown when “Age” is at least 3 or “Dog's name” is answered");
    expect(conditionSummary({ not: { ref: 'dog', op: 'answered' } }, index)).toBe('Shown under a custom condition');
    expect(conditionSummary(null, index)).toBeNull();
  });
});
