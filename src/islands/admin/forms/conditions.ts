/**
 * Conditions as the builder's editor sees them: a "simple rule" is all/any of rows
 * `(earlier element, op, value)`; anything else (nested groups, `not`, malformed JSON from an
 * import) is "complex" and shown read-only. Also the words for ops and the one-line summaries the
 * element cards show. Pure and zod-free.
 */
import { CONDITION_OPS_BY_TYPE, VALUELESS_OPS, isElementType, type ConditionOp, type ElementType } from '../../../shared/forms/constants.ts';
import type { Condition, ConditionValue, FormDraft } from '../../../shared/forms/definition.ts';
import type { Item } from './catalog.ts';
import { m } from '../../../shared/i18n.ts';

/** One row of a simple rule. */
export interface RuleRow {
  ref: string;
  op: ConditionOp;
  value?: ConditionValue;
}

/** all/any of rows. */
export interface SimpleRule {
  mode: 'all' | 'any';
  rows: RuleRow[];
}

/** What a condition owner is: an element or a page, by id. */
export interface ConditionTarget {
  kind: 'element' | 'page';
  id: string;
}

type Raw = Record<string, unknown>;
const isRaw = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

function isValue(value: unknown): value is ConditionValue {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  return Array.isArray(value) && value.every((item) => typeof item === 'string' || (typeof item === 'number' && Number.isFinite(item)));
}

function asRow(node: unknown): RuleRow | null {
  if (!isRaw(node) || typeof node.ref !== 'string' || typeof node.op !== 'string') return null;
  if (Object.keys(node).some((key) => key !== 'ref' && key !== 'op' && key !== 'value')) return null;
  const op = node.op as ConditionOp;
  if (!Object.values(CONDITION_OPS_BY_TYPE).some((ops) => ops.includes(op))) return null;
  if (node.value !== undefined && !isValue(node.value)) return null;
  return node.value === undefined ? { ref: node.ref, op } : { ref: node.ref, op, value: node.value };
}

/**
 * The simple rule a condition is, `null` for no condition, or `'complex'` when the editor cannot
 * show it (nested groups, `not`, unknown keys).
 */
export function toSimpleRule(condition: unknown): SimpleRule | null | 'complex' {
  if (condition === undefined || condition === null) return null;
  if (!isRaw(condition)) return 'complex';
  const single = asRow(condition);
  if (single) return { mode: 'all', rows: [single] };
  const keys = Object.keys(condition);
  if (keys.length !== 1) return 'complex';
  const mode = keys[0];
  if (mode !== 'all' && mode !== 'any') return 'complex';
  const parts = condition[mode];
  if (!Array.isArray(parts) || parts.length === 0) return 'complex';
  const rows: RuleRow[] = [];
  for (const part of parts) {
    const row = asRow(part);
    if (!row) return 'complex';
    rows.push(row);
  }
  return { mode, rows };
}

/** The condition a simple rule writes: one row alone, several in `all`/`any`, none → null. */
export function fromSimpleRule(rule: SimpleRule): Condition | null {
  const rows: Condition[] = rule.rows.map((row) =>
    row.value === undefined || VALUELESS_OPS.includes(row.op) ? { ref: row.ref, op: row.op } : { ref: row.ref, op: row.op, value: row.value },
  );
  if (rows.length === 0) return null;
  if (rows.length === 1) return rows[0] as Condition;
  return rule.mode === 'all' ? { all: rows } : { any: rows };
}

/** An element a condition may refer to, with what the editor needs of it. */
export interface Candidate {
  id: string;
  title: string;
  type: ElementType;
  options: Item[];
  /** Where it is, for the select: "Page 1". */
  pageNumber: number;
  min?: number;
  max?: number;
}

function itemsOf(value: unknown): Item[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is Item => isRaw(item) && typeof item.id === 'string' && typeof item.label === 'string');
}

/**
 * The elements a condition of `target` may use: for an element, the elements before it; for a
 * page, the elements of earlier pages. Statements and unknown types are left out (no answer).
 */
export function conditionCandidates(draft: FormDraft, target: ConditionTarget): Candidate[] {
  const out: Candidate[] = [];
  for (const [pageIndex, page] of draft.pages.entries()) {
    if (target.kind === 'page' && page.id === target.id) return out;
    for (const element of page.elements) {
      if (target.kind === 'element' && element.id === target.id) return out;
      if (!isElementType(element.type) || CONDITION_OPS_BY_TYPE[element.type].length === 0) continue;
      const raw = element as Raw;
      const candidate: Candidate = { id: element.id, title: element.title, type: element.type, options: itemsOf(raw.options), pageNumber: pageIndex + 1 };
      if (element.type === 'rating') {
        candidate.min = 1;
        if (typeof raw.max === 'number') candidate.max = raw.max;
      } else if (element.type === 'scale' || element.type === 'number') {
        if (typeof raw.min === 'number') candidate.min = raw.min;
        if (typeof raw.max === 'number') candidate.max = raw.max;
      }
      out.push(candidate);
    }
  }
  return out;
}

/** The ops in words (messages, called at render). */
const OP_WORDS: Record<ConditionOp, () => string> = {
  eq: m.forms_op_eq,
  neq: m.forms_op_neq,
  gt: m.forms_op_gt,
  gte: m.forms_op_gte,
  lt: m.forms_op_lt,
  lte: m.forms_op_lte,
  in: m.forms_op_in,
  includes_any: m.forms_op_includes_any,
  includes_all: m.forms_op_includes_all,
  answered: m.forms_op_answered,
  not_answered: m.forms_op_not_answered,
};

