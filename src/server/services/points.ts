/**
 * The points ledger: append-only credits, one per (user, source, reference) by the database's
 * unique key. A credit is written with `insert … on conflict do nothing` and then read back, so
 * retries, double clicks and several processes meet on the same row; only its state moves
 * afterwards (pending → available, → voided, and back when a decision changes). Every call here
 * takes the transaction of the change the points follow.
 *
 * A redemption's points are one negative row in state `held` (issue 30): `available` counts it
 * already (held points cannot be spent twice); posted it becomes `available` (spent), released
 * `voided` (back). Whatever takes points away first locks the participant (`lockPointsOf`), then
 * reads the balance, then writes, in one transaction: two at once never both spend the same points.
 */
import { noticeRow } from './notices.ts';
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { EntryStatus } from '../../shared/mission-entries.ts';
import { pointReference, type PointSource, type PointState, type PointsEntryView, type PointsSummary } from '../../shared/points.ts';
import type { PointsBalance } from '../../shared/rewards.ts';
import type { Db } from '../db/index.ts';
import { notifications, pointsLedger, users, type Mission, type MissionEntry, type PointsEntry, type Survey } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { shortDay } from './participation.ts';
import { recordPointsEvents } from './webhooks.ts';

/** What a credit is: who, how much, why (shown to the participant), under which (source, reference). */
export interface CreditInput {
  userId: number;
  points: number;
  state: PointState;
  reason: string;
  source: PointSource;
  reference: string;
  /** Who made it (adjustments); null for credits the system makes. */
  createdBy?: number | null;
}

/** A credit: the ledger row and whether this call wrote it (false: it was there already). */
export interface CreditResult {
  entry: PointsEntry;
  created: boolean;
}

/** The ledger row of (user, source, reference), or null. */
export async function findCredit(db: Db, userId: number, source: PointSource, reference: string): Promise<PointsEntry | null> {
  const [row] = await db
    .select()
    .from(pointsLedger)
    .where(and(eq(pointsLedger.userId, userId), eq(pointsLedger.source, source), eq(pointsLedger.reference, reference)))
    .limit(1);
  return row ?? null;
}

/**
 * Credits once: inserts the entry unless (user, source, reference) already has one, and answers
 * the row that is there either way. Concurrent identical credits meet on the unique key: one
 * inserts, the others wait for it and read its row.
 */
export async function credit(db: Db, clock: Clock, input: CreditInput): Promise<CreditResult> {
  const now = clock.now();
  const [inserted] = await db
    .insert(pointsLedger)
    .values({
      userId: input.userId,
      points: input.points,
      state: input.state,
      reason: input.reason,
      source: input.source,
      reference: input.reference,
      createdBy: input.createdBy ?? null,
      createdAt: now,
      stateChangedAt: now,
    })
    .onConflictDoNothing({ target: [pointsLedger.userId, pointsLedger.source, pointsLedger.reference] })
    .returning();
  if (inserted) {
    await recordPointsEvents(db, [inserted], 'created');
    return { entry: inserted, created: true };
  }
  const existing = await findCredit(db, input.userId, input.source, input.reference);
  if (!existing) throw new Error(`points ledger: no row for ${input.source} ${input.reference} after a conflict`);
  return { entry: existing, created: false };
}

/** Moves the state of (user, source, reference) when it differs; the row after (null when there is none). */
export async function setCreditState(
  db: Db,
  clock: Clock,
  key: { userId: number; source: PointSource; reference: string },
  state: PointState,
): Promise<PointsEntry | null> {
  const [moved] = await db
    .update(pointsLedger)
    .set({ state, stateChangedAt: clock.now() })
    .where(
      and(eq(pointsLedger.userId, key.userId), eq(pointsLedger.source, key.source), eq(pointsLedger.reference, key.reference), ne(pointsLedger.state, state)),
    )
    .returning();
  if (moved?.state === 'available') await recordPointsEvents(db, [moved], 'available');
  return moved ?? (await findCredit(db, key.userId, key.source, key.reference));
}

// ---------------------------------------------------------------------------------------------
// Balances and the lock that keeps them from going below zero

/**
 * The sums of a balance over `points_ledger` rows: `available` counts held rows too (they are
 * negative, so held points are already taken from it), `held` is what open redemptions hold (a
 * positive number), `pending` what waits for a confirmation.
 */
