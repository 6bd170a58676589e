/**
 * Publish-time checks: `formDefinitionSchema` (every element of a known type with well-typed
 * settings) plus the cross-element rules (unique ids, conditions on earlier elements only,
 * min ≤ max, …) and nothing a participant would see blank (a question without a title, an option,
 * row or column without a label or with another's label, an empty list of options, an empty
 * consent, statement or page). The one check of the builder, its import, and the server's publish:
 * only a definition that passes becomes a version (versions published before a rule existed stay
 * as they are). Every problem is reported at once, keyed by the element or page it is about
 * (`"form"` for the form itself), and every message starts with that id in quotes so a person can
 * find it: `"what": the condition refers to "later", which comes after it`.
 *
 * The rules run on the raw draft, so a draft with an unknown type or a mistyped setting still
 * gets all its other problems reported.
 */
import type { z } from 'zod';
import {
  CONDITION_OPS,
  CONDITION_OPS_BY_TYPE,
  FORM_PROBLEMS_KEY,
  FORM_LIMITS,
  SCALE_DEFAULT_STEP,
  VALUELESS_OPS,
  isCalendarDate,
  isElementType,
} from './constants.ts';
import type { ConditionOp, ElementType } from './constants.ts';
import { formDefinitionSchema } from './definition.ts';
import type { FormDefinition } from './definition.ts';
import { translationProblems } from './translations.ts';
import { isOnStep } from './validate.ts';

/** The result of `checkForPublish`. */
export interface PublishCheck {
  /** The parsed definition, only when there are no problems. */
  definition: FormDefinition | null;
  /** Messages keyed by element id, page id, or `"form"` for form-level ones. */
  problems: Record<string, string[]>;
}

type Raw = Record<string, unknown>;

function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const quote = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** Collects messages per key, without repeats. */
class Problems {
  readonly record: Record<string, string[]> = {};
  add(key: string, message: string): void {
    const list = Object.hasOwn(this.record, key) ? (this.record[key] as string[]) : [];
    if (!list.includes(message)) list.push(message);
    Object.defineProperty(this.record, key, { value: list, enumerable: true, writable: true, configurable: true });
  }
  has(key: string): boolean {
    return Object.hasOwn(this.record, key);
  }
  get empty(): boolean {
    return Object.keys(this.record).length === 0;
  }
}

/** One element of the draft as found, however malformed its settings. */
interface DraftItem {
  raw: Raw;
  /** The problems key: its id, or its position when it has none. */
  key: string;
  id: string | null;
  type: ElementType | null;
  pageIndex: number;
  index: number;
}

interface DraftPage {
  raw: Raw;
  key: string;
  id: string | null;
  index: number;
}

function idOf(raw: unknown): string | null {
  return isRaw(raw) && typeof raw.id === 'string' && raw.id !== '' ? raw.id : null;
}

function pagesOf(draft: unknown): unknown[] {
  return isRaw(draft) && Array.isArray(draft.pages) ? draft.pages : [];
}

function elementKey(draft: unknown, pageIndex: number, elementIndex: number): string {
  const page = pagesOf(draft)[pageIndex];
  const element = isRaw(page) && Array.isArray(page.elements) ? page.elements[elementIndex] : undefined;
  return idOf(element) ?? `pages[${pageIndex}].elements[${elementIndex}]`;
}

function pageKey(draft: unknown, pageIndex: number): string {
  return idOf(pagesOf(draft)[pageIndex]) ?? `pages[${pageIndex}]`;
}

function readDraft(draft: unknown): { pages: DraftPage[]; elements: DraftItem[] } {
  const pages: DraftPage[] = [];
  const elements: DraftItem[] = [];
  pagesOf(draft).forEach((page, pageIndex) => {
    if (!isRaw(page)) return;
    pages.push({ raw: page, key: pageKey(draft, pageIndex), id: idOf(page), index: pageIndex });
    if (!Array.isArray(page.elements)) return;
    page.elements.forEach((element, elementIndex) => {
      if (!isRaw(element)) return;
      const type = typeof element.type === 'string' && isElementType(element.type) ? element.type : null;
      elements.push({ raw: element, key: elementKey(draft, pageIndex, elementIndex), id: idOf(element), type, pageIndex, index: elements.length });
    });
  });
  return { pages, elements };
}

