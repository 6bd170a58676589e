/**
 * The review screen's pure rules: the queue's filters (to the API's query and to and from the
 * address bar), moving through the queue (j/k, and what comes next after a decision, page by page),
 * and the comparison of two submitted versions of an entry. No React, no zod: unit-tested.
 */
import type { Answers, AnswerValue, FormDefinition, FormElement } from '../../../shared/forms/definition.ts';
import { isAnswerable, resolveVisibility } from '../../../shared/forms/logic.ts';
import { ENTRY_STATUSES, type EntryStatus } from '../../../shared/mission-entries.ts';
import { m } from '../../../shared/i18n.ts';
import { isLanguage, type Language } from '../../../shared/languages.ts';

// ---------------------------------------------------------------------------------------------
// Filters

export interface QueueFilters {
  /** `all`: every status but drafts (the API's default). */
  status: EntryStatus | 'all';
  /** The participant: part of their email or full name. */
  q: string;
  /** `YYYY-MM-DD` or ''. */
  from: string;
  to: string;
  /** Only entries with a probe waiting for the participant's answer. */
  probesWaiting: boolean;
  /** Only entries answered in this language (decision 035); absent: every language. */
  language?: Language;
}

/** The queue as it opens: what waits for review. */
export const DEFAULT_FILTERS: Readonly<QueueFilters> = { status: 'submitted', q: '', from: '', to: '', probesWaiting: false };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isEntryStatus = (value: string): value is EntryStatus => (ENTRY_STATUSES as readonly string[]).includes(value);

/** True when the filters differ from the default ones. */
export function isFiltered(filters: QueueFilters): boolean {
  return (
    filters.status !== DEFAULT_FILTERS.status ||
    filters.q !== '' ||
    filters.from !== '' ||
    filters.to !== '' ||
    filters.probesWaiting ||
    Boolean(filters.language)
  );
}

/** How many filters differ from the default ones (the phone's "Filters (2)" button). */
export function filterCount(filters: QueueFilters): number {
  return [
    filters.status !== DEFAULT_FILTERS.status,
    filters.q !== '',
    filters.from !== '',
    filters.to !== '',
    filters.probesWaiting,
    Boolean(filters.language),
  ].filter(Boolean).length;
}

/** The query of `GET /api/admin/missions/{id}/submissions` for these filters and page. */
export function queueQuery(filters: QueueFilters, page: number, pageSize: number): Record<string, string> {
  const query: Record<string, string> = { page: String(page), pageSize: String(pageSize) };
  if (filters.status !== 'all') query.status = filters.status;
  const q = filters.q.trim();
  if (q) query.q = q;
  if (DAY.test(filters.from)) query.from = filters.from;
  if (DAY.test(filters.to)) query.to = filters.to;
  if (filters.probesWaiting) query.probes = 'waiting';
  if (filters.language) query.language = filters.language;
  return query;
}

/** What the address bar keeps of the screen: the filters, the page and the open submission. */
export interface QueueLocation {
  filters: QueueFilters;
  page: number;
  submission: number | null;
}

const positive = (raw: string | null): number | null => (raw && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null);

/**
 * The screen's state from `location.search`: `status` (an entry status or `all`; absent: waiting
 * for review), `q`, `from`, `to`, `probes=waiting`, `language`, `page`, `submission`. Anything malformed is
 * left at its default.
 */
export function readLocation(search: string): QueueLocation {
  const params = new URLSearchParams(search);
  const status = params.get('status');
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const language = params.get('language');
  return {
    filters: {
      ...(isLanguage(language) ? { language } : {}),
      status: status === 'all' || (status !== null && isEntryStatus(status)) ? status : DEFAULT_FILTERS.status,
      q: (params.get('q') ?? '').trim().slice(0, 200),
      from: DAY.test(from) ? from : '',
      to: DAY.test(to) ? to : '',
      probesWaiting: params.get('probes') === 'waiting',
    },
    page: positive(params.get('page')) ?? 1,
    submission: positive(params.get('submission')),
  };
}

