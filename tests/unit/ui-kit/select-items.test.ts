import { describe, expect, it } from 'vitest';
import {
  SELECT_EDGE_MARGIN,
  SELECT_EMPTY_VALUE_MESSAGE,
  assertSelectItemValue,
  findSelectItemProblems,
  isValidSelectItemValue,
  selectContentPositioning,
} from '../../../src/lib/ui-kit/select-items.ts';
import { TOOLTIP_STATES, tooltipProviderDefaults } from '../../../src/lib/ui-kit/tooltip-defaults.ts';

describe('select items (docs/product.md §5: no empty-string value)', () => {
  it('rejects the empty string only', () => {
    expect(isValidSelectItemValue('')).toBe(false);
    expect(isValidSelectItemValue(' ')).toBe(true);
    expect(isValidSelectItemValue('0')).toBe(true);
    expect(isValidSelectItemValue('none')).toBe(true);
  });

  it('assertSelectItemValue throws for an empty value', () => {
    expect(() => assertSelectItemValue('')).toThrow(SELECT_EMPTY_VALUE_MESSAGE);
    expect(() => assertSelectItemValue('a')).not.toThrow();
  });

  it('finds empty and repeated values in a list', () => {
    expect(findSelectItemProblems([{ value: 'a' }, { value: 'b' }])).toEqual([]);
    expect(findSelectItemProblems([{ value: 'a' }, { value: '' }, { value: 'a' }, { value: '' }])).toEqual([
      { index: 1, value: '', problem: 'empty' },
      { index: 2, value: 'a', problem: 'duplicate' },
      { index: 3, value: '', problem: 'empty' },
    ]);
  });
});

describe('select edge margin (docs/product.md §9: 10 px)', () => {
  it('is 10 px, applied as the collision padding', () => {
    expect(SELECT_EDGE_MARGIN).toBe(10);
    expect(selectContentPositioning).toEqual({ position: 'popper', collisionPadding: 10 });
  });
});

describe('tooltip (docs/product.md §4, §9)', () => {
  it('opens after 700 ms with a 300 ms skip delay', () => {
    expect(tooltipProviderDefaults).toEqual({ delayDuration: 700, skipDelayDuration: 300 });
  });

  it('has the three states of docs/product.md §4', () => {
    expect(TOOLTIP_STATES).toEqual(['closed', 'delayed-open', 'instant-open']);
  });
});
