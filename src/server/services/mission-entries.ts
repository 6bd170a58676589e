/**
 * Missions as a participant takes them: the mission with their entries, and entries made,
 * autosaved, deleted (drafts) and submitted. The per-day limit counts entries by the calendar day
 * of the participant's own time zone (their preferences; the browser's at onboarding, UTC when
 * never known), and a change of zone opens no day already used (`entriesOnDay`); a draft counts
 * against the limits until it is deleted, and a limit a draft reaches says so ("You have a draft
 * for today — continue and submit it", with the draft's id).
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Answers, FormDefinition } from '../../shared/forms/definition.ts';
import { answerLanguageOf, type AnswersConflict, type AnswersSaved } from '../../shared/answers.ts';
import { sourceLanguageOf } from '../../shared/forms/translations.ts';
import type { Language } from '../../shared/languages.ts';
import type { EntryStatus, ParticipantEntry } from '../../shared/mission-entries.ts';
import { localizedItemTexts } from '../../shared/projects.ts';
import type { ParticipantMission } from '../../shared/missions.ts';
import { REVISION_REQUIRED_MESSAGE } from '../../shared/schemas/answers.ts';
import type { Db } from '../db/index.ts';
import { entryDecisions, entrySubmissions, missionEntries, probes, reviewNotes, users, type Mission, type MissionEntry } from '../db/schema/index.ts';
import { utcMidnight } from '../../shared/calendar-day.ts';
import { canonicalTimeZone, localDateIn, nextLocalMidnight, safeTimeZone } from '../../shared/time-zone.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from './clock.ts';
import { linkAnswerMedia } from './gallery.ts';
import { recordContribution } from './members.ts';
import { notifyUnlockedMissions } from './new-work.ts';
import { syncEntryPoints } from './points.ts';
import {
  answerLanguage,
  answersError,
  availabilityOf,
  checkSubmission,
  formDefinition,
  notFound,
  orderLockReason,
  shortDay,
  type Availability,
  type Visible,
} from './participation.ts';
import { recordWebhookEvent } from './webhooks.ts';

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
  /** The maximum is reached with a draft among the entries: it is not made yet. */
  entriesLimitDraft: 'You have a draft to finish — continue and submit it.',
  dailyLimit: "You have made today's entry. Come back tomorrow.",
  dailyLimitMany: "You have made today's entries. Come back tomorrow.",
  /** Today's limit is reached with a draft of today (a submit that failed offline): it is not made yet. */
  dailyLimitDraft: 'You have a draft for today — continue and submit it.',
  /** Today is taken only by an entry made on another day in the zone used then (`entriesOnDay`). */
  dailyLimitZone: (day: string, timeZone: string) =>
    `You changed your time zone: your entry of ${shortDay(utcMidnight(day))} falls on today in ${timeZone}. Come back tomorrow.`,
  notEditable: 'This entry has been submitted and can no longer be changed',
  notDeletable: 'Only a draft entry can be deleted',
  alreadySubmitted: 'This entry has already been submitted',
  conflict: 'This entry was changed on another device since this page loaded it',
} as const;

/** Statuses whose answers the participant may still change. */
const EDITABLE_STATUSES = ['draft', 'changes_requested'] as const satisfies readonly EntryStatus[];

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

/** One of the participant's entries of a mission, as the limits read it. */
export interface DayEntry {
  id: number;
  status: EntryStatus;
  /** The calendar day it was made on, in the zone used then. */
  localDate: string;
  createdAt: Date;
}

/**
 * The entries that take up `day` (`YYYY-MM-DD`) in the participant's current time zone: those
 * made on that day (their own `localDate`, in the zone used then) and those whose moment falls on
 * it in the current zone. Both agree while the zone stays; after a change of zone an entry takes
 * up both days, so a new zone never opens a day already used (an entry at 11:00 UTC, then a change
 * to UTC+14: it is 01:00 of the next day there, a day that entry already falls on). Decision 018.
 */
export function entriesOnDay<T extends Pick<DayEntry, 'localDate' | 'createdAt'>>(entries: readonly T[], day: string, timeZone: string): T[] {
  return entries.filter((entry) => entry.localDate === day || localDateIn(entry.createdAt, timeZone) === day);
}