/**
 * `location.search` for the screen's state, keeping parameters that are not the screen's
 * (`other`); defaults are left out, so the plain address is the default queue.
 */
export function writeLocation(state: QueueLocation, other = ''): string {
  const params = new URLSearchParams(other);
  for (const name of ['status', 'q', 'from', 'to', 'probes', 'language', 'page', 'submission']) params.delete(name);
  const { filters } = state;
  if (filters.status !== DEFAULT_FILTERS.status) params.set('status', filters.status);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (DAY.test(filters.from)) params.set('from', filters.from);
  if (DAY.test(filters.to)) params.set('to', filters.to);
  if (filters.probesWaiting) params.set('probes', 'waiting');
  if (filters.language) params.set('language', filters.language);
  if (state.page > 1) params.set('page', String(state.page));
  if (state.submission !== null) params.set('submission', String(state.submission));
  const search = params.toString();
  return search ? `?${search}` : '';
}

// ---------------------------------------------------------------------------------------------
// Moving through the queue

/** The page of the queue on screen. */
export interface QueuePage {
  /** The ids of the page's rows, in order. */
  ids: readonly number[];
  page: number;
  pageSize: number;
  /** Every row of the queue, all pages. */
  total: number;
}

/**
 * Where a move leads: a row of this page, the first or last row of another page, or nowhere.
 * `wrapped`: nothing came after, so it goes back to the top of the queue (rows skipped earlier).
 */
export type QueueStep =
  | { kind: 'select'; id: number; wrapped?: true }
  | { kind: 'page'; page: number; pick: 'first' | 'last'; wrapped?: true }
  | { kind: 'none'; edge: 'start' | 'end' };

const lastPage = (total: number, pageSize: number): number => Math.max(1, Math.ceil(total / pageSize));

/**
 * j (`delta` 1) and k (-1): the next or previous row; past the page's last row the next page's
 * first, before its first row the previous page's last. With nothing open (or an entry that is not
 * on this page), j opens the first row and k the last.
 */
export function stepInQueue(queue: QueuePage, currentId: number | null, delta: 1 | -1): QueueStep {
  const { ids, page, pageSize, total } = queue;
  const index = currentId === null ? -1 : ids.indexOf(currentId);
  if (index === -1) {
    const id = delta === 1 ? ids[0] : ids[ids.length - 1];
    if (id !== undefined) return { kind: 'select', id };
    return { kind: 'none', edge: delta === 1 ? 'end' : 'start' };
  }
  const target = ids[index + delta];
  if (target !== undefined) return { kind: 'select', id: target };
  if (delta === 1) return page < lastPage(total, pageSize) ? { kind: 'page', page: page + 1, pick: 'first' } : { kind: 'none', edge: 'end' };
  return page > 1 ? { kind: 'page', page: page - 1, pick: 'last' } : { kind: 'none', edge: 'start' };
}

/**
 * What to open after a decision on `decidedId`, given the page before the decision and the same
 * page asked again after it. An entry still in the queue (the filter keeps it): the row after it.
 * An entry that left the queue (it waited for review and is decided now): the first row that came
 * after it and is still there, else a row that moved up from the next page, else the next page;
 * with nothing after it, back to the top of the queue when rows were skipped on the way (`wrapped`),
 * and `none` only when the queue is empty. An entry that was not in the queue (opened from the
 * participant's other entries) stays open.
 */
