/**
 * Reviewing mission entries (moderators and admins): the queue, one submission with its history,
 * notes and probes, decisions (single and bulk approve), internal notes and a project's reason
 * templates.
 *
 * A decision runs in one transaction that first locks the entry's row (`select … for update`),
 * so decisions on one entry are serial: the status, the latest version's decision, the points,
 * the participant's notification and the audit row stand or fall together. Deciding what the entry
 * already is (same status, same reason) changes nothing, so twenty identical approvals make one.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, ne, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { z } from 'zod';
import { answerLanguageOf } from '../../shared/answers.ts';
import type { Answers } from '../../shared/forms/definition.ts';
import type { Language } from '../../shared/languages.ts';
import type { EntryStatus } from '../../shared/mission-entries.ts';
import type { UserRef } from '../../shared/projects.ts';
import { canonicalJson } from '../../shared/canonical-json.ts';
import {
  DECISION_STATUS,
  encodeInboxCursor,
  encodeQueueCursor,
  REVIEW_TOTAL_EXACT_MAX,
  type DecisionView,
  type ReasonTemplateView,
  type ReviewDecisionStatus,
  type ReviewInboxPage,
  type ReviewDecision,
  type ReviewNoteView,
  type ReviewQueueCursor,
  type ReviewQueueItem,
  type ReviewQueuePage,
  type ReviewSubmission,
  type SubmissionVersion,
} from '../../shared/review.ts';
import type { reasonTemplateSchema, ReviewInboxQuery, reviewQueueQuerySchema } from '../../shared/schemas/review.ts';
import { addDays, utcMidnight } from '../../shared/calendar-day.ts';
import { parsedJson, queryRows, type Db } from '../db/index.ts';
import { preparedFor } from '../db/prepared.ts';
import {
  entryDecisions,
  entrySubmissions,
  missionEntries,
  missions,
  pointsLedger,
  probes,
  projects,
  reasonTemplates,
  reviewNotes,
  users,
  type EntrySubmission,
  type Mission,
  type MissionEntry,
} from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { countOf, listOrder } from './list.ts';
import { submissionDetail } from './missions.ts';
import type { JobSender } from '../jobs/queue.ts';
import { notify, notifyMany } from './notifications.ts';
import { missionEntryReason, syncEntryPoints } from './points.ts';
import { pointReference } from '../../shared/points.ts';
import { historyLink, notReviewable, probeViews } from './probes.ts';
import { notifyUnlockedMissions } from './new-work.ts';
import { iso } from './projects.ts';
import { containsPattern } from './search.ts';
import { answeredIn } from './list.ts';
import { ledgerEntryColumns, recordPointsEvents, recordWebhookEvent, recordWebhookEvents, type LedgerEntry } from './webhooks.ts';

export type ReviewQueueQuery = z.output<typeof reviewQueueQuerySchema>;
export type ReasonTemplateInput = z.output<typeof reasonTemplateSchema>;

const noSuchSubmission = () => new ApiError(404, 'not_found', 'No such submission');

/** Throws 404 `not_found` "No such mission" unless the mission exists (its id only: the queue reads nothing else of it). */
export async function requireMission(db: Db, id: number): Promise<void> {
  const [row] = await db.select({ id: missions.id }).from(missions).where(eq(missions.id, id)).limit(1);
  if (!row) throw new ApiError(404, 'not_found', 'No such mission');
}

/** Throws 404 `not_found` unless the entry exists (checked before a body is read, as every admin call does). */
export async function requireSubmission(db: Db, id: number): Promise<void> {
  const [row] = await db.select({ id: missionEntries.id }).from(missionEntries).where(eq(missionEntries.id, id)).limit(1);
  if (!row) throw noSuchSubmission();
}

const userRefColumns = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email };
/** When an entry counts for the date filters and the order: submitted, else created. */
const entryMoment = sql`coalesce(${missionEntries.submittedAt}, ${missionEntries.createdAt})`;
/** An unanswered probe on the entry. */
const probeWaiting = sql`exists (select 1 from ${probes} where ${probes.entryId} = ${missionEntries.id} and ${probes.answeredAt} is null)`;

// ---------------------------------------------------------------------------------------------
// The queue

/**
 * A page of the mission's entries for review (the list contract): drafts only with `status=draft`
 * (the screen asks `status=submitted` by default); `q` searches the participant's email and
 * names; `from`/`to` (UTC days, inclusive) bound when it was submitted (created, for drafts);
 * `probes=waiting` keeps entries with a probe waiting for the participant's answer. Sorted by
 * `submitted` (default, latest first) or `name` (the participant's last, then first name; A to Z).
 *
 * Paged by number (`page`, an offset) or, with `cursor` (the `nextCursor` of the page before), by
 * keyset: the rows after the cursor's row in the sort, whatever the depth. Each sort walks an index
 * in order (`mission_entries_queue_idx` for one status, `mission_entries_queue_reviewable_idx` for
 * every status but drafts, `users_name_idx` for names), so a page costs what its rows cost over
 * 200,000 entries; `total` is exact up to `REVIEW_TOTAL_EXACT_MAX`, else estimated (`totalEstimated`).
 */
