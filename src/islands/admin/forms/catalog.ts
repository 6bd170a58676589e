/**
 * The form builder's catalogue of element types: their names for people, what each is for, the
 * settings a new element starts with, and how ids are made (unique, derived from the type:
 * `short_text_1`, `short_text_2`, …). Zod-free, so the reducer and its tests stay small.
 */
import { ELEMENT_ID_PATTERN, FORM_LIMITS, type ElementType } from '../../../shared/forms/constants.ts';
import type { DraftElement } from '../../../shared/forms/definition.ts';

/** A type's name as the palette and the cards say it ("Add Short text"). */
export const TYPE_LABELS: Readonly<Record<ElementType, string>> = {
  short_text: 'Short text',
  long_text: 'Long text',
  single_choice: 'Single choice',
  multiple_choice: 'Multiple choice',
  dropdown: 'Dropdown',
  rating: 'Rating',
  scale: 'Scale',
  number: 'Number',
  date: 'Date',
  photo: 'Photo',
  consent: 'Consent',
  matrix: 'Matrix',
  ranking: 'Ranking',
  statement: 'Statement',
};

/** One line about each type, for the palette's descriptions. */
export const TYPE_HINTS: Readonly<Record<ElementType, string>> = {
  short_text: 'A line of text: a name, an email, a link',
  long_text: 'Paragraphs of text',
  single_choice: 'One option from a list',
  multiple_choice: 'Several options from a list',
  dropdown: 'One option from a long list',
  rating: 'Stars or numbers, 1 to 5 by default',
  scale: 'A point on a scale, 1 to 10 by default',
  number: 'A number, with limits and a unit',
  date: 'A calendar day',
  photo: 'Up to 3 photos by default',
  consent: 'A statement to tick',
  matrix: 'A grid of rows and columns',
  ranking: 'Options put in order',
  statement: 'Text to read, no answer',
};

/** The name of a type for people, or undefined for a type the builder does not know. */
export function knownTypeLabel(type: string): string | undefined {
  return Object.hasOwn(TYPE_LABELS, type) ? TYPE_LABELS[type as ElementType] : undefined;
}

/** The name of a type for people; unknown types (imported drafts) are shown as they are. */
export function typeLabel(type: string): string {
  return knownTypeLabel(type) ?? `Unknown type "${type}"`;
}

/** `{ id, label }` items: options, matrix rows and columns. */
export interface Item {
  id: string;
  label: string;
}

/** Items `prefix_1 … prefix_n` labelled `Label 1 … Label n`. */
function items(prefix: string, label: string, count: number): Item[] {
  return Array.from({ length: count }, (_, index) => ({ id: `${prefix}_${index + 1}`, label: `${label} ${index + 1}` }));
}

/** The settings a new element of each type starts with (besides id, type and title). */
export function defaultSettings(type: ElementType): Record<string, unknown> {
  switch (type) {
    case 'single_choice':
    case 'multiple_choice':
    case 'dropdown':
      return { options: items('option', 'Option', 2) };
    case 'ranking':
      return { options: items('option', 'Option', 3) };
    case 'rating':
      return { max: 5, icon: 'star' };
    case 'scale':
      return { min: 1, max: 10 };
    case 'photo':
      return { maxFiles: 3 };
    case 'consent':
      return { statement: 'I agree.' };
    case 'matrix':
      return { rows: items('row', 'Row', 2), columns: items('column', 'Column', 3) };
    case 'statement':
      return { body: '' };
    default:
      return {};
  }
}

/** A new element of `type` with the given id: a title to replace and its type's defaults. */
export function newElement(type: ElementType, id: string): DraftElement {
  return { id, type, title: type === 'statement' ? 'Statement' : `${TYPE_LABELS[type]} question`, ...defaultSettings(type) };
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
  if (id === '') return 'Required';
  if (!ELEMENT_ID_PATTERN.test(id)) return 'Use a lower-case letter, then lower-case letters, digits or _ (64 at most)';
  if (taken.has(id)) return 'Another question or page already has this id';
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