// ---------------------------------------------------------------------------------------------
// zod issues → messages

/** What the per-parse error map returns: "no message of the schema's own; describe it here". */
const DEFAULT_MESSAGE = '\u0000default';

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = root;
  for (const part of path) {
    if (Array.isArray(node) && typeof part === 'number') node = node[part];
    else if (isRaw(node) && typeof part === 'string') node = Object.hasOwn(node, part) ? node[part] : undefined;
    else return undefined;
  }
  return node;
}

const EXPECTED: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** A predicate for an issue zod gave no message of the schema's own ("must be a number", …). */
function describeIssue(issue: z.core.$ZodIssue, input: unknown, where: 'form' | 'page' | 'element'): string {
  switch (issue.code) {
    case 'invalid_type':
      return input === undefined ? 'is missing' : `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
    case 'too_big': {
      const limit = String(issue.maximum);
      if (issue.origin === 'array') return `must have at most ${limit} items`;
      if (issue.origin === 'string') return `must be at most ${limit} characters`;
      return issue.inclusive === false ? `must be less than ${limit}` : `must be at most ${limit}`;
    }
    case 'too_small': {
      const limit = String(issue.minimum);
      if (issue.origin === 'array') return issue.minimum === 1 ? 'must not be empty' : `must have at least ${limit} items`;
      if (issue.origin === 'string') return `must be at least ${limit} characters`;
      return issue.inclusive === false ? `must be more than ${limit}` : `must be at least ${limit}`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${quote(issue.values[0])}` : `must be one of ${issue.values.map(quote).join(', ')}`;
    case 'unrecognized_keys': {
      const noun = where === 'element' ? 'setting' : 'key';
      return issue.keys.length === 1 ? `unknown ${noun} ${quote(issue.keys[0])}` : `unknown ${noun}s ${issue.keys.map(quote).join(', ')}`;
    }
    case 'invalid_format':
      return 'is not in the right format';
    default:
      return 'is not valid';
  }
}

/** Reports zod's issues; returns the keys whose conditions zod found malformed. */
function reportSchemaIssues(draft: unknown, issues: readonly z.core.$ZodIssue[], problems: Problems): Set<string> {
  const badConditions = new Set<string>();
  for (const issue of issues) {
    const path = issue.path;
    let key: string = FORM_PROBLEMS_KEY;
    let rest: readonly PropertyKey[] = path;
    let where: 'form' | 'page' | 'element' = 'form';
    if (path[0] === 'pages' && typeof path[1] === 'number') {
      if (path[2] === 'elements' && typeof path[3] === 'number') {
        key = elementKey(draft, path[1], path[3]);
        rest = path.slice(4);
        where = 'element';
      } else {
        key = pageKey(draft, path[1]);
        rest = path.slice(2);
        where = 'page';
      }
    }
    // Conditions get their own, more precise messages from checkCondition.
    if (rest.includes('visibleIf')) {
      badConditions.add(key);
      continue;
    }
    let message: string;
    if (issue.code === 'invalid_union' && issue.discriminator === 'type' && where === 'element') {
      const type = valueAt(draft, path);
      message = typeof type === 'string' ? `unknown type ${quote(type)}` : type === undefined ? 'the element has no type' : 'the type must be text';
    } else if (issue.message === DEFAULT_MESSAGE) {
      const predicate = describeIssue(issue, valueAt(draft, path), where);
      const subject = rest.length > 0 ? pathText(rest) : issue.code === 'unrecognized_keys' ? '' : `the ${where}`;
      message = subject === '' ? predicate : `${subject} ${predicate}`;
    } else {
      message = rest.length === 0 ? issue.message : `${pathText(rest)}: ${issue.message}`;
    }
    problems.add(key, where === 'form' ? message : `${quote(key)}: ${message}`);
  }
  return badConditions;
}

