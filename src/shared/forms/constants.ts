/**
 * The zod-free half of the form definition format: constants and small helpers that the
 * browser's renderer needs without pulling zod into its bundle. `definition.ts` re-exports
 * everything here, so callers may import these names from either module; code that must stay
 * small (logic.ts, validate.ts, order.ts) imports them from here.
 */

export const FORM_SCHEMA_ID = 'fieldwork.form/1';

/** Element and page ids: a lower-case letter, then lower-case letters, digits or `_` (64 at most). */
export const ELEMENT_ID_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
/** Option, row and column ids: lower-case letters, digits or `_` (64 at most), e.g. `yes`, `1`. */
export const OPTION_ID_PATTERN = /^[a-z0-9][a-z0-9_]{0,63}$/;

export const ELEMENT_TYPES = [
  'short_text',
  'long_text',
  'single_choice',
  'multiple_choice',
  'dropdown',
  'rating',
  'scale',
  'number',
  'date',
  'photo',
  'video',
  'consent',
  'matrix',
  'ranking',
  'statement',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/** Types whose element takes no answer. */
export const ANSWERLESS_TYPES: readonly ElementType[] = ['statement'];

export const CONDITION_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'includes_any', 'includes_all', 'answered', 'not_answered'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
/** Ops that take no `value`. */
export const VALUELESS_OPS: readonly ConditionOp[] = ['answered', 'not_answered'];

const COMPARISON_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'answered', 'not_answered'] as const;
/**
 * The ops a condition may use on an element of each type (publish checks them; the builder can
 * offer just these). Text and single choices: equality and `in`; multiple choices: `includes_*`;
 * numbers, ratings, scales and dates: comparisons too; consent: `eq true`; the rest (photo, video,
 * matrix, ranking): answered or not. A statement takes no answer, so no condition can refer to it.
 */
export const CONDITION_OPS_BY_TYPE: Readonly<Record<ElementType, readonly ConditionOp[]>> = {
  short_text: ['eq', 'neq', 'in', 'answered', 'not_answered'],
  long_text: ['eq', 'neq', 'in', 'answered', 'not_answered'],
  single_choice: ['eq', 'neq', 'in', 'answered', 'not_answered'],
  dropdown: ['eq', 'neq', 'in', 'answered', 'not_answered'],
  multiple_choice: ['includes_any', 'includes_all', 'answered', 'not_answered'],
  rating: COMPARISON_OPS,
  scale: COMPARISON_OPS,
  number: COMPARISON_OPS,
  date: COMPARISON_OPS,
  consent: ['eq', 'neq', 'answered', 'not_answered'],
  photo: ['answered', 'not_answered'],
  video: ['answered', 'not_answered'],
  matrix: ['answered', 'not_answered'],
  ranking: ['answered', 'not_answered'],
  statement: [],
};

export const SHORT_TEXT_FORMATS = ['text', 'email', 'url', 'phone'] as const;
export const OPTION_ORDERS = ['fixed', 'random'] as const;
export const RATING_ICONS = ['star', 'number'] as const;
export const SCALE_PRESETS = ['nps', 'likert'] as const;
export const PHOTO_CAPTURE = ['camera', 'library', 'both'] as const;

/** Defaults and bounds of the settings. */
export const FORM_LIMITS = {
  titleMax: 300,
  descriptionMax: 10_000,
  optionLabelMax: 500,
  shortTextDefaultMax: 255,
  shortTextHardMax: 5_000,
  longTextDefaultMax: 5_000,
  longTextHardMax: 50_000,
  ratingMin: 3,
  ratingMax: 10,
  photoMaxFiles: 10,
  /** A video question: at most this many videos, each at most this long (seconds; its defaults: `VIDEO_LIMITS` in media.ts). */
  videoMaxFiles: 3,
  videoMaxSeconds: 600,
  maxPages: 100,
  maxElements: 500,
  maxOptions: 200,
  maxMatrixRows: 100,
  maxMatrixColumns: 20,
  otherTextMax: 500,
  /** Deepest nesting of all/any/not in a condition. */
  conditionDepth: 8,
  /** Longest element or page id a draft may hold while it is being typed (a published one: 64, ELEMENT_ID_PATTERN). */
  draftIdMax: 200,
} as const;

/** A scale's step when it sets none. */
export const SCALE_DEFAULT_STEP = 1;

/** An ISO calendar date (`YYYY-MM-DD`) or `today` (the respondent's day). */
export const DATE_BOUND_PATTERN = /^(today|\d{4}-\d{2}-\d{2})$/;
export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True for `YYYY-MM-DD` strings that name a real calendar day (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!ISO_DATE_PATTERN.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function isElementType(value: string): value is ElementType {
  return (ELEMENT_TYPES as readonly string[]).includes(value);
}

/** Every element of a definition in order, with the page it is on. */
export function allElements<T extends { id: string }>(
  pages: readonly { id: string; elements: readonly T[] }[],
): { element: T; pageId: string; index: number }[] {
  const out: { element: T; pageId: string; index: number }[] = [];
  let index = 0;
  for (const page of pages) for (const element of page.elements) out.push({ element, pageId: page.id, index: index++ });
  return out;
}

/** The publish check's key of form-level problems (`checkForPublish`, ./publish.ts). */
export const FORM_PROBLEMS_KEY = 'form';