export async function reviewQueue(db: Db, missionId: number, query: ReviewQueueQuery): Promise<ReviewQueuePage> {
  const conditions: SQL[] = [
    eq(missionEntries.missionId, missionId),
    // Literal, not a parameter: the predicate of `mission_entries_queue_reviewable_idx`.
    query.status ? eq(missionEntries.status, query.status) : sql`${missionEntries.status} <> 'draft'`,
  ];
  if (query.q) {
    const pattern = containsPattern(query.q);
    const search = or(ilike(users.email, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern));
    if (search) conditions.push(search);
  }
  if (query.from) conditions.push(sql`${entryMoment} >= ${utcMidnight(query.from).toISOString()}::timestamptz`);
  if (query.to) conditions.push(sql`${entryMoment} < ${utcMidnight(addDays(query.to, 1)).toISOString()}::timestamptz`);
  if (query.probes === 'waiting') conditions.push(probeWaiting);
  if (query.language) conditions.push(answeredIn(missionEntries.language, query.language));
  const where = and(...conditions);
  const dir = query.dir ?? (query.sort === 'name' ? 'asc' : 'desc');
  const order = listOrder(
    query,
    {
      submitted: { by: entryMoment, dir: 'desc' },
      name: { by: [lastNameKey, firstNameKey], dir: 'asc' },
    },
    missionEntries.id,
  );
  const after = query.cursor ? queueAfter(query.cursor) : undefined;
  // Every entry has its participant (a foreign key, deleted with them): the count joins them only to search.
  const join = { users: Boolean(query.q), missions: false };
  const limit = query.pageSize + 1;
  const offset = query.cursor ? 0 : (query.page - 1) * query.pageSize;
  // One statement: the page with each row's counts, and the bounded total on every row. The screen's
  // own view (one status, latest first, no filter, numbered pages) is prepared; any other is built.
  const plain =
    query.status !== undefined &&
    !query.q &&
    !query.from &&
    !query.to &&
    !query.probes &&
    !query.language &&
    !query.cursor &&
    query.sort === 'submitted' &&
    dir === 'desc';
  const rows = plain
    ? await plainQueuePage(db).execute({ missionId, status: query.status, limit, offset })
    : await db
        .select(queuePageColumns(boundedCount(db, where, join)))
        .from(missionEntries)
        .innerJoin(users, eq(users.id, missionEntries.userId))
        .where(after ? and(where, after) : where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
  // An entry proves its mission exists; with none, the mission is looked for (404) and counted apart.
  if (rows.length === 0) await requireMission(db, missionId);
  const firstPage = query.page === 1 && !query.cursor;
  const total = rows[0] ? await totalOf(db, rows[0].matched, where, join) : firstPage ? NO_MATCHES : await boundedTotal(db, where, join);
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.pageSize && last
      ? encodeQueueCursor(
          query.sort === 'name' ? { sort: 'name', dir, last: last.last, first: last.first, id: last.id } : { sort: 'submitted', dir, at: last.at, id: last.id },
        )
      : null;
  return { items: page.map(queueItem), total: total.total, page: query.page, pageSize: query.pageSize, nextCursor, totalEstimated: total.estimated };
}

/** What the queue's statement reads: a row, its counts, its sort keys (the cursor's), and the bounded total. */
function queuePageColumns(matched: SQL<number>) {
  return {
    ...queueRowColumns,
    ...queueCountColumns,
    at: sql<string>`to_char(${entryMoment} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    last: sql<string>`${lastNameKey}`,
    first: sql<string>`${firstNameKey}`,
    matched,
  };
}

/**
 * The review screen's default view, prepared once per database (docs/decisions/026-prepared-statements.md):
 * one mission, one status, latest first, a page by number. One plan suits every mission: the page
 * walks `mission_entries_queue_idx` backwards, and the bounded count walks the same index in the
 * same order until it has one more than `REVIEW_TOTAL_EXACT_MAX` (an order and a limit, so no plan
 * that reads the whole table can look cheaper, whatever the mission's size or the table's state).
 */
const plainQueuePage = preparedFor((db: Db) => {
  const where = and(eq(missionEntries.missionId, sql.placeholder('missionId')), eq(missionEntries.status, sql.placeholder('status')));
  const matched = sql<number>`(select count(*)::int from (select 1 from ${missionEntries} where ${where}
    order by ${entryMoment} desc, ${missionEntries.id} desc limit ${sql.raw(String(REVIEW_TOTAL_EXACT_MAX + 1))}) as matches)`;
  return db
    .select(queuePageColumns(matched))
    .from(missionEntries)
    .innerJoin(users, eq(users.id, missionEntries.userId))
    .where(where)
    .orderBy(desc(entryMoment), desc(missionEntries.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('review_queue_page');
});

/** The name sort's keys: the participant's last and first name, case-insensitive (`users_name_idx`). */
const lastNameKey = sql`lower(${users.lastName})`;
const firstNameKey = sql`lower(${users.firstName})`;

/** The rows after the cursor's row in its sort and direction (the id breaks ties, as in `listOrder`). */
function queueAfter(cursor: ReviewQueueCursor): SQL {
  const op = sql.raw(cursor.dir === 'asc' ? '>' : '<');
  const wide = sql.raw(cursor.dir === 'asc' ? '>=' : '<=');
  if (cursor.sort === 'submitted') return sql`(${entryMoment}, ${missionEntries.id}) ${op} (${cursor.at}::timestamptz, ${cursor.id})`;
  // The first comparison bounds the walk of the name index; the second is the exact keyset.
  return sql`(${lastNameKey}, ${firstNameKey}) ${wide} (${cursor.last}, ${cursor.first}) and (${lastNameKey}, ${firstNameKey}, ${missionEntries.id}) ${op} (${cursor.last}, ${cursor.first}, ${cursor.id})`;
}

/** Which tables the count must join: the participant only to search, the mission only to filter by project. */
interface CountJoins {
  users: boolean;
  missions: boolean;
}

/** The entries the filters keep, as a select of `1` (joined only where a filter reads the table). */
function matchesOf(db: Db, where: SQL | undefined, join: CountJoins) {
  let select = db
    .select({ one: sql<number>`1` })
    .from(missionEntries)
    .$dynamic();
  if (join.users) select = select.innerJoin(users, eq(users.id, missionEntries.userId));
  if (join.missions) select = select.innerJoin(missions, eq(missions.id, missionEntries.missionId));
  return select.where(where);
}

/**
 * How many entries the filters keep, counted exactly up to `REVIEW_TOTAL_EXACT_MAX` (an index walk
 * of at most that many rows, one more to tell): a column the queue's statement carries on every row,
 * computed once (an uncorrelated subquery).
 */
function boundedCount(db: Db, where: SQL | undefined, join: CountJoins): SQL<number> {
  return sql<number>`(select count(*)::int from (${matchesOf(db, where, join).limit(REVIEW_TOTAL_EXACT_MAX + 1)}) as matches)`;
}

const NO_MATCHES = { total: 0, estimated: false } as const;

/**
 * The total from a bounded count: exact up to `REVIEW_TOTAL_EXACT_MAX`; beyond it the planner's
 * estimate of the same query, labelled `estimated` — an exact count of 200,000 rows would cost more
 * than the page itself.
 */
async function totalOf(db: Db, counted: number, where: SQL | undefined, join: CountJoins): Promise<{ total: number; estimated: boolean }> {
  if (counted <= REVIEW_TOTAL_EXACT_MAX) return { total: counted, estimated: false };
  return { total: Math.max(REVIEW_TOTAL_EXACT_MAX + 1, await estimatedRows(db, matchesOf(db, where, join))), estimated: true };
}

/** The total when the page has no row to carry it (a page past the end): its own bounded count. */
async function boundedTotal(db: Db, where: SQL | undefined, join: CountJoins): Promise<{ total: number; estimated: boolean }> {
  const counted = await countOf(
    db.select({ value: count() }).from(
      matchesOf(db, where, join)
        .limit(REVIEW_TOTAL_EXACT_MAX + 1)
        .as('matches'),
    ),
  );
  return totalOf(db, counted, where, join);
}

/**
 * The planner's estimate of a query's rows (`explain`), kept for `ESTIMATE_MAX_AGE_MS` per database
 * and query: the estimate comes from the table's statistics, which change only when PostgreSQL
 * analyzes the table again, so a minute adds little to how far it may be off, and a queue opened
 * again and again (a moderator paging, the sidebar) costs one statement instead of two.
 */
async function estimatedRows(db: Db, select: { toSQL(): { sql: string; params: unknown[] } } & SQLWrapper): Promise<number> {
  const { sql: text, params } = select.toSQL();
  const key = `${text}\u0000${JSON.stringify(params)}`;
  const cache = estimateCacheOf(db);
  const now = Date.now();
  const cached = cache.get(key);
  if (cached && now - cached.at < ESTIMATE_MAX_AGE_MS) return cached.rows;
  const [plan] = await queryRows<{ 'QUERY PLAN': unknown }>(db, sql`explain (format json) ${select}`);
  const parsed = parsedJson<unknown>(plan?.['QUERY PLAN']);
  const estimate = Array.isArray(parsed) ? Number((parsed[0] as { Plan?: { 'Plan Rows'?: unknown } } | undefined)?.Plan?.['Plan Rows']) : Number.NaN;
  const rows = Number.isFinite(estimate) ? Math.round(estimate) : 0;
  if (cache.size >= ESTIMATE_CACHE_MAX) cache.clear();
  cache.set(key, { rows, at: now });
  return rows;
}

/** How long a planner estimate of a queue's total is reused. */
export const ESTIMATE_MAX_AGE_MS = 60_000;
const ESTIMATE_CACHE_MAX = 1_000;
const estimateCaches = new WeakMap<Db, Map<string, { rows: number; at: number }>>();
function estimateCacheOf(db: Db): Map<string, { rows: number; at: number }> {
  let cache = estimateCaches.get(db);
  if (!cache) {
    cache = new Map();
    estimateCaches.set(db, cache);
  }
  return cache;
}

/** What a queue row reads of an entry and its participant. */
const queueRowColumns = {
  id: missionEntries.id,
  missionId: missionEntries.missionId,
  user: userRefColumns,
  status: missionEntries.status,
  submittedAt: missionEntries.submittedAt,
  submissionCount: missionEntries.submissionCount,
  localDate: missionEntries.localDate,
  createdAt: missionEntries.createdAt,
  language: missionEntries.language,
};

interface QueueRow {
  id: number;
  missionId: number;
  user: UserRef;
  status: EntryStatus;
  submittedAt: Date | null;
  submissionCount: number;
  localDate: string;
  createdAt: Date;
  language: Language | null;
}

/** The other entries a row's participant has in its mission, and the row's unanswered probes: correlated counts on their indexes. */
const queueCountColumns = {
  entriesOfUser: sql<number>`(select count(*)::int from ${missionEntries} as other_entries where other_entries.mission_id = ${missionEntries.missionId} and other_entries.user_id = ${missionEntries.userId})`,
  probesWaiting: sql<number>`(select count(*)::int from ${probes} where ${probes.entryId} = ${missionEntries.id} and ${probes.answeredAt} is null)`,
};

/** A queue row as the screen gets it. */
function queueItem(row: QueueRow & { entriesOfUser: number; probesWaiting: number }): ReviewQueueItem {
  return {
    id: row.id,
    user: row.user,
    status: row.status,
    submittedAt: iso(row.submittedAt),
    resubmission: row.submissionCount >= 2,
    localDate: row.localDate,
    createdAt: row.createdAt.toISOString(),
    entriesOfUser: Number(row.entriesOfUser),
    probesWaiting: Number(row.probesWaiting),
    language: answerLanguageOf(row.language),
  };
}

/**
 * `GET /api/admin/submissions`: the review inbox, the queue across every project (moderators and
 * admins review all of them, docs/product.md §2.5), oldest first on (moment, id) and paged by
 * keyset: each page starts after the `cursor` row, so a million entries cost what one page costs
 * (the index `mission_entries_waiting_idx (submitted_at, id) where status = 'submitted'` serves the
 * default queue). The moment is when the entry was submitted (created, for drafts; an entry of
 * another status without a submission time, which submitting never leaves, is not listed). Filters as the
 * mission queue's (`reviewQueue`), plus `projectId` and `missionId`; `status` `all` keeps every
 * status but drafts. `total` counts every row the filters keep (the cursor aside), exactly up to
 * `REVIEW_TOTAL_EXACT_MAX`, else estimated (`boundedTotal`).
 */
export async function reviewInbox(db: Db, query: ReviewInboxQuery): Promise<ReviewInboxPage> {
  // Every entry but a draft has its submission time (submitting sets it): order on the column itself,
  // as the indexes do (`mission_entries_waiting_idx`, `mission_entries_submitted_at_idx`); drafts on when they were made.
  const drafts = query.status === 'draft';
  const moment = drafts ? entryMoment : sql`${missionEntries.submittedAt}`;
  const conditions: SQL[] = [];
  if (query.status === 'all') conditions.push(ne(missionEntries.status, 'draft'));
  else conditions.push(eq(missionEntries.status, query.status));
  if (!drafts) conditions.push(isNotNull(missionEntries.submittedAt));
  if (query.missionId !== undefined) conditions.push(eq(missionEntries.missionId, query.missionId));
  if (query.projectId !== undefined) conditions.push(eq(missions.projectId, query.projectId));
  if (query.q) {
    const pattern = containsPattern(query.q);
    const search = or(ilike(users.email, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern));
    if (search) conditions.push(search);
  }
  if (query.from) conditions.push(sql`${moment} >= ${utcMidnight(query.from).toISOString()}::timestamptz`);
  if (query.to) conditions.push(sql`${moment} < ${utcMidnight(addDays(query.to, 1)).toISOString()}::timestamptz`);
  if (query.probes === 'waiting') conditions.push(probeWaiting);
  if (query.language) conditions.push(answeredIn(missionEntries.language, query.language));
  const where = and(...conditions);
  const after = query.cursor ? sql`(${moment}, ${missionEntries.id}) > (${query.cursor.at}::timestamptz, ${query.cursor.id})` : undefined;
  const join = { users: Boolean(query.q), missions: query.projectId !== undefined };
  // One statement, as the mission's queue: the page with each row's counts, the bounded total on every row.
  const rows = await db
    .select({
      ...queueRowColumns,
      ...queueCountColumns,
      at: sql<string>`to_char(${moment} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      mission: { id: missions.id, title: missions.title, points: missions.points },
      project: { id: projects.id, name: projects.name },
      matched: boundedCount(db, where, join),
    })
    .from(missionEntries)
    .innerJoin(users, eq(users.id, missionEntries.userId))
    .innerJoin(missions, eq(missions.id, missionEntries.missionId))
    .innerJoin(projects, eq(projects.id, missions.projectId))
    .where(after ? and(where, after) : where)
    .orderBy(asc(moment), asc(missionEntries.id))
    .limit(query.limit + 1);
  const total = rows[0] ? await totalOf(db, rows[0].matched, where, join) : query.cursor ? await boundedTotal(db, where, join) : NO_MATCHES;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({ ...queueItem(row), mission: row.mission, project: row.project })),
    nextCursor: rows.length > query.limit && last ? encodeInboxCursor({ at: last.at, id: last.id }) : null,
    total: total.total,
    totalEstimated: total.estimated,
  };
}

