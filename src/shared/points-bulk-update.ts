/**
 * Points bulk update (`/admin/tools/points-bulk-update`, docs/api.md "Points bulk update",
 * decision 015): limits, the columns a file may hold, and the answers' shapes (zod-free; payload
 * schemas in `schemas/points-bulk-update.ts`).
 */

export const POINTS_BULK_LIMITS = {
  /** The uploaded file, either format (413 over it). */
  maxBytes: 30 * 1024 * 1024,
  /** Data rows in one file (the header not counted; 422 over it). */
  maxRows: 200_000,
  /** Problems listed in the preview's answer; every one is in the problems CSV. */
  problemsInAnswer: 1_000,
} as const;

/** The columns a batch reads: participant, points and reason are required, reference is optional. */
export const BULK_COLUMNS = ['participant', 'points', 'reason', 'reference'] as const;
export type BulkColumn = (typeof BULK_COLUMNS)[number];
export const REQUIRED_BULK_COLUMNS = ['participant', 'points', 'reason'] as const satisfies readonly BulkColumn[];

/** Header names each column is found under (compared trimmed, in lower case). */
export const BULK_COLUMN_ALIASES: Record<BulkColumn, readonly string[]> = {
  participant: ['participant', 'email', 'user', 'user id', 'participant id', 'id'],
  points: ['points'],
  reason: ['reason'],
  reference: ['reference', 'ref'],
};

/** Which header of the file each column is read from (reference: null when the file has none). */
export interface BulkColumnMap {
  participant: string;
  points: string;
  reason: string;
  reference: string | null;
}

export type BulkBatchStatus = 'previewed' | 'applied';

/** A problem in the file: its line (the header is line 1), the column, and what is wrong. */
export interface BulkProblem {
  line: number;
  column: BulkColumn | null;
  message: string;
}

/** Sums of the clean rows' points: added, taken away (a negative number), the difference, and how many people. */
export interface BulkTotals {
  positive: number;
  negative: number;
  net: number;
  participants: number;
}

/** How many rows have each kind of problem (a row may have several). */
export interface BulkProblemCounts {
  unknownParticipants: number;
  disabledAccounts: number;
  invalidPoints: number;
  invalidReasons: number;
  duplicateReferences: number;
  /** Rows taking points away that would leave the participant's available points below zero (issue 30). */
  insufficientPoints: number;
}

/** `POST …/preview`: the batch as checked (or, for content applied before, that batch as it was applied). */
export interface BulkPreview {
  batchId: number;
  status: BulkBatchStatus;
  fileName: string;
  columns: BulkColumnMap;
  /** Data rows read (blank lines skipped). */
  rows: number;
  /** Rows whose participant is an account that is not disabled. */
  matched: number;
  /** Rows without a problem: what "Apply clean rows only" writes. */
  cleanRows: number;
  /** Rows with at least one problem. */
  problemRows: number;
  /** Every problem, however many `problems` lists. */
  problemCount: number;
  counts: BulkProblemCounts;
  /** The first `POINTS_BULK_LIMITS.problemsInAnswer` problems, by line; all in `…/problems.csv`. */
  problems: BulkProblem[];
  totals: BulkTotals;
  /**
   * Clean rows credited already — by an earlier batch under the same ledger reference (the same
   * `reference`; without one, the same participant, points and reason, the n-th such row of the
   * file), or by this batch once applied: applying leaves them as they are.
   */
  alreadyCredited: number;
  /** Their lines, the first `POINTS_BULK_LIMITS.problemsInAnswer`; every row's in `…/rows.csv`. */
  alreadyCreditedLines: number[];
  appliedAt: string | null;
}

/** `POST …/{batchId}/apply`. */
export interface BulkApplyResult {
  /** Ledger rows this call wrote (0 when the batch was applied before). */
  applied: number;
  /** The batch was applied before: nothing changed. */
  alreadyApplied: boolean;
  /** Clean rows credited before (by an earlier batch, under the same ledger reference): left as they were. */
  alreadyCredited: number;
  /** Rows with problems left out (`excludeProblemRows`). */
  skipped: number;
  batch: BulkBatchItem;
}

/** A person as the batch history names them. */
export interface BulkPerson {
  id: number;
  name: string;
  email: string;
}

/** `GET …/batches`: one batch of the history. */
export interface BulkBatchItem {
  id: number;
  fileName: string;
  status: BulkBatchStatus;
  rows: number;
  matched: number;
  problemCount: number;
  totals: { positive: number; negative: number; net: number };
  createdAt: string;
  createdBy: BulkPerson | null;
  appliedAt: string | null;
  appliedBy: BulkPerson | null;
  appliedRows: number;
  excludedProblemRows: boolean;
}

/** A row's result after apply (`…/rows.csv`). */
export type BulkRowResult = 'applied' | 'already_applied' | 'skipped';

/** The media type of the progress stream (`Accept: application/x-ndjson`). */
export const NDJSON_TYPE = 'application/x-ndjson';

/**
 * One line of a progress stream: where the work is (`done` of `total`, in the phase's unit: bytes
 * while reading, rows afterwards), then one last line with the answer or the error.
 */
export type BulkProgressLine =
  | { phase: 'reading' | 'checking' | 'saving' | 'applying'; done: number; total: number }
  | { result: unknown }
  | { error: { code: string; message: string; [detail: string]: unknown }; status: number };
