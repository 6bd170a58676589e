/**
 * The user-interface constants of docs/product.md §9, in one place. Every widget, store and helper that
 * needs one imports it from here; tests/unit/ui-kit/ui-constants.test.ts pins each value to the
 * specification.
 */

// Toasts (docs/product.md §3, §4, §9; the Radix toast store and viewport).
/** At most one toast is shown at a time. */
export const TOAST_LIMIT = 1;
/** A dismissed toast is removed from the store after this long (ms). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** A toast closes by itself after this long (ms), paused while hovered or focused. */
export const TOAST_DURATION_MS = 5000;
/** A swipe this far (px) in TOAST_SWIPE_DIRECTION closes a toast. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_SWIPE_DIRECTION = 'right';
/** Keys that move focus to the toast viewport (Radix ToastViewport `hotkey`, a list of key codes). */
export const TOAST_HOTKEY: string[] = ['F8'];
/**
 * Radix ToastProvider `label` (docs/product.md §5: must not be empty): screen readers announce each toast
 * as a "Notification".
 */
export const TOAST_LABEL = 'Notification';
/** The toast viewport is at most this wide (px) from medium screens up (`md:max-w-[420px]`). */
export const TOAST_VIEWPORT_MAX_WIDTH_PX = 420;
/** docs/product.md §5: a toast's type is one of these (Radix `type`: announced politely or assertively). */
export const TOAST_TYPES = ['foreground', 'background'] as const;

// Build watcher, reports, payloads (docs/product.md §4, §9).
/** After a new build, a full reload happens at most once per path within this window (ms). */
export const RELOAD_GUARD_MS = 10_000;
/** The client error-report queue is flushed this often (ms). */
export const REPORT_FLUSH_INTERVAL_MS = 1000;
/** Prerendered page payloads are cached this long (ms): one hour. */
export const PAYLOAD_CACHE_MS = 3_600_000;

// Tooltip (docs/product.md §4, §9).
/** Hover/focus time (ms) before a tooltip opens ("delayed-open"). */
export const TOOLTIP_DELAY_MS = 700;
/** Within this time (ms) after one tooltip closes, the next opens at once ("instant-open"). */
export const TOOLTIP_SKIP_DELAY_MS = 300;

// Lightbox (docs/product.md §3, §9).
/** One zoom step adds or removes this much scale (1 = natural fit). */
export const LIGHTBOX_ZOOM_STEP = 0.12;
export const LIGHTBOX_MAX_ZOOM = 3;
export const LIGHTBOX_MIN_ZOOM = 0.1;
/** A horizontal swipe must travel more than this (px) to change image. */
export const LIGHTBOX_SWIPE_TOLERANCE_PX = 50;
/** Wheel zoom makes at most one step per this interval (ms). */
export const LIGHTBOX_WHEEL_THROTTLE_MS = 80;

// Calendar (docs/product.md §9).
export const CALENDAR_DAYS_PER_WEEK = 7;
export const CALENDAR_FIXED_WEEKS = 6;
/** In fixed-week mode the month grid always has 42 cells (6 weeks of 7 days). */
export const CALENDAR_FIXED_CELLS = 42;
/** Weeks start on Monday unless configured otherwise (0 = Sunday … 6 = Saturday). */
export const CALENDAR_DEFAULT_WEEK_START = 1;

// Pagination (docs/product.md §9).
export const PAGINATION_PER_PAGE = 10;
/** Pages shown on each side of the current one. */
export const PAGINATION_SIBLINGS = 2;
/** Even an empty list has one page. */
export const PAGINATION_MIN_PAGES = 1;

// Select (docs/product.md §5, §9).
/** The select's list keeps this distance (px) from the viewport edges (Radix `collisionPadding`). */
export const SELECT_EDGE_MARGIN = 10;

// Tags input (docs/product.md §5, §9).
export const TAGS_DELIMITER = ',';
/** Maximum number of tags; 0 means unlimited. */
export const TAGS_MAX = 0;

// Byte sizes (docs/product.md §9).
export const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
export const BYTE_STEP = 1024;

// File to base64 (docs/product.md §8).
export const FILE_TO_BASE64_ERROR = 'Failed to convert file to base64 string';