export const balanceColumns = {
  available: sql<number>`coalesce(sum(${pointsLedger.points}) filter (where ${pointsLedger.state} in ('available', 'held')), 0)::bigint`.mapWith(Number),
  pending: sql<number>`coalesce(sum(${pointsLedger.points}) filter (where ${pointsLedger.state} = 'pending'), 0)::bigint`.mapWith(Number),
  held: sql<number>`coalesce(-sum(${pointsLedger.points}) filter (where ${pointsLedger.state} = 'held'), 0)::bigint`.mapWith(Number),
};

/** The same sums in raw SQL over a ledger aliased `alias` (lists that sum many people's balances at once). */
export const availableSql = (alias: string): SQL => sql.raw(`coalesce(sum(${alias}.points) filter (where ${alias}.state in ('available', 'held')), 0)`);

/** A participant's balance, `{ available, pending, held }`: every screen and export that shows one reads it here. */
export async function pointsBalance(db: Db, userId: number): Promise<PointsBalance> {
  const [row] = await db.select(balanceColumns).from(pointsLedger).where(eq(pointsLedger.userId, userId));
  return { available: row?.available ?? 0, pending: row?.pending ?? 0, held: row?.held ?? 0 };
}

/**
 * Locks a participant's points for the rest of the transaction: the `users` row, `for no key
 * update` (the lock `lockUser` of services/second-factors.ts takes too, so the two kinds of change
 * queue behind each other rather than deadlock). Everything that takes points away takes it before
 * reading the balance; several people are locked in ascending id order. Undefined: no such user.
 */
export async function lockPointsOf(tx: Db, userId: number) {
  const [row] = await tx
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row;
}

/**
 * `lockPointsOf` for several participants in one statement: their rows locked in ascending id
 * (the lock is taken row by row in the order the rows come, so two callers never wait on each
 * other crosswise). Answers the ids found.
 */
export async function lockPointsOfMany(tx: Db, userIds: readonly number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, [...userIds]))
    .orderBy(asc(users.id))
    .for('no key update');
  return rows.map((row) => row.id);
}

/** How staff name a participant in a refusal: their name, else their address. */
export const personName = (user: { firstName: string; lastName: string; email: string }) => `${user.firstName} ${user.lastName}`.trim() || user.email;

/** 409 `insufficient_points` of a change staff make that would leave `available` below zero. */
export function belowZero(name: string, available: number): ApiError {
  return new ApiError(
    409,
    'insufficient_points',
    `This would take ${name}'s available points below zero (${available.toLocaleString('en')} available): take away less, or allow a negative balance`,
    { details: { available } },
  );
}

// ---------------------------------------------------------------------------------------------
// What the system credits

/** The state of a mission entry's points for the entry's status (null: none is due, e.g. a draft). */
export function entryPointState(status: EntryStatus): PointState | null {
  switch (status) {
    case 'submitted':
    case 'changes_requested':
      return 'pending';
    case 'approved':
      return 'available';
    case 'rejected':
      return 'voided';
    default:
      return null;
  }
}

/** "Mission “Breakfast diary”: entry of 3 Dec" (the entry's own calendar day). */
export function missionEntryReason(missionTitle: string, localDate: string): string {
  const day = new Date(`${localDate}T00:00:00Z`);
  return Number.isNaN(day.getTime()) ? `Mission “${missionTitle}”` : `Mission “${missionTitle}”: entry of ${shortDay(day)}`;
}

/** "Survey “Weekly check-in”" (native and external surveys alike). */
export function surveyReason(surveyTitle: string): string {
  return `Survey “${surveyTitle}”`;
}

/** "Adjustment: {reason}". */
export function adjustmentReason(reason: string): string {
  return `Adjustment: ${reason}`;
}

/**
 * Brings an entry's points in line with its status: pending while submitted or sent back for
 * changes, available once approved, voided when rejected. The first time it credits the mission's
 * points as they are now (0 points: nothing); a rejected entry with no credit gets none. Call it
 * in the transaction that changes the status.
 */