// ---------------------------------------------------------------------------------------------
// One submission

/** A left-joined person (null when there is none, e.g. an account since deleted). */
const userRef = (row: UserRef | null): UserRef | null => (row ? { id: row.id, firstName: row.firstName, lastName: row.lastName, email: row.email } : null);

const nullableUserRef = userRefColumns;

/** Every submission of the entry, oldest first, each with every decision taken on it (oldest first) and the latest repeated. */
async function versionsOf(db: Db, entry: MissionEntry): Promise<SubmissionVersion[]> {
  const [rows, decisionRows] = await Promise.all([
    db.select().from(entrySubmissions).where(eq(entrySubmissions.entryId, entry.id)).orderBy(asc(entrySubmissions.version)),
    db
      .select({ decision: entryDecisions, decidedBy: nullableUserRef })
      .from(entryDecisions)
      .leftJoin(users, eq(users.id, entryDecisions.decidedBy))
      .where(eq(entryDecisions.entryId, entry.id))
      .orderBy(asc(entryDecisions.id)),
  ]);
  const decisionsOf = new Map<number, DecisionView[]>();
  for (const { decision, decidedBy } of decisionRows) {
    const list = decisionsOf.get(decision.submissionId) ?? [];
    list.push({ decision: decision.decision, reason: decision.reason, decidedBy: userRef(decidedBy), decidedAt: decision.decidedAt.toISOString() });
    decisionsOf.set(decision.submissionId, list);
  }
  const versions: SubmissionVersion[] = rows.map((version) => {
    const decisions = decisionsOf.get(version.id) ?? [];
    const latest = decisions.at(-1);
    return {
      version: version.version,
      formVersion: version.formVersion,
      answers: version.answers,
      submittedAt: version.submittedAt.toISOString(),
      decision: latest?.decision ?? null,
      reason: latest?.reason ?? null,
      decidedBy: latest?.decidedBy ?? null,
      decidedAt: latest?.decidedAt ?? null,
      decisions,
    };
  });
  // An entry submitted before versions were kept: its one submission is the entry itself.
  if (versions.length === 0 && entry.status !== 'draft') {
    const decided = entry.status === 'submitted' ? null : entry.status;
    const decidedAt = iso(entry.reviewedAt);
    versions.push({
      version: 1,
      formVersion: entry.formVersion,
      answers: entry.answers,
      submittedAt: (entry.submittedAt ?? entry.createdAt).toISOString(),
      decision: decided,
      reason: entry.reviewReason,
      decidedBy: null,
      decidedAt,
      decisions: decided
        ? [{ decision: decided, reason: entry.reviewReason, decidedBy: null, decidedAt: decidedAt ?? (entry.submittedAt ?? entry.createdAt).toISOString() }]
        : [],
    });
  }
  return versions;
}

