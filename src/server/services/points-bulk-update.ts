/**
 * Points bulk update (docs/api.md "Points bulk update", decision 015): a file of (participant,
 * points, reason, reference) rows is read and checked into a batch (`points_batches` and its
 * `points_batch_rows`, one per line), then applied once, all or nothing, to the points ledger.
 *
 * - The batch is its content: the SHA-256 of the rows as read (whatever the file's name or
 *   format) is unique. Previewing content applied before answers that batch; content previewed
 *   but not applied is checked again and its rows replaced.
 * - Participants are looked up in sets (`= any(…)` over a JSON array), never a query per row.
 * - Apply runs in one transaction holding the batch row (`select … for update`): ledger rows go in
 *   by chunks of `insert … select … on conflict do nothing returning`, straight from the batch
 *   rows, and each row's result is written back in the same statement.
 * - Each row is credited under a ledger reference set by the preview: `bulk:ref:<reference>` for a
 *   row with a reference, else what the row is — `bulk:row:<digest of user, points, reason>:<n>`,
 *   the n-th such row of the file — so a corrected file's rows credited before are found (the
 *   preview counts them, apply marks them `already_applied`), wherever they moved in the file.
 */
import { createHash } from 'node:crypto';
import { and, count, desc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import {
  BULK_COLUMN_ALIASES,
  BULK_COLUMNS,
  POINTS_BULK_LIMITS,
  REQUIRED_BULK_COLUMNS,
  type BulkApplyResult,
  type BulkBatchItem,
  type BulkColumn,
  type BulkColumnMap,
  type BulkPerson,
  type BulkPreview,
  type BulkProblem,
  type BulkProblemCounts,
  type BulkTotals,
} from '../../shared/points-bulk-update.ts';
import { POINTS_LIMITS } from '../../shared/points.ts';
import type { BulkColumnMapInput } from '../../shared/schemas/points-bulk-update.ts';
import type { ListPage, ListQuery } from '../../shared/list.ts';
import { queryRows, type Db } from '../db/index.ts';
import { pointsBatches, pointsBatchRows, users, type PointsBatch, type User } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { csvRows, keysetCsvStream, type CsvCell } from './csv.ts';
import { paginate } from './list.ts';
import { availableSql, belowZero, notifyPointsChanges, personName, type PointsChange } from './points.ts';
import type { OpenedTable } from './points-bulk-file.ts';
import { ledgerEntryColumns, recordPointsEvents, type LedgerEntry } from './webhooks.ts';

/** Where the work is: `done` of `total` (bytes while reading, rows afterwards). */
export type BulkProgress = (phase: 'reading' | 'checking' | 'saving' | 'applying', done: number, total: number) => void;

/** Rows per lookup, insert and apply statement. */
const CHUNK = 10_000;

// ---------------------------------------------------------------------------------------------
// Columns

const norm = (header: string) => header.trim().toLowerCase();

/**
 * Which header each column is read from: the column map when given (each header must be in the
 * file), else the aliases (case-insensitive, trimmed). 422 `columns_unmatched` with the file's
 * headers when a required column is not found, so the screen can ask for a map.
 */
export function matchColumns(headers: readonly string[], given: BulkColumnMapInput | null): { map: BulkColumnMap; index: Record<BulkColumn, number | null> } {
  const positions = new Map<string, number>();
  headers.forEach((header, i) => {
    if (header !== '' && !positions.has(norm(header))) positions.set(norm(header), i);
  });
  const index = {} as Record<BulkColumn, number | null>;
  const map = {} as Record<BulkColumn, string | null>;
  const missing: string[] = [];
  for (const column of BULK_COLUMNS) {
    const wanted = given ? (given[column] ?? null) : null;
    let at: number | undefined;
    if (given) at = wanted === null ? undefined : positions.get(norm(wanted));
    else for (const name of BULK_COLUMN_ALIASES[column]) if ((at = positions.get(name)) !== undefined) break;
    index[column] = at ?? null;
    map[column] = at === undefined ? null : (headers[at] ?? null);
    if (at === undefined && (REQUIRED_BULK_COLUMNS as readonly string[]).includes(column)) missing.push(given ? `"${wanted ?? ''}" (${column})` : column);
    if (given && wanted !== null && at === undefined && column === 'reference') missing.push(`"${wanted}" (reference)`);
  }
  if (missing.length > 0) {
    const list = missing.length === 1 ? (missing[0] ?? '') : `${missing.slice(0, -1).join(', ')} or ${missing.at(-1) ?? ''}`;
    const message = given
      ? `The file has no column ${list}: choose among its headers`
      : `The file's header has no ${list} column: choose which columns to read`;
    throw new ApiError(422, 'columns_unmatched', message, { details: { headers: headers.filter((h) => h !== '') } });
  }
  return { map: map as unknown as BulkColumnMap, index };
}

// ---------------------------------------------------------------------------------------------
// Reading and checking

/** A data row as read: the four cells as text, trimmed. */
interface ReadRow {
  line: number;
  participant: string;
  pointsText: string;
  reason: string;
  reference: string | null;
}

/** A row once checked. */
interface CheckedRow extends ReadRow {
  userId: number | null;
  points: number | null;
  problems: { column: BulkColumn; message: string }[];
  /** What it is credited under (null when it cannot be credited: no account or no points). */
  ledgerReference: string | null;
  /** Without a reference: the n-th row of the file with this user, points and reason. */
  occurrence: number | null;
}

/**
 * The ledger reference of a row (decision 015): the operations team's own reference when it has
 * one; else what it is — the account, the points and the reason as written (trimmed; case and
 * inner spaces count) — and which identical row of the file it is, so that two identical rows are
 * two credits and a corrected file keys its rows as before wherever they moved.
 */
function ledgerReferenceOf(row: { userId: number; points: number; reason: string; reference: string | null }, occurrences: Map<string, number>) {
  if (row.reference !== null) return { ledgerReference: `bulk:ref:${row.reference}`, occurrence: null };
  const what = JSON.stringify([row.userId, row.points, row.reason]);
  const occurrence = (occurrences.get(what) ?? 0) + 1;
  occurrences.set(what, occurrence);
  const digest = createHash('sha256').update(what).digest('hex').slice(0, 32);
  return { ledgerReference: `bulk:row:${digest}:${occurrence}`, occurrence };
}

/**
 * The ledger entry the batch row `<alias>` is credited by already, or null: its own once applied;
 * the entry under its ledger reference; or, for a row without a reference, the n-th (its
 * occurrence) of the line-keyed entries an earlier version wrote (`bulk:<hash prefix>:<line>`,
 * kept as they were) with the same points and reason. Each lookup walks the ledger's
 * (user, source, reference) index.
 */
const creditedEntry = (alias: string) =>
  sql.raw(`coalesce(${alias}.ledger_id,
    (select l.id from points_ledger l
      where l.user_id = ${alias}.user_id and l.source = 'bulk' and l.reference = ${alias}.ledger_reference),
    (select l.id from points_ledger l
      where ${alias}.occurrence is not null and l.user_id = ${alias}.user_id and l.source = 'bulk'
        and l.reference ~ '^bulk:[0-9a-f]{16}:[0-9]+$' and l.points = ${alias}.points and l.reason = ${alias}.reason
      order by l.id offset ${alias}.occurrence - 1 limit 1))`);

const PARTICIPANT_ID = /^\d{1,10}$/;
const WHOLE_NUMBER = /^[+-]?\d{1,15}$/;

/** The rows of an opened file, read to the end (422 over the row limit), and the content hash. */
async function readRows(table: OpenedTable, index: Record<BulkColumn, number | null>): Promise<{ rows: ReadRow[]; hash: string }> {
  const hash = createHash('sha256');
  const rows: ReadRow[] = [];
  const cell = (cells: string[], column: BulkColumn) => {
    const at = index[column];
    return at === null ? '' : (cells[at] ?? '');
  };
  for await (const { line, cells } of table.rows) {
    if (rows.length >= POINTS_BULK_LIMITS.maxRows) {
      throw new ApiError(422, 'too_many_rows', `At most ${POINTS_BULK_LIMITS.maxRows.toLocaleString('en-GB')} rows in one file: split it in several`);
    }
    const reference = cell(cells, 'reference');
    const row = {
      line,
      participant: cell(cells, 'participant'),
      pointsText: cell(cells, 'points'),
      reason: cell(cells, 'reason'),
      reference: reference === '' ? null : reference,
    };
    hash.update(`${JSON.stringify([row.participant, row.pointsText, row.reason, row.reference ?? ''])}\n`);
    rows.push(row);
  }
  if (rows.length === 0) throw new ApiError(422, 'file_empty', 'The file has a header but no rows');
  return { rows, hash: hash.digest('hex') };
}

interface Account {
  id: number;
  email: string;
  status: User['status'];
}

/** Accounts by id and by email (lower case), looked up a chunk at a time. */
async function lookUpAccounts(
  db: Db,
  rows: readonly ReadRow[],
  onChunk: (done: number) => void,
): Promise<{ byId: Map<number, Account>; byEmail: Map<string, Account> }> {
  const byId = new Map<number, Account>();
  const byEmail = new Map<string, Account>();
  for (let at = 0; at < rows.length; at += CHUNK) {
    const chunk = rows.slice(at, at + CHUNK);
    const ids = new Set<number>();
    const emails = new Set<string>();
    for (const row of chunk) {
      if (PARTICIPANT_ID.test(row.participant)) {
        const id = Number(row.participant);
        if (id <= 2_147_483_647 && !byId.has(id)) ids.add(id);
      } else if (row.participant.includes('@')) {
        const email = row.participant.toLowerCase();
        if (!byEmail.has(email)) emails.add(email);
      }
    }
    if (ids.size > 0 || emails.size > 0) {
      const found = await queryRows<Account>(
        db,
        sql`select id, email, status from users
            where id = any(array(select (json_array_elements_text(${JSON.stringify([...ids])}::json))::int))
               or lower(email) = any(array(select json_array_elements_text(${JSON.stringify([...emails])}::json)))`,
      );
      for (const account of found) {
        byId.set(account.id, account);
        byEmail.set(account.email.toLowerCase(), account);
      }
    }
    onChunk(Math.min(rows.length, at + CHUNK));
  }
  return { byId, byEmail };
}

/**
 * How a row taking points below zero `available` starts its problem: apply with `allowNegative`
 * finds these rows by it (their only problem) and applies them after all.
 */
const BELOW_ZERO = 'Would take the participant’s available points below zero';

const MESSAGES = {
  required: 'Required',
  unknownParticipant: 'Unknown participant',
  notParticipant: 'Enter an email or a Fieldwork id',
  disabled: 'Disabled account',
  wholeNumber: 'Enter a whole number, e.g. 50 or -20',
  zero: 'Enter a number other than 0',
  outOfRange: `At most ${POINTS_LIMITS.adjustmentMax.toLocaleString('en-GB')} either way`,
  reasonTooLong: `Too long (at most ${POINTS_LIMITS.reasonMax} characters)`,
  referenceTooLong: `Too long (at most ${POINTS_LIMITS.referenceMax} characters)`,
  duplicateReference: (line: number) => `Same reference as line ${line}`,
  belowZero: (available: number) => `${BELOW_ZERO} (${available.toLocaleString('en-GB')} available)`,
} as const;

/** Checks every row against the accounts (looked up in sets) and the file itself (duplicate references). */
async function checkRows(db: Db, rows: readonly ReadRow[], progress: BulkProgress): Promise<CheckedRow[]> {
  const { byId, byEmail } = await lookUpAccounts(db, rows, (done) => progress('checking', Math.round(done * 0.8), rows.length));
  const references = new Map<string, number>();
  const occurrences = new Map<string, number>();
  const checked: CheckedRow[] = [];
  for (const row of rows) {
    const problems: CheckedRow['problems'] = [];
    let userId: number | null = null;
    if (row.participant === '') problems.push({ column: 'participant', message: MESSAGES.required });
    else {
      const account = PARTICIPANT_ID.test(row.participant) ? byId.get(Number(row.participant)) : byEmail.get(row.participant.toLowerCase());
      if (!account)
        problems.push({
          column: 'participant',
          message: PARTICIPANT_ID.test(row.participant) || row.participant.includes('@') ? MESSAGES.unknownParticipant : MESSAGES.notParticipant,
        });
      else if (account.status === 'disabled') {
        userId = account.id;
        problems.push({ column: 'participant', message: MESSAGES.disabled });
      } else userId = account.id;
    }
    let points: number | null = null;
    if (row.pointsText === '') problems.push({ column: 'points', message: MESSAGES.required });
    else if (!WHOLE_NUMBER.test(row.pointsText)) problems.push({ column: 'points', message: MESSAGES.wholeNumber });
    else {
      const value = Number(row.pointsText);
      if (value === 0) problems.push({ column: 'points', message: MESSAGES.zero });
      else if (Math.abs(value) > POINTS_LIMITS.adjustmentMax) problems.push({ column: 'points', message: MESSAGES.outOfRange });
      else points = value;
    }
    if (row.reason === '') problems.push({ column: 'reason', message: MESSAGES.required });
    else if (row.reason.length > POINTS_LIMITS.reasonMax) problems.push({ column: 'reason', message: MESSAGES.reasonTooLong });
    if (row.reference !== null) {
      if (row.reference.length > POINTS_LIMITS.referenceMax) problems.push({ column: 'reference', message: MESSAGES.referenceTooLong });
      const first = references.get(row.reference);
      if (first !== undefined) problems.push({ column: 'reference', message: MESSAGES.duplicateReference(first) });
      else references.set(row.reference, row.line);
    }
    const key = userId !== null && points !== null ? ledgerReferenceOf({ userId, points, reason: row.reason, reference: row.reference }, occurrences) : null;
    checked.push({ ...row, userId, points, problems, ledgerReference: key?.ledgerReference ?? null, occurrence: key?.occurrence ?? null });
  }
  await flagBelowZero(db, checked);
  progress('checking', rows.length, rows.length);
  return checked;
}

/**
 * The rows that take points away from someone whose available points (held ones taken off) plus
 * the file's other clean rows for them would end below zero: a problem on each such row (the
 * whole file is applied at once, so it is the participant's total that counts, not the order of
 * the rows). Apply checks again under the participants' locks.
 */
async function flagBelowZero(db: Db, rows: CheckedRow[]): Promise<void> {
  const net = new Map<number, number>();
  for (const row of rows)
    if (row.problems.length === 0 && row.userId !== null && row.points !== null) net.set(row.userId, (net.get(row.userId) ?? 0) + row.points);
  const takers = [...new Set(rows.filter((row) => row.problems.length === 0 && row.points !== null && row.points < 0).map((row) => row.userId as number))];
  if (takers.length === 0) return;
  const available = new Map<number, number>();
  for (let at = 0; at < takers.length; at += CHUNK) {
    const found = await queryRows<{ user_id: number; available: number | string }>(
      db,
      sql`select user_id, ${availableSql('points_ledger')}::bigint as available from points_ledger
          where user_id = any(${sql.param(takers.slice(at, at + CHUNK))}::int[]) group by user_id`,
    );
    for (const row of found) available.set(Number(row.user_id), Number(row.available));
  }
  for (const row of rows) {
    if (row.problems.length > 0 || row.userId === null || row.points === null || row.points >= 0) continue;
    const now = available.get(row.userId) ?? 0;
    if (now + (net.get(row.userId) ?? 0) < 0) row.problems.push({ column: 'points', message: MESSAGES.belowZero(now) });
  }
}

/** The summary of checked rows (fresh or stored): counts, totals of the clean rows, the first problems. */
function summarize(rows: readonly Pick<CheckedRow, 'line' | 'userId' | 'points' | 'problems'>[]) {
  const counts: BulkProblemCounts = {
    unknownParticipants: 0,
    disabledAccounts: 0,
    invalidPoints: 0,
    invalidReasons: 0,
    duplicateReferences: 0,
    insufficientPoints: 0,
  };
  const totals: BulkTotals = { positive: 0, negative: 0, net: 0, participants: 0 };
  const people = new Set<number>();
  const problems: BulkProblem[] = [];
  let matched = 0;
  let problemRows = 0;
  let problemCount = 0;
  for (const row of rows) {
    const disabled = row.problems.some((p) => p.column === 'participant' && p.message === MESSAGES.disabled);
    if (row.userId !== null && !disabled) matched += 1;
    if (row.problems.length > 0) {
      problemRows += 1;
      problemCount += row.problems.length;
      for (const problem of row.problems) {
        if (problem.column === 'participant') counts[problem.message === MESSAGES.disabled ? 'disabledAccounts' : 'unknownParticipants'] += 1;
        else if (problem.column === 'points') counts[problem.message.startsWith(BELOW_ZERO) ? 'insufficientPoints' : 'invalidPoints'] += 1;
        else if (problem.column === 'reason') counts.invalidReasons += 1;
        else if (problem.column === 'reference' && problem.message.startsWith('Same reference')) counts.duplicateReferences += 1;
        if (problems.length < POINTS_BULK_LIMITS.problemsInAnswer) problems.push({ line: row.line, column: problem.column, message: problem.message });
      }
      continue;
    }
    if (row.points === null || row.userId === null) continue;
    if (row.points > 0) totals.positive += row.points;
    else totals.negative += row.points;
    people.add(row.userId);
  }
  totals.net = totals.positive + totals.negative;
  totals.participants = people.size;
  return { counts, totals, problems, matched, problemRows, problemCount, cleanRows: rows.length - problemRows };
}

/** Clean rows of a batch credited already (applying leaves them as they are): how many, and the first lines. */
async function creditedRows(db: Db, batchId: number): Promise<{ count: number; lines: number[] }> {
  const rows = await queryRows<{ line: number; total: number }>(
    db,
    sql`select r.line, count(*) over ()::int as total from points_batch_rows r
        where r.batch_id = ${batchId} and r.problems = '[]'::jsonb and ${creditedEntry('r')} is not null
        order by r.line limit ${POINTS_BULK_LIMITS.problemsInAnswer}`,
  );
  return { count: rows[0]?.total ?? 0, lines: rows.map((row) => row.line) };
}

function previewOf(batch: PointsBatch, summary: ReturnType<typeof summarize>, credited: { count: number; lines: number[] }): BulkPreview {
  return {
    batchId: batch.id,
    status: batch.status,
    fileName: batch.fileName,
    columns: batch.columnMap as unknown as BulkColumnMap,
    rows: batch.rows,
    matched: summary.matched,
    cleanRows: summary.cleanRows,
    problemRows: summary.problemRows,
    problemCount: summary.problemCount,
    counts: summary.counts,
    problems: summary.problems,
    totals: summary.totals,
    alreadyCredited: credited.count,
    alreadyCreditedLines: credited.lines,
    appliedAt: batch.appliedAt?.toISOString() ?? null,
  };
}

/** The preview of a stored batch, from its rows. */
export async function storedPreview(db: Db, batch: PointsBatch): Promise<BulkPreview> {
  const rows = await db
    .select({ line: pointsBatchRows.line, userId: pointsBatchRows.userId, points: pointsBatchRows.points, problems: pointsBatchRows.problems })
    .from(pointsBatchRows)
    .where(eq(pointsBatchRows.batchId, batch.id))
    .orderBy(pointsBatchRows.line);
  return previewOf(batch, summarize(rows.map((row) => ({ ...row, problems: row.problems as CheckedRow['problems'] }))), await creditedRows(db, batch.id));
}

export interface PreviewInput {
  table: OpenedTable;
  fileName: string;
  columns: BulkColumnMapInput | null;
  actorId: number;
}

/**
 * `POST …/preview`: reads and checks the file and stores it as a batch (`previewed`), replacing
 * the rows of the same content previewed before; content applied before answers that batch
 * unchanged. 422 for what cannot be read (columns, rows over the limit, an empty file).
 */
export async function previewBatch(db: Db, clock: Clock, input: PreviewInput, progress: BulkProgress = () => {}): Promise<BulkPreview> {
  const { map, index } = matchColumns(input.table.headers, input.columns);
  const { rows, hash } = await readRows(input.table, index);

  const [known] = await db.select().from(pointsBatches).where(eq(pointsBatches.contentHash, hash)).limit(1);
  if (known?.status === 'applied') return storedPreview(db, known);

  const checked = await checkRows(db, rows, progress);
  const summary = summarize(checked);
  const now = clock.now();
  const values = {
    contentHash: hash,
    fileName: input.fileName,
    columnMap: map as unknown as Record<string, string | null>,
    rows: rows.length,
    matched: summary.matched,
    problemCount: summary.problemCount,
    totalPositive: summary.totals.positive,
    totalNegative: summary.totals.negative,
    createdBy: input.actorId,
    createdAt: now,
  };
  const changes: Partial<typeof values> = { ...values };
  delete changes.contentHash;
  return db.transaction(async (tx) => {
    // Same content previewed before: its row is updated (and locked), unless it was applied meanwhile.
    const [batch] = await tx
      .insert(pointsBatches)
      .values(values)
      .onConflictDoUpdate({ target: pointsBatches.contentHash, set: changes, setWhere: eq(pointsBatches.status, 'previewed') })
      .returning();
    if (!batch) {
      const [applied] = await tx.select().from(pointsBatches).where(eq(pointsBatches.contentHash, hash)).limit(1);
      if (!applied) throw new Error('points batch: no row for its content hash after a conflict');
      return storedPreview(tx, applied);
    }
    await tx.delete(pointsBatchRows).where(eq(pointsBatchRows.batchId, batch.id));
    for (let at = 0; at < checked.length; at += CHUNK) {
      const chunk = checked.slice(at, at + CHUNK).map((row) => ({
        line: row.line,
        participant: row.participant,
        user_id: row.userId,
        points_text: row.pointsText,
        points: row.points,
        reason: row.reason,
        reference: row.reference,
        problems: row.problems,
        ledger_reference: row.ledgerReference,
        occurrence: row.occurrence,
      }));
      await tx.execute(sql`
        insert into points_batch_rows (batch_id, line, participant, user_id, points_text, points, reason, reference, problems, ledger_reference, occurrence)
        select ${batch.id}, line, participant, user_id, points_text, points, reason, reference, problems, ledger_reference, occurrence
        from json_to_recordset(${JSON.stringify(chunk)}::json)
          as t(line int, participant text, user_id int, points_text text, points int, reason text, reference text, problems jsonb,
               ledger_reference text, occurrence int)`);
      progress('saving', Math.min(checked.length, at + CHUNK), checked.length);
    }
    return previewOf(batch, summary, await creditedRows(tx, batch.id));
  });
}

// ---------------------------------------------------------------------------------------------
// Applying

export interface ApplyInput {
  batchId: number;
  excludeProblemRows: boolean;
  /** Apply rows taking available points below zero too (their only problem is that). */
  allowNegative?: boolean;
  actorId: number;
  ip: string;
}

/**
 * `POST …/{batchId}/apply`: writes the batch's clean rows to the ledger in one transaction, or
 * nothing. A batch applied before answers `alreadyApplied` and changes nothing (two admins at
 * once: the second waits for the first's lock and gets that answer). 404 for an unknown batch;
 * 422 `batch_has_problems` for a batch with problems unless `excludeProblemRows`; 409
 * `participants_changed` when an account of a clean row was disabled or deleted since the preview;
 * 409 `insufficient_points` when, under the locks of the participants it takes points from (in
 * ascending id order), a participant's available points would end below zero, unless
 * `allowNegative` (which also applies the rows the preview flagged for it).
 */
export async function applyBatch(db: Db, clock: Clock, input: ApplyInput, progress: BulkProgress = () => {}): Promise<BulkApplyResult> {
  return db.transaction(async (tx) => {
    const [batch] = await tx.select().from(pointsBatches).where(eq(pointsBatches.id, input.batchId)).for('update');
    if (!batch) throw new ApiError(404, 'not_found', 'No such batch');
    if (batch.status === 'applied')
      return { applied: 0, alreadyApplied: true, alreadyCredited: 0, skipped: 0, batch: (await batchItems(tx, [batch]))[0] as BulkBatchItem };

    if (input.allowNegative) {
      // The rows whose only problem is going below zero are applied after all: the admin said so.
      await tx.execute(sql`
        update points_batch_rows set problems = '[]'::jsonb
        where batch_id = ${batch.id} and problems <> '[]'::jsonb
          and not exists (select 1 from jsonb_array_elements(problems) p where left(p->>'message', ${BELOW_ZERO.length}) <> ${BELOW_ZERO})`);
    }
    const clean = sql`${pointsBatchRows.batchId} = ${batch.id} and ${pointsBatchRows.problems} = '[]'::jsonb`;
    const [tally] = await tx
      .select({
        clean: sql<number>`count(*) filter (where ${clean})`.mapWith(Number),
        problems: sql<number>`count(*) filter (where not (${clean}))`.mapWith(Number),
        unkeyed: sql<number>`count(*) filter (where ${clean} and ${pointsBatchRows.ledgerReference} is null)`.mapWith(Number),
      })
      .from(pointsBatchRows)
      .where(eq(pointsBatchRows.batchId, batch.id));
    const cleanRows = tally?.clean ?? 0;
    const problemRows = tally?.problems ?? 0;
    if (problemRows > 0 && !input.excludeProblemRows) {
      throw new ApiError(
        422,
        'batch_has_problems',
        `The file has problems on ${problemRows} ${problemRows === 1 ? 'row' : 'rows'}: fix the file and preview it again, or apply the clean rows only`,
        { details: { problemRows } },
      );
    }
    if (cleanRows === 0) throw new ApiError(422, 'nothing_to_apply', 'No row of this file can be applied');
    // Previewed by a version without ledger references (decision 015): its rows are keyed by a new preview.
    if ((tally?.unkeyed ?? 0) > 0)
      throw new ApiError(409, 'preview_outdated', 'This preview was made by an earlier version of Fieldwork: preview the file again');

    // The accounts may have changed since the preview.
    const changed = await queryRows<{ line: number }>(
      tx,
      sql`select r.line from points_batch_rows r left join users u on u.id = r.user_id
          where r.batch_id = ${batch.id} and r.problems = '[]'::jsonb and (u.id is null or u.status = 'disabled')
          order by r.line limit 10`,
    );
    if (changed.length > 0) {
      throw new ApiError(
        409,
        'participants_changed',
        `Some participants were disabled or removed since the preview (line ${changed.map((row) => row.line).join(', ')}${changed.length === 10 ? ', …' : ''}): preview the file again`,
      );
    }

    if (!input.allowNegative) await checkAvailable(tx, batch.id);

    const now = clock.now();
    let done = 0;
    let applied = 0;
    let lastLine = 0;
    progress('applying', 0, cleanRows);
    for (;;) {
      const [bound] = await queryRows<{ line: number | null }>(
        tx,
        sql`select max(line) as line from (select line from points_batch_rows where batch_id = ${batch.id} and problems = '[]'::jsonb and line > ${lastLine} order by line limit ${CHUNK}) t`,
      );
      const upTo = bound?.line ?? null;
      if (upTo === null) break;
      // Three set-based statements a chunk, each a nested loop over indexes whatever the
      // planner guesses of fresh rows: rows credited before, the ledger rows of the others,
      // then their ids.
      const chunk = sql`r.batch_id = ${batch.id} and r.problems = '[]'::jsonb and r.line > ${lastLine} and r.line <= ${upTo}`;
      await tx.execute(sql`
        update points_batch_rows t set result = 'already_applied', ledger_id = c.id
        from (select r.line, ${creditedEntry('r')} as id from points_batch_rows r where ${chunk}) c
        where t.batch_id = ${batch.id} and t.line = c.line and c.id is not null`);
      const credited = await queryRows<LedgerEntry>(
        tx,
        sql`insert into points_ledger (user_id, points, state, reason, source, reference, created_by, created_at, state_changed_at)
            select r.user_id, r.points, 'available', r.reason, 'bulk', r.ledger_reference, ${input.actorId}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
            from points_batch_rows r
            where ${chunk} and r.result is null
            order by r.line
            on conflict (user_id, source, reference) do nothing
            returning ${ledgerEntryColumns()}`,
      );
      await recordPointsEvents(tx, credited, 'created');
      const inserted = { rows: credited.length };
      const [marked] = await queryRows<{ rows: number }>(
        tx,
        sql`with marked as (
              update points_batch_rows r set result = 'applied', ledger_id = l.id
              from points_ledger l
              where ${chunk} and r.result is null and l.user_id = r.user_id and l.source = 'bulk' and l.reference = r.ledger_reference
              returning 1
            )
            select count(*)::int as rows from marked`,
      );
      // Each participant is told of the rows credited now (issue 28 §9; one mail for the apply, by the batched sweep).
      await notifyPointsChanges(
        tx,
        now,
        await queryRows<PointsChange>(
          tx,
          sql`select r.user_id as "userId", r.points, r.reason, r.ledger_id as "ledgerId" from points_batch_rows r where ${chunk} and r.result = 'applied'`,
        ),
      );
      const [chunkRows] = await queryRows<{ rows: number }>(tx, sql`select count(*)::int as rows from points_batch_rows r where ${chunk}`);
      const result = { rows: chunkRows?.rows ?? 0, applied: Math.min(inserted?.rows ?? 0, marked?.rows ?? 0) };
      done += result?.rows ?? 0;
      applied += result?.applied ?? 0;
      lastLine = upTo;
      progress('applying', done, cleanRows);
    }
    if (problemRows > 0) {
      await tx
        .update(pointsBatchRows)
        .set({ result: 'skipped' })
        .where(and(eq(pointsBatchRows.batchId, batch.id), ne(pointsBatchRows.problems, sql`'[]'::jsonb`)));
    }
    const [updated] = await tx
      .update(pointsBatches)
      .set({ status: 'applied', appliedBy: input.actorId, appliedAt: now, excludedProblemRows: problemRows > 0, appliedRows: applied })
      .where(eq(pointsBatches.id, batch.id))
      .returning();
    if (!updated) throw new Error('points batch vanished while applied');
    const alreadyCredited = done - applied;
    await audit(tx, {
      actorId: input.actorId,
      via: 'api',
      action: 'points.bulk_apply',
      targetType: 'points_batch',
      targetId: batch.id,
      after: {
        fileName: batch.fileName,
        contentHash: batch.contentHash,
        rows: batch.rows,
        applied,
        alreadyCredited,
        skipped: problemRows,
        totalPositive: batch.totalPositive,
        totalNegative: batch.totalNegative,
      },
      ip: input.ip,
    });
    return { applied, alreadyApplied: false, alreadyCredited, skipped: problemRows, batch: (await batchItems(tx, [updated]))[0] as BulkBatchItem };
  });
}

/**
 * Locks every participant the batch's clean rows take points from (ascending id: one order for
 * every apply, adjustment and redemption, so they queue rather than deadlock), then refuses (409
 * `insufficient_points`) when one's available points plus their rows still to apply would end
 * below zero: the balance may have moved since the preview (a reward requested meanwhile).
 */
async function checkAvailable(tx: Db, batchId: number): Promise<void> {
  const takers = await queryRows<{ user_id: number }>(
    tx,
    sql`select distinct user_id from points_batch_rows where batch_id = ${batchId} and problems = '[]'::jsonb and points < 0 order by user_id`,
  );
  if (takers.length === 0) return;
  const ids = takers.map((row) => Number(row.user_id));
  await queryRows(tx, sql`select id from users where id = any(${sql.param(ids)}::int[]) order by id for no key update`);
  const [short] = await queryRows<{ user_id: number; available: number | string; lines: number[] }>(
    tx,
    sql`with todo as (
          select r.user_id, sum(r.points) as net, array_agg(r.line order by r.line) filter (where r.points < 0) as lines
          from points_batch_rows r
          where r.batch_id = ${batchId} and r.problems = '[]'::jsonb and r.user_id = any(${sql.param(ids)}::int[]) and ${creditedEntry('r')} is null
          group by r.user_id
        ), balances as (
          select user_id, ${availableSql('points_ledger')} as available from points_ledger
          where user_id = any(${sql.param(ids)}::int[]) group by user_id
        )
        select t.user_id, coalesce(b.available, 0)::bigint as available, t.lines
        from todo t left join balances b on b.user_id = t.user_id
        where coalesce(b.available, 0) + t.net < 0 and t.lines is not null
        order by t.user_id limit 1`,
  );
  if (!short) return;
  const [user] = await tx.select({ firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(eq(users.id, short.user_id));
  const refusal = belowZero(user ? personName(user) : `participant ${short.user_id}`, Number(short.available));
  const lines = short.lines.slice(0, 10).join(', ');
  throw new ApiError(409, 'insufficient_points', `Line ${lines}: ${refusal.message}`, {
    details: { available: Number(short.available), lines: short.lines.slice(0, 10) },
  });
}

// ---------------------------------------------------------------------------------------------
// History and downloads

export async function findBatch(db: Db, id: number): Promise<PointsBatch | null> {
  const [batch] = await db.select().from(pointsBatches).where(eq(pointsBatches.id, id)).limit(1);
  return batch ?? null;
}

const personOf = (user: Pick<User, 'id' | 'firstName' | 'lastName' | 'email'> | undefined): BulkPerson | null =>
  user ? { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() || user.email, email: user.email } : null;

async function batchItems(db: Db, batches: readonly PointsBatch[]): Promise<BulkBatchItem[]> {
  const ids = [...new Set(batches.flatMap((b) => [b.createdBy, b.appliedBy]).filter((id): id is number => id !== null))];
  const people =
    ids.length === 0
      ? []
      : await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(inArray(users.id, ids));
  const byId = new Map(people.map((p) => [p.id, p]));
  return batches.map((b) => ({
    id: b.id,
    fileName: b.fileName,
    status: b.status,
    rows: b.rows,
    matched: b.matched,
    problemCount: b.problemCount,
    totals: { positive: b.totalPositive, negative: b.totalNegative, net: b.totalPositive + b.totalNegative },
    createdAt: b.createdAt.toISOString(),
    createdBy: personOf(b.createdBy === null ? undefined : byId.get(b.createdBy)),
    appliedAt: b.appliedAt?.toISOString() ?? null,
    appliedBy: personOf(b.appliedBy === null ? undefined : byId.get(b.appliedBy)),
    appliedRows: b.appliedRows,
    excludedProblemRows: b.excludedProblemRows,
  }));
}

/** `GET …/batches`: the history, newest first. */
export async function listBatches(db: Db, query: Pick<ListQuery, 'page' | 'pageSize'>): Promise<ListPage<BulkBatchItem>> {
  return paginate(query, {
    rows: async (limit, offset) =>
      batchItems(db, await db.select().from(pointsBatches).orderBy(desc(pointsBatches.createdAt), desc(pointsBatches.id)).limit(limit).offset(offset)),
    count: async () => (await db.select({ value: count() }).from(pointsBatches))[0]?.value ?? 0,
  });
}

/** `GET …/{batchId}/problems.csv`: every problem, by line (formula-safe). */
export async function problemsCsv(db: Db, batchId: number): Promise<string> {
  const rows = await db
    .select({ line: pointsBatchRows.line, problems: pointsBatchRows.problems })
    .from(pointsBatchRows)
    .where(and(eq(pointsBatchRows.batchId, batchId), ne(pointsBatchRows.problems, sql`'[]'::jsonb`)))
    .orderBy(pointsBatchRows.line);
  const cells: CsvCell[][] = rows.flatMap((row) => row.problems.map((p) => [row.line, p.column, p.message]));
  return `\uFEFF${csvRows(cells, ['line', 'column', 'problem'])}\r\n`;
}

const RESULT_WORDS: Record<string, string> = { applied: 'applied', already_applied: 'already applied (credited before)', skipped: 'not applied' };

/**
 * `GET …/{batchId}/rows.csv`: every row as read, with its result (applied, already applied, or
 * not applied and why; before apply, not applied yet or already credited), the account it went to
 * and the ledger entry: what operations reconcile against their own sheet. Streamed by line.
 */
export function rowsCsv(db: Db, batch: PointsBatch): ReadableStream<Uint8Array> {
  const header = ['line', 'participant', 'user id', 'points', 'reason', 'reference', 'result', 'problems', 'ledger id'];
  // Before apply, a clean row's entry when it was credited before (applying leaves it as it is).
  const credited =
    batch.status === 'applied'
      ? pointsBatchRows.ledgerId
      : sql<number | null>`case when ${pointsBatchRows.problems} = '[]'::jsonb then ${creditedEntry('points_batch_rows')} end`;
  return keysetCsvStream(
    header,
    async (afterLine, limit) =>
      (
        await db
          .select({ row: pointsBatchRows, credited })
          .from(pointsBatchRows)
          .where(and(eq(pointsBatchRows.batchId, batch.id), gt(pointsBatchRows.line, afterLine)))
          .orderBy(pointsBatchRows.line)
          .limit(limit)
      ).map(({ row, credited }) => ({ ...row, credited, id: row.line })),
    (row) => [
      row.line,
      row.participant,
      row.userId,
      row.points ?? row.pointsText,
      row.reason,
      row.reference,
      row.result !== null
        ? (RESULT_WORDS[row.result] ?? row.result)
        : batch.status === 'applied'
          ? 'not applied'
          : row.credited !== null
            ? 'already credited (left as it is)'
            : 'not applied yet',
      row.problems.map((p) => `${p.column}: ${p.message}`).join('; '),
      row.credited,
    ],
  );
}
