/**
 * Small pure helpers of the form renderer and the answers view. Nothing here imports zod:
 * `definition.ts` is imported for its types only (its schemas would pull zod into the bundle);
 * values come from the zod-free `constants.ts` and `logic.ts`.
 */
import type { AnswerValue, FormDefinition, FormElement } from '../../shared/forms/definition.ts';
import { isOtherAnswer } from '../../shared/forms/logic.ts';
import { currentLanguage, formatCount, formatDuration, m } from '../../shared/i18n.ts';

/** The radio/checkbox value of the "Other" choice (never a valid option id). */
export const OTHER_VALUE = ':other';

/** Scales with more points than this are a slider instead of a row of radio buttons. */
export const SCALE_MAX_RADIOS = 11;

/** The message of a photo element whose uploads are still running on Next or Submit. */
export const photosPendingMessage = (): string => m.participant_form_photos_pending();

/** The message of a number field holding text that is not a number. */
export const notANumberMessage = (): string => m.participant_form_not_a_number();

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A number in the page's language, decimals kept ("1,250.5", "1.250,5"); `grouping: false` for
 * points of a scale ("1000", not "1,000").
 */
export function formatNumber(value: number, grouping = true): string {
  const language = currentLanguage();
  const key = `${language}-${grouping}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 10, useGrouping: grouping });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** A date bound of the definition (`YYYY-MM-DD` or `today`) as a date. */
export function resolveDateBound(bound: string | undefined, today: string): string | undefined {
  if (bound === undefined) return undefined;
  return bound === 'today' ? today : bound;
}

/** The hint of a multiple-choice question: "Choose up to 3", "Choose 2 to 4", … or null. */
export function choiceHint(min: number | undefined, max: number | undefined): string | null {
  const low = min !== undefined && min > 0 ? min : undefined;
  if (low !== undefined && max !== undefined)
    return low === max
      ? m.participant_form_choose_exactly({ count: formatCount(max) })
      : m.participant_form_choose_range({ min: formatCount(low), max: formatCount(max) });
  if (max !== undefined) return m.participant_form_choose_up_to({ max: formatCount(max) });
  if (low !== undefined && low > 1) return m.participant_form_choose_at_least({ min: formatCount(low) });
  return null;
}

/** The hint of a photo element: "Add up to 3 photos", "Add 2 to 5 photos", … */
export function photoHint(min: number | undefined, max: number): string {
  const low = min !== undefined && min > 0 ? min : undefined;
  if (low !== undefined)
    return low === max
      ? m.participant_form_photo_hint_exactly({ count: max })
      : m.participant_form_photo_hint_range({ min: formatCount(low), max: formatCount(max) });
  return m.participant_form_photo_hint_up_to({ count: max });
}

/** The hint of a video question: how many videos, each at most how long ("Up to 1 video, at most 3 minutes long"). */
export function videoHint(min: number | undefined, max: number, maxSeconds: number): string {
  const length = formatDuration(maxSeconds);
  const low = min !== undefined && min > 0 ? min : undefined;
  if (low !== undefined)
    return low === max
      ? m.participant_form_video_hint_exactly({ count: max, length })
      : m.participant_form_video_hint_range({ min: formatCount(low), max: formatCount(max), length });
  return m.participant_form_video_hint_up_to({ count: max, length });
}

function decimalsOf(n: number): number {
  const text = String(n);
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/** The points of a scale from min to max by step (rounded to the step's decimals). */
export function scalePoints(min: number, max: number, step = 1): number[] {
  if (!(step > 0) || max < min) return [];
  const decimals = Math.max(decimalsOf(min), decimalsOf(step));
  const count = Math.floor((max - min) / step + 1e-9) + 1;
  const points: number[] = [];
  for (let i = 0; i < count && i < 1000; i++) points.push(Number((min + i * step).toFixed(decimals)));
  return points;
}

/**
 * What a number field's text means: a number, `undefined` when it is empty, `null` when it is
 * not a number. A decimal comma is read as a point ("3,5" is 3.5).
 */
export function parseNumberText(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const normalised = !trimmed.includes('.') && (trimmed.match(/,/g) ?? []).length === 1 ? trimmed.replace(',', '.') : trimmed;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(normalised)) return null;
  const value = Number(normalised);
  return Number.isFinite(value) ? value : null;
}

/** DOM ids for the parts of one element, from the renderer's prefix. */
export function fieldIds(prefix: string, elementId: string) {
  const id = `${prefix}-${elementId}`;
  return {
    /** The control (single controls) or the fieldset (groups): the summary links here. */
    control: id,
    field: `${id}-field`,
    label: `${id}-label`,
    description: `${id}-description`,
    hint: `${id}-hint`,
    error: `${id}-error`,
  };
}

/** Which element an error key of the validator or the server is about (`id`, `id.row`, `id[0]`). */
export function elementIdOfKey(key: string, elementIds: ReadonlySet<string>): string | undefined {
  if (elementIds.has(key)) return key;
  const match = /^([a-z][a-z0-9_]*)[.[/:]/.exec(key);
  return match?.[1] !== undefined && elementIds.has(match[1]) ? match[1] : undefined;
}

/** A short name of an element for the error summary: its title, or "Question N". */
export function elementName(element: FormElement, index: number): string {
  const title = element.title.trim();
  return title === '' ? m.participant_form_question({ number: formatCount(index + 1) }) : title;
}

/** A record's own value for a key: element and row ids may be `constructor` or `toString`. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** True when an answer is "nothing" (the key should be removed). */
export function isEmptyAnswer(value: AnswerValue | undefined): boolean {
  if (value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object' && !isOtherAnswer(value)) return Object.keys(value).length === 0;
  return false;
}

/** React's useId made safe for ids used in `#fragment` links (it holds `:` or `«`). */
export function domSafeId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '') || 'form';
}

/** Whether a form asks for photos or videos (its screen loads their parts before showing it). */
export function asksForMedia(definition: FormDefinition): boolean {
  return definition.pages.some((page) => page.elements.some((element) => element.type === 'photo' || element.type === 'video'));
}