export async function syncEntryPoints(
  db: Db,
  clock: Clock,
  entry: Pick<MissionEntry, 'id' | 'userId' | 'localDate'>,
  mission: Pick<Mission, 'title' | 'points'>,
  status: EntryStatus,
): Promise<PointsEntry | null> {
  const state = entryPointState(status);
  if (state === null) return null;
  const key = { userId: entry.userId, source: 'mission', reference: pointReference.missionEntry(entry.id) } as const;
  const existing = await findCredit(db, key.userId, key.source, key.reference);
  if (existing) return existing.state === state ? existing : setCreditState(db, clock, key, state);
  if (state === 'voided' || mission.points <= 0) return null;
  const { entry: row } = await credit(db, clock, { ...key, points: mission.points, state, reason: missionEntryReason(mission.title, entry.localDate) });
  // Two credits at once may have met: the row that won is brought to this state too.
  return row.state === state ? row : setCreditState(db, clock, key, state);
}

/** A submitted native survey: its points, available at once (0 points: nothing). */
export async function creditSurvey(db: Db, clock: Clock, survey: Pick<Survey, 'id' | 'title' | 'points'>, userId: number): Promise<PointsEntry | null> {
  if (survey.points <= 0) return null;
  const { entry } = await credit(db, clock, {
    userId,
    points: survey.points,
    state: 'available',
    reason: surveyReason(survey.title),
    source: 'survey',
    reference: pointReference.survey(survey.id),
  });
  return entry;
}

/**
 * An external survey returned `complete`: its points, `pending` until confirmed (by Alchemer's
 * webhook, or by the check against Alchemer's export in the admin tools), or `available` at once when the survey trusts returns (0 points: nothing).
 */
export async function creditExternalSurvey(
  db: Db,
  clock: Clock,
  survey: Pick<Survey, 'id' | 'title' | 'points' | 'trustReturns'>,
  userId: number,
): Promise<PointsEntry | null> {
  if (survey.points <= 0) return null;
  const { entry } = await credit(db, clock, {
    userId,
    points: survey.points,
    state: survey.trustReturns ? 'available' : 'pending',
    reason: surveyReason(survey.title),
    source: 'external_survey',
    reference: pointReference.externalSurvey(survey.id),
  });
  return entry;
}

// ---------------------------------------------------------------------------------------------
// Adjustments and the participant's view

/** An admin's adjustment: signed points, a reason, and optionally the caller's own reference (a retry key). */
export interface AdjustmentInput {
  userId: number;
  points: number;
  reason: string;
  reference?: string | undefined;
  /** The admin who makes it (the ledger's `createdBy`); null for an API token's credit (issue 32: its audit row names the token). */
  actorId: number | null;
  /** An admin's explicit choice to take points below zero `available` (else 409 `insufficient_points`). */
  allowNegative?: boolean | undefined;
}

/**
 * Adds an adjustment (available at once). With a `reference`, the same reference for the same
 * user answers the first entry (`created: false`) and never credits twice; without one, every call
 * is a new entry. 404 for an unknown user. Taking points away locks the participant first and
 * answers 409 `insufficient_points` when `available` would go below zero, unless `allowNegative`.
 * Call it in a transaction (the lock lasts until its end).
 */
export async function adjustPoints(db: Db, clock: Clock, input: AdjustmentInput): Promise<CreditResult> {
  const user = await lockPointsOf(db, input.userId);
  if (!user) throw new ApiError(404, 'not_found', 'No such user');
  if (input.points < 0 && !input.allowNegative) {
    // A retry of an adjustment made already answers it, whatever the balance is now.
    const made = input.reference === undefined ? null : await findCredit(db, input.userId, 'adjustment', input.reference);
    if (made) return { entry: made, created: false };
    const { available } = await pointsBalance(db, input.userId);
    if (available + input.points < 0) throw belowZero(personName(user), available);
  }
  return credit(db, clock, {
    userId: input.userId,
    points: input.points,
    state: 'available',
    reason: adjustmentReason(input.reason),
    source: 'adjustment',
    reference: input.reference ?? `adjustment:${randomUUID()}`,
    createdBy: input.actorId,
  });
}

/** A ledger entry staff made (an adjustment, a bulk correction), as its owner is told of it. */
export interface PointsChange {
  userId: number;
  points: number;
  /** The ledger entry's reason (what the participant's history shows). */
  reason: string;
  ledgerId: number;
}