export function stepAfterDecision(before: QueuePage, after: QueuePage, decidedId: number): QueueStep | { kind: 'stay' } {
  const was = before.ids.indexOf(decidedId);
  if (was === -1) return { kind: 'stay' };
  const now = after.ids.indexOf(decidedId);
  if (now !== -1) return stepInQueue(after, decidedId, 1);
  const remaining = new Set(after.ids);
  const following = before.ids.slice(was + 1).find((id) => remaining.has(id));
  if (following !== undefined) return { kind: 'select', id: following };
  const known = new Set(before.ids);
  const movedUp = after.ids.find((id) => !known.has(id));
  if (movedUp !== undefined) return { kind: 'select', id: movedUp };
  if (after.page < lastPage(after.total, after.pageSize) && after.ids.length >= after.pageSize) return { kind: 'page', page: after.page + 1, pick: 'first' };
  // Nothing after it: what was skipped on the way is at the top of the queue.
  if (after.page > 1 && after.total > 0) return { kind: 'page', page: 1, pick: 'first', wrapped: true };
  const top = after.ids[0];
  if (top !== undefined) return { kind: 'select', id: top, wrapped: true };
  return { kind: 'none', edge: 'end' };
}

/** The row a page's pick lands on. */
export function pickOnPage(ids: readonly number[], pick: 'first' | 'last'): number | null {
  return (pick === 'first' ? ids[0] : ids[ids.length - 1]) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Selecting rows for bulk approve

/** The state of "Select all on this page": checked, unchecked or mixed (`indeterminate`). */
export function selectAllState(pageIds: readonly number[], selected: ReadonlySet<number>): boolean | 'indeterminate' {
  const count = pageIds.filter((id) => selected.has(id)).length;
  if (count === 0 || pageIds.length === 0) return false;
  return count === pageIds.length ? true : 'indeterminate';
}

/** "Select all on this page" toggled: every row of the page when not all were, none otherwise. */
export function toggleAll(pageIds: readonly number[], selected: ReadonlySet<number>): Set<number> {
  return selectAllState(pageIds, selected) === true ? new Set() : new Set(pageIds);
}

/** The bulk answer in words: "2 approved", "2 approved, 1 skipped (no longer waiting for review: …)". */
export function bulkResultText(result: { approved: number; skipped: number }): string {
  const approved = m.review_bulk_approved({ count: result.approved });
  if (result.skipped === 0) return approved;
  return m.review_bulk_approved_skipped({ approved, count: result.skipped });
}

// ---------------------------------------------------------------------------------------------
// Comparing two versions of an entry

export type ChangeKind = 'same' | 'changed' | 'added' | 'removed';

/** One question of the form with its answer in the earlier version and in the later one. */
export interface ComparedAnswer {
  element: FormElement;
  /** The earlier version's answer: undefined when unanswered or hidden there. */
  before: AnswerValue | undefined;
  after: AnswerValue | undefined;
  change: ChangeKind;
}

export interface Comparison {
  rows: ComparedAnswer[];
  /** How many answers differ (changed, added or removed). */
  changed: number;
}

function canonical(value: unknown, unordered: boolean): string {
  if (Array.isArray(value)) {
    const items = value.map((item) => canonical(item, false));
    return `[${(unordered ? [...items].sort() : items).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key], Array.isArray(record[key]))}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * True when two answers to `element` say the same: objects compare by content whatever their key
 * order, the options of a multiple choice (and a matrix row's several columns) whatever the order
 * they were ticked in; rankings and photos keep their order.
 */
export function sameAnswer(element: Pick<FormElement, 'type'>, a: AnswerValue | undefined, b: AnswerValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonical(a, element.type === 'multiple_choice') === canonical(b, element.type === 'multiple_choice');
}

/**
 * Every question either version showed (in form order, statements left out), with both answers
 * as the participant saw the form: hidden questions' answers do not count, blank answers are
 * unanswered. `today` is the day the form's date conditions are read with (the entry's day).
 */
export function compareVersions(definition: FormDefinition, before: Answers, after: Answers, options: { today?: string } = {}): Comparison {
  const earlier = resolveVisibility(definition, before, options);
  const later = resolveVisibility(definition, after, options);
  const rows: ComparedAnswer[] = [];
  for (const page of definition.pages) {
    for (const element of page.elements) {
      if (!isAnswerable(element)) continue;
      if (!earlier.elementIds.has(element.id) && !later.elementIds.has(element.id)) continue;
      const was = Object.hasOwn(earlier.answers, element.id) ? earlier.answers[element.id] : undefined;
      const now = Object.hasOwn(later.answers, element.id) ? later.answers[element.id] : undefined;
      const change: ChangeKind = sameAnswer(element, was, now) ? 'same' : was === undefined ? 'added' : now === undefined ? 'removed' : 'changed';
      rows.push({ element, before: was, after: now, change });
    }
  }
  return { rows, changed: rows.filter((row) => row.change !== 'same').length };
}

/** The photo ids of an answer (photo questions), for the lightbox. */
export function photoIds(value: AnswerValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

// ---------------------------------------------------------------------------------------------
// The review inbox (the queue across projects, `/admin/review`)

/** The inbox's filters: the mission queue's, plus the project and the mission (null: every one). */
export interface InboxFilters extends QueueFilters {
  projectId: number | null;
  missionId: number | null;
}

/** The inbox as it opens: what waits for review, every project. */
export const DEFAULT_INBOX_FILTERS: Readonly<InboxFilters> = { ...DEFAULT_FILTERS, projectId: null, missionId: null };

/** The inbox's rows a page ("Load more" asks for the next ones). */
export const INBOX_PAGE = 20;

/**
 * The query of `GET /api/admin/submissions` for these filters: `status=all` spelled out (the
 * inbox's default is `submitted`), `cursor` for the rows after a page.
 */
export function inboxQuery(filters: InboxFilters, limit: number, cursor: string | null = null): Record<string, string> {
  const { page: _page, pageSize: _pageSize, ...rest } = queueQuery(filters, 1, limit);
  const query: Record<string, string> = { ...rest, status: filters.status, limit: String(limit) };
  if (filters.projectId !== null) query.projectId = String(filters.projectId);
  if (filters.missionId !== null) query.missionId = String(filters.missionId);
  if (cursor) query.cursor = cursor;
  return query;
}

/** What the inbox's address keeps: the filters and the open submission. */
export interface InboxLocation {
  filters: InboxFilters;
  submission: number | null;
}

/**
 * The inbox's state from `location.search`: the mission queue's (`readLocation`) plus `projectId`
 * and `missionId` (a mission without its project is kept: the API answers it alone). A page number
 * means nothing here (the inbox loads more instead) and is dropped.
 */
export function readInboxLocation(search: string): InboxLocation {
  const { filters, submission } = readLocation(search);
  const params = new URLSearchParams(search);
  const id = (raw: string | null) => {
    const value = positive(raw);
    return value !== null && value <= 2_147_483_647 ? value : null;
  };
  return { filters: { ...filters, projectId: id(params.get('projectId')), missionId: id(params.get('missionId')) }, submission };
}

/** `location.search` for the inbox's state, defaults left out (`/admin/review` is the default queue), other parameters kept. */
export function writeInboxLocation(state: InboxLocation, other = ''): string {
  const params = new URLSearchParams(writeLocation({ filters: state.filters, page: 1, submission: null }, other));
  params.delete('projectId');
  params.delete('missionId');
  params.delete('submission');
  if (state.filters.projectId !== null) params.set('projectId', String(state.filters.projectId));
  if (state.filters.missionId !== null) params.set('missionId', String(state.filters.missionId));
  if (state.submission !== null) params.set('submission', String(state.submission));
  const search = params.toString();
  return search ? `?${search}` : '';
}

/**
 * The inbox's loaded rows as one queue page for `stepInQueue` and `stepAfterDecision`: every row
 * loaded so far is page 1, so a move past the last loaded row asks for page 2 — the inbox loads
 * more instead.
 */
export function inboxPage(ids: readonly number[], total: number): QueuePage {
  return { ids, page: 1, pageSize: Math.max(1, ids.length), total };
}

/** After a decision: the entry leaves the inbox when the status filter no longer keeps it (what waits for review, once decided). */
export function leavesInbox(filters: Pick<QueueFilters, 'status'>, status: EntryStatus): boolean {
  return filters.status !== 'all' && filters.status !== status;
}
