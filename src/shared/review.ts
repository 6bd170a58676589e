/**
 * Reviewing mission entries (zod-free: participant and admin screens import it). A submission is a
 * mission entry; its id is the entry's id. Payload schemas: `schemas/review.ts`.
 */
import type { Answers, FormDefinition } from './forms/definition.ts';
import type { AdminSubmissionListItem, EntryStatus, SubmissionMedia } from './mission-entries.ts';
import type { UserRef } from './projects.ts';
import type { Language } from './languages.ts';

export const REVIEW_DECISIONS = ['approve', 'request_changes', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** The entry status each decision leads to. */
export const DECISION_STATUS = { approve: 'approved', request_changes: 'changes_requested', reject: 'rejected' } as const satisfies Record<
  ReviewDecision,
  EntryStatus
>;
export const REVIEW_DECISION_STATUSES = ['approved', 'changes_requested', 'rejected'] as const;
export type ReviewDecisionStatus = (typeof REVIEW_DECISION_STATUSES)[number];

/** Decisions that need a reason (shown to the participant). */
export const DECISIONS_NEEDING_A_REASON: readonly ReviewDecision[] = ['request_changes', 'reject'];

export const REASON_TEMPLATE_KINDS = ['request_changes', 'reject'] as const;
export type ReasonTemplateKind = (typeof REASON_TEMPLATE_KINDS)[number];

export const REVIEW_LIMITS = {
  reasonMax: 2000,
  noteMax: 5000,
  questionMax: 2000,
  answerMax: 5000,
  templateMax: 2000,
  bulkMax: 500,
} as const;

/** The review queue's filter on probes. */
export const PROBE_FILTERS = ['waiting'] as const;

/** One decision taken on a version, as it was taken (a later decision is a new one). `decidedBy` is null for an automatic review. */
export interface DecisionView {
  decision: ReviewDecisionStatus;
  reason: string | null;
  decidedBy: UserRef | null;
  decidedAt: string;
}

/** One submitted version of an entry. `decision`…`decidedAt` repeat its latest decision (null while none). */
export interface SubmissionVersion {
  version: number;
  formVersion: number;
  answers: Answers;
  submittedAt: string;
  decision: ReviewDecisionStatus | null;
  reason: string | null;
  decidedBy: UserRef | null;
  decidedAt: string | null;
  /** Every decision taken on this version, oldest first. */
  decisions: DecisionView[];
}

export interface ReviewNoteView {
  id: number;
  author: UserRef | null;
  body: string;
  createdAt: string;
}

export interface ProbeView {
  id: number;
  question: string;
  askedBy?: UserRef | null;
  askedAt: string;
  answer: string | null;
  answeredAt: string | null;
}

export interface ReasonTemplateView {
  id: number;
  kind: ReasonTemplateKind;
  text: string;
}

/**
 * One row of the review queue (`GET /api/admin/missions/{id}/submissions`): the programme's list
 * item with the probes still waiting for the participant's answer.
 */
export interface ReviewQueueItem extends AdminSubmissionListItem {
  probesWaiting: number;
}

/** `GET /api/admin/submissions/{id}` (the programme's detail, extended by the review). */
export interface ReviewSubmission {
  id: number;
  missionId: number;
  projectId: number;
  missionTitle?: string;
  user: UserRef;
  status: EntryStatus;
  resubmission: boolean;
  formVersion: number;
  definition: FormDefinition;
  answers: Answers;
  /** The language the answers were last saved or submitted in (decision 035). */
  language: Language;
  media: SubmissionMedia[];
  localDate: string | null;
  /** The entry's time zone, and the one of the participant's entry before it when it changed (`AdminSubmissionDetail`). */
  timeZone: string;
  timeZoneChangedFrom: string | null;
  createdAt: string;
  submittedAt: string | null;
  reviewReason: string | null;
  reviewedBy: UserRef | null;
  reviewedAt: string | null;
  /** Every submission of this entry, oldest first (the earlier versions of a resubmission). */
  history: SubmissionVersion[];
  notes: ReviewNoteView[];
  probes: ProbeView[];
  otherEntries: { id: number; status: EntryStatus; localDate: string | null; submittedAt: string | null }[];
}

/** The participant's view of one of their entries in their mission history. */
export interface HistoryEntry {
  id: number;
  status: EntryStatus;
  answers: Answers;
  formVersion: number;
  definition: FormDefinition;
  localDate: string | null;
  createdAt: string;
  submittedAt: string | null;
  /** The reviewer's reason (changes requested, rejected). */
  reviewReason: string | null;
  reviewedAt: string | null;
  resubmission: boolean;
  probes: ProbeView[];
  /** Points of this entry and their state, when any. */
  points: { points: number; state: 'pending' | 'available' | 'voided' } | null;
}

/** `GET /api/account/mission-history`. */
export interface MissionHistoryItem {
  missionId: number;
  title: string;
  projectName: string;
  points: number;
  /** The mission takes more than one entry: its points are earned by each ("100 points an entry"). */
  pointsPerEntry: boolean;
  entries: { total: number; approved: number; waiting: number; changesRequested: number; rejected: number; drafts: number };
  probesWaiting: number;
  lastActivityAt: string;
}

/** `GET /api/account/mission-history/{missionId}`. */
export interface MissionHistory {
  missionId: number;
  title: string;
  instructions: string;
  projectName: string;
  points: number;
  /** As in the list: "100 points an entry" when the mission takes more than one entry. */
  pointsPerEntry: boolean;
  review: 'manual' | 'automatic';
  entries: HistoryEntry[];
}

// ---------------------------------------------------------------------------------------------
// The review inbox: the queue across projects (`GET /api/admin/submissions`, docs/product.md §2.5)

/** Rows a page of the review inbox: 20 unless asked, at most 100. */
export const REVIEW_INBOX_LIMIT = { default: 20, max: 100 } as const;

/** The inbox's status filter: an entry status, or `all` (every status but drafts). Default `submitted`. */
export const REVIEW_INBOX_ALL = 'all';

/** One row of the review inbox: a queue row with the mission and project it belongs to (the mission's points: what approving makes available). */
export interface ReviewInboxItem extends ReviewQueueItem {
  mission: { id: number; title: string; points: number };
  project: { id: number; name: string };
}

/**
 * `GET /api/admin/submissions`: a page of the inbox, oldest first; `nextCursor` asks for the page
 * after it (null at the end); `total` counts every match of the filters, exactly up to
 * `REVIEW_TOTAL_EXACT_MAX`, beyond it the database's estimate (`totalEstimated` true).
 */
export interface ReviewInboxPage {
  items: ReviewInboxItem[];
  nextCursor: string | null;
  total: number;
  totalEstimated: boolean;
}

/** Where a page of the inbox ends: the last row's moment (UTC, microseconds) and id. */
export interface ReviewInboxCursor {
  at: string;
  id: number;
}

/** The moment as the server writes it into a cursor: UTC with microseconds. */
const CURSOR_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const CURSOR_PREFIX = 'v1.';

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The opaque cursor of the page after `cursor`'s row. */
export function encodeInboxCursor(cursor: ReviewInboxCursor): string {
  return `${CURSOR_PREFIX}${toBase64Url(`${cursor.at}|${cursor.id}`)}`;
}

/** The cursor a client sent back, or null when it is not one `encodeInboxCursor` made (a real moment, an id 1 … 2^31−1). */
export function decodeInboxCursor(raw: string): ReviewInboxCursor | null {
  if (raw.length > 100 || !raw.startsWith(CURSOR_PREFIX)) return null;
  const text = fromBase64Url(raw.slice(CURSOR_PREFIX.length));
  if (text === null) return null;
  const [at, id, ...rest] = text.split('|');
  if (rest.length > 0 || at === undefined || id === undefined) return null;
  if (!CURSOR_MOMENT.test(at) || Number.isNaN(Date.parse(at)) || new Date(Date.parse(at)).toISOString().slice(0, 19) !== at.slice(0, 19)) return null;
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) return null;
  return { at, id: Number(id) };
}