/**
 * One `points` notification per change (issue 28 §9), in the transaction that makes them, under the
 * key `points:ledger:{id}` (never twice for an entry). The `notifications.mail` sweep mails a
 * user's changes made together in one mail (services/notifications.ts, batched kinds).
 */
export async function notifyPointsChanges(tx: Db, now: Date, changes: readonly PointsChange[]): Promise<void> {
  if (changes.length === 0) return;
  const rows = changes.map((change) => noticeRow({ key: 'points', points: change.points, reason: change.reason }));
  await tx.execute(sql`
    insert into ${notifications} (user_id, kind, text, notice, link, created_at, dedupe_key)
    select c.user_id, 'points', c.text, c.notice, '/account#points', ${now.toISOString()}::timestamptz, c.dedupe_key
    from unnest(${sql.param(changes.map((change) => change.userId))}::int[], ${sql.param(rows.map((row) => row.text))}::text[],
      ${sql.param(rows.map((row) => JSON.stringify(row.notice)))}::jsonb[],
      ${sql.param(changes.map((change) => `points:ledger:${change.ledgerId}`))}::text[]) as c(user_id, text, notice, dedupe_key)
    on conflict (user_id, dedupe_key) do nothing`);
}

/**
 * `POST /api/admin/users/{id}/points` and `POST /api/v1/participants/{id}/points` (`actor.apiTokenId`:
 * audited `via: 'token'` with the token as the actor): the adjustment, its audit row (`points.adjust`, new
 * entries only: entry id, points, reason, reference) and the participant's `points` notification,
 * in one transaction.
 */
export function adjustPointsAudited(db: Db, clock: Clock, input: AdjustmentInput, actor: { ip: string; apiTokenId?: number }): Promise<CreditResult> {
  return db.transaction(async (tx) => {
    const done = await adjustPoints(tx, clock, input);
    if (done.created) {
      await audit(tx, {
        actorId: input.actorId,
        // An API token's credit (`POST /api/v1/participants/{id}/points`): the token is the actor.
        ...(actor.apiTokenId === undefined ? { via: 'api' as const } : { via: 'token' as const, apiTokenId: actor.apiTokenId }),
        action: 'points.adjust',
        targetType: 'user',
        targetId: input.userId,
        after: {
          entryId: done.entry.id,
          points: done.entry.points,
          reason: input.reason,
          reference: done.entry.reference,
          ...(input.allowNegative ? { allowNegative: true } : {}),
        },
        ip: actor.ip,
      });
      await notifyPointsChanges(tx, clock.now(), [{ userId: input.userId, points: done.entry.points, reason: done.entry.reason, ledgerId: done.entry.id }]);
    }
    return done;
  });
}

/** A ledger row as its owner sees it. */
export function pointsEntryView(row: PointsEntry): PointsEntryView {
  return { id: row.id, points: row.points, state: row.state, reason: row.reason, source: row.source, createdAt: row.createdAt.toISOString() };
}

/** A ledger row as admins see it (with the reference and who made it). */
export function adminPointsEntryView(row: PointsEntry) {
  return { ...pointsEntryView(row), userId: row.userId, reference: row.reference, createdBy: row.createdBy, stateChangedAt: row.stateChangedAt.toISOString() };
}

/**
 * `GET /api/account/points`: the balance (`balance` = `available`, held points taken off),
 * pending and held totals, and a page of the ledger, newest first.
 */
export async function pointsSummary(db: Db, userId: number, query: { page: number; pageSize: number }): Promise<Required<PointsSummary>> {
  const mine = eq(pointsLedger.userId, userId);
  const [[totals], rows] = await Promise.all([
    db
      .select({ ...balanceColumns, total: count() })
      .from(pointsLedger)
      .where(mine),
    db
      .select()
      .from(pointsLedger)
      .where(mine)
      .orderBy(desc(pointsLedger.createdAt), desc(pointsLedger.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
  ]);
  const available = totals?.available ?? 0;
  return {
    balance: available,
    available,
    pending: totals?.pending ?? 0,
    held: totals?.held ?? 0,
    entries: rows.map(pointsEntryView),
    total: totals?.total ?? 0,
  };
}
