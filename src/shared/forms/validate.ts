/**
 * Answer validation: the same code in the browser (the renderer's Next and Submit) and on the
 * server, which is the judge. Zod-free so the renderer's bundle stays small.
 *
 * Hidden elements are neither required nor checked, and their answers are dropped; so are answers
 * to elements the form does not have. Blank strings, empty arrays and empty matrices count as not
 * answered.
 */
import { MESSAGES } from '../messages.ts';
import { utcDate } from '../calendar-day.ts';
import { FORM_LIMITS, SCALE_DEFAULT_STEP, isCalendarDate } from './constants.ts';
import type { AnswerValue, Answers, ElementOf, FormDefinition, FormElement } from './definition.ts';
import { answerOf, isAnswerable, isAnswered, isOtherAnswer, isPlainObject, resolveVisibility, setOwn } from './logic.ts';

/** The messages of answer validation: docs/product.md's where they fit, plain sentences elsewhere. */
export const FORM_MESSAGES = {
  required: MESSAGES.required,
  tooLong: MESSAGES.tooLong,
  tooShort: MESSAGES.tooShort,
  invalidEmail: MESSAGES.invalidEmail,
  invalidUrl: 'Enter a valid web address',
  invalidPhone: 'Enter a valid phone number',
  text: 'Enter text',
  chooseOption: 'Choose one of the options',
  chooseOptions: 'Choose one or more of the options',
  otherNotAllowed: 'Choose one of the options; this question has no "Other"',
  oneOther: 'Give one "Other" answer at most',
  chooseOnce: 'Choose each option once',
  exclusive: (label: string) => `"${label}" cannot be combined with other choices`,
  chooseAtLeast: (count: number) => `Choose at least ${count}`,
  chooseAtMost: (count: number) => `Choose at most ${count}`,
  number: 'Enter a number',
  wholeNumber: 'Enter a whole number',
  numberFromTo: (min: number, max: number) => `Enter a number from ${min} to ${max}`,
  numberAtLeast: (min: number) => `Enter a number of at least ${min}`,
  numberAtMost: (max: number) => `Enter a number of at most ${max}`,
  scaleStep: (min: number, max: number, step: number) => `Choose a value from ${min} to ${max} in steps of ${step}`,
  date: 'Enter a valid date (YYYY-MM-DD)',
  dateOnOrAfter: (bound: string) => `Choose a date on or after ${bound}`,
  dateOnOrBefore: (bound: string) => `Choose a date on or before ${bound}`,
  photos: 'Add photos by uploading them',
  photoOnce: 'Add each photo once',
  photosAtLeast: (count: number) => `Add at least ${count} ${count === 1 ? 'photo' : 'photos'}`,
  photosAtMost: (count: number) => `Add at most ${count} ${count === 1 ? 'photo' : 'photos'}`,
  videos: 'Add videos by uploading or recording them',
  videoOnce: 'Add each video once',
  videosAtLeast: (count: number) => `Add at least ${count} ${count === 1 ? 'video' : 'videos'}`,
  videosAtMost: (count: number) => `Add at most ${count} ${count === 1 ? 'video' : 'videos'}`,
  consent: 'Tick the box to agree',
  matrix: 'Choose a column for each row you answer',
  unknownRow: 'Answer only the rows shown',
  chooseColumn: 'Choose one of the columns',
  everyRow: 'Answer every row',
  ranking: 'Rank the options by moving them',
  rankOnce: 'Rank each option once',
  rankEvery: 'Rank every option',
} as const;

/** Options of the validators. */
export interface ValidateOptions {
  /** The respondent's day (`YYYY-MM-DD`) that "today" in date bounds and conditions stands for (default: today in UTC). */
  today?: string;
}

/** The result of `validateAnswers`. */
export interface ValidationResult {
  /** True when there are no errors (on the checked page, with `pageId`). */
  valid: boolean;
  /** Messages per element id; only elements with problems appear. */
  errors: Record<string, string[]>;
  /**
   * The cleaned answers of the whole form: only visible, answerable, answered elements of the
   * definition (unknown keys and hidden elements' answers dropped), text trimmed, empty matrix
   * rows removed. Store them only when `valid`.
   */
  answers: Answers;
}

/** zod's email pattern, so form answers and the account forms accept the same addresses. */
const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const PHONE_PATTERN = /^\+?[0-9 ().\-/]+$/;
const MEDIA_ID_MAX = 200;

/** Length in characters (code points), so an emoji counts once. */
function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** An http(s) address with a host name that has a dot (`https://example.org/x`). */
export function isWebAddress(value: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.') && !url.hostname.startsWith('.') && !url.hostname.endsWith('.')
    );
  } catch {
    return false;
  }
}

