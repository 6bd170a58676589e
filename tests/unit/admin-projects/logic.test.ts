import { describe, expect, it } from 'vitest';
import { completionPercent, formatAverage, moveItem, numberOrNaN, numberOrNull, percentOf, projectMoves } from '../../../src/islands/admin/projects/logic.ts';
import { insertAt } from '../../../src/islands/admin/projects/markdown-insert.ts';
import { changedFields, normalizeSurvey } from '../../../src/islands/admin/projects/payload.ts';

describe('projectMoves', () => {
  it('goes draft → live → closed, reopens, archives, and restores as a draft', () => {
    const targets = (status: Parameters<typeof projectMoves>[0]) => projectMoves(status).map((move) => move.to);
    expect(targets('draft')).toEqual(['live', 'archived']);
    expect(targets('live')).toEqual(['closed', 'archived']);
    expect(targets('closed')).toEqual(['live', 'archived']);
    expect(targets('archived')).toEqual(['draft']);
  });

  it('names each move and says what it does', () => {
    for (const status of ['draft', 'live', 'closed', 'archived'] as const) {
      for (const move of projectMoves(status)) {
        expect(move.label).not.toBe('');
        expect(move.effect).not.toBe('');
      }
    }
  });
});

describe('numbers', () => {
  it('computes completion as whole percents, capped, 0 without members', () => {
    expect(completionPercent(1, 3)).toBe(33);
    expect(completionPercent(2, 3)).toBe(67);
    expect(completionPercent(5, 4)).toBe(100);
    expect(completionPercent(3, 0)).toBe(0);
  });

  it('computes shares with one decimal', () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(3, 3)).toBe(100);
  });

  it('writes averages with two decimals at most, a dash when missing', () => {
    expect(formatAverage(3.666666)).toBe('3.67');
    expect(formatAverage(4)).toBe('4');
    expect(formatAverage(null)).toBe('–');
    expect(formatAverage(Number.NaN)).toBe('–');
  });

  it('reads number fields: empty is null (or NaN when required), text that is not a number is NaN', () => {
    expect(numberOrNull('')).toBeNull();
    expect(numberOrNull(' 12 ')).toBe(12);
    expect(numberOrNull('abc')).toBeNaN();
    expect(numberOrNaN('')).toBeNaN();
    expect(numberOrNaN('5')).toBe(5);
  });
});

describe('moveItem', () => {
  it('moves up and down, and leaves the list alone at the ends', () => {
    expect(moveItem([1, 2, 3], 1, -1)).toEqual([2, 1, 3]);
    expect(moveItem([1, 2, 3], 1, 1)).toEqual([1, 3, 2]);
    expect(moveItem([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(moveItem([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
  });

  it('does not change the list it was given', () => {
    const list = [1, 2, 3];
    moveItem(list, 0, 1);
    expect(list).toEqual([1, 2, 3]);
  });
});

describe('changedFields', () => {
  it('keeps only what differs, comparing arrays and objects by content', () => {
    expect(
      changedFields(
        { title: 'A', points: 1, entries: { min: 1, max: 2 }, ids: [1, 2], opensAt: null as string | null },
        { title: 'A', points: 2, entries: { min: 1, max: 2 }, ids: [2, 1], opensAt: null as string | null },
      ),
    ).toEqual({ points: 2, ids: [2, 1] });
    expect(changedFields({ a: { b: 1 } }, { a: { b: 2 } })).toEqual({ a: { b: 2 } });
  });
});

describe('normalizeSurvey', () => {
  const base = { title: 'T', kind: 'native' as 'native' | 'external', formId: 3, formVersion: 2, externalUrl: 'https://x.example/s', trustReturns: true };

  it('clears the link and the trust of a native survey', () => {
    expect(normalizeSurvey(base)).toEqual({ ...base, externalUrl: null, trustReturns: false });
  });

  it('clears the form of an external survey, and an empty link is null', () => {
    expect(normalizeSurvey({ ...base, kind: 'external' })).toEqual({ ...base, kind: 'external', formId: null, formVersion: null });
    expect(normalizeSurvey({ ...base, kind: 'external', externalUrl: '  ' }).externalUrl).toBeNull();
  });
});

describe('insertAt', () => {
  const image = '![description](/api/media/abc)';

  it('puts the snippet on its own line where the cursor was and selects the placeholder', () => {
    const result = insertAt('Take a photo.Then send it.', { start: 13, end: 13 }, image, 'description');
    expect(result.text).toBe(`Take a photo.\n${image}\nThen send it.`);
    expect(result.text.slice(result.selectStart, result.selectEnd)).toBe('description');
  });

  it('replaces a selection and adds no extra line breaks at line edges', () => {
    const result = insertAt('one\nOLD\ntwo', { start: 4, end: 7 }, image);
    expect(result.text).toBe(`one\n${image}\ntwo`);
    expect(result.selectStart).toBe(result.selectEnd);
  });

  it('clamps a position outside the text (appends at the end)', () => {
    expect(insertAt('text', { start: 99, end: 120 }, image).text).toBe(`text\n${image}`);
    expect(insertAt('', { start: 0, end: 0 }, image).text).toBe(image);
  });
});