// ---------------------------------------------------------------------------------------------
// A mission's review queue (`GET /api/admin/missions/{id}/submissions`): the list contract, plus keyset paging

/** The queue's sorts: `submitted` (when submitted, created for drafts; latest first) and `name` (last, then first name, A to Z). */
export const REVIEW_QUEUE_SORTS = ['submitted', 'name'] as const;
export type ReviewQueueSort = (typeof REVIEW_QUEUE_SORTS)[number];

/** Up to this many matches `total` is counted exactly; beyond it, it is the database's estimate and `totalEstimated` is true. */
export const REVIEW_TOTAL_EXACT_MAX = 1_000;

/**
 * `GET /api/admin/missions/{id}/submissions`: a page of the list contract, plus `nextCursor` (pass
 * it as `cursor` for the rows after this page, keyset on the sort: null on the last page) and
 * `totalEstimated` (`total` is an estimate: more than `REVIEW_TOTAL_EXACT_MAX` match).
 */
export interface ReviewQueuePage {
  items: ReviewQueueItem[];
  total: number;
  page: number;
  pageSize: number;
  nextCursor: string | null;
  totalEstimated: boolean;
}

/**
 * Where a page of a mission's queue ends, for its sort and direction: `submitted`: the last row's
 * moment (UTC, microseconds); `name`: its participant's last and first name in lower case; and its id.
 */
