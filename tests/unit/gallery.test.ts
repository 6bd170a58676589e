/** The gallery's shared logic: the opaque cursor, tags as stored, merging two moderators' tags, the ZIP's names, the filters in the address. */
import { describe, expect, it } from 'vitest';
import {
  decodeGalleryCursor,
  encodeGalleryCursor,
  galleryFiltersFrom,
  galleryQuery,
  galleryZipName,
  mergeTags,
  normalizeTags,
  sameTags,
} from '../../src/shared/gallery.ts';
import { galleryMediaPatchSchema, galleryQuerySchema } from '../../src/shared/schemas/gallery.ts';

describe('gallery cursor', () => {
  it('round-trips a time with microseconds and an id', () => {
    const cursor = { createdAt: '2026-11-25T08:10:59.123456Z', id: 'abc_DEF-1234567890abcd' };
    const text = encodeGalleryCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeGalleryCursor(text)).toEqual(cursor);
  });

  it('refuses what it did not make', () => {
    for (const text of [
      '',
      'not a cursor',
      '%%%',
      Buffer.from('2026-11-25|x').toString('base64url'),
      Buffer.from('2026-11-25T08:10:59Z|').toString('base64url'),
      Buffer.from('2026-11-25T08:10:59Z|a b').toString('base64url'),
      'x'.repeat(300),
    ]) {
      expect(decodeGalleryCursor(text), text).toBeNull();
    }
    expect(galleryQuerySchema.safeParse({ cursor: 'nope' }).success).toBe(false);
  });
});

describe('gallery tags', () => {
  it('are trimmed, lower-cased, without empty ones or duplicates', () => {
    expect(normalizeTags([' Kitchen ', 'kitchen', 'Red   Shelf', '', '  '])).toEqual(['kitchen', 'red shelf']);
    expect(sameTags(['B', 'a'], ['a', 'b '])).toBe(true);
    expect(sameTags(['a'], ['a', 'b'])).toBe(false);
  });

  it('merge: what I removed goes, what I added comes, what the other added stays', () => {
    expect(mergeTags(['a', 'b'], ['a', 'c'], ['a', 'b', 'd'])).toEqual(['a', 'd', 'c']);
    expect(mergeTags([], ['x'], ['y'])).toEqual(['y', 'x']);
  });

  it('limits: at most 20 tags of 40 characters; tags or starred required', () => {
    expect(galleryMediaPatchSchema.safeParse({ tags: Array.from({ length: 20 }, (_, i) => `t${i}`) }).success).toBe(true);
    expect(galleryMediaPatchSchema.safeParse({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }).success).toBe(false);
    // Duplicates count once.
    expect(galleryMediaPatchSchema.safeParse({ tags: Array.from({ length: 30 }, () => 'same') }).data?.tags).toEqual(['same']);
    expect(galleryMediaPatchSchema.safeParse({ tags: ['x'.repeat(41)] }).success).toBe(false);
    expect(galleryMediaPatchSchema.safeParse({}).success).toBe(false);
    expect(galleryMediaPatchSchema.safeParse({ starred: true }).success).toBe(true);
  });
});

describe('gallery names and filters', () => {
  it('names ZIP files by project, mission, entry (or survey, response) and id', () => {
    expect(galleryZipName({ id: 'abc', projectId: 1, missionId: 2, entryId: 3, surveyId: null, responseId: null }, 'jpg')).toBe('1-2-3-abc.jpg');
    expect(galleryZipName({ id: 'abc', projectId: 1, missionId: null, entryId: null, surveyId: 4, responseId: 5 }, 'jpg')).toBe('1-survey4-5-abc.jpg');
  });

  it('reads and writes the filters of the address bar, set ones only, in one order', () => {
    const filters = galleryFiltersFrom('?tag=door&projectId=3&junk=1&state=');
    expect(filters).toEqual({ tag: 'door', projectId: '3' });
    expect(galleryQuery(filters)).toBe('?projectId=3&tag=door');
    expect(galleryQuery({})).toBe('');
    expect(galleryQuery({ userId: '7' }, { limit: '40' })).toBe('?userId=7&limit=40');
  });
});
