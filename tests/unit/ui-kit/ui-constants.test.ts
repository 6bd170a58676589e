import { describe, expect, it } from 'vitest';
import * as ui from '../../../src/shared/ui-constants.ts';

// docs/product.md §9, value by value.
describe('docs/product.md §9 UI constants', () => {
  it.each([
    ['TOAST_LIMIT', 1],
    ['TOAST_REMOVE_DELAY_MS', 1_000_000],
    ['TOAST_DURATION_MS', 5000],
    ['TOAST_SWIPE_THRESHOLD_PX', 50],
    ['TOAST_SWIPE_DIRECTION', 'right'],
    ['TOAST_LABEL', 'Notification'],
    ['TOAST_VIEWPORT_MAX_WIDTH_PX', 420],
    ['RELOAD_GUARD_MS', 10_000],
    ['REPORT_FLUSH_INTERVAL_MS', 1000],
    ['PAYLOAD_CACHE_MS', 3_600_000],
    ['TOOLTIP_DELAY_MS', 700],
    ['TOOLTIP_SKIP_DELAY_MS', 300],
    ['LIGHTBOX_ZOOM_STEP', 0.12],
    ['LIGHTBOX_MAX_ZOOM', 3],
    ['LIGHTBOX_MIN_ZOOM', 0.1],
    ['LIGHTBOX_SWIPE_TOLERANCE_PX', 50],
    ['LIGHTBOX_WHEEL_THROTTLE_MS', 80],
    ['CALENDAR_FIXED_CELLS', 42],
    ['CALENDAR_DEFAULT_WEEK_START', 1],
    ['PAGINATION_PER_PAGE', 10],
    ['PAGINATION_SIBLINGS', 2],
    ['PAGINATION_MIN_PAGES', 1],
    ['SELECT_EDGE_MARGIN', 10],
    ['TAGS_DELIMITER', ','],
    ['TAGS_MAX', 0],
    ['BYTE_STEP', 1024],
    ['FILE_TO_BASE64_ERROR', 'Failed to convert file to base64 string'],
  ] as const)('%s is %j', (name, value) => {
    expect(ui[name]).toBe(value);
  });

  it('the toast hotkey is F8', () => {
    expect(ui.TOAST_HOTKEY).toEqual(['F8']);
  });

  it('toast types are foreground and background (docs/product.md §5)', () => {
    expect(ui.TOAST_TYPES).toEqual(['foreground', 'background']);
  });

  it('a fixed calendar is 6 weeks of 7 days', () => {
    expect(ui.CALENDAR_FIXED_WEEKS * ui.CALENDAR_DAYS_PER_WEEK).toBe(ui.CALENDAR_FIXED_CELLS);
  });

  it('byte units are B, KB, MB, GB, TB', () => {
    expect(ui.BYTE_UNITS).toEqual(['B', 'KB', 'MB', 'GB', 'TB']);
  });
});
