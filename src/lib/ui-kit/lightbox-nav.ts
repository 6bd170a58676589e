/**
 * Lightbox navigation (docs/product.md §3, §9): the item shape, moving between items, the keyboard map
 * and touch swipes beyond the 50 px tolerance. Pure.
 */
import { formatCount, m } from '../../shared/i18n.ts';
import { LIGHTBOX_SWIPE_TOLERANCE_PX } from '../../shared/ui-constants.ts';
import type { Point } from './lightbox-zoom.ts';

/** docs/product.md §3: an image lightbox item. `alt` is required: every image needs a text alternative. */
export interface LightboxItem {
  src: string;
  title?: string;
  alt: string;
  /** A video (`src` is an MP4): played with its controls and this poster instead of shown as an image. */
  video?: { poster: string };
}

/** Clamps an index into [0, length - 1] (0 for an empty list). */
export function clampIndex(index: number, length: number): number {
  if (length <= 0 || !Number.isFinite(index)) return 0;
  return Math.min(length - 1, Math.max(0, Math.trunc(index)));
}

/**
 * The index `delta` items away. With `loop`, the ends wrap around; without it, moving past an
 * end stays at that end.
 */
export function stepIndex(index: number, delta: number, length: number, loop = false): number {
  if (length <= 0) return 0;
  const next = clampIndex(index, length) + delta;
  if (loop) return ((next % length) + length) % length;
  return clampIndex(next, length);
}

export function hasPrevious(index: number, length: number, loop = false): boolean {
  return length > 1 && (loop || clampIndex(index, length) > 0);
}

export function hasNext(index: number, length: number, loop = false): boolean {
  return length > 1 && (loop || clampIndex(index, length) < length - 1);
}

/** The visible counter, "2 / 5". */
export function lightboxCounter(index: number, length: number): string {
  return length <= 0 ? `${formatCount(0)} / ${formatCount(0)}` : `${formatCount(clampIndex(index, length) + 1)} / ${formatCount(length)}`;
}

/** What screen readers hear for the counter, "Image 2 of 5". */
export function lightboxPosition(index: number, length: number): string {
  return length <= 0
    ? m.common_lightbox_no_images()
    : m.common_lightbox_position({ current: formatCount(clampIndex(index, length) + 1), total: formatCount(length) });
}

/** The dialog's title: the item's title, else its alt text. */
export function lightboxTitle(item: LightboxItem | undefined): string {
  return item?.title?.trim() || item?.alt.trim() || m.common_lightbox_image();
}

export type LightboxAction = 'previous' | 'next' | 'zoomIn' | 'zoomOut' | 'reset';

/**
 * Keyboard map: ← previous, → next, + (or =) zoom in, - zoom out, 0 reset. Escape is the
 * dialog's own (it closes). Keys with Ctrl, Meta or Alt are left to the browser (Ctrl + + is
 * page zoom).
 */
export function lightboxKeyAction(event: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }): LightboxAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  switch (event.key) {
    case 'ArrowLeft':
      return 'previous';
    case 'ArrowRight':
      return 'next';
    case '+':
    case '=':
    case 'Add':
      return 'zoomIn';
    case '-':
    case '_':
    case 'Subtract':
      return 'zoomOut';
    case '0':
      return 'reset';
    default:
      return null;
  }
}

/**
 * A completed swipe from `start` to `end`: more than `tolerance` px horizontally, and more
 * horizontal than vertical. Moving the finger left shows the next image, right the previous.
 */
export function swipeAction(start: Point, end: Point, tolerance: number = LIGHTBOX_SWIPE_TOLERANCE_PX): 'previous' | 'next' | null {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  if (Math.abs(dx) <= tolerance || Math.abs(dx) <= Math.abs(dy)) return null;
  return dx < 0 ? 'next' : 'previous';
}