/** The internal notes of an entry, oldest first. */
async function notesOf(db: Db, entryId: number): Promise<ReviewNoteView[]> {
  const rows = await db
    .select({ note: reviewNotes, author: nullableUserRef })
    .from(reviewNotes)
    .leftJoin(users, eq(users.id, reviewNotes.authorId))
    .where(eq(reviewNotes.entryId, entryId))
    .orderBy(asc(reviewNotes.createdAt), asc(reviewNotes.id));
  return rows.map(({ note, author }) => ({ id: note.id, author: userRef(author), body: note.body, createdAt: note.createdAt.toISOString() }));
}

/**
 * `GET /api/admin/submissions/{id}`: the programme's detail (answers, the entry's own form
 * version, photos, the participant's other entries) with the review: whether it is a
 * resubmission, the current decision's reason and reviewer, every version, notes and probes.
 * 404 when unknown.
 */
export async function reviewSubmission(db: Db, id: number): Promise<ReviewSubmission> {
  const detail = await submissionDetail(db, id);
  const [row] = await db
    .select({ entry: missionEntries, missionTitle: missions.title, reviewedBy: nullableUserRef })
    .from(missionEntries)
    .innerJoin(missions, eq(missions.id, missionEntries.missionId))
    .leftJoin(users, eq(users.id, missionEntries.reviewedBy))
    .where(eq(missionEntries.id, id))
    .limit(1);
  if (!row) throw noSuchSubmission();
  if (!detail.definition) throw new Error(`entry ${id}: its form version ${detail.formVersion} is missing`);
  const [history, notes, probeList] = await Promise.all([versionsOf(db, row.entry), notesOf(db, id), probeViews(db, [id], { withAsker: true })]);
  return {
    ...detail,
    definition: detail.definition,
    missionTitle: row.missionTitle,
    resubmission: row.entry.submissionCount >= 2,
    reviewReason: row.entry.reviewReason,
    reviewedBy: userRef(row.reviewedBy),
    reviewedAt: iso(row.entry.reviewedAt),
    history,
    notes,
    probes: probeList.get(id) ?? [],
  };
}

