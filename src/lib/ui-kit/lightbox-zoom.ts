/**
 * Lightbox zoom and pan (docs/product.md §9): additive steps of 0.12 within [0.1, 3], wheel zoom
 * throttled to one step per 80 ms, pinch zoom, and panning kept inside the zoomed image.
 * Pure: the component feeds it numbers and times.
 */
import { currentLanguage } from '../../shared/i18n.ts';
import type { Language } from '../../shared/languages.ts';
import { LIGHTBOX_MAX_ZOOM, LIGHTBOX_MIN_ZOOM, LIGHTBOX_WHEEL_THROTTLE_MS, LIGHTBOX_ZOOM_STEP } from '../../shared/ui-constants.ts';

/** The scale at which the image fits the stage. */
export const DEFAULT_ZOOM = 1;

export interface ZoomLimits {
  step?: number;
  min?: number;
  max?: number;
}

/** Rounds away floating-point drift (1 + 0.12 × 5 must be 1.6, not 1.5999999999999999). */
function tidy(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function clampZoom(zoom: number, { min = LIGHTBOX_MIN_ZOOM, max = LIGHTBOX_MAX_ZOOM }: ZoomLimits = {}): number {
  if (Number.isNaN(zoom)) return DEFAULT_ZOOM;
  return tidy(Math.min(max, Math.max(min, zoom)));
}

export function zoomIn(zoom: number, limits: ZoomLimits = {}): number {
  return clampZoom(zoom + (limits.step ?? LIGHTBOX_ZOOM_STEP), limits);
}

export function zoomOut(zoom: number, limits: ZoomLimits = {}): number {
  return clampZoom(zoom - (limits.step ?? LIGHTBOX_ZOOM_STEP), limits);
}

/** +1 zooms in one step, -1 out, 0 leaves the zoom as it is. */
export function zoomBy(zoom: number, direction: ZoomDirection, limits: ZoomLimits = {}): number {
  if (direction === 1) return zoomIn(zoom, limits);
  if (direction === -1) return zoomOut(zoom, limits);
  return zoom;
}

export function canZoomIn(zoom: number, { max = LIGHTBOX_MAX_ZOOM }: ZoomLimits = {}): boolean {
  return zoom < max;
}

export function canZoomOut(zoom: number, { min = LIGHTBOX_MIN_ZOOM }: ZoomLimits = {}): boolean {
  return zoom > min;
}

/** "100%", "112%", … for the reset button (the language's digits and percent sign: "100 %", "١٠٠٪"). */
export function zoomPercent(zoom: number): string {
  const language = currentLanguage();
  let format = percentFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0, useGrouping: false });
    percentFormats.set(language, format);
  }
  return format.format(Math.round(zoom * 100) / 100);
}

/** One percent format per language, made on first use. */
const percentFormats = new Map<Language, Intl.NumberFormat>();

export type ZoomDirection = -1 | 0 | 1;

/**
 * A wheel handler that turns a stream of wheel events into zoom steps, at most one per
 * `throttleMs` (leading edge: the first event of a burst counts, the rest of the window is
 * ignored). Scrolling up (negative deltaY) zooms in. Events with no vertical movement are ignored
 * and do not open a window.
 */
export function createWheelZoomThrottle(throttleMs: number = LIGHTBOX_WHEEL_THROTTLE_MS): (deltaY: number, now: number) => ZoomDirection {
  let last = Number.NEGATIVE_INFINITY;
  return (deltaY, now) => {
    if (deltaY === 0 || Number.isNaN(deltaY)) return 0;
    if (now - last < throttleMs) return 0;
    last = now;
    return deltaY < 0 ? 1 : -1;
  };
}

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Pinch: the zoom follows the ratio of the current finger distance to the starting one. */
export function pinchZoom(startZoom: number, startDistance: number, currentDistance: number, limits: ZoomLimits = {}): number {
  if (!(startDistance > 0) || !(currentDistance >= 0)) return clampZoom(startZoom, limits);
  return clampZoom(startZoom * (currentDistance / startDistance), limits);
}

/**
 * Keeps a pan offset (the translation of the image centre, px) within the part of the zoomed
 * image that overflows the stage: at zoom ≤ 1 there is nothing to pan and the offset is 0.
 */
export function clampPan(offset: Point, zoom: number, size: Size): Point {
  const limitX = Math.max(0, (size.width * (zoom - 1)) / 2);
  const limitY = Math.max(0, (size.height * (zoom - 1)) / 2);
  const clamp = (value: number, limit: number) => (limit === 0 ? 0 : Math.min(limit, Math.max(-limit, value)));
  return { x: clamp(offset.x, limitX), y: clamp(offset.y, limitY) };
}

/** Panning is possible only while the image is larger than its fitted size. */
export function canPan(zoom: number): boolean {
  return zoom > DEFAULT_ZOOM;
}