/** Digits with optional leading `+`, spaces, dashes, dots, slashes and brackets; 7 to 15 digits (E.164). */
export function isPhoneNumber(value: string): boolean {
  if (!PHONE_PATTERN.test(value)) return false;
  const digits = value.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}

/** Checked answer of one element: its messages and its cleaned value (undefined: nothing to keep). */
interface Checked {
  errors: string[];
  value: AnswerValue | undefined;
}

function checkText(element: ElementOf<'short_text' | 'long_text'>, value: AnswerValue): Checked {
  if (typeof value !== 'string') return { errors: [FORM_MESSAGES.text], value };
  const text = value.trim();
  const errors: string[] = [];
  const length = characterCount(text);
  const max = element.maxLength ?? (element.type === 'short_text' ? FORM_LIMITS.shortTextDefaultMax : FORM_LIMITS.longTextDefaultMax);
  if (element.minLength !== undefined && length < element.minLength) errors.push(FORM_MESSAGES.tooShort);
  if (length > max) errors.push(FORM_MESSAGES.tooLong);
  if (element.type === 'short_text') {
    if (element.format === 'email' && !EMAIL_PATTERN.test(text)) errors.push(FORM_MESSAGES.invalidEmail);
    if (element.format === 'url' && !isWebAddress(text)) errors.push(FORM_MESSAGES.invalidUrl);
    if (element.format === 'phone' && !isPhoneNumber(text)) errors.push(FORM_MESSAGES.invalidPhone);
  }
  return { errors, value: text };
}

function checkOther(text: string): string[] {
  return characterCount(text.trim()) > FORM_LIMITS.otherTextMax ? [FORM_MESSAGES.tooLong] : [];
}

function checkSingle(element: ElementOf<'single_choice' | 'dropdown'>, value: AnswerValue): Checked {
  if (typeof value === 'string') {
    return { errors: element.options.some((option) => option.id === value) ? [] : [FORM_MESSAGES.chooseOption], value };
  }
  if (isOtherAnswer(value)) {
    if (element.type !== 'single_choice' || !element.allowOther) return { errors: [FORM_MESSAGES.otherNotAllowed], value };
    return { errors: checkOther(value.other), value: { other: value.other.trim() } };
  }
  return { errors: [FORM_MESSAGES.chooseOption], value };
}

function checkMultiple(element: ElementOf<'multiple_choice'>, value: AnswerValue): Checked {
  if (!Array.isArray(value)) return { errors: [FORM_MESSAGES.chooseOptions], value };
  const errors = new Set<string>();
  const known = new Map(element.options.map((option) => [option.id, option]));
  const ids = new Set<string>();
  let others = 0;
  const cleaned: (string | { other: string })[] = [];
  for (const item of value as unknown[]) {
    if (typeof item === 'string') {
      if (!known.has(item)) errors.add(FORM_MESSAGES.chooseOption);
      else if (ids.has(item)) errors.add(FORM_MESSAGES.chooseOnce);
      ids.add(item);
      cleaned.push(item);
    } else if (isOtherAnswer(item)) {
      if (!element.allowOther) errors.add(FORM_MESSAGES.otherNotAllowed);
      for (const message of checkOther(item.other)) errors.add(message);
      // A blank "Other" box is not a choice.
      if (item.other.trim() === '') continue;
      others++;
      cleaned.push({ other: item.other.trim() });
    } else {
      errors.add(FORM_MESSAGES.chooseOption);
    }
  }
  if (others > 1) errors.add(FORM_MESSAGES.oneOther);
  const chosen = ids.size + others;
  const exclusive = (element.exclusive ?? []).filter((id) => ids.has(id));
  if (exclusive.length > 0 && chosen > 1) {
    for (const id of exclusive) errors.add(FORM_MESSAGES.exclusive(known.get(id)?.label ?? id));
  }
  // Counts only matter once every choice is a real one.
  if (errors.size > 0) return { errors: [...errors], value: cleaned };
  const onlyExclusive = exclusive.length > 0 && chosen === 1;
  if (chosen > 0 && !onlyExclusive && element.minSelected !== undefined && chosen < element.minSelected)
    errors.add(FORM_MESSAGES.chooseAtLeast(element.minSelected));
  if (element.maxSelected !== undefined && chosen > element.maxSelected) errors.add(FORM_MESSAGES.chooseAtMost(element.maxSelected));
  return { errors: [...errors], value: cleaned };
}

