import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ZOOM,
  canPan,
  canZoomIn,
  canZoomOut,
  clampPan,
  clampZoom,
  createWheelZoomThrottle,
  distance,
  pinchZoom,
  zoomBy,
  zoomIn,
  zoomOut,
  zoomPercent,
} from '../../../src/lib/ui-kit/lightbox-zoom.ts';

describe('zoom steps (0.12, within [0.1, 3])', () => {
  it('one step in or out is 0.12', () => {
    expect(zoomIn(1)).toBe(1.12);
    expect(zoomOut(1)).toBe(0.88);
    expect(zoomIn(zoomIn(1))).toBe(1.24);
  });

  it('has no floating-point drift after many steps', () => {
    let zoom = DEFAULT_ZOOM;
    for (let i = 0; i < 5; i += 1) zoom = zoomIn(zoom);
    expect(zoom).toBe(1.6);
    for (let i = 0; i < 5; i += 1) zoom = zoomOut(zoom);
    expect(zoom).toBe(1);
  });

  it('clamps at 3 after repeated zoom-in', () => {
    let zoom = DEFAULT_ZOOM;
    const seen: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      zoom = zoomIn(zoom);
      seen.push(zoom);
    }
    expect(zoom).toBe(3);
    expect(Math.max(...seen)).toBe(3);
    // (3 - 1) / 0.12 = 16.67: the 17th step reaches the ceiling.
    expect(seen[15]).toBe(2.92);
    expect(seen[16]).toBe(3);
    expect(canZoomIn(zoom)).toBe(false);
    expect(zoomIn(3)).toBe(3);
  });

  it('clamps at 0.1 after repeated zoom-out', () => {
    let zoom = DEFAULT_ZOOM;
    const seen: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      zoom = zoomOut(zoom);
      seen.push(zoom);
    }
    expect(zoom).toBe(0.1);
    expect(Math.min(...seen)).toBe(0.1);
    // 1 - 7 × 0.12 = 0.16; the 8th step would be 0.04, clamped to 0.1.
    expect(seen[6]).toBe(0.16);
    expect(seen[7]).toBe(0.1);
    expect(canZoomOut(zoom)).toBe(false);
    expect(zoomOut(0.1)).toBe(0.1);
  });

  it('clampZoom keeps values inside the limits and treats NaN as fitted', () => {
    expect(clampZoom(10)).toBe(3);
    expect(clampZoom(0)).toBe(0.1);
    expect(clampZoom(-5)).toBe(0.1);
    expect(clampZoom(1.5)).toBe(1.5);
    expect(clampZoom(Number.NaN)).toBe(1);
  });

  it('accepts other limits', () => {
    expect(zoomIn(1, { step: 0.5, max: 1.2 })).toBe(1.2);
    expect(zoomOut(1, { step: 0.5, min: 0.8 })).toBe(0.8);
  });

  it('zoomBy follows a direction', () => {
    expect(zoomBy(1, 1)).toBe(1.12);
    expect(zoomBy(1, -1)).toBe(0.88);
    expect(zoomBy(1.5, 0)).toBe(1.5);
  });

  it('zoomPercent rounds to whole percent', () => {
    expect(zoomPercent(1)).toBe('100%');
    expect(zoomPercent(1.12)).toBe('112%');
    expect(zoomPercent(0.1)).toBe('10%');
    expect(zoomPercent(3)).toBe('300%');
  });
});

describe('wheel zoom throttle (one step per 80 ms)', () => {
  it('wheel events within 80 ms make one step', () => {
    const wheel = createWheelZoomThrottle();
    const steps = [0, 10, 20, 40, 60, 79].map((t) => wheel(-100, 1000 + t));
    expect(steps).toEqual([1, 0, 0, 0, 0, 0]);
  });

  it('the next step comes 80 ms after the previous one', () => {
    const wheel = createWheelZoomThrottle();
    expect(wheel(-1, 0)).toBe(1);
    expect(wheel(-1, 79)).toBe(0);
    expect(wheel(-1, 80)).toBe(1);
    expect(wheel(-1, 159)).toBe(0);
    expect(wheel(-1, 160)).toBe(1);
  });

  it('a continuous stream every 16 ms makes one step per 80 ms window', () => {
    const wheel = createWheelZoomThrottle();
    let zoom = 1;
    for (let t = 0; t < 800; t += 16) zoom = zoomBy(zoom, wheel(-3, t));
    // Steps at 0, 80, 160, …, 720: 10 steps of 0.12.
    expect(zoom).toBe(2.2);
  });

  it('scrolling up zooms in, down zooms out, no movement does nothing and opens no window', () => {
    const wheel = createWheelZoomThrottle();
    expect(wheel(0, 0)).toBe(0);
    expect(wheel(120, 1)).toBe(-1);
    expect(wheel(-120, 50)).toBe(0);
    expect(wheel(-120, 81)).toBe(1);
  });

  it('takes another interval', () => {
    const wheel = createWheelZoomThrottle(200);
    expect(wheel(-1, 0)).toBe(1);
    expect(wheel(-1, 150)).toBe(0);
    expect(wheel(-1, 200)).toBe(1);
  });
});

describe('pinch zoom', () => {
  it('follows the ratio of finger distances, clamped', () => {
    expect(pinchZoom(1, 100, 150)).toBe(1.5);
    expect(pinchZoom(2, 100, 50)).toBe(1);
    expect(pinchZoom(1, 100, 1000)).toBe(3);
    expect(pinchZoom(1, 100, 1)).toBe(0.1);
    expect(pinchZoom(1.3, 0, 50)).toBe(1.3);
  });

  it('distance is euclidean', () => {
    expect(distance({ x: 0, y: 0 }, { x: 3, y: 4 })).toBe(5);
  });
});

describe('pan', () => {
  const size = { width: 400, height: 200 };

  it('is impossible at or below fitted zoom', () => {
    expect(canPan(1)).toBe(false);
    expect(canPan(0.5)).toBe(false);
    expect(canPan(1.12)).toBe(true);
    expect(clampPan({ x: 50, y: -30 }, 1, size)).toEqual({ x: 0, y: 0 });
    expect(clampPan({ x: 50, y: -30 }, 0.5, size)).toEqual({ x: 0, y: 0 });
  });

  it('stays within the overflowing part of the zoomed image', () => {
    // At 2×, a 400×200 image overflows by 200 px each side horizontally, 100 vertically.
    expect(clampPan({ x: 150, y: -50 }, 2, size)).toEqual({ x: 150, y: -50 });
    expect(clampPan({ x: 999, y: -999 }, 2, size)).toEqual({ x: 200, y: -100 });
    expect(clampPan({ x: -999, y: 999 }, 3, size)).toEqual({ x: -400, y: 200 });
  });
});