// ---------------------------------------------------------------------------------------------
// Cross-element rules

const num = (raw: Raw, key: string): number | undefined => (typeof raw[key] === 'number' && Number.isFinite(raw[key]) ? raw[key] : undefined);
const str = (raw: Raw, key: string): string | undefined => (typeof raw[key] === 'string' ? raw[key] : undefined);
const list = (raw: Raw, key: string): unknown[] | undefined => (Array.isArray(raw[key]) ? raw[key] : undefined);

/** True for a string with nothing but white space: what a person sees as empty. */
const isBlank = (value: unknown): boolean => typeof value === 'string' && value.trim() === '';

/**
 * Ids of a list of `{ id, label }` items, reporting an empty list, repeated ids, items without a
 * label (a blank radio button) and two items with the same label (which a person cannot tell
 * apart). Items are named by their position, as the builder lists them: "option 2".
 */
function checkItems(item: DraftItem, setting: string, noun: string, problems: Problems): string[] {
  const items = list(item.raw, setting);
  if (items === undefined) return [];
  const say = (message: string) => problems.add(item.key, `${quote(item.key)}: ${message}`);
  if (items.length === 0) say(`add at least one ${noun}`);
  const ids: string[] = [];
  const labels = new Map<string, number>();
  items.forEach((entry, index) => {
    const id = idOf(entry);
    if (id !== null) {
      if (ids.includes(id)) say(`${noun} id ${quote(id)} is used more than once`);
      ids.push(id);
    }
    const label = isRaw(entry) ? entry.label : undefined;
    if (isBlank(label)) say(`${noun} ${index + 1} has no label`);
    else if (typeof label === 'string') {
      const same = label.trim().toLocaleLowerCase();
      const first = labels.get(same);
      if (first === undefined) labels.set(same, index);
      else say(`${noun}s ${first + 1} and ${index + 1} have the same label ${quote(label.trim())}`);
    }
  });
  return ids;
}

/** What a participant would see as blank: a question without a title, a consent with nothing to tick, an empty statement. */
function checkTexts(item: DraftItem, problems: Problems): void {
  const { raw, type } = item;
  if (type === null) return;
  const say = (message: string) => problems.add(item.key, `${quote(item.key)}: ${message}`);
  if (type === 'statement') {
    const hasBody = typeof raw.body === 'string' && !isBlank(raw.body);
    if (isBlank(raw.title) && !hasBody) say('the statement has neither a title nor a text');
    return;
  }
  if (isBlank(raw.title)) say('the question has no title');
  if (type === 'consent' && isBlank(raw.statement)) say('the statement to tick is empty');
}