// ---------------------------------------------------------------------------------------------
// Decisions

/** What a decision did to an entry (for the audit log). */
export interface DecisionOutcome {
  changed: boolean;
  before: { status: EntryStatus; reason: string | null };
  after: { status: EntryStatus; reason: string | null };
  /** The participant's unsubmitted edits the decision set aside (the entry went back to the version decided), kept for the audit log. */
  setAside?: Answers;
}

/** The participant's notification for each decision. */
function decisionNotice(status: 'approved' | 'changes_requested' | 'rejected', missionTitle: string, reason: string | null, points: number) {
  switch (status) {
    case 'changes_requested':
      return { kind: 'changes_requested', notice: { key: 'changes_requested', mission: missionTitle, reason } } as const;
    case 'rejected':
      return { kind: 'rejected', notice: { key: 'rejected', mission: missionTitle, reason } } as const;
    case 'approved':
      return { kind: 'approved', notice: { key: 'approved', mission: missionTitle, points } } as const;
  }
}

/** What the review screen says when the entry changed after it was loaded. */
export const CHANGED_MESSAGE = 'This entry changed while you were looking at it';

/** 409 `changed`: the entry is no longer in the status the moderator's screen showed; `current` says what it is now. */
export const entryChanged = (status: EntryStatus) => new ApiError(409, 'changed', CHANGED_MESSAGE, { details: { current: { status } } });

/**
 * The latest submitted version of a locked entry; an entry submitted before versions were kept
 * gets its version written now, from the entry as it is.
 */
