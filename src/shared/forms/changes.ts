/**
 * What changed between two versions of a form: the list the builder's publish dialog shows, and
 * the breaking changes that need confirmation while earlier versions have answers.
 *
 * Breaking (earlier answers no longer fit or no longer mean the same): a removed element; a
 * removed option, row or column (the "Other" choice included); a type change; a scale's range
 * (min/max) or a rating's max; a matrix switching between one and several columns per row.
 * Everything else (additions, moves, titles, required, conditions, other settings and limits) is
 * listed as not breaking.
 */
import { allElements } from './constants.ts';
import type { Condition, FormDefinition, FormElement, FormOption, FormPage } from './definition.ts';

export type FormChangeKind =
  | 'element_added'
  | 'element_removed'
  | 'element_moved'
  | 'type_changed'
  | 'title_changed'
  | 'settings_changed'
  | 'required_changed'
  | 'condition_changed'
  | 'option_added'
  | 'option_removed'
  | 'option_relabelled'
  | 'range_changed'
  | 'page_added'
  | 'page_removed'
  | 'page_changed';

/** One change; `message` names the element (or page) for a person: `Removed "what" (What did you eat?)`. */
export interface FormChange {
  kind: FormChangeKind;
  elementId?: string;
  pageId?: string;
  breaking: boolean;
  message: string;
}

const TITLE_SHOWN = 60;

/** A JSON text with keys in order, so equal values compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);
const quote = (text: string): string => JSON.stringify(text);

function shortTitle(title: string | undefined): string {
  const text = (title ?? '').trim().replace(/\s+/g, ' ');
  return text.length > TITLE_SHOWN ? `${text.slice(0, TITLE_SHOWN - 1)}…` : text;
}

/** `"what" (What did you eat?)`, or `"what"` without a title. */
function elementLabel(element: Pick<FormElement, 'id' | 'title'>): string {
  const title = shortTitle(element.title);
  return title === '' ? quote(element.id) : `${quote(element.id)} (${title})`;
}

/** `page "p1" (About you)`, or `page "p1"`. */
function pageLabel(page: Pick<FormPage, 'id' | 'title'>): string {
  const title = shortTitle(page.title);
  return title === '' ? `page ${quote(page.id)}` : `page ${quote(page.id)} (${title})`;
}

const typeName = (type: string): string => type.replace(/_/g, ' ');

function bounds(min: number | string | undefined, max: number | string | undefined): string {
  if (min !== undefined && max !== undefined) return `${min}–${max}`;
  if (min !== undefined) return `at least ${min}`;
  if (max !== undefined) return `at most ${max}`;
  return 'no limits';
}

/** The ids of `next` that keep their relative order from `previous` (a longest common subsequence). */
function keptInOrder(previous: readonly string[], next: readonly string[]): Set<string> {
  const n = previous.length;
  const m = next.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] as number[];
    const below = table[i + 1] as number[];
    for (let j = m - 1; j >= 0; j--) {
      row[j] = previous[i] === next[j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
    }
  }
  const kept = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (previous[i] === next[j]) {
      kept.add(next[j] as string);
      i++;
      j++;
    } else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0)) i++;
    else j++;
  }
  return kept;
}

type ItemNoun = 'option' | 'row' | 'column';

function diffItems(noun: ItemNoun, before: readonly FormOption[], after: readonly FormOption[], element: FormElement, pageId: string, out: FormChange[]): void {
  const label = elementLabel(element);
  const previous = new Map(before.map((item) => [item.id, item]));
  const next = new Map(after.map((item) => [item.id, item]));
  const base = { elementId: element.id, pageId };
  for (const item of before) {
    if (!next.has(item.id)) {
      out.push({ kind: 'option_removed', ...base, breaking: true, message: `Removed ${noun} ${quote(item.id)} (${shortTitle(item.label)}) from ${label}` });
    }
  }
  for (const item of after) {
    const old = previous.get(item.id);
    if (old === undefined) {
      out.push({ kind: 'option_added', ...base, breaking: false, message: `Added ${noun} ${quote(item.id)} (${shortTitle(item.label)}) to ${label}` });
    } else if (old.label !== item.label) {
      out.push({
        kind: 'option_relabelled',
        ...base,
        breaking: false,
        message: `Relabelled ${noun} ${quote(item.id)} of ${label}: ${quote(shortTitle(old.label))} → ${quote(shortTitle(item.label))}`,
      });
    }
  }
  const common = before.filter((item) => next.has(item.id)).map((item) => item.id);
  const commonAfter = after.filter((item) => previous.has(item.id)).map((item) => item.id);
  if (!same(common, commonAfter)) {
    out.push({ kind: 'settings_changed', ...base, breaking: false, message: `Reordered the ${noun}s of ${label}` });
  }
}

/** Keys compared on their own (the rest of an element's keys are "settings"). */
const OWN_KEYS = new Set(['id', 'type', 'title', 'required', 'visibleIf', 'options', 'rows', 'columns', 'allowOther']);

