/**
 * Missions as a participant takes them: the mission with their entries, and entries made,
 * autosaved, deleted (drafts) and submitted. The per-day limit counts entries by the calendar day
 * of the participant's time zone (the one the browser sends, UTC when absent or unknown); a draft
 * counts against the limits until it is deleted.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Answers, FormDefinition } from '../../shared/forms/definition.ts';
import type { EntryStatus, ParticipantEntry, ParticipantMission } from '../../shared/programme.ts';
import type { Db } from '../db/index.ts';
import { entrySubmissions, missionEntries, users, type Mission, type MissionEntry } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from './clock.ts';
import { syncEntryPoints } from './points.ts';
import { answersError, availabilityOf, checkSubmission, formDefinition, notFound, orderLockReason, shortDay, type Availability, type Visible } from './participation.ts';

/** The renderer's seed for an entry's random option order. */
export function entrySeed(entryId: number): string {
  return `entry-${entryId}`;
}

/** Messages of the mission calls (the 409s and the mission page's "why not"). */
export const MISSION_MESSAGES = {
  closed: 'This mission is closed',
  notOpen: 'This mission is not open yet',
  opensOn: (date: Date) => `This mission opens on ${shortDay(date)}`,
  entriesLimit: 'You have made all the entries this mission takes',
  dailyLimit: "You have made today's entry. Come back tomorrow.",
  dailyLimitMany: "You have made today's entries. Come back tomorrow.",
  notEditable: 'This entry has been submitted and can no longer be changed',
  notDeletable: 'Only a draft entry can be deleted',
  alreadySubmitted: 'This entry has already been submitted',
} as const;

/** Statuses whose answers the participant may still change. */
const EDITABLE_STATUSES = ['draft', 'changes_requested'] as const satisfies readonly EntryStatus[];