async function latestVersion(tx: Db, clock: Clock, entry: MissionEntry): Promise<EntrySubmission> {
  const [latest] = await tx.select().from(entrySubmissions).where(eq(entrySubmissions.entryId, entry.id)).orderBy(desc(entrySubmissions.version)).limit(1);
  if (latest) return latest;
  const version = Math.max(1, entry.submissionCount);
  const [created] = await tx
    .insert(entrySubmissions)
    .values({ entryId: entry.id, version, formVersion: entry.formVersion, answers: entry.answers, submittedAt: entry.submittedAt ?? clock.now() })
    .returning();
  if (!created) throw new Error('insert returned no version');
  if (entry.submissionCount < version) await tx.update(missionEntries).set({ submissionCount: version }).where(eq(missionEntries.id, entry.id));
  return created;
}

/** The latest decision on the entry (who took it), or null. */
async function latestDecision(tx: Db, entryId: number): Promise<{ decision: ReviewDecisionStatus; reason: string | null; decidedBy: number | null } | null> {
  const [row] = await tx
    .select({ decision: entryDecisions.decision, reason: entryDecisions.reason, decidedBy: entryDecisions.decidedBy })
    .from(entryDecisions)
    .where(eq(entryDecisions.entryId, entryId))
    .orderBy(desc(entryDecisions.id))
    .limit(1);
  return row ?? null;
}

/**
 * Applies a decision to an entry whose row the caller has locked in `tx`. The decision is taken on
 * the latest submitted version and written as a new row of `entry_decisions` (earlier decisions
 * stay as they were). The entry takes the decision's status and reason; when the decision ends
 * the participant's editing (approved, rejected), the entry's answers become the decided version's
 * again (edits the participant had started after changes were asked are set aside, into the audit
 * row, and the revision moves on so their devices learn of it). Then the points
 * (`syncEntryPoints`) and the participant's notification.
 *
 * 409 `not_reviewable` for a draft. With `expectedStatus` (what the moderator's screen showed):
 * 409 `changed` when the entry is in another status now — unless it is already exactly what this
 * moderator decided (a retry after a dropped connection), which changes nothing. Without it,
 * deciding what the entry already is (same status, same reason) changes nothing.
 */
export async function applyDecision(
  tx: Db,
  clock: Clock,
  entry: MissionEntry,
  mission: Pick<Mission, 'id' | 'projectId' | 'title' | 'points'>,
  input: { decision: ReviewDecision; reason?: string | undefined; expectedStatus?: EntryStatus | undefined; actorId: number; jobs?: JobSender | undefined },
): Promise<DecisionOutcome> {
  if (entry.status === 'draft') throw notReviewable();
  const status = DECISION_STATUS[input.decision];
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  const before = { status: entry.status, reason: entry.reviewReason };
  const after = { status, reason };
  const same = entry.status === status && entry.reviewReason === reason;
  if (input.expectedStatus !== undefined && input.expectedStatus !== entry.status) {
    const latest = same ? await latestDecision(tx, entry.id) : null;
    if (latest && latest.decidedBy === input.actorId) return { changed: false, before, after };
    throw entryChanged(entry.status);
  }
  if (same) return { changed: false, before, after };
  const now = clock.now();
  const version = await latestVersion(tx, clock, entry);
  await tx.insert(entryDecisions).values({ entryId: entry.id, submissionId: version.id, decision: status, reason, decidedBy: input.actorId, decidedAt: now });
  const ends = status !== 'changes_requested';
  const setAside = ends && entry.status === 'changes_requested' && !sameJson(entry.answers, version.answers) ? entry.answers : undefined;
  await tx
    .update(missionEntries)
    .set({
      status,
      reviewReason: reason,
      reviewedBy: input.actorId,
      reviewedAt: now,
      ...(ends ? { answers: version.answers, formVersion: version.formVersion } : {}),
      ...(setAside ? { revision: sql`${missionEntries.revision} + 1`, updatedAt: now } : {}),
    })
    .where(eq(missionEntries.id, entry.id));
  await syncEntryPoints(tx, clock, entry, mission, status);
  await recordWebhookEvent(
    tx,
    'mission_entry.decided',
    { projectId: mission.projectId, missionId: mission.id, entryId: entry.id, userId: entry.userId, decision: status },
    mission.projectId,
  );
  // The mail of a request for changes or a rejection is queued in this transaction (`input.jobs`); approvals wait for the daily digest.
  await notify(tx, { userId: entry.userId, ...decisionNotice(status, mission.title, reason, mission.points), link: historyLink(mission.id) }, input.jobs);
  // An approval may open the next mission of an `in_order` group (issue 28 §15).
  if (status === 'approved') await notifyUnlockedMissions(tx, clock, [{ userId: entry.userId, missionId: mission.id }]);
  return setAside ? { changed: true, before, after, setAside } : { changed: true, before, after };
}

/** Equality of two JSON values whatever the order of their keys (jsonb reorders them). */
function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** Who decides, and from where (for the audit log). */
export interface Reviewer {
  actorId: number;
  ip: string | null;
}

/**
 * `POST /api/admin/submissions/{id}/review`: decides on one entry (any status but draft: a
 * decision can be changed later), audited `submission.review` with the status and reason before
 * and after. 404 when unknown; 409 `not_reviewable` for a draft; 409 `changed` when
 * `expectedStatus` is not the entry's status any more.
 */