function checkSettings(item: DraftItem, problems: Problems): void {
  const { raw, type } = item;
  const say = (message: string) => problems.add(item.key, `${quote(item.key)}: ${message}`);
  const order = (minKey: string, maxKey: string, min: number | undefined, max: number | undefined, maxIsDefault = false) => {
    if (min !== undefined && max !== undefined && min > max) {
      say(maxIsDefault ? `${minKey} (${min}) is greater than the default ${maxKey} (${max})` : `${minKey} (${min}) is greater than ${maxKey} (${max})`);
    }
  };
  switch (type) {
    case 'short_text':
    case 'long_text': {
      const max = num(raw, 'maxLength');
      const fallback = type === 'short_text' ? FORM_LIMITS.shortTextDefaultMax : FORM_LIMITS.longTextDefaultMax;
      order('minLength', 'maxLength', num(raw, 'minLength'), max ?? fallback, max === undefined);
      if (max === 0) say('maxLength must be at least 1');
      break;
    }
    case 'multiple_choice': {
      const options = checkItems(item, 'options', 'option', problems);
      const min = num(raw, 'minSelected');
      const max = num(raw, 'maxSelected');
      order('minSelected', 'maxSelected', min, max);
      const available = (list(raw, 'options')?.length ?? 0) + (raw.allowOther === true ? 1 : 0);
      if (max === 0) say('maxSelected must be at least 1');
      if (max !== undefined && max > available) say(`maxSelected (${max}) is more than the number of options (${available})`);
      if (min !== undefined && min > available && (max === undefined || min <= max))
        say(`minSelected (${min}) is more than the number of options (${available})`);
      for (const id of list(raw, 'exclusive') ?? []) {
        if (typeof id === 'string' && !options.includes(id)) say(`exclusive option ${quote(id)} is not one of its options`);
      }
      break;
    }
    case 'single_choice':
    case 'dropdown':
    case 'ranking':
      checkItems(item, 'options', 'option', problems);
      break;
    case 'matrix':
      checkItems(item, 'rows', 'row', problems);
      checkItems(item, 'columns', 'column', problems);
      break;
    case 'scale': {
      const min = num(raw, 'min');
      const max = num(raw, 'max');
      const step = num(raw, 'step') ?? SCALE_DEFAULT_STEP;
      if (min !== undefined && max !== undefined) {
        if (min >= max) say(`min (${min}) must be less than max (${max})`);
        else if (step > 0 && !isOnStep(max, min, step)) say(`the step (${step}) does not divide the range ${min} to ${max}`);
        else if (step > 0 && (max - min) / step > 1000) say(`the scale from ${min} to ${max} in steps of ${step} has more than 1000 points`);
      }
      break;
    }
    case 'number':
      order('min', 'max', num(raw, 'min'), num(raw, 'max'));
      break;
    case 'date': {
      const min = str(raw, 'minDate');
      const max = str(raw, 'maxDate');
      for (const [name, bound] of [
        ['minDate', min],
        ['maxDate', max],
      ] as const) {
        if (bound !== undefined && bound !== 'today' && /^\d{4}-\d{2}-\d{2}$/.test(bound) && !isCalendarDate(bound))
          say(`${name} ${quote(bound)} is not a real date`);
      }
      if (min !== undefined && max !== undefined && isCalendarDate(min) && isCalendarDate(max) && min > max) say(`minDate (${min}) is after maxDate (${max})`);
      break;
    }
    case 'photo':
    case 'video':
      order('minFiles', 'maxFiles', num(raw, 'minFiles'), num(raw, 'maxFiles'));
      break;
    default:
      break;
  }
}

/** A page with no elements is a blank page between the others. */
function checkPages(pages: DraftPage[], problems: Problems): void {
  for (const page of pages) {
    if (Array.isArray(page.raw.elements) && page.raw.elements.length === 0)
      problems.add(page.key, `${quote(page.key)}: the page is empty; add a question or delete the page`);
  }
}

function checkIds(pages: DraftPage[], elements: DraftItem[], problems: Problems): void {
  const elementIds = new Map<string, number>();
  for (const item of elements) if (item.id !== null) elementIds.set(item.id, (elementIds.get(item.id) ?? 0) + 1);
  const pageIds = new Map<string, number>();
  for (const page of pages) if (page.id !== null) pageIds.set(page.id, (pageIds.get(page.id) ?? 0) + 1);
  for (const [id, count] of elementIds) if (count > 1) problems.add(id, `${quote(id)}: ${count} elements have this id; each needs its own`);
  for (const [id, count] of pageIds) {
    if (count > 1) problems.add(id, `${quote(id)}: ${count} pages have this id; each needs its own`);
    if (elementIds.has(id)) problems.add(id, `${quote(id)}: a page and an element have this id; each needs its own`);
  }
}

interface ConditionOwner {
  key: string;
  /** Elements it may refer to: those before `index` (an element) or on pages before `pageIndex` (a page). */
  kind: 'element' | 'page';
  index: number;
  pageIndex: number;
}

