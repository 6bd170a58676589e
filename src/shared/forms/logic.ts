/**
 * Conditions and visibility: which pages and elements a respondent sees for given answers.
 * Pure and zod-free (the browser's renderer bundles it); the server runs the same code.
 *
 * Visibility is worked out in document order: a condition sees only the answers of elements that
 * are visible themselves, so a stale answer of an element that has since been hidden never shows
 * or hides anything further on.
 */
import { utcDate } from '../calendar-day.ts';
import { ANSWERLESS_TYPES } from './constants.ts';
import type { AnswerValue, Answers, Condition, ConditionValue, FormDefinition, FormElement, FormPage, OtherAnswer } from './definition.ts';

/** Options of the condition and visibility functions. */
export interface LogicOptions {
  /** The respondent's day (`YYYY-MM-DD`) that `"today"` in a condition stands for (default: today in UTC). */
  today?: string;
}

/** Nesting beyond this is treated as false (published forms allow 8 levels; this guards drafts). */
const MAX_EVALUATION_DEPTH = 64;

/** True for a non-null object that is not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for an `{ "other": "text" }` answer (the "Other" choice with its text). */
export function isOtherAnswer(value: unknown): value is OtherAnswer {
  return isPlainObject(value) && Object.keys(value).length === 1 && typeof value.other === 'string';
}

/** The answer stored under `id`, read as an own property only (an element may be called `constructor`). */
export function answerOf(answers: Answers, id: string): AnswerValue | undefined {
  return Object.hasOwn(answers, id) ? answers[id] : undefined;
}

/** Sets an own, enumerable property, even one named `__proto__` (answers of drafts may use any key). */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function answeredPart(value: unknown, depth: number): boolean {
  if (value === undefined || value === null || depth > 3) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value === 'number') return !Number.isNaN(value);
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.some((item) => answeredPart(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).some((part) => answeredPart(part, depth + 1));
  return false;
}

/**
 * Whether a value counts as an answer. Not answered: missing, `null`, blank strings, `false` (an
 * unticked consent), and arrays and objects with nothing answered inside (`[]`, `[""]`, an empty
 * matrix `{}` or `{ "row": [] }`, `{ "other": "" }`). Everything else counts, wrong-typed values
 * included (the validator flags those).
 */
export function isAnswered(value: AnswerValue | undefined): boolean {
  return answeredPart(value, 0);
}

/** `eq` between an answer and a condition value: true, false, or null when they cannot be compared. */
function equals(answer: unknown, expected: unknown, today: string): boolean | null {
  if (typeof answer === 'string' && typeof expected === 'string') {
    return answer.trim() === (expected === 'today' ? today : expected);
  }
  if (typeof answer === 'number' && typeof expected === 'number') return answer === expected;
  if (typeof answer === 'boolean' && typeof expected === 'boolean') return answer === expected;
  // "Other" is never one of the options.
  if (isOtherAnswer(answer) && (typeof expected === 'string' || typeof expected === 'number')) return false;
  if (Array.isArray(answer) && Array.isArray(expected)) {
    const chosen = new Set(answer.filter((item): item is string => typeof item === 'string'));
    const wanted = new Set(expected.map(String));
    if (chosen.size !== answer.length) return false;
    return chosen.size === wanted.size && [...wanted].every((id) => chosen.has(id));
  }
  return null;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Order of an answer against a condition value (numbers, or ISO dates with `"today"`); null when not comparable. */
function compare(answer: unknown, expected: unknown, today: string): number | null {
  if (typeof answer === 'number' && typeof expected === 'number') return answer - expected;
  if (typeof answer === 'string' && typeof expected === 'string') {
    const left = answer.trim();
    const right = expected === 'today' ? today : expected;
    if (!ISO_DATE.test(left) || !ISO_DATE.test(right)) return null;
    return left < right ? -1 : left > right ? 1 : 0;
  }
  return null;
}

function evaluateLeaf(ref: unknown, op: unknown, expected: ConditionValue | undefined, answers: Answers, today: string): boolean {
  if (typeof ref !== 'string') return false;
  const value = answerOf(answers, ref);
  if (op === 'answered') return isAnswered(value);
  if (op === 'not_answered') return !isAnswered(value);
  // Every other op needs an answer: an unanswered element is neither equal nor unequal to anything
  // (`{ "not": { …eq… } }` is the way to include unanswered ones).
  if (!isAnswered(value) || expected === undefined) return false;
  switch (op) {
    case 'eq':
      return equals(value, expected, today) === true;
    case 'neq':
      return equals(value, expected, today) === false;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const order = compare(value, expected, today);
      if (order === null || Number.isNaN(order)) return false;
      return op === 'gt' ? order > 0 : op === 'gte' ? order >= 0 : op === 'lt' ? order < 0 : order <= 0;
    }
    case 'in':
      if (!Array.isArray(expected) || Array.isArray(value)) return false;
      return expected.some((item) => equals(value, item, today) === true);
    case 'includes_any':
    case 'includes_all': {
      if (!Array.isArray(value)) return false;
      const chosen = new Set(value.filter((item): item is string => typeof item === 'string'));
      const wanted = (Array.isArray(expected) ? expected : [expected]).map(String);
      if (wanted.length === 0) return false;
      return op === 'includes_any' ? wanted.some((id) => chosen.has(id)) : wanted.every((id) => chosen.has(id));
    }
    default:
      return false;
  }
}