/** Range settings per type; `breaking` keys change what earlier answers mean. */
const RANGES: Partial<Record<FormElement['type'], { keys: [string, string]; what: string; breaking: boolean }[]>> = {
  short_text: [{ keys: ['minLength', 'maxLength'], what: 'the length limits of', breaking: false }],
  long_text: [{ keys: ['minLength', 'maxLength'], what: 'the length limits of', breaking: false }],
  multiple_choice: [{ keys: ['minSelected', 'maxSelected'], what: 'the number of choices of', breaking: false }],
  scale: [{ keys: ['min', 'max'], what: 'the range of', breaking: true }],
  number: [{ keys: ['min', 'max'], what: 'the limits of', breaking: false }],
  date: [{ keys: ['minDate', 'maxDate'], what: 'the date limits of', breaking: false }],
  photo: [{ keys: ['minFiles', 'maxFiles'], what: 'the number of photos of', breaking: false }],
  video: [{ keys: ['minFiles', 'maxFiles'], what: 'the number of videos of', breaking: false }],
};

function settingOf(element: FormElement, key: string): unknown {
  return (element as Record<string, unknown>)[key];
}

function numberOrString(value: unknown): number | string | undefined {
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}

function diffElement(before: FormElement, after: FormElement, pageId: string, out: FormChange[]): void {
  const base = { elementId: after.id, pageId };
  const label = elementLabel(after);
  const sameType = before.type === after.type;
  if (!sameType) {
    out.push({ kind: 'type_changed', ...base, breaking: true, message: `Changed ${label} from ${typeName(before.type)} to ${typeName(after.type)}` });
  }
  if (before.title !== after.title) {
    out.push({
      kind: 'title_changed',
      ...base,
      breaking: false,
      message: `Renamed ${quote(after.id)}: ${quote(shortTitle(before.title))} → ${quote(shortTitle(after.title))}`,
    });
  }
  if (Boolean(before.required) !== Boolean(after.required)) {
    out.push({ kind: 'required_changed', ...base, breaking: false, message: after.required ? `${label} is now required` : `${label} is no longer required` });
  }
  const beforeCondition: Condition | null = before.visibleIf ?? null;
  const afterCondition: Condition | null = after.visibleIf ?? null;
  if (!same(beforeCondition, afterCondition)) {
    const message =
      afterCondition === null
        ? `${label} is now always shown`
        : beforeCondition === null
          ? `${label} is now shown only under a condition`
          : `Changed when ${label} is shown`;
    out.push({ kind: 'condition_changed', ...base, breaking: false, message });
  }
  const list = (element: FormElement, key: 'options' | 'rows' | 'columns'): FormOption[] | undefined => {
    const value = settingOf(element, key);
    return Array.isArray(value) ? (value as FormOption[]) : undefined;
  };
  for (const [key, noun] of [
    ['options', 'option'],
    ['rows', 'row'],
    ['columns', 'column'],
  ] as const) {
    const a = list(before, key);
    const b = list(after, key);
    if (a !== undefined && b !== undefined) diffItems(noun, a, b, after, pageId, out);
  }
  if (!sameType) return;

  const hadOther = settingOf(before, 'allowOther') === true;
  const hasOther = settingOf(after, 'allowOther') === true;
  if (hadOther && !hasOther) out.push({ kind: 'option_removed', ...base, breaking: true, message: `Removed the "Other" choice from ${label}` });
  if (!hadOther && hasOther) out.push({ kind: 'option_added', ...base, breaking: false, message: `Added an "Other" choice to ${label}` });

  const handled = new Set(OWN_KEYS);
  for (const range of RANGES[after.type] ?? []) {
    const [minKey, maxKey] = range.keys;
    handled.add(minKey);
    handled.add(maxKey);
    const oldMin = numberOrString(settingOf(before, minKey));
    const oldMax = numberOrString(settingOf(before, maxKey));
    const newMin = numberOrString(settingOf(after, minKey));
    const newMax = numberOrString(settingOf(after, maxKey));
    if (oldMin !== newMin || oldMax !== newMax) {
      out.push({
        kind: 'range_changed',
        ...base,
        breaking: range.breaking,
        message: `Changed ${range.what} ${label} from ${bounds(oldMin, oldMax)} to ${bounds(newMin, newMax)}`,
      });
    }
  }
  if (after.type === 'rating' && before.type === 'rating') {
    handled.add('max');
    if (before.max !== after.max)
      out.push({ kind: 'range_changed', ...base, breaking: true, message: `Changed the maximum rating of ${label} from ${before.max} to ${after.max}` });
  }
  if (after.type === 'matrix' && before.type === 'matrix') {
    handled.add('multiple');
    if (Boolean(before.multiple) !== Boolean(after.multiple)) {
      out.push({
        kind: 'settings_changed',
        ...base,
        breaking: true,
        message: after.multiple ? `${label} now takes several columns per row` : `${label} now takes one column per row`,
      });
    }
  }
  const keys = new Set([...Object.keys(before), ...Object.keys(after)].filter((key) => !handled.has(key)));
  const changed = [...keys].filter((key) => !same(settingOf(before, key), settingOf(after, key)));
  if (changed.length > 0) {
    out.push({ kind: 'settings_changed', ...base, breaking: false, message: `Changed the settings of ${label}: ${changed.join(', ')}` });
  }
}