// ---------------------------------------------------------------------------------------------
// Calendar days in a time zone

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** An IANA time zone name as the platform knows it (`asia/tokyo` → `Asia/Tokyo`); `UTC` for anything invalid or absent. */
export function safeTimeZone(name: string | null | undefined): string {
  if (!name) return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** The wall-clock time of `instant` in the zone, read as if it were UTC (ms). */
function wallClockMs(instant: Date, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

/** The calendar day (`YYYY-MM-DD`) of `instant` in the time zone. */
export function localDateIn(instant: Date, timeZone: string): string {
  return new Date(wallClockMs(instant, timeZone)).toISOString().slice(0, 10);
}

/** The first moment of the day after `instant`'s calendar day in the time zone (its next local midnight). */
export function nextLocalMidnight(instant: Date, timeZone: string): Date {
  const [year, month, day] = localDateIn(instant, timeZone).split('-').map(Number) as [number, number, number];
  const target = Date.UTC(year, month - 1, day + 1);
  // The zone's offset at the target, found in two steps (the offset may change that night).
  let guess = target - (wallClockMs(new Date(target), timeZone) - target);
  guess = target - (wallClockMs(new Date(guess), timeZone) - guess);
  return new Date(guess);
}

// ---------------------------------------------------------------------------------------------
// The mission page

/** The participant's entries in a mission, newest first. */
async function entriesOf(db: Db, missionId: number, userId: number): Promise<MissionEntry[]> {
  return db
    .select()
    .from(missionEntries)
    .where(and(eq(missionEntries.missionId, missionId), eq(missionEntries.userId, userId)))
    .orderBy(desc(missionEntries.createdAt), desc(missionEntries.id));
}

/** Why a new entry cannot be made now, or null when it can. */
interface AddEntryCheck {
  code: 'closed' | 'not_open' | 'locked' | 'entries_limit' | 'daily_limit';
  message: string;
  /** daily_limit: the participant's next local midnight. */
  nextEntryAt?: string;
}

function addEntryCheck(
  mission: Mission,
  availability: Availability,
  lockReason: string | null,
  counts: { total: number; today: number },
  now: Date,
  timeZone: string,
): AddEntryCheck | null {
  if (availability === 'closed') return { code: 'closed', message: MISSION_MESSAGES.closed };
  if (availability === 'upcoming') return { code: 'not_open', message: mission.opensAt ? MISSION_MESSAGES.opensOn(mission.opensAt) : MISSION_MESSAGES.notOpen };
  if (lockReason) return { code: 'locked', message: lockReason };
  if (counts.total >= mission.entriesMax) return { code: 'entries_limit', message: MISSION_MESSAGES.entriesLimit };
  if (mission.perDay !== null && counts.today >= mission.perDay) {
    return {
      code: 'daily_limit',
      message: mission.perDay === 1 ? MISSION_MESSAGES.dailyLimit : MISSION_MESSAGES.dailyLimitMany,
      nextEntryAt: nextLocalMidnight(now, timeZone).toISOString(),
    };
  }
  return null;
}

function entryView(entry: MissionEntry, forms: Map<number, FormDefinition>, currentVersion: number): ParticipantEntry {
  const view: ParticipantEntry = {
    id: entry.id,
    status: entry.status,
    answers: entry.answers,
    localDate: entry.localDate,
    createdAt: entry.createdAt.toISOString(),
    submittedAt: entry.submittedAt?.toISOString() ?? null,
    seed: entrySeed(entry.id),
    formVersion: entry.formVersion,
  };
  const definition = forms.get(entry.formVersion);
  if (entry.formVersion !== currentVersion && definition) view.form = { version: entry.formVersion, definition };
  return view;
}

/**
 * `GET /api/missions/{id}` for a visible mission: the mission's current form, the participant's
 * entries (newest first; an entry on an older version carries that version's form) and whether
 * one more may be added now (`today` is the calendar day in the time zone of their latest entry
 * of this mission, UTC before the first).
 */
export async function participantMission(db: Db, clock: Clock, visible: Visible<Mission>, userId: number): Promise<ParticipantMission> {
  const mission = visible.item;
  const now = clock.now();
  const entries = await entriesOf(db, mission.id, userId);
  const versions = [...new Set([mission.formVersion, ...entries.map((entry) => entry.formVersion)])];
  const forms = new Map<number, FormDefinition>();
  for (const version of versions) {
    const definition = await formDefinition(db, mission.formId, version);
    if (definition) forms.set(version, definition);
  }
  const definition = forms.get(mission.formVersion);
  if (!definition) throw new Error(`form ${mission.formId} has no version ${mission.formVersion}`);
  const availability = availabilityOf(mission, visible.projectStatus, now);
  const lockReason = availability === 'open' ? await orderLockReason(db, userId, mission.id, now) : null;
  const timeZone = safeTimeZone(entries[0]?.timeZone);
  const today = localDateIn(now, timeZone);
  const blocked = addEntryCheck(mission, availability, lockReason, { total: entries.length, today: entries.filter((entry) => entry.localDate === today).length }, now, timeZone);
  return {
    id: mission.id,
    title: mission.title,
    instructions: mission.instructions,
    points: mission.points,
    projectName: visible.projectName,
    opensAt: mission.opensAt?.toISOString() ?? null,
    closesAt: mission.closesAt?.toISOString() ?? null,
    availability,
    review: mission.review,
    entries: { min: mission.entriesMin, max: mission.entriesMax, perDay: mission.perDay },
    form: { version: mission.formVersion, definition },
    myEntries: entries.map((entry) => entryView(entry, forms, mission.formVersion)),
    canAddEntry: blocked === null,
    addEntryBlockedReason: blocked?.message ?? null,
    lockedReason: lockReason,
    nextEntryAt: blocked?.nextEntryAt ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Entries

/** The result of making an entry: created, or refused (409 with `code`; `nextEntryAt` for the daily limit). */
export type CreateEntryResult = { kind: 'created'; id: number; status: 'draft' } | { kind: 'refused'; code: AddEntryCheck['code']; message: string; nextEntryAt?: string };

/**
 * Makes a draft entry (`POST /api/missions/{id}/entries`) on the participant's calendar day in
 * `timeZone`. The counting and the insert run in one transaction that first locks the
 * participant's row, so two entries made at once cannot pass the limits together.
 */
export async function createEntry(db: Db, clock: Clock, visible: Visible<Mission>, userId: number, input: { timeZone?: string | undefined }): Promise<CreateEntryResult> {
  const mission = visible.item;
  const now = clock.now();
  const timeZone = safeTimeZone(input.timeZone);
  const availability = availabilityOf(mission, visible.projectStatus, now);
  const lockReason = availability === 'open' ? await orderLockReason(db, userId, mission.id, now) : null;
  const early = addEntryCheck(mission, availability, lockReason, { total: 0, today: 0 }, now, timeZone);
  if (early) return { kind: 'refused', ...early };
  const today = localDateIn(now, timeZone);
  return db.transaction(async (tx): Promise<CreateEntryResult> => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [counts] = await tx
      .select({
        total: sql<number>`count(*)::int`,
        today: sql<number>`(count(*) filter (where ${missionEntries.localDate} = ${today}))::int`,
      })
      .from(missionEntries)
      .where(and(eq(missionEntries.missionId, mission.id), eq(missionEntries.userId, userId)));
    const refused = addEntryCheck(mission, availability, null, { total: Number(counts?.total ?? 0), today: Number(counts?.today ?? 0) }, now, timeZone);
    if (refused) return { kind: 'refused', ...refused };
    const [entry] = await tx
      .insert(missionEntries)
      .values({ missionId: mission.id, userId, formVersion: mission.formVersion, answers: {}, status: 'draft', localDate: today, timeZone, createdAt: now, updatedAt: now })
      .returning({ id: missionEntries.id });
    if (!entry) throw new Error('insert returned no entry');
    return { kind: 'created', id: entry.id, status: 'draft' };
  });
}

/** The participant's own entry of this mission; 404 for anyone else's, or another mission's. */
async function ownEntry(db: Db, missionId: number, userId: number, entryId: number): Promise<MissionEntry> {
  const [entry] = await db
    .select()
    .from(missionEntries)
    .where(and(eq(missionEntries.id, entryId), eq(missionEntries.missionId, missionId), eq(missionEntries.userId, userId)));
  if (!entry) throw notFound('entry');
  return entry;
}

function requireOpenMission(visible: Visible<Mission>, now: Date): void {
  const availability = availabilityOf(visible.item, visible.projectStatus, now);
  if (availability === 'closed') throw new ApiError(409, 'closed', MISSION_MESSAGES.closed);
  if (availability === 'upcoming') throw new ApiError(409, 'not_open', MISSION_MESSAGES.notOpen);
}

const notEditable = () => new ApiError(409, 'not_editable', MISSION_MESSAGES.notEditable);

/**
 * Autosave of an entry (`PUT …/entries/{entryId}`): drafts and entries sent back with
 * `changes_requested` only (409 `not_editable` otherwise), while the mission is open.
 */
export async function saveEntry(db: Db, clock: Clock, visible: Visible<Mission>, userId: number, entryId: number, answers: Answers): Promise<{ status: EntryStatus; savedAt: string }> {
  const entry = await ownEntry(db, visible.item.id, userId, entryId);
  if (!(EDITABLE_STATUSES as readonly EntryStatus[]).includes(entry.status)) throw notEditable();
  const now = clock.now();
  requireOpenMission(visible, now);
  const [saved] = await db
    .update(missionEntries)
    .set({ answers, updatedAt: now })
    .where(and(eq(missionEntries.id, entry.id), inArray(missionEntries.status, [...EDITABLE_STATUSES])))
    .returning({ status: missionEntries.status });
  if (!saved) throw notEditable();
  return { status: saved.status, savedAt: now.toISOString() };
}

/** Deletes a draft entry (`DELETE …/entries/{entryId}`): it stops counting against the limits. 409 `not_deletable` for anything but a draft. */
export async function deleteEntry(db: Db, visible: Visible<Mission>, userId: number, entryId: number): Promise<void> {
  const entry = await ownEntry(db, visible.item.id, userId, entryId);
  const notDeletable = () => new ApiError(409, 'not_deletable', MISSION_MESSAGES.notDeletable);
  if (entry.status !== 'draft') throw notDeletable();
  const deleted = await db
    .delete(missionEntries)
    .where(and(eq(missionEntries.id, entry.id), eq(missionEntries.status, 'draft')))
    .returning({ id: missionEntries.id });
  if (deleted.length === 0) throw notDeletable();
}

/**
 * Submits an entry (`POST …/entries/{entryId}/submit`): answers sent with it are saved first
 * (kept even when they do not pass), then checked against the entry's pinned version with
 * `today` = the entry's calendar day now in its time zone (photos must be the participant's own
 * media), and the cleaned answers stored. `submitted`, or `approved` at once when the mission's
 * review is automatic. Of two submits at once, one wins (`UPDATE … WHERE status IN (draft,
 * changes_requested)`); the other gets 409 `already_submitted`. In the same transaction every
 * submission (first or after changes were asked) is kept as a new version in `entry_submissions`
 * (`submission_count` counts them: 2 or more is a resubmission) and the entry's points follow
 * (`syncEntryPoints`: pending, or available for automatic review).
 */
export async function submitEntry(
  db: Db,
  clock: Clock,
  visible: Visible<Mission>,
  userId: number,
  entryId: number,
  input: { answers?: Answers | undefined },
): Promise<{ status: 'submitted' | 'approved' }> {
  const mission = visible.item;
  const entry = await ownEntry(db, mission.id, userId, entryId);
  const alreadySubmitted = () => new ApiError(409, 'already_submitted', MISSION_MESSAGES.alreadySubmitted);
  if (!(EDITABLE_STATUSES as readonly EntryStatus[]).includes(entry.status)) throw alreadySubmitted();
  const now = clock.now();
  requireOpenMission(visible, now);
  let answers = entry.answers;
  if (input.answers !== undefined) {
    await saveEntry(db, clock, visible, userId, entryId, input.answers);
    answers = input.answers;
  }
  const definition = await formDefinition(db, mission.formId, entry.formVersion);
  if (!definition) throw new Error(`form ${mission.formId} has no version ${entry.formVersion}`);
  const checked = await checkSubmission(db, userId, definition, answers, localDateIn(now, safeTimeZone(entry.timeZone)));
  if (Object.keys(checked.errors).length > 0) throw answersError(checked.errors);
  const automatic = mission.review === 'automatic';
  const status = automatic ? 'approved' : 'submitted';
  await db.transaction(async (tx) => {
    const [done] = await tx
      .update(missionEntries)
      .set({
        answers: checked.answers,
        status,
        submittedAt: now,
        updatedAt: now,
        submissionCount: sql`${missionEntries.submissionCount} + 1`,
        // A new submission waits for a new decision (the earlier one stays with its version).
        reviewReason: null,
        reviewedBy: null,
        reviewedAt: automatic ? now : null,
      })
      .where(and(eq(missionEntries.id, entry.id), inArray(missionEntries.status, [...EDITABLE_STATUSES])))
      .returning({ id: missionEntries.id, submissionCount: missionEntries.submissionCount });
    if (!done) throw alreadySubmitted();
    // Every submission is kept as a version; an automatic review decides it at once.
    await tx.insert(entrySubmissions).values({
      entryId: entry.id,
      version: done.submissionCount,
      formVersion: entry.formVersion,
      answers: checked.answers,
      submittedAt: now,
      decision: automatic ? 'approved' : null,
      decidedAt: automatic ? now : null,
    });
    await syncEntryPoints(tx, clock, entry, mission, status);
  });
  return { status };
}
