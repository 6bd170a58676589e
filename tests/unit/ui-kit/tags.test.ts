import { describe, expect, it } from 'vitest';
import { addTags, canAddMore, describeRejection, removeLastTag, removeTagAt, splitTags, takeCompleted } from '../../../src/lib/ui-kit/tags.ts';

describe('addTags', () => {
  it('splits on the comma, trims, keeps order', () => {
    expect(addTags([], ' red ,green,  blue ')).toEqual({ tags: ['red', 'green', 'blue'], rejected: [] });
    expect(addTags(['a'], 'b')).toEqual({ tags: ['a', 'b'], rejected: [] });
  });

  it('ignores empty parts (reported as empty)', () => {
    expect(addTags(['a'], '')).toEqual({ tags: ['a'], rejected: [{ value: '', reason: 'empty' }] });
    expect(addTags([], '   ')).toEqual({ tags: [], rejected: [{ value: '', reason: 'empty' }] });
    expect(addTags([], 'x,, ,y,')).toEqual({
      tags: ['x', 'y'],
      rejected: [
        { value: '', reason: 'empty' },
        { value: '', reason: 'empty' },
        { value: '', reason: 'empty' },
      ],
    });
  });

  it('max 3 rejects the 4th', () => {
    const result = addTags(['a', 'b'], 'c, d, e', { max: 3 });
    expect(result.tags).toEqual(['a', 'b', 'c']);
    expect(result.rejected).toEqual([
      { value: 'd', reason: 'max' },
      { value: 'e', reason: 'max' },
    ]);
    expect(addTags(['a', 'b', 'c'], 'd', { max: 3 })).toEqual({ tags: ['a', 'b', 'c'], rejected: [{ value: 'd', reason: 'max' }] });
  });

  it('max 0 (the default) is unlimited', () => {
    const many = Array.from({ length: 500 }, (_, i) => `t${i}`);
    expect(addTags([], many.join(','), { max: 0 }).tags).toHaveLength(500);
    expect(addTags(many, 'one more').tags).toHaveLength(501);
  });

  it('rejects duplicates, also within one input and regardless of case', () => {
    expect(addTags(['red'], 'red')).toEqual({ tags: ['red'], rejected: [{ value: 'red', reason: 'duplicate' }] });
    expect(addTags(['red'], ' Red ')).toEqual({ tags: ['red'], rejected: [{ value: 'Red', reason: 'duplicate' }] });
    expect(addTags([], 'a,b,a')).toEqual({ tags: ['a', 'b'], rejected: [{ value: 'a', reason: 'duplicate' }] });
  });

  it('case-sensitive comparison when asked', () => {
    expect(addTags(['red'], 'Red', { caseSensitive: true }).tags).toEqual(['red', 'Red']);
  });

  it('allows duplicates when allowDuplicates', () => {
    expect(addTags(['red'], 'red,red', { allowDuplicates: true })).toEqual({ tags: ['red', 'red', 'red'], rejected: [] });
  });

  it('rejects a tag longer than maxLength (0, the default, is no limit)', () => {
    expect(addTags([], 'abcd, ab', { maxLength: 3 })).toEqual({ tags: ['ab'], rejected: [{ value: 'abcd', reason: 'too_long' }] });
    expect(addTags([], ' abc ', { maxLength: 3 }).tags).toEqual(['abc']);
    expect(addTags([], 'x'.repeat(500)).tags).toHaveLength(1);
    expect(describeRejection({ value: 'abcd', reason: 'too_long' }, 0, 3)).toBe('A tag is at most 3 characters.');
  });

  it('a duplicate at the maximum is reported as a duplicate', () => {
    expect(addTags(['a', 'b'], 'a', { max: 2 }).rejected).toEqual([{ value: 'a', reason: 'duplicate' }]);
  });

  it('does not change the current list', () => {
    const current = ['a'];
    addTags(current, 'b');
    expect(current).toEqual(['a']);
  });

  it('takes another delimiter', () => {
    expect(addTags([], 'a;b, c', { delimiter: ';' }).tags).toEqual(['a', 'b, c']);
  });
});

describe('helpers', () => {
  it('splitTags', () => {
    expect(splitTags(' a , b ')).toEqual(['a', 'b']);
    expect(splitTags('a,b', '')).toEqual(['a,b']);
  });

  it('canAddMore: 0 unlimited', () => {
    expect(canAddMore(['a', 'b', 'c'], 3)).toBe(false);
    expect(canAddMore(['a', 'b'], 3)).toBe(true);
    expect(canAddMore(Array.from({ length: 1000 }, String), 0)).toBe(true);
    expect(canAddMore(['a'])).toBe(true);
  });

  it('Backspace removes the last tag; a tag can be removed by index', () => {
    expect(removeLastTag(['a', 'b', 'c'])).toEqual(['a', 'b']);
    expect(removeLastTag([])).toEqual([]);
    expect(removeTagAt(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
    expect(removeTagAt(['a', 'a'], 0)).toEqual(['a']);
  });

  it('takeCompleted: text before the last comma is ready, the rest stays', () => {
    expect(takeCompleted('red')).toBeNull();
    expect(takeCompleted('red,')).toEqual({ completed: 'red', rest: '' });
    expect(takeCompleted('red, gre')).toEqual({ completed: 'red', rest: 'gre' });
    expect(takeCompleted('a,b,c')).toEqual({ completed: 'a,b', rest: 'c' });
  });

  it('describes rejections', () => {
    expect(describeRejection({ value: 'red', reason: 'duplicate' })).toBe('"red" is already added.');
    expect(describeRejection({ value: 'x', reason: 'max' }, 3)).toBe('At most 3 tags can be added.');
    expect(describeRejection({ value: 'x', reason: 'max' }, 1)).toBe('At most 1 tag can be added.');
    expect(describeRejection({ value: '', reason: 'empty' })).toBeNull();
  });
});