function checkRating(element: ElementOf<'rating'>, value: AnswerValue): Checked {
  if (typeof value !== 'number' || !Number.isFinite(value)) return { errors: [FORM_MESSAGES.numberFromTo(1, element.max)], value };
  if (!Number.isInteger(value)) return { errors: [FORM_MESSAGES.wholeNumber], value };
  return { errors: value < 1 || value > element.max ? [FORM_MESSAGES.numberFromTo(1, element.max)] : [], value };
}

/** True when `value` is `min + k·step` for a whole k (with room for floating-point error). */
export function isOnStep(value: number, min: number, step: number): boolean {
  const k = (value - min) / step;
  return Math.abs(k - Math.round(k)) <= 1e-9 * Math.max(1, Math.abs(k));
}

function checkScale(element: ElementOf<'scale'>, value: AnswerValue): Checked {
  const range = FORM_MESSAGES.numberFromTo(element.min, element.max);
  if (typeof value !== 'number' || !Number.isFinite(value)) return { errors: [range], value };
  if (value < element.min || value > element.max) return { errors: [range], value };
  const step = element.step ?? SCALE_DEFAULT_STEP;
  return { errors: isOnStep(value, element.min, step) ? [] : [FORM_MESSAGES.scaleStep(element.min, element.max, step)], value };
}

function checkNumber(element: ElementOf<'number'>, value: AnswerValue): Checked {
  if (typeof value !== 'number' || !Number.isFinite(value)) return { errors: [FORM_MESSAGES.number], value };
  const errors: string[] = [];
  if (element.integer && !Number.isInteger(value)) errors.push(FORM_MESSAGES.wholeNumber);
  const { min, max } = element;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    if (min !== undefined && max !== undefined) errors.push(FORM_MESSAGES.numberFromTo(min, max));
    else if (min !== undefined) errors.push(FORM_MESSAGES.numberAtLeast(min));
    else if (max !== undefined) errors.push(FORM_MESSAGES.numberAtMost(max));
  }
  return { errors, value };
}

function checkDate(element: ElementOf<'date'>, value: AnswerValue, today: string): Checked {
  if (typeof value !== 'string' || !isCalendarDate(value.trim())) return { errors: [FORM_MESSAGES.date], value };
  const date = value.trim();
  const errors: string[] = [];
  const bound = (setting: string | undefined) => (setting === 'today' ? today : setting);
  const shown = (setting: string) => (setting === 'today' ? 'today' : setting);
  const min = bound(element.minDate);
  const max = bound(element.maxDate);
  if (element.minDate !== undefined && min !== undefined && date < min) errors.push(FORM_MESSAGES.dateOnOrAfter(shown(element.minDate)));
  if (element.maxDate !== undefined && max !== undefined && date > max) errors.push(FORM_MESSAGES.dateOnOrBefore(shown(element.maxDate)));
  return { errors, value: date };
}

function checkPhotos(element: ElementOf<'photo'>, value: AnswerValue): Checked {
  if (!Array.isArray(value) || !(value as unknown[]).every((item) => typeof item === 'string' && item.trim() !== '' && item.length <= MEDIA_ID_MAX)) {
    return { errors: [FORM_MESSAGES.photos], value };
  }
  const errors: string[] = [];
  const ids = value as string[];
  if (new Set(ids).size !== ids.length) errors.push(FORM_MESSAGES.photoOnce);
  if (element.minFiles !== undefined && ids.length < element.minFiles) errors.push(FORM_MESSAGES.photosAtLeast(element.minFiles));
  if (ids.length > element.maxFiles) errors.push(FORM_MESSAGES.photosAtMost(element.maxFiles));
  return { errors, value };
}

function checkVideos(element: ElementOf<'video'>, value: AnswerValue): Checked {
  if (!Array.isArray(value) || !(value as unknown[]).every((item) => typeof item === 'string' && item.trim() !== '' && item.length <= MEDIA_ID_MAX)) {
    return { errors: [FORM_MESSAGES.videos], value };
  }
  const errors: string[] = [];
  const ids = value as string[];
  if (new Set(ids).size !== ids.length) errors.push(FORM_MESSAGES.videoOnce);
  if (element.minFiles !== undefined && ids.length < element.minFiles) errors.push(FORM_MESSAGES.videosAtLeast(element.minFiles));
  if (ids.length > element.maxFiles) errors.push(FORM_MESSAGES.videosAtMost(element.maxFiles));
  return { errors, value };
}