/** The first local midnight after `now` that starts a day with room under `perDay` (a later day may carry an entry's date made in a zone ahead). */
function nextFreeDay(entries: readonly DayEntry[], perDay: number, now: Date, timeZone: string): Date {
  let at = nextLocalMidnight(now, timeZone);
  for (let step = 0; step < entries.length && entriesOnDay(entries, localDateIn(at, timeZone), timeZone).length >= perDay; step++) {
    at = nextLocalMidnight(at, timeZone);
  }
  return at;
}

/** Why a new entry cannot be made now, or null when it can. */
interface AddEntryCheck {
  code: 'closed' | 'not_open' | 'locked' | 'entries_limit' | 'daily_limit';
  message: string;
  /** daily_limit: the participant's next local midnight with room for an entry. */
  nextEntryAt?: string;
  /** A limit reached with a draft (today's, for the daily limit): the draft to continue and submit. */
  draftEntryId?: number;
  /** daily_limit reached only because the participant changed zone: the day of the entry that falls on today in `timeZone`. */
  zoneChange?: { entryDay: string; timeZone: string };
}

function addEntryCheck(
  mission: Mission,
  availability: Availability,
  lockReason: string | null,
  entries: readonly DayEntry[],
  now: Date,
  timeZone: string,
): AddEntryCheck | null {
  if (availability === 'closed') return { code: 'closed', message: MISSION_MESSAGES.closed };
  if (availability === 'upcoming') return { code: 'not_open', message: mission.opensAt ? MISSION_MESSAGES.opensOn(mission.opensAt) : MISSION_MESSAGES.notOpen };
  if (lockReason) return { code: 'locked', message: lockReason };
  if (entries.length >= mission.entriesMax) {
    const draft = entries.find((entry) => entry.status === 'draft');
    return draft
      ? { code: 'entries_limit', message: MISSION_MESSAGES.entriesLimitDraft, draftEntryId: draft.id }
      : { code: 'entries_limit', message: MISSION_MESSAGES.entriesLimit };
  }
  if (mission.perDay === null) return null;
  const today = localDateIn(now, timeZone);
  const taken = entriesOnDay(entries, today, timeZone);
  if (taken.length < mission.perDay) return null;
  const nextEntryAt = nextFreeDay(entries, mission.perDay, now, timeZone).toISOString();
  const draft = taken.find((entry) => entry.status === 'draft');
  if (draft) return { code: 'daily_limit', message: MISSION_MESSAGES.dailyLimitDraft, nextEntryAt, draftEntryId: draft.id };
  const moved = taken.filter((entry) => entry.localDate === today).length < mission.perDay ? taken.find((entry) => entry.localDate !== today) : undefined;
  if (moved) {
    const zoneChange = { entryDay: moved.localDate, timeZone };
    return { code: 'daily_limit', message: MISSION_MESSAGES.dailyLimitZone(moved.localDate, timeZone), nextEntryAt, zoneChange };
  }
  return { code: 'daily_limit', message: mission.perDay === 1 ? MISSION_MESSAGES.dailyLimit : MISSION_MESSAGES.dailyLimitMany, nextEntryAt };
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
    revision: entry.revision,
    formVersion: entry.formVersion,
    language: answerLanguageOf(entry.language),
  };
  const definition = forms.get(entry.formVersion);
  if (entry.formVersion !== currentVersion && definition) view.form = { version: entry.formVersion, definition };
  return view;
}

/**
 * `GET /api/missions/{id}` for a visible mission: the mission's current form, the participant's
 * entries (newest first; an entry on an older version carries that version's form) and whether
 * one more may be added now (`today` is the calendar day in their own time zone, else the one of
 * their latest entry of this mission, UTC before the first; `entriesOnDay` counts what takes it up).
 */
