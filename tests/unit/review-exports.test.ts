/** Review exports' pure rules: stars from other scales, yes/no, nicknames, default mappings, signed links, the request schema. */
import { describe, expect, it } from 'vitest';
import type { FormElement } from '../../src/shared/forms/definition.ts';
import { defaultMapping, reviewerNickname } from '../../src/shared/review-exports.ts';
import { reviewExportSchema } from '../../src/shared/schemas/review-exports.ts';
import { missionPatchSchema } from '../../src/shared/schemas/missions.ts';
import { checkSignedLink, signedMediaPath } from '../../src/server/services/media-links.ts';
import { recommendOf, starsOf } from '../../src/server/services/review-exports.ts';

const rating = (max: number): FormElement => ({ id: 'r', type: 'rating', title: 'R', max });
const choice: FormElement = {
  id: 'c',
  type: 'single_choice',
  title: 'Recommend?',
  options: [
    { id: 'a', label: 'Yes, definitely' },
    { id: 'b', label: 'No' },
    { id: 'c', label: 'Maybe' },
  ],
};

describe('starsOf', () => {
  it('keeps five-star ratings, brings 1…10 ratings and scales to whole stars 1–5', () => {
    expect([1, 2, 3, 4, 5].map((v) => starsOf(rating(5), v))).toEqual([1, 2, 3, 4, 5]);
    expect([1, 10, 5].map((v) => starsOf(rating(10), v))).toEqual([1, 5, 3]);
    expect(starsOf({ id: 's', type: 'scale', title: 'S', min: 0, max: 10 }, 10)).toBe(5);
    expect(starsOf({ id: 's', type: 'scale', title: 'S', min: 0, max: 10 }, 0)).toBe(1);
    expect(starsOf({ id: 'n', type: 'number', title: 'N' }, 4)).toBe(4);
    expect(starsOf({ id: 'n', type: 'number', title: 'N' }, 7)).toBeNull();
    expect(starsOf(rating(5), 'four')).toBeNull();
    expect(starsOf(rating(5), undefined)).toBeNull();
  });
});

describe('recommendOf', () => {
  it('reads yes and no from option labels and consents', () => {
    expect(recommendOf(choice, 'a')).toBe(true);
    expect(recommendOf(choice, 'b')).toBe(false);
    expect(recommendOf(choice, 'c')).toBeNull();
    expect(recommendOf(choice, { other: 'yes!' })).toBe(true);
    expect(recommendOf({ id: 'k', type: 'consent', title: 'K', statement: 'I would' }, true)).toBe(true);
    expect(recommendOf(choice, undefined)).toBeNull();
  });
});

describe('names and mappings', () => {
  it('nicknames are first name and last initial', () => {
    expect(reviewerNickname('Ann', 'van Dijk')).toBe('Ann V.');
    expect(reviewerNickname(' Bob ', '')).toBe('Bob');
    expect(reviewerNickname('', '')).toBe('Fieldwork member');
  });

  it('guesses a mapping by type', () => {
    expect(
      defaultMapping([
        { id: 'intro', type: 'short_text', title: 'Headline' },
        { id: 'score', type: 'scale', title: 'Score' },
        { id: 'body', type: 'long_text', title: 'Review' },
        { id: 'pics', type: 'photo', title: 'Photos' },
      ]),
    ).toEqual({ rating: 'score', title: 'intro', text: 'body', recommend: null, photos: 'pics' });
    expect(defaultMapping([{ id: 'only', type: 'short_text', title: 'Text' }])).toEqual({
      rating: null,
      title: 'only',
      text: null,
      recommend: null,
      photos: null,
    });
  });
});

describe('signed links', () => {
  const key = Buffer.from('k'.repeat(32));
  const id = 'AbCdEfGhIjKlMnOpQrStUv';
  it('check their signature in full and their expiry', () => {
    const query = Object.fromEntries(new URL(`http://x${signedMediaPath(key, id, 'display', 2_000_000_000)}`).searchParams);
    expect(checkSignedLink(key, id, query, 1_000_000_000_000)).toEqual({ ok: true, variant: 'display', expires: 2_000_000_000 });
    expect(checkSignedLink(key, id, query, 2_000_000_000_000)).toEqual({ ok: false, reason: 'expired' });
    expect(checkSignedLink(key, id, { ...query, variant: 'thumbnail' }, 0)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkSignedLink(Buffer.from('x'.repeat(32)), id, query, 0)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkSignedLink(key, id, { variant: 'display' }, 0)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('schemas', () => {
  it('product ids: GTIN, EAN or SKU, loosely; blank is none', () => {
    expect(missionPatchSchema.parse({ productId: ' 8710447123456 ' })).toEqual({ productId: '8710447123456' });
    expect(missionPatchSchema.parse({ productId: '' })).toEqual({ productId: null });
    expect(missionPatchSchema.safeParse({ productId: 'has space' }).success).toBe(false);
  });

  it('the export request: approved by default, Bazaarvoice needs a campaign id, every mission mapped', () => {
    const base = { projectId: 1, missionIds: [2], format: 'csv', mapping: { 2: { rating: 'r', text: 't' } } };
    expect(reviewExportSchema.parse(base).states).toEqual(['approved']);
    expect(reviewExportSchema.safeParse({ ...base, format: 'bazaarvoice' }).success).toBe(false);
    expect(reviewExportSchema.safeParse({ ...base, missionIds: [2, 3] }).success).toBe(false);
    expect(reviewExportSchema.safeParse({ ...base, format: 'pdf' }).success).toBe(false);
  });
});
