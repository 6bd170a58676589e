import { describe, expect, it } from 'vitest';
import {
  clampIndex,
  hasNext,
  hasPrevious,
  lightboxCounter,
  lightboxKeyAction,
  lightboxPosition,
  lightboxTitle,
  stepIndex,
  swipeAction,
} from '../../../src/lib/ui-kit/lightbox-nav.ts';
import type { LightboxItem } from '../../../src/lib/ui-kit/lightbox-nav.ts';

describe('swipe (tolerance 50 px)', () => {
  const start = { x: 200, y: 300 };

  it('a swipe of 49 px does nothing', () => {
    expect(swipeAction(start, { x: 151, y: 300 })).toBeNull();
    expect(swipeAction(start, { x: 249, y: 300 })).toBeNull();
  });

  it('exactly 50 px is still within the tolerance', () => {
    expect(swipeAction(start, { x: 150, y: 300 })).toBeNull();
    expect(swipeAction(start, { x: 250, y: 300 })).toBeNull();
  });

  it('51 px navigates: left shows the next image, right the previous', () => {
    expect(swipeAction(start, { x: 149, y: 300 })).toBe('next');
    expect(swipeAction(start, { x: 251, y: 300 })).toBe('previous');
  });

  it('a mostly vertical movement is not a swipe', () => {
    expect(swipeAction(start, { x: 120, y: 400 })).toBeNull();
    expect(swipeAction(start, { x: 280, y: 100 })).toBeNull();
  });

  it('takes another tolerance', () => {
    expect(swipeAction(start, { x: 100, y: 300 }, 100)).toBeNull();
    expect(swipeAction(start, { x: 99, y: 300 }, 100)).toBe('next');
  });
});

describe('keyboard', () => {
  it.each([
    ['ArrowLeft', 'previous'],
    ['ArrowRight', 'next'],
    ['+', 'zoomIn'],
    ['=', 'zoomIn'],
    ['-', 'zoomOut'],
    ['_', 'zoomOut'],
    ['0', 'reset'],
  ] as const)('%s → %s', (key, action) => {
    expect(lightboxKeyAction({ key })).toBe(action);
  });

  it('leaves Escape (the dialog closes), other keys and browser shortcuts alone', () => {
    expect(lightboxKeyAction({ key: 'Escape' })).toBeNull();
    expect(lightboxKeyAction({ key: 'Tab' })).toBeNull();
    expect(lightboxKeyAction({ key: 'a' })).toBeNull();
    expect(lightboxKeyAction({ key: '+', ctrlKey: true })).toBeNull();
    expect(lightboxKeyAction({ key: '0', metaKey: true })).toBeNull();
    expect(lightboxKeyAction({ key: 'ArrowLeft', altKey: true })).toBeNull();
  });
});

describe('moving between items', () => {
  it('stops at the ends without loop', () => {
    expect(stepIndex(0, -1, 3)).toBe(0);
    expect(stepIndex(0, 1, 3)).toBe(1);
    expect(stepIndex(2, 1, 3)).toBe(2);
    expect(hasPrevious(0, 3)).toBe(false);
    expect(hasNext(2, 3)).toBe(false);
    expect(hasNext(1, 3)).toBe(true);
  });

  it('wraps around with loop', () => {
    expect(stepIndex(0, -1, 3, true)).toBe(2);
    expect(stepIndex(2, 1, 3, true)).toBe(0);
    expect(hasPrevious(0, 3, true)).toBe(true);
    expect(hasNext(2, 3, true)).toBe(true);
  });

  it('has nowhere to go with one item or none', () => {
    expect(hasPrevious(0, 1, true)).toBe(false);
    expect(hasNext(0, 1, true)).toBe(false);
    expect(stepIndex(0, 1, 0)).toBe(0);
    expect(clampIndex(5, 0)).toBe(0);
  });

  it('clamps indexes', () => {
    expect(clampIndex(-3, 4)).toBe(0);
    expect(clampIndex(9, 4)).toBe(3);
    expect(clampIndex(1.7, 4)).toBe(1);
    expect(clampIndex(Number.NaN, 4)).toBe(0);
  });
});

describe('labels', () => {
  it('counter and position', () => {
    expect(lightboxCounter(1, 5)).toBe('2 / 5');
    expect(lightboxPosition(1, 5)).toBe('Image 2 of 5');
    expect(lightboxCounter(0, 0)).toBe('0 / 0');
    expect(lightboxPosition(0, 0)).toBe('No images');
  });

  it('title: the item title, else its alt text', () => {
    const withTitle: LightboxItem = { src: '/a.jpg', title: 'Harbour at dawn', alt: 'Boats in a harbour' };
    const withoutTitle: LightboxItem = { src: '/b.jpg', alt: 'A field of wheat' };
    expect(lightboxTitle(withTitle)).toBe('Harbour at dawn');
    expect(lightboxTitle(withoutTitle)).toBe('A field of wheat');
    expect(lightboxTitle({ src: '/c.jpg', title: '  ', alt: '' })).toBe('Image');
    expect(lightboxTitle(undefined)).toBe('Image');
  });
});