export type ReviewQueueCursor =
  { sort: 'submitted'; dir: 'asc' | 'desc'; at: string; id: number } | { sort: 'name'; dir: 'asc' | 'desc'; last: string; first: string; id: number };

const QUEUE_CURSOR_PREFIX = 'q1.';
/** A name in a cursor is at most this long (names are shorter; the bound keeps a forged cursor small). */
const QUEUE_CURSOR_NAME_MAX = 500;

/** The opaque cursor of the queue's page after `cursor`'s row. */
export function encodeQueueCursor(cursor: ReviewQueueCursor): string {
  const key = cursor.sort === 'submitted' ? [cursor.at] : [cursor.last, cursor.first];
  return `${QUEUE_CURSOR_PREFIX}${toBase64Url(JSON.stringify([cursor.sort, cursor.dir, ...key, cursor.id]))}`;
}

/** The cursor a client sent back, or null when it is not one `encodeQueueCursor` made. */
export function decodeQueueCursor(raw: string): ReviewQueueCursor | null {
  if (raw.length > 4 * QUEUE_CURSOR_NAME_MAX || !raw.startsWith(QUEUE_CURSOR_PREFIX)) return null;
  const text = fromBase64Url(raw.slice(QUEUE_CURSOR_PREFIX.length));
  if (text === null) return null;
  let parts: unknown;
  try {
    parts = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(parts)) return null;
  const [sort, dir, ...rest] = parts as unknown[];
  const id = rest.pop();
  if (dir !== 'asc' && dir !== 'desc') return null;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) return null;
  if (sort === 'submitted') {
    const [at] = rest;
    if (rest.length !== 1 || typeof at !== 'string' || !CURSOR_MOMENT.test(at) || Number.isNaN(Date.parse(at))) return null;
    return { sort, dir, at, id };
  }
  if (sort === 'name') {
    const [last, first] = rest;
    if (rest.length !== 2 || typeof last !== 'string' || typeof first !== 'string') return null;
    if (last.length > QUEUE_CURSOR_NAME_MAX || first.length > QUEUE_CURSOR_NAME_MAX) return null;
    return { sort, dir, last, first, id };
  }
  return null;
}

/** The review digest mails staff when an entry has waited for review longer than this. */
export const REVIEW_DIGEST_WAIT_MS = 24 * 60 * 60 * 1000;