/** Checks one condition value against the referenced element; returns a problem or null. */
function valueProblem(target: DraftItem, op: ConditionOp, value: unknown): string | null {
  const ref = quote(target.id);
  const type = target.type as ElementType;
  const valueless = VALUELESS_OPS.includes(op);
  if (valueless) return value === undefined ? null : `the condition's ${quote(op)} on ${ref} takes no value`;
  if (value === undefined) return `the condition's ${quote(op)} on ${ref} needs a value`;
  const options = (list(target.raw, 'options') ?? []).map(idOf).filter((id): id is string => id !== null);
  const many = op === 'in' || op === 'includes_any' || op === 'includes_all';
  const values: unknown[] = Array.isArray(value) ? value : [value];
  if (op === 'in' && !Array.isArray(value)) return `the condition's ${quote(op)} on ${ref} needs a list of values`;
  if (!many && Array.isArray(value)) return `the condition's ${quote(op)} on ${ref} needs a single value, not a list`;
  if (many && values.length === 0) return `the condition's ${quote(op)} on ${ref} needs at least one value`;
  for (const item of values) {
    switch (type) {
      case 'short_text':
      case 'long_text':
        if (typeof item !== 'string') return `the condition compares ${ref} with ${quote(item)}, which is not text`;
        break;
      case 'single_choice':
      case 'dropdown':
      case 'multiple_choice':
        if (typeof item !== 'string' || !options.includes(item)) return `the condition compares ${ref} with ${quote(item)}, which is not one of its options`;
        break;
      case 'rating':
      case 'scale':
      case 'number':
        if (typeof item !== 'number') return `the condition compares ${ref} with ${quote(item)}, which is not a number`;
        break;
      case 'date':
        if (typeof item !== 'string' || (item !== 'today' && !isCalendarDate(item)))
          return `the condition compares ${ref} with ${quote(item)}, which is not a date (YYYY-MM-DD or "today")`;
        break;
      case 'consent':
        if (typeof item !== 'boolean') return `the condition compares ${ref} with ${quote(item)}; use true or false`;
        break;
      default:
        break;
    }
  }
  return null;
}

const VALUE_OK = (value: unknown): boolean =>
  value === undefined ||
  (typeof value === 'string' && value.length <= 1000) ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  typeof value === 'boolean' ||
  (Array.isArray(value) &&
    value.length <= FORM_LIMITS.maxOptions &&
    value.every((item) => (typeof item === 'string' && item.length <= 1000) || (typeof item === 'number' && Number.isFinite(item))));

/** Walks a condition: its shape, its depth, and what each `ref` points at. */
function checkCondition(condition: unknown, owner: ConditionOwner, byId: Map<string, DraftItem>, pageIds: Set<string>, problems: Problems): void {
  const say = (message: string) => problems.add(owner.key, `${quote(owner.key)}: ${message}`);
  let tooDeep = false;
  const walk = (node: unknown, depth: number): void => {
    if (!isRaw(node)) {
      say('the condition has a part that is not a condition');
      return;
    }
    const keys = Object.keys(node);
    const group = (['all', 'any', 'not'] as const).find((name) => Object.hasOwn(node, name));
    if (group !== undefined) {
      if (depth + 1 > FORM_LIMITS.conditionDepth) {
        if (!tooDeep) say(`the condition is nested more than ${FORM_LIMITS.conditionDepth} levels deep`);
        tooDeep = true;
        return;
      }
      const extra = keys.filter((key) => key !== group);
      if (extra.length > 0) say(`the condition mixes ${quote(group)} with ${extra.map(quote).join(', ')}`);
      if (group === 'not') {
        walk(node.not, depth + 1);
        return;
      }
      const parts = node[group];
      if (!Array.isArray(parts)) {
        say(`the condition's ${quote(group)} must be a list of conditions`);
        return;
      }
      if (parts.length === 0) say(`the condition has an empty ${quote(group)}`);
      if (parts.length > 50) say(`the condition's ${quote(group)} has more than 50 parts`);
      for (const part of parts) walk(part, depth + 1);
      return;
    }
    if (!Object.hasOwn(node, 'ref')) {
      say('the condition needs "all", "any", "not" or "ref"');
      return;
    }
    const extra = keys.filter((key) => key !== 'ref' && key !== 'op' && key !== 'value');
    if (extra.length > 0) say(`the condition has unknown ${extra.length === 1 ? 'key' : 'keys'} ${extra.map(quote).join(', ')}`);
    const { ref, op, value } = node;
    const valueOk = VALUE_OK(value);
    if (!valueOk) say(`the condition's value must be text, a number, true or false, or a list of texts and numbers`);
    const knownOp = typeof op === 'string' && (CONDITION_OPS as readonly string[]).includes(op);
    if (!knownOp) say(op === undefined ? 'the condition has no op' : `the condition has an unknown op ${quote(op)}`);
    if (typeof ref !== 'string') {
      say('the condition\'s "ref" must be an element id');
      return;
    }
    const target = byId.get(ref);
    if (target === undefined) {
      say(
        pageIds.has(ref)
          ? `the condition refers to ${quote(ref)}, which is a page, not an element`
          : `the condition refers to ${quote(ref)}, which does not exist`,
      );
      return;
    }
    if (owner.kind === 'element') {
      if (target.index === owner.index) {
        say('the condition refers to the element itself');
        return;
      }
      if (target.index > owner.index) {
        say(`the condition refers to ${quote(ref)}, which comes after it`);
        return;
      }
    } else if (target.pageIndex >= owner.pageIndex) {
      say(`the condition refers to ${quote(ref)}, which is not on an earlier page`);
      return;
    }
    if (target.type === null || !knownOp || !valueOk) return;
    if (target.type === 'statement') {
      say(`the condition refers to ${quote(ref)}, a statement, which takes no answer`);
      return;
    }
    if (!CONDITION_OPS_BY_TYPE[target.type].includes(op as ConditionOp)) {
      say(`the condition's ${quote(op)} does not apply to ${quote(ref)} (${target.type}); use ${CONDITION_OPS_BY_TYPE[target.type].map(quote).join(', ')}`);
      return;
    }
    const problem = valueProblem(target, op as ConditionOp, value);
    if (problem !== null) say(problem);
  };
  walk(condition, 0);
}