function evaluate(condition: unknown, answers: Answers, today: string, depth: number): boolean {
  if (depth > MAX_EVALUATION_DEPTH || !isPlainObject(condition)) return false;
  if ('all' in condition) return Array.isArray(condition.all) && condition.all.every((part) => evaluate(part, answers, today, depth + 1));
  if ('any' in condition) return Array.isArray(condition.any) && condition.any.some((part) => evaluate(part, answers, today, depth + 1));
  if ('not' in condition) return !evaluate(condition.not, answers, today, depth + 1);
  if ('ref' in condition) return evaluateLeaf(condition.ref, condition.op, condition.value as ConditionValue | undefined, answers, today);
  return false;
}

/**
 * Whether a condition holds for these answers; no condition (null/undefined) holds.
 * `all` of nothing holds, `any` of nothing does not. Every op except `answered`/`not_answered` is
 * false while its element is unanswered, and false when the answer and value cannot be compared
 * (a text against a number, an array against `gt`, …). `"today"` as a value stands for
 * `options.today` (default: today in UTC) when compared with a date answer.
 */
export function evaluateCondition(condition: Condition | null | undefined, answers: Answers, options: LogicOptions = {}): boolean {
  if (condition === null || condition === undefined) return true;
  return evaluate(condition, answers, options.today ?? utcDate(), 0);
}

/** Whether an element type takes an answer (a statement does not). */
export function isAnswerable(element: Pick<FormElement, 'type'>): boolean {
  return !ANSWERLESS_TYPES.includes(element.type);
}

/** The result of `resolveVisibility`. */
export interface Visibility {
  /** Visible pages in order. */
  pages: FormPage[];
  /** Ids of visible elements (statements included) on visible pages. */
  elementIds: Set<string>;
  /** The answered values of visible, answerable elements, as given (no other keys). */
  answers: Answers;
}

/**
 * Works out pages and elements in document order. Each condition is evaluated against the
 * answers of elements that are visible (and come before it), so hiding an element also drops its
 * answer from every later condition. A hidden page hides all its elements.
 */
export function resolveVisibility(definition: FormDefinition, answers: Answers, options: LogicOptions = {}): Visibility {
  const today = options.today ?? utcDate();
  const source: Answers = isPlainObject(answers) ? answers : {};
  const seen: Answers = {};
  const pages: FormPage[] = [];
  const elementIds = new Set<string>();
  for (const page of definition.pages) {
    if (!evaluateCondition(page.visibleIf, seen, { today })) continue;
    pages.push(page);
    for (const element of page.elements) {
      if (!evaluateCondition(element.visibleIf, seen, { today })) continue;
      elementIds.add(element.id);
      if (!isAnswerable(element)) continue;
      const value = answerOf(source, element.id);
      if (value !== undefined && isAnswered(value)) setOwn(seen, element.id, value);
    }
  }
  return { pages, elementIds, answers: seen };
}

/** The pages a respondent sees for these answers, in order. */
export function visiblePages(definition: FormDefinition, answers: Answers, options: LogicOptions = {}): FormPage[] {
  return resolveVisibility(definition, answers, options).pages;
}

/** Ids of the visible elements (statements included); elements of hidden pages are hidden. */
export function visibleElementIds(definition: FormDefinition, answers: Answers, options: LogicOptions = {}): Set<string> {
  return resolveVisibility(definition, answers, options).elementIds;
}

/**
 * The answers worth keeping: only those of visible, answerable elements of this definition, and
 * only answered ones (blank strings, empty arrays and empty matrices are left out). Values are
 * not changed or checked (see `validateAnswers` for that).
 */
export function pruneHidden(definition: FormDefinition, answers: Answers, options: LogicOptions = {}): Answers {
  return resolveVisibility(definition, answers, options).answers;
}

/** The element with this id, or undefined. */
export function findElement(definition: FormDefinition, id: string): FormElement | undefined {
  for (const page of definition.pages) for (const element of page.elements) if (element.id === id) return element;
  return undefined;
}