export async function reviewEntry(
  db: Db,
  clock: Clock,
  entryId: number,
  input: { decision: ReviewDecision; reason?: string | undefined; expectedStatus?: EntryStatus | undefined },
  reviewer: Reviewer,
  jobs: JobSender,
): Promise<DecisionOutcome> {
  return db.transaction(async (tx) => {
    const [entry] = await tx.select().from(missionEntries).where(eq(missionEntries.id, entryId)).for('update');
    if (!entry) throw noSuchSubmission();
    const [mission] = await tx
      .select({ id: missions.id, projectId: missions.projectId, title: missions.title, points: missions.points })
      .from(missions)
      .where(eq(missions.id, entry.missionId));
    if (!mission) throw noSuchSubmission();
    const outcome = await applyDecision(tx, clock, entry, mission, { ...input, actorId: reviewer.actorId, jobs });
    if (outcome.changed) {
      await audit(tx, {
        actorId: reviewer.actorId,
        via: 'api',
        action: 'submission.review',
        targetType: 'mission_entry',
        targetId: entryId,
        before: outcome.setAside ? { ...outcome.before, unsubmittedAnswers: outcome.setAside } : outcome.before,
        after: { ...outcome.after, decision: input.decision, missionId: mission.id },
        ip: reviewer.ip,
      });
    }
    return outcome;
  });
}

/**
 * `POST /api/admin/submissions/review`: approves the given entries in one transaction. Only
 * entries waiting for review (`submitted`) are approved; everything else (unknown ids, drafts,
 * entries already decided — changes requested and being edited, rejected, approved) is counted in
 * `skipped` (an id given twice counts once). Audited `submission.review.bulk`.
 *
 * Set-based, the same writes as `applyDecision` on each entry in a handful of statements whatever
 * the count (docs/decisions/023-review-at-scale.md): the waiting entries are locked in id
 * order (two bulk approvals cannot deadlock) and read with their mission; a version is written for
 * any submitted before versions were kept; one decision row per entry on its latest version and
 * the entries approved (their answers those of that version); the points made available — a
 * missing credit inserted against the ledger's unique key (`on conflict do nothing`: never twice),
 * an existing one moved to `available`; one `approved` notification each; one audit row.
 */
export async function bulkApprove(db: Db, clock: Clock, ids: readonly number[], reviewer: Reviewer): Promise<{ approved: number; skipped: number }> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const now = clock.now();
    const at = sql`${now.toISOString()}::timestamptz`;
    // Only what the writes below need; a row locked by another decision is waited for and read as it is then.
    const rows = await tx
      .select({
        id: missionEntries.id,
        userId: missionEntries.userId,
        localDate: missionEntries.localDate,
        missionId: missions.id,
        projectId: missions.projectId,
        title: missions.title,
        points: missions.points,
      })
      .from(missionEntries)
      .innerJoin(missions, eq(missions.id, missionEntries.missionId))
      .where(and(inArray(missionEntries.id, unique), eq(missionEntries.status, 'submitted')))
      .orderBy(asc(missionEntries.id))
      .for('update', { of: missionEntries });
    const entryIds = sql`${sql.param(rows.map((row) => row.id))}::int[]`;
    if (rows.length > 0) {
      // An entry submitted before versions were kept: its version, from the entry as it is (`latestVersion`).
      await tx.execute(sql`
        with added as (
          insert into ${entrySubmissions} (entry_id, version, form_version, answers, submitted_at)
          select e.id, greatest(1, e.submission_count), e.form_version, e.answers, coalesce(e.submitted_at, ${at})
          from ${missionEntries} e
          where e.id = any(${entryIds}) and not exists (select 1 from ${entrySubmissions} s where s.entry_id = e.id)
          order by e.id
          returning entry_id, version
        )
        update ${missionEntries} e set submission_count = added.version from added where e.id = added.entry_id and e.submission_count < added.version`);
      // The decision on each entry's latest version, and the entry approved with that version's answers.
      await tx.execute(sql`
        with latest as (
          select distinct on (s.entry_id) s.entry_id, s.id, s.answers, s.form_version
          from ${entrySubmissions} s where s.entry_id = any(${entryIds})
          order by s.entry_id, s.version desc
        ), decided as (
          insert into ${entryDecisions} (entry_id, submission_id, decision, reason, decided_by, decided_at)
          select entry_id, id, 'approved', null, ${reviewer.actorId}::int, ${at} from latest order by entry_id
        )
        update ${missionEntries} e
        set status = 'approved', review_reason = null, reviewed_by = ${reviewer.actorId}::int, reviewed_at = ${at},
          answers = latest.answers, form_version = latest.form_version
        from latest where e.id = latest.entry_id`);
      await recordWebhookEvents(
        tx,
        rows.map((row) => ({
          type: 'mission_entry.decided',
          data: { projectId: row.projectId, missionId: row.missionId, entryId: row.id, userId: row.userId, decision: 'approved' },
          projectId: row.projectId,
        })),
      );
      // The points (`syncEntryPoints` for `approved`): credited once, then every credit of these entries available.
      const credited = rows.filter((row) => row.points > 0);
      if (credited.length > 0) {
        const inserted = await queryRows<LedgerEntry>(
          tx,
          sql`
          insert into ${pointsLedger} (user_id, points, state, reason, source, reference, created_by, created_at, state_changed_at)
          select c.user_id, c.points, 'available', c.reason, 'mission', c.reference, null, ${at}, ${at}
          from unnest(${sql.param(credited.map((row) => row.userId))}::int[], ${sql.param(credited.map((row) => row.points))}::int[],
            ${sql.param(credited.map((row) => missionEntryReason(row.title, row.localDate)))}::text[],
            ${sql.param(credited.map((row) => pointReference.missionEntry(row.id)))}::text[]) as c(user_id, points, reason, reference)
          on conflict (user_id, source, reference) do nothing
          returning ${ledgerEntryColumns()}`,
        );
        await recordPointsEvents(tx, inserted, 'created');
      }
      const moved = await queryRows<LedgerEntry>(
        tx,
        sql`
        update ${pointsLedger} p set state = 'available', state_changed_at = ${at}
        from unnest(${sql.param(rows.map((row) => row.userId))}::int[], ${sql.param(rows.map((row) => pointReference.missionEntry(row.id)))}::text[]) as k(user_id, reference)
        where p.user_id = k.user_id and p.source = 'mission' and p.reference = k.reference and p.state <> 'available'
        returning ${ledgerEntryColumns('p')}`,
      );
      await recordPointsEvents(tx, moved, 'available');
      await notifyMany(
        tx,
        rows.map((row) => ({ userId: row.userId, ...decisionNotice('approved', row.title, null, row.points), link: historyLink(row.missionId) })),
      );
      await notifyUnlockedMissions(tx, clock, rows);
    }
    const approvedIds = rows.map((row) => row.id);
    const result = { approved: approvedIds.length, skipped: unique.length - approvedIds.length };
    await audit(tx, {
      actorId: reviewer.actorId,
      via: 'api',
      action: 'submission.review.bulk',
      targetType: 'mission_entry',
      after: { decision: 'approve', requested: unique.length, ...result, ids: approvedIds },
      ip: reviewer.ip,
    });
    return result;
  });
}