function checkMatrix(element: ElementOf<'matrix'>, value: AnswerValue): Checked {
  if (!isPlainObject(value)) return { errors: [FORM_MESSAGES.matrix], value };
  const rows = new Set(element.rows.map((row) => row.id));
  const columns = new Set(element.columns.map((column) => column.id));
  const errors = new Set<string>();
  const cleaned: Record<string, string | string[]> = {};
  for (const [rowId, cell] of Object.entries(value as Record<string, unknown>)) {
    if (cell === undefined || cell === null || (typeof cell === 'string' && cell.trim() === '') || (Array.isArray(cell) && cell.length === 0)) continue;
    if (!rows.has(rowId)) {
      errors.add(FORM_MESSAGES.unknownRow);
      continue;
    }
    if (element.multiple) {
      if (!Array.isArray(cell) || !cell.every((id) => typeof id === 'string' && columns.has(id))) errors.add(FORM_MESSAGES.chooseColumn);
      else if (new Set(cell).size !== cell.length) errors.add(FORM_MESSAGES.chooseOnce);
      if (Array.isArray(cell)) setOwn<string | string[]>(cleaned, rowId, cell as string[]);
    } else {
      if (typeof cell !== 'string' || !columns.has(cell)) errors.add(FORM_MESSAGES.chooseColumn);
      if (typeof cell === 'string') setOwn<string | string[]>(cleaned, rowId, cell);
    }
  }
  if (element.allRowsRequired && element.rows.some((row) => !Object.hasOwn(cleaned, row.id))) errors.add(FORM_MESSAGES.everyRow);
  return { errors: [...errors], value: errors.size > 0 ? value : cleaned };
}

function checkRanking(element: ElementOf<'ranking'>, value: AnswerValue): Checked {
  if (!Array.isArray(value)) return { errors: [FORM_MESSAGES.ranking], value };
  const known = new Set(element.options.map((option) => option.id));
  const errors: string[] = [];
  if (!(value as unknown[]).every((id) => typeof id === 'string' && known.has(id))) errors.push(FORM_MESSAGES.chooseOption);
  else if (new Set(value).size !== value.length) errors.push(FORM_MESSAGES.rankOnce);
  else if (element.rankAll && value.length !== known.size) errors.push(FORM_MESSAGES.rankEvery);
  return { errors, value };
}

/** Checks one element's answer as if it were visible; the value comes back cleaned. */
export function checkElement(element: FormElement, value: AnswerValue | undefined, options: ValidateOptions = {}): Checked {
  if (!isAnswerable(element)) return { errors: [], value: undefined };
  if (value === undefined || !isAnswered(value)) return { errors: element.required ? [FORM_MESSAGES.required] : [], value: undefined };
  switch (element.type) {
    case 'short_text':
    case 'long_text':
      return checkText(element, value);
    case 'single_choice':
    case 'dropdown':
      return checkSingle(element, value);
    case 'multiple_choice':
      return checkMultiple(element, value);
    case 'rating':
      return checkRating(element, value);
    case 'scale':
      return checkScale(element, value);
    case 'number':
      return checkNumber(element, value);
    case 'date':
      return checkDate(element, value, options.today ?? utcDate());
    case 'photo':
      return checkPhotos(element, value);
    case 'video':
      return checkVideos(element, value);
    case 'consent':
      return { errors: value === true ? [] : [FORM_MESSAGES.consent], value };
    case 'matrix':
      return checkMatrix(element, value);
    case 'ranking':
      return checkRanking(element, value);
    default:
      return { errors: [], value: undefined };
  }
}

/**
 * The problems of one element's answer, as if the element were visible: `Required` when it is
 * required and unanswered, else type, option, length, range and format problems. [] when fine.
 */
export function validateElement(element: FormElement, value: AnswerValue | undefined, options: ValidateOptions = {}): string[] {
  return checkElement(element, value, options).errors;
}

/**
 * Validates a whole response (or, with `pageId`, the visible elements of that page: the
 * renderer's Next; an unknown or hidden page has nothing to check). Hidden elements and pages
 * are skipped and their answers dropped; unknown keys are dropped. The cleaned answers always
 * cover the whole form.
 */
export function validateAnswers(definition: FormDefinition, answers: Answers, options: ValidateOptions & { pageId?: string } = {}): ValidationResult {
  const today = options.today ?? utcDate();
  const source: Answers = isPlainObject(answers) ? answers : {};
  const visibility = resolveVisibility(definition, source, { today });
  const errors: Record<string, string[]> = {};
  const cleaned: Answers = {};
  for (const page of visibility.pages) {
    const checked = options.pageId === undefined || options.pageId === page.id;
    for (const element of page.elements) {
      if (!visibility.elementIds.has(element.id) || !isAnswerable(element)) continue;
      const result = checkElement(element, answerOf(source, element.id), { today });
      if (result.value !== undefined && isAnswered(result.value)) setOwn(cleaned, element.id, result.value);
      if (checked && result.errors.length > 0) setOwn(errors, element.id, result.errors);
    }
  }
  return { valid: Object.keys(errors).length === 0, errors, answers: cleaned };
}