export async function participantMission(
  db: Db,
  clock: Clock,
  visible: Visible<Mission>,
  userId: number,
  preferredTimeZone?: string | null,
  language?: unknown,
): Promise<ParticipantMission> {
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
  const timeZone = canonicalTimeZone(preferredTimeZone) ?? safeTimeZone(entries[0]?.timeZone);
  const blocked = addEntryCheck(mission, availability, lockReason, entries, now, timeZone);
  return {
    id: mission.id,
    // In the participant's language where translated, else as written (decision 035).
    ...localizedItemTexts({ title: mission.title, instructions: mission.instructions }, mission.translations, language),
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
    draftEntryId: blocked?.draftEntryId ?? null,
    zoneChange: blocked?.zoneChange ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Entries

/** The result of making an entry: created, or refused (409 with `code`; `nextEntryAt` for the daily limit; `draftEntryId` for the mission page only). */
export type CreateEntryResult = { kind: 'created'; id: number; status: 'draft' } | ({ kind: 'refused' } & AddEntryCheck);

/**
 * Makes a draft entry (`POST /api/missions/{id}/entries`) on the participant's calendar day in
 * their own time zone: the one in their preferences (set from the browser at onboarding,
 * changeable on the preferences screen). The zone a request names is only used — and stored as
 * theirs — while they have none, so naming other zones cannot make more days; changing their own
 * zone opens no day already used either (`entriesOnDay`). The counting and
 * the insert run in one transaction that first locks the participant's row, so two entries made
 * at once cannot pass the limits together.
 */
export async function createEntry(
  db: Db,
  clock: Clock,
  visible: Visible<Mission>,
  userId: number,
  input: { timeZone?: string | undefined },
): Promise<CreateEntryResult> {
  const mission = visible.item;
  const now = clock.now();
  const availability = availabilityOf(mission, visible.projectStatus, now);
  const lockReason = availability === 'open' ? await orderLockReason(db, userId, mission.id, now) : null;
  const early = addEntryCheck(mission, availability, lockReason, [], now, 'UTC');
  if (early) return { kind: 'refused', ...early };
  // A new entry is in its version's source language until a save names another (decision 035).
  const definition = await formDefinition(db, mission.formId, mission.formVersion);
  if (!definition) throw new Error(`form ${mission.formId} has no version ${mission.formVersion}`);
  const language = sourceLanguageOf(definition);
  return db.transaction(async (tx): Promise<CreateEntryResult> => {
    const [user] = await tx.select({ id: users.id, preferences: users.preferences }).from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw notFound('mission');
    const stored = canonicalTimeZone(user.preferences.timeZone);
    const named = canonicalTimeZone(input.timeZone);
    const timeZone = stored ?? named ?? 'UTC';
    if (!stored && named)
      await tx
        .update(users)
        .set({ preferences: { ...user.preferences, timeZone: named } })
        .where(eq(users.id, userId));
    const today = localDateIn(now, timeZone);
    // A participant's entries of one mission are few (at most `entriesMax`, ≤ 366): read and counted here.
    const entries = await tx
      .select({ id: missionEntries.id, status: missionEntries.status, localDate: missionEntries.localDate, createdAt: missionEntries.createdAt })
      .from(missionEntries)
      .where(and(eq(missionEntries.missionId, mission.id), eq(missionEntries.userId, userId)));
    const refused = addEntryCheck(mission, availability, null, entries, now, timeZone);
    if (refused) return { kind: 'refused', ...refused };
    const [entry] = await tx
      .insert(missionEntries)
      .values({
        missionId: mission.id,
        userId,
        formVersion: mission.formVersion,
        answers: {},
        language,
        status: 'draft',
        localDate: today,
        timeZone,
        createdAt: now,
        updatedAt: now,
      })
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

/** A save or submit based on a stale revision: nothing changed; `current` is what the server holds. */
const entryConflict = (entry: Pick<MissionEntry, 'answers' | 'revision'>) => {
  const current: AnswersConflict = { answers: entry.answers, revision: entry.revision };
  return new ApiError(409, 'conflict', MISSION_MESSAGES.conflict, { details: { current } });
};

/** Why a statement guarded by status and revision changed nothing: no longer editable (`orElse`), or a stale revision (409 `conflict`). */
async function entryRefusal(db: Db, entryId: number, orElse: () => ApiError): Promise<ApiError> {
  const [current] = await db.select().from(missionEntries).where(eq(missionEntries.id, entryId));
  if (!current || !(EDITABLE_STATUSES as readonly EntryStatus[]).includes(current.status)) return orElse();
  return entryConflict(current);
}

/**
 * Writes an editable entry's answers when its revision is still `expected`, bumping it, and links
 * the participant's photos they hold to the entry in the same transaction (the gallery:
 * `linkAnswerMedia` in `gallery.ts`); the new status and revision.
 */
async function writeAnswers(
  db: Db,
  entry: Pick<MissionEntry, 'id' | 'userId' | 'missionId'> & { projectId: number },
  answers: Answers,
  language: { sent: Language | null; first: Language },
  expected: number,
  now: Date,
  orElse: () => ApiError,
): Promise<{ status: EntryStatus; revision: number }> {
  const saved = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(missionEntries)
      .set({ answers, language: keptLanguage(language), updatedAt: now, revision: sql`${missionEntries.revision} + 1` })
      .where(and(eq(missionEntries.id, entry.id), inArray(missionEntries.status, [...EDITABLE_STATUSES]), eq(missionEntries.revision, expected)))
      .returning({ status: missionEntries.status, revision: missionEntries.revision });
    if (row) await linkAnswerMedia(tx, entry.userId, { kind: 'entry', projectId: entry.projectId, missionId: entry.missionId, entryId: entry.id }, answers);
    return row ?? null;
  });
  if (!saved) throw await entryRefusal(db, entry.id, orElse);
  return saved;
}

/** A save's or submit's language: the one sent, else the one recorded (an entry from before 0016: the version's source). */
function keptLanguage(language: { sent: Language | null; first: Language }) {
  return language.sent ?? sql`coalesce(${missionEntries.language}, ${language.first})`;
}

/** The entry's pinned version's definition (the data model keeps it). */
async function entryDefinition(db: Db, mission: Mission, entry: MissionEntry): Promise<FormDefinition> {
  const definition = await formDefinition(db, mission.formId, entry.formVersion);
  if (!definition) throw new Error(`form ${mission.formId} has no version ${entry.formVersion}`);
  return definition;
}

/**
 * Autosave of an entry (`PUT …/entries/{entryId}`): drafts and entries sent back with
 * `changes_requested` only (409 `not_editable` otherwise), while the mission is open. Optimistic
 * like survey saves (`docs/api.md`, "Taking part"): one statement checks the revision sent and
 * bumps it, so of two saves based on one revision one lands and the other is 409 `conflict` with
 * the current answers. The revision may be left out only while the entry was never saved
 * (revision 0; 400 on `revision` otherwise). `language` (decision 035): one the entry's version
 * offers (400 otherwise); left out, the one recorded stays.
 */
export async function saveEntry(
  db: Db,
  clock: Clock,
  visible: Visible<Mission>,
  userId: number,
  entryId: number,
  input: { answers: Answers; revision?: number | undefined; language?: Language | undefined },
): Promise<AnswersSaved & { status: EntryStatus }> {
  const entry = await ownEntry(db, visible.item.id, userId, entryId);
  if (!(EDITABLE_STATUSES as readonly EntryStatus[]).includes(entry.status)) throw notEditable();
  const now = clock.now();
  requireOpenMission(visible, now);
  if (input.revision === undefined && entry.revision > 0) {
    throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { revision: [REVISION_REQUIRED_MESSAGE] } });
  }
  const language = answerLanguage(await entryDefinition(db, visible.item, entry), input.language);
  const saved = await writeAnswers(
    db,
    { ...entry, projectId: visible.item.projectId },
    input.answers,
    language,
    input.revision ?? entry.revision,
    now,
    notEditable,
  );
  return { status: saved.status, savedAt: now.toISOString(), revision: saved.revision };
}

/**
 * Deletes a draft entry (`DELETE …/entries/{entryId}`): it stops counting against the limits.
 * 409 `not_deletable` for anything but a draft, and for a draft that staff wrote notes or probes
 * on (only possible for entries from before notes on drafts were refused): nothing staff wrote is
 * lost with it.
 */
export async function deleteEntry(db: Db, visible: Visible<Mission>, userId: number, entryId: number): Promise<void> {
  const entry = await ownEntry(db, visible.item.id, userId, entryId);
  const notDeletable = () => new ApiError(409, 'not_deletable', MISSION_MESSAGES.notDeletable);
  if (entry.status !== 'draft') throw notDeletable();
  const deleted = await db
    .delete(missionEntries)
    .where(
      and(
        eq(missionEntries.id, entry.id),
        eq(missionEntries.status, 'draft'),
        sql`not exists (select 1 from ${reviewNotes} where ${reviewNotes.entryId} = ${missionEntries.id})`,
        sql`not exists (select 1 from ${probes} where ${probes.entryId} = ${missionEntries.id})`,
      ),
    )
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
 *
 * `revision` (optional; the browser always sends it): when given, the save and the submit are
 * based on it, so a submit from a stale page is 409 `conflict` with the current answers and
 * changes nothing; every write bumps it. A 400 after the answers were saved carries the new
 * `revision`.
 */
export async function submitEntry(
  db: Db,
  clock: Clock,
  visible: Visible<Mission>,
  userId: number,
  entryId: number,
  input: { answers?: Answers | undefined; revision?: number | undefined; language?: Language | undefined },
): Promise<{ status: 'submitted' | 'approved' }> {
  const mission = visible.item;
  const entry = await ownEntry(db, mission.id, userId, entryId);
  const alreadySubmitted = () => new ApiError(409, 'already_submitted', MISSION_MESSAGES.alreadySubmitted);
  if (!(EDITABLE_STATUSES as readonly EntryStatus[]).includes(entry.status)) throw alreadySubmitted();
  const now = clock.now();
  requireOpenMission(visible, now);
  if (input.revision !== undefined && input.revision !== entry.revision) throw entryConflict(entry);
  const definition = await entryDefinition(db, mission, entry);
  const language = answerLanguage(definition, input.language);
  let revision = input.revision ?? entry.revision;
  let answers = entry.answers;
  if (input.answers !== undefined) {
    revision = (await writeAnswers(db, { ...entry, projectId: mission.projectId }, input.answers, language, revision, now, alreadySubmitted)).revision;
    answers = input.answers;
  }
  const checked = await checkSubmission(db, userId, definition, answers, localDateIn(now, safeTimeZone(entry.timeZone)));
  if (Object.keys(checked.errors).length > 0) {
    const refused = answersError(checked.errors);
    throw new ApiError(refused.status, refused.code, refused.message, { fields: refused.fields ?? {}, details: { revision } });
  }
  const automatic = mission.review === 'automatic';
  const status = automatic ? 'approved' : 'submitted';
  await db.transaction(async (tx) => {
    const [done] = await tx
      .update(missionEntries)
      .set({
        answers: checked.answers,
        language: keptLanguage(language),
        status,
        submittedAt: now,
        updatedAt: now,
        submissionCount: sql`${missionEntries.submissionCount} + 1`,
        revision: sql`${missionEntries.revision} + 1`,
        // A new submission waits for a new decision (the earlier one stays with its version).
        reviewReason: null,
        reviewedBy: null,
        reviewedAt: automatic ? now : null,
      })
      .where(and(eq(missionEntries.id, entry.id), inArray(missionEntries.status, [...EDITABLE_STATUSES]), eq(missionEntries.revision, revision)))
      .returning({ id: missionEntries.id, submissionCount: missionEntries.submissionCount });
    if (!done) throw await entryRefusal(tx, entry.id, alreadySubmitted);
    await linkAnswerMedia(tx, userId, { kind: 'entry', projectId: mission.projectId, missionId: mission.id, entryId: entry.id }, checked.answers);
    await recordContribution(tx, mission.projectId, userId, now);
    // Every submission is kept as a version; an automatic review decides it at once.
    const [version] = await tx
      .insert(entrySubmissions)
      .values({ entryId: entry.id, version: done.submissionCount, formVersion: entry.formVersion, answers: checked.answers, submittedAt: now })
      .returning({ id: entrySubmissions.id });
    if (!version) throw new Error('insert returned no version');
    if (automatic)
      await tx.insert(entryDecisions).values({ entryId: entry.id, submissionId: version.id, decision: 'approved', decidedBy: null, decidedAt: now });
    const about = { projectId: mission.projectId, missionId: mission.id, entryId: entry.id, userId };
    await recordWebhookEvent(tx, 'mission_entry.submitted', about, mission.projectId);
    if (automatic) await recordWebhookEvent(tx, 'mission_entry.decided', { ...about, decision: 'approved' }, mission.projectId);
    await syncEntryPoints(tx, clock, entry, mission, status);
    // A mission an `in_order` group opens now for the participant: they hear of it (issue 28 §15).
    await notifyUnlockedMissions(tx, clock, [{ userId, missionId: mission.id }]);
  });
  return { status };
}