// ---------------------------------------------------------------------------------------------
// Notes

/** `POST /api/admin/submissions/{id}/notes`: an internal note (never shown to participants), audited `submission.note`; 409 `not_reviewable` on a draft, as probes. */
export async function addNote(db: Db, clock: Clock, entryId: number, body: string, reviewer: Reviewer): Promise<ReviewNoteView> {
  return db.transaction(async (tx) => {
    // Locked: a draft may be deleted by its owner, so a note is only ever added to a submitted entry.
    const [entry] = await tx
      .select({ id: missionEntries.id, status: missionEntries.status })
      .from(missionEntries)
      .where(eq(missionEntries.id, entryId))
      .for('update');
    if (!entry) throw noSuchSubmission();
    if (entry.status === 'draft') throw notReviewable();
    const [note] = await tx.insert(reviewNotes).values({ entryId, authorId: reviewer.actorId, body, createdAt: clock.now() }).returning();
    if (!note) throw new Error('insert returned no note');
    const [author] = await tx.select(userRefColumns).from(users).where(eq(users.id, reviewer.actorId));
    await audit(tx, {
      actorId: reviewer.actorId,
      via: 'api',
      action: 'submission.note',
      targetType: 'mission_entry',
      targetId: entryId,
      after: { noteId: note.id, length: body.length },
      ip: reviewer.ip,
    });
    return { id: note.id, author: author ?? null, body: note.body, createdAt: note.createdAt.toISOString() };
  });
}

// ---------------------------------------------------------------------------------------------
// Reason templates

const templateView = (row: { id: number; kind: ReasonTemplateView['kind']; text: string }): ReasonTemplateView => ({
  id: row.id,
  kind: row.kind,
  text: row.text,
});

/** A project's reason templates: by kind (changes first), then oldest first. */
export async function listReasonTemplates(db: Db, projectId: number): Promise<ReasonTemplateView[]> {
  const rows = await db
    .select()
    .from(reasonTemplates)
    .where(eq(reasonTemplates.projectId, projectId))
    .orderBy(sql`case ${reasonTemplates.kind} when 'request_changes' then 0 else 1 end`, asc(reasonTemplates.createdAt), asc(reasonTemplates.id));
  return rows.map(templateView);
}

/** Adds a reason template to the project, audited `reason_template.create`. */
export async function createReasonTemplate(
  db: Db,
  clock: Clock,
  projectId: number,
  input: ReasonTemplateInput,
  reviewer: Reviewer,
): Promise<ReasonTemplateView> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(reasonTemplates)
      .values({ projectId, kind: input.kind, text: input.text, createdBy: reviewer.actorId, createdAt: clock.now() })
      .returning();
    if (!row) throw new Error('insert returned no template');
    await audit(tx, {
      actorId: reviewer.actorId,
      via: 'api',
      action: 'reason_template.create',
      targetType: 'reason_template',
      targetId: row.id,
      after: { projectId, kind: row.kind, text: row.text.length > 200 ? `${row.text.slice(0, 200)}…` : row.text },
      ip: reviewer.ip,
    });
    return templateView(row);
  });
}

/** Removes one of the project's reason templates, audited `reason_template.delete`; 404 when the project has no such template. */
export async function deleteReasonTemplate(db: Db, projectId: number, templateId: number, reviewer: Reviewer): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(reasonTemplates)
      .where(and(eq(reasonTemplates.id, templateId), eq(reasonTemplates.projectId, projectId)))
      .returning();
    if (!row) throw new ApiError(404, 'not_found', 'No such reason template');
    await audit(tx, {
      actorId: reviewer.actorId,
      via: 'api',
      action: 'reason_template.delete',
      targetType: 'reason_template',
      targetId: row.id,
      before: { projectId, kind: row.kind, text: row.text.length > 200 ? `${row.text.slice(0, 200)}…` : row.text },
      ip: reviewer.ip,
    });
  });
}
