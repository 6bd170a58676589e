import { describe, expect, it } from 'vitest';
import type { FormElement } from '../../../src/shared/forms/definition.ts';
import { cyrb53, displayOptions, mulberry32, seededShuffle } from '../../../src/shared/forms/order.ts';
import { options } from './helpers.ts';

const ten = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];

describe('the well-known algorithms', () => {
  it('cyrb53 gives its published values', () => {
    expect(cyrb53('a')).toBe(7929297801672961);
    expect(cyrb53('b')).toBe(8684336938537663);
    expect(cyrb53('revenge')).toBe(4051478007546757);
    expect(cyrb53('revenue')).toBe(8309097637345594);
  });

  it('mulberry32 gives its published first value for seed 1', () => {
    expect(mulberry32(1)()).toBeCloseTo(0.6270739405881613, 15);
  });
});

describe('seededShuffle', () => {
  it('is stable for one seed', () => {
    expect(seededShuffle(ten, 'response-42')).toEqual(seededShuffle(ten, 'response-42'));
  });

  it('keeps today’s order for this seed (respondents must see the same order after an update)', () => {
    expect(seededShuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 'r1')).toEqual([8, 3, 7, 1, 0, 4, 2, 9, 6, 5]);
  });

  it('gives different orders for different seeds', () => {
    const orders = new Set(['r1', 'r2', 'r3', 'r4', 'r5'].map((seed) => seededShuffle(ten, seed).join('')));
    expect(orders.size).toBeGreaterThan(1);
    expect(seededShuffle(ten, 'r1')).not.toEqual(seededShuffle(ten, 'r2'));
  });

  it('keeps the same items (a permutation) and leaves the input alone', () => {
    const input = [...ten];
    const shuffled = seededShuffle(input, 'seed');
    expect([...shuffled].sort()).toEqual(ten);
    expect(input).toEqual(ten);
    expect(shuffled).not.toEqual(ten);
  });

  it('handles empty and one-item lists', () => {
    expect(seededShuffle([], 'x')).toEqual([]);
    expect(seededShuffle(['only'], 'x')).toEqual(['only']);
  });

  it('spreads items over positions (no position is stuck)', () => {
    const firsts = new Set<string>();
    for (let i = 0; i < 200; i++) firsts.add(seededShuffle(ten, `response-${i}`)[0] as string);
    expect(firsts.size).toBe(10);
  });
});

describe('displayOptions', () => {
  const fixed: FormElement = { id: 'colour', type: 'single_choice', title: 'Colour', options: options(...ten) };
  const random: FormElement = { ...fixed, optionOrder: 'random' };

  it('keeps the given order unless random', () => {
    expect(displayOptions(fixed, 'r1').map((option) => option.id)).toEqual(ten);
    expect(displayOptions({ ...fixed, optionOrder: 'fixed' }, 'r1').map((option) => option.id)).toEqual(ten);
  });

  it('shuffles random options, stable per seed, different per element', () => {
    const first = displayOptions(random, 'r1').map((option) => option.id);
    expect(first).not.toEqual(ten);
    expect(displayOptions(random, 'r1').map((option) => option.id)).toEqual(first);
    expect([...first].sort()).toEqual(ten);
    expect(displayOptions({ ...random, id: 'other_question' }, 'r1').map((option) => option.id)).not.toEqual(first);
    expect(displayOptions(random, 'r2').map((option) => option.id)).not.toEqual(first);
  });

  it('keeps exclusive options in their place', () => {
    const element: FormElement = {
      id: 'food',
      type: 'multiple_choice',
      title: 'Food',
      options: options(...ten, 'none'),
      optionOrder: 'random',
      exclusive: ['none'],
    };
    for (const seed of ['r1', 'r2', 'r3']) {
      const ids = displayOptions(element, seed).map((option) => option.id);
      expect(ids.at(-1)).toBe('none');
      expect(ids.slice(0, -1).sort()).toEqual(ten);
    }
  });

  it('gives [] for types without options and the given order for dropdown and ranking', () => {
    expect(displayOptions({ id: 'x', type: 'short_text', title: 'X' }, 'r1')).toEqual([]);
    expect(displayOptions({ id: 'm', type: 'matrix', title: 'M', rows: options('a'), columns: options('b') }, 'r1')).toEqual([]);
    expect(displayOptions({ id: 'd', type: 'dropdown', title: 'D', options: options('b', 'a') }, 'r1').map((option) => option.id)).toEqual(['b', 'a']);
    expect(displayOptions({ id: 'r', type: 'ranking', title: 'R', options: options('b', 'a') }, 'r1').map((option) => option.id)).toEqual(['b', 'a']);
  });
});