function diffPage(before: FormPage, after: FormPage, out: FormChange[]): void {
  const base = { pageId: after.id, breaking: false, kind: 'page_changed' as const };
  const label = pageLabel(after);
  if ((before.title ?? '') !== (after.title ?? ''))
    out.push({ ...base, message: `Renamed page ${quote(after.id)}: ${quote(shortTitle(before.title))} → ${quote(shortTitle(after.title))}` });
  if ((before.description ?? '') !== (after.description ?? '')) out.push({ ...base, message: `Changed the description of ${label}` });
  const a = before.visibleIf ?? null;
  const b = after.visibleIf ?? null;
  if (!same(a, b)) {
    out.push({
      ...base,
      message: b === null ? `${label} is now always shown` : a === null ? `${label} is now shown only under a condition` : `Changed when ${label} is shown`,
    });
  }
}

/**
 * Every change from `previous` to `next`, elements and pages matched by id: the form's title and
 * description, pages removed/added/changed/moved, then elements removed, and for each element in
 * its new order: added, moved (to another page, or out of its order among the elements both
 * versions have), type, title, required, condition, options/rows/columns, ranges and other
 * settings. Each says whether it is breaking (see the module comment).
 */
export function diffDefinitions(previous: FormDefinition, next: FormDefinition): FormChange[] {
  const out: FormChange[] = [];
  if (previous.title !== next.title) {
    out.push({ kind: 'title_changed', breaking: false, message: `Renamed the form: ${quote(shortTitle(previous.title))} → ${quote(shortTitle(next.title))}` });
  }
  if ((previous.description ?? '') !== (next.description ?? '')) {
    out.push({ kind: 'settings_changed', breaking: false, message: 'Changed the form’s description' });
  }

  const pagesBefore = new Map(previous.pages.map((page) => [page.id, page]));
  const pagesAfter = new Map(next.pages.map((page) => [page.id, page]));
  for (const page of previous.pages) {
    if (!pagesAfter.has(page.id)) out.push({ kind: 'page_removed', pageId: page.id, breaking: false, message: `Removed ${pageLabel(page)}` });
  }
  const pageOrder = keptInOrder(
    previous.pages.filter((page) => pagesAfter.has(page.id)).map((page) => page.id),
    next.pages.filter((page) => pagesBefore.has(page.id)).map((page) => page.id),
  );
  for (const page of next.pages) {
    const old = pagesBefore.get(page.id);
    if (old === undefined) {
      out.push({ kind: 'page_added', pageId: page.id, breaking: false, message: `Added ${pageLabel(page)}` });
      continue;
    }
    if (!pageOrder.has(page.id)) out.push({ kind: 'page_changed', pageId: page.id, breaking: false, message: `Moved ${pageLabel(page)}` });
    diffPage(old, page, out);
  }

  const before = allElements(previous.pages);
  const after = allElements(next.pages);
  const byIdBefore = new Map(before.map((entry) => [entry.element.id, entry]));
  const byIdAfter = new Map(after.map((entry) => [entry.element.id, entry]));
  for (const { element, pageId } of before) {
    if (!byIdAfter.has(element.id))
      out.push({ kind: 'element_removed', elementId: element.id, pageId, breaking: true, message: `Removed ${elementLabel(element)}` });
  }
  const order = keptInOrder(
    before.filter((entry) => byIdAfter.has(entry.element.id)).map((entry) => entry.element.id),
    after.filter((entry) => byIdBefore.has(entry.element.id)).map((entry) => entry.element.id),
  );
  for (const { element, pageId } of after) {
    const old = byIdBefore.get(element.id);
    if (old === undefined) {
      out.push({ kind: 'element_added', elementId: element.id, pageId, breaking: false, message: `Added ${elementLabel(element)}` });
      continue;
    }
    if (old.pageId !== pageId) {
      const page = pagesAfter.get(pageId);
      out.push({
        kind: 'element_moved',
        elementId: element.id,
        pageId,
        breaking: false,
        message: `Moved ${elementLabel(element)} to ${page ? pageLabel(page) : quote(pageId)}`,
      });
    } else if (!order.has(element.id)) {
      out.push({ kind: 'element_moved', elementId: element.id, pageId, breaking: false, message: `Moved ${elementLabel(element)}` });
    }
    diffElement(old.element, element, pageId, out);
  }
  return out;
}

/** Only the breaking changes of a diff. */
export function breakingChanges(changes: readonly FormChange[]): FormChange[] {
  return changes.filter((change) => change.breaking);
}
