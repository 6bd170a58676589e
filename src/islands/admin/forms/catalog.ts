/**
 * The form builder's catalogue of element types: their names for people, what each is for, the
 * settings a new element starts with, and how ids are made (unique, derived from the type:
 * `short_text_1`, `short_text_2`, …). Zod-free, so the reducer and its tests stay small.
 */
import { ELEMENT_ID_PATTERN, FORM_LIMITS, type ElementType } from '../../../shared/forms/constants.ts';
import type { DraftElement } from '../../../shared/forms/definition.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { VIDEO_LIMITS } from '../../../shared/media.ts';

/** A type's name as the palette and the cards say it ("Add Short text"): its message, called at render. */
export const TYPE_LABELS: Readonly<Record<ElementType, () => string>> = {
  short_text: m.forms_type_short_text,
  long_text: m.forms_type_long_text,
  single_choice: m.forms_type_single_choice,
  multiple_choice: m.forms_type_multiple_choice,
  dropdown: m.forms_type_dropdown,
  rating: m.forms_type_rating,
  scale: m.forms_type_scale,
  number: m.forms_type_number,
  date: m.forms_type_date,
  photo: m.forms_type_photo,
  video: m.forms_type_video,
  consent: m.forms_type_consent,
  matrix: m.forms_type_matrix,
  ranking: m.forms_type_ranking,
  statement: m.forms_type_statement,
};

/** One line about each type, for the palette's descriptions (messages). */
export const TYPE_HINTS: Readonly<Record<ElementType, () => string>> = {
  short_text: m.forms_type_short_text_hint,
  long_text: m.forms_type_long_text_hint,
  single_choice: m.forms_type_single_choice_hint,
  multiple_choice: m.forms_type_multiple_choice_hint,
  dropdown: m.forms_type_dropdown_hint,
  rating: m.forms_type_rating_hint,
  scale: m.forms_type_scale_hint,
  number: m.forms_type_number_hint,
  date: m.forms_type_date_hint,
  photo: m.forms_type_photo_hint,
  video: m.forms_type_video_hint,
  consent: m.forms_type_consent_hint,
  matrix: m.forms_type_matrix_hint,
  ranking: m.forms_type_ranking_hint,
  statement: m.forms_type_statement_hint,
};

/** The name of a type for people, or undefined for a type the builder does not know. */
export function knownTypeLabel(type: string): string | undefined {
  return Object.hasOwn(TYPE_LABELS, type) ? TYPE_LABELS[type as ElementType]() : undefined;
}

/** The name of a type for people; unknown types (imported drafts) are shown as they are. */
export function typeLabel(type: string): string {
  return knownTypeLabel(type) ?? m.forms_type_unknown({ type });
}

/** "Page 2", or "Page 2: About you" when the page has a title (`index` counts from 0). */
export function pageName(page: { title?: string | undefined }, index: number): string {
  const title = page.title?.trim();
  const number = formatCount(index + 1);
  return title ? m.forms_page_name_titled({ page: number, title }) : m.forms_page_name({ page: number });
}

/** `{ id, label }` items: options, matrix rows and columns. */
export interface Item {
  id: string;
  label: string;
}

/** Items `prefix_1 … prefix_n` labelled `Label 1 … Label n` (in the builder's language). */
function items(prefix: string, label: (inputs: { number: string }) => string, count: number): Item[] {
  return Array.from({ length: count }, (_, index) => ({ id: `${prefix}_${index + 1}`, label: label({ number: formatCount(index + 1) }) }));
}

/** The settings a new element of each type starts with (besides id, type and title). */
export function defaultSettings(type: ElementType): Record<string, unknown> {
  switch (type) {
    case 'single_choice':
    case 'multiple_choice':
    case 'dropdown':
      return { options: items('option', m.forms_default_option, 2) };
    case 'ranking':
      return { options: items('option', m.forms_default_option, 3) };
    case 'rating':
      return { max: 5, icon: 'star' };
    case 'scale':
      return { min: 1, max: 10 };
    case 'photo':
      return { maxFiles: 3 };
    case 'video':
      return { maxFiles: VIDEO_LIMITS.defaultMaxFiles, maxSeconds: VIDEO_LIMITS.defaultMaxSeconds };
    case 'consent':
      return { statement: m.forms_default_consent_statement() };
    case 'matrix':
      return { rows: items('row', m.forms_default_row, 2), columns: items('column', m.forms_default_column, 3) };
    case 'statement':
      return { body: '' };
    default:
      return {};
  }
}

/** A new element of `type` with the given id: a title to replace and its type's defaults. */
export function newElement(type: ElementType, id: string): DraftElement {
  return {
    id,
    type,
    title: type === 'statement' ? m.forms_default_statement_title() : m.forms_default_question_title({ type: TYPE_LABELS[type]() }),
    ...defaultSettings(type),
  };
}

/** The first `${base}_${n}` (n = 1, 2, …) that is not taken. */
export function uniqueId(base: string, taken: ReadonlySet<string>): string {
  const stem =
    base
      .replace(/[^a-z0-9_]/g, '_')
      .replace(/^[^a-z]+/, '')
      .slice(0, 56) || 'element';
  for (let n = 1; ; n++) {
    const id = `${stem}_${n}`;
    if (!taken.has(id)) return id;
  }
}

/** The first `${prefix}_${n}` that no item of the list uses (new options, rows, columns). */
export function nextItemId(list: readonly Item[], prefix: string): string {
  return uniqueId(prefix, new Set(list.map((item) => item.id)));
}

/** Why `id` cannot be an element id (format or taken), or null when it can. */
export function elementIdProblem(id: string, taken: ReadonlySet<string>): string | null {
  if (id === '') return m.forms_id_required();
  if (!ELEMENT_ID_PATTERN.test(id)) return m.forms_id_format();
  if (taken.has(id)) return m.forms_id_taken();
  return null;
}

/**
 * True when the draft can take `id` as typed: not empty, not another's, within the draft's limit.
 * A badly formed id is taken too (the field and the publish check say what is wrong with it), so
 * the draft holds what the person sees and publishing refuses it, instead of publishing the old
 * id while the field shows the new one.
 */
export function canHoldElementId(id: string, taken: ReadonlySet<string>): boolean {
  return id !== '' && id.length <= FORM_LIMITS.draftIdMax && !taken.has(id);
}