const DATE_WORDS: Partial<Record<ConditionOp, () => string>> = {
  gt: m.forms_op_date_gt,
  gte: m.forms_op_date_gte,
  lt: m.forms_op_date_lt,
  lte: m.forms_op_date_lte,
};

/** An op in words for an element of `type` ("is at least", "is before"). */
export function opLabel(op: ConditionOp, type?: string): string {
  if (type === 'date') return (DATE_WORDS[op] ?? OP_WORDS[op])();
  return OP_WORDS[op]();
}

/** The ops the editor offers for an element of `type`. */
export function opsFor(type: ElementType): readonly ConditionOp[] {
  return CONDITION_OPS_BY_TYPE[type];
}

/** A value that fits `op` on `candidate`, for a new row or after the op or element changed. */
export function defaultValue(candidate: Candidate, op: ConditionOp, today: string): ConditionValue | undefined {
  if (VALUELESS_OPS.includes(op)) return undefined;
  const many = op === 'in' || op === 'includes_any' || op === 'includes_all';
  switch (candidate.type) {
    case 'single_choice':
    case 'dropdown':
    case 'multiple_choice': {
      const first = candidate.options[0]?.id ?? '';
      return many ? (first ? [first] : []) : first;
    }
    case 'rating':
    case 'scale':
    case 'number':
      return candidate.min ?? 1;
    case 'date':
      return today;
    case 'consent':
      return true;
    default:
      return many ? [] : '';
  }
}

/** Keeps a row's value when it still fits its element and op, else a default one. */
export function fitRow(row: RuleRow, candidate: Candidate | undefined, today: string): RuleRow {
  if (!candidate) return row;
  const ops = opsFor(candidate.type);
  const op = ops.includes(row.op) ? row.op : (ops[0] as ConditionOp);
  const wanted = defaultValue(candidate, op, today);
  if (wanted === undefined) return { ref: row.ref, op };
  const value = row.value;
  const sameShape = value !== undefined && Array.isArray(value) === Array.isArray(wanted) && (Array.isArray(value) || typeof value === typeof wanted);
  if (!sameShape) return { ref: row.ref, op, value: wanted };
  if (candidate.options.length > 0 && candidate.type !== 'short_text' && candidate.type !== 'long_text') {
    const ids = new Set(candidate.options.map((option) => option.id));
    const fits = Array.isArray(value) ? value.every((item) => ids.has(String(item))) : ids.has(String(value));
    if (!fits) return { ref: row.ref, op, value: wanted };
  }
  return { ref: row.ref, op, value };
}

/** A new row on the last candidate (the nearest question before). */
export function newRow(candidates: readonly Candidate[], today: string): RuleRow | null {
  const last = candidates[candidates.length - 1];
  if (!last) return null;
  const op = opsFor(last.type)[0] as ConditionOp;
  const value = defaultValue(last, op, today);
  return value === undefined ? { ref: last.id, op } : { ref: last.id, op, value };
}

/** A name or value in the language's quotation marks. */
export const quote = (text: string): string => m.forms_quote({ text });

function valueWords(value: ConditionValue | undefined, element: { type: string; options: Item[] } | undefined): string {
  const one = (item: string | number | boolean): string => {
    if (typeof item === 'boolean') return item ? m.forms_condition_value_ticked() : m.forms_condition_value_not_ticked();
    const option = element?.options.find((candidate) => candidate.id === String(item));
    if (option) return quote(option.label);
    return typeof item === 'string' ? quote(item) : String(item);
  };
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.map(one).join(m.forms_list_separator());
  return one(value);
}

/** Elements of a draft by id, with what the summaries need. */
export function elementIndex(draft: FormDraft): Map<string, { title: string; type: string; options: Item[] }> {
  const map = new Map<string, { title: string; type: string; options: Item[] }>();
  for (const page of draft.pages) {
    for (const element of page.elements) {
      if (!map.has(element.id)) map.set(element.id, { title: element.title, type: element.type, options: itemsOf((element as Raw).options) });
    }
  }
  return map;
}

/** "“Do you have a dog?” is “Yes”" for one row. */
export function rowSummary(row: RuleRow, elements: ReadonlyMap<string, { title: string; type: string; options: Item[] }>): string {
  const element = elements.get(row.ref);
  const name = element ? quote(element.title.trim() || row.ref) : m.forms_condition_missing({ name: quote(row.ref) });
  if (element?.type === 'consent' && (row.op === 'eq' || row.op === 'neq') && typeof row.value === 'boolean') {
    return row.value === (row.op === 'eq') ? m.forms_condition_is_ticked({ name }) : m.forms_condition_is_not_ticked({ name });
  }
  const words = opLabel(row.op, element?.type);
  const value = valueWords(row.value, element);
  // Words only, in the order every language here uses: the element, the comparison, the value.
  return value ? `${name} ${words} ${value}` : `${name} ${words}`;
}

/** The card's line about a condition: "Shown when …", or null when there is none. */
export function conditionSummary(condition: unknown, elements: ReadonlyMap<string, { title: string; type: string; options: Item[] }>): string | null {
  const rule = toSimpleRule(condition);
  if (rule === null) return null;
  if (rule === 'complex') return m.forms_condition_summary_complex();
  const parts = rule.rows.map((row) => rowSummary(row, elements));
  const join = rule.mode === 'all' ? m.forms_condition_join_and : m.forms_condition_join_or;
  return m.forms_condition_summary({ condition: parts.reduce((first, second) => join({ first, second })) });
}