function checkConditions(pages: DraftPage[], elements: DraftItem[], badConditions: Set<string>, problems: Problems): void {
  const byId = new Map<string, DraftItem>();
  for (const item of elements) if (item.id !== null && !byId.has(item.id)) byId.set(item.id, item);
  const pageIds = new Set(pages.flatMap((page) => (page.id === null ? [] : [page.id])));
  const run = (condition: unknown, owner: ConditionOwner) => {
    if (condition === undefined || condition === null) return;
    const before = problems.record[owner.key]?.length ?? 0;
    checkCondition(condition, owner, byId, pageIds, problems);
    const after = problems.record[owner.key]?.length ?? 0;
    // zod found something the walk did not put in words: say so rather than nothing.
    if (badConditions.has(owner.key) && after === before) problems.add(owner.key, `${quote(owner.key)}: the condition is not valid`);
  };
  for (const page of pages) run(page.raw.visibleIf, { key: page.key, kind: 'page', index: -1, pageIndex: page.index });
  for (const item of elements) run(item.raw.visibleIf, { key: item.key, kind: 'element', index: item.index, pageIndex: item.pageIndex });
}

/**
 * Checks a draft for publishing: the strict schema and every cross-element rule. `definition` is
 * the parsed definition when there are no problems, else null.
 */
export function checkForPublish(draft: unknown): PublishCheck {
  const problems = new Problems();
  const parsed = formDefinitionSchema.safeParse(draft, { error: () => DEFAULT_MESSAGE });
  const badConditions = parsed.success ? new Set<string>() : reportSchemaIssues(draft, parsed.error.issues, problems);
  const { pages, elements } = readDraft(draft);
  if (elements.length > FORM_LIMITS.maxElements)
    problems.add(FORM_PROBLEMS_KEY, `the form has ${elements.length} elements; ${FORM_LIMITS.maxElements} at most`);
  checkIds(pages, elements, problems);
  checkPages(pages, problems);
  for (const item of elements) {
    checkTexts(item, problems);
    checkSettings(item, problems);
  }
  checkConditions(pages, elements, badConditions, problems);
  for (const message of translationProblems(draft)) problems.add(FORM_PROBLEMS_KEY, message);
  return { definition: parsed.success && problems.empty ? parsed.data : null, problems: problems.record };
}
