/**
 * Taking part: the one place that decides what a participant may see, and the states they see
 * things in. Every participant call (home, surveys, missions, mission groups) goes through it.
 *
 * Visibility: a survey, mission or mission group is visible to a user when the user is a member
 * of its project, the project is `live` or `closed` (a closed project's activities show as
 * closed, read-only), and — surveys and missions — the activity itself is `live` or `closed`
 * (drafts are invisible). Anything else is 404 `not_found`, never 403, whatever the user's role.
 */
import { and, asc, eq, exists, inArray, sql, type Placeholder } from 'drizzle-orm';
import { allElements, type Answers, type FormDefinition } from '../../shared/forms/definition.ts';
import { validateAnswers } from '../../shared/forms/validate.ts';
import { offeredLanguages, sourceLanguageOf } from '../../shared/forms/translations.ts';
import type { Language } from '../../shared/languages.ts';
import { ANSWER_LANGUAGE_NOT_OFFERED } from '../../shared/schemas/answers.ts';
import type { GroupMissionState, GroupUnlock, GroupUnlockOn, ParticipantMissionGroup } from '../../shared/mission-groups.ts';
import { localizedItemTexts, type ActivityStatus, type ProjectStatus } from '../../shared/projects.ts';
import { ELEVATED_ROLES } from '../../shared/roles.ts';
import type { Db } from '../db/index.ts';
import { preparedFor } from '../db/prepared.ts';
import {
  formVersions,
  media,
  missionEntries,
  missionGroupMissions,
  missionGroups,
  missions,
  projectMembers,
  projects,
  surveys,
  type Mission,
  type MissionGroup,
  type Survey,
} from '../db/schema/index.ts';
import { ApiError, notFound } from '../errors.ts';
import {
  PHOTO_NOT_FOUND_MESSAGE,
  PHOTO_NOT_VIDEO_MESSAGE,
  VIDEO_LIMITS,
  VIDEO_MESSAGES,
  VIDEO_NOT_FOUND_MESSAGE,
  VIDEO_NOT_PHOTO_MESSAGE,
  type MediaKind,
  type MediaStatus,
} from '../../shared/media.ts';
import { formatShortDay } from '../../shared/dates.ts';

/** Project statuses whose activities members see (`closed`: read-only). */
export const VISIBLE_PROJECT_STATUSES = ['live', 'closed'] as const satisfies readonly ProjectStatus[];
/** Survey and mission statuses members see. */
export const VISIBLE_ACTIVITY_STATUSES = ['live', 'closed'] as const satisfies readonly ActivityStatus[];

/** When an activity can be taken part in: before its opening, between its dates, or after. */
export type Availability = 'upcoming' | 'open' | 'closed';

// The messages of a photo or video answer the server refuses live in src/shared/media.ts (the browser translates them).
export { PHOTO_NOT_FOUND_MESSAGE, PHOTO_NOT_VIDEO_MESSAGE, VIDEO_NOT_FOUND_MESSAGE, VIDEO_NOT_PHOTO_MESSAGE };

/** The 404 every participant call answers for what the user may not see (`errors.ts`). */
export { notFound };

/**
 * Availability by status and dates: `closed` when the activity or its project is closed or its
 * closing time has passed; `upcoming` before its opening time; `open` otherwise.
 */
export function availabilityOf(
  activity: { status: ActivityStatus; opensAt: Date | null; closesAt: Date | null },
  projectStatus: ProjectStatus,
  now: Date,
): Availability {
  if (activity.status === 'closed' || projectStatus === 'closed') return 'closed';
  if (activity.closesAt && activity.closesAt.getTime() <= now.getTime()) return 'closed';
  if (activity.opensAt && activity.opensAt.getTime() > now.getTime()) return 'upcoming';
  return 'open';
}

/** "Dec 3": a day in UTC, for the short reasons shown beside locked missions (the one formatter, shared/dates.ts). */
export function shortDay(date: Date): string {
  return formatShortDay(date, 'UTC');
}

/**
 * The SQL condition on `projects` "the user is a member and the project is visible" (by default
 * `live` or `closed`; home narrows it to `live`). Every participant query filters with it.
 */
export function memberOfVisibleProject(userId: number | Placeholder, statuses: readonly ProjectStatus[] = VISIBLE_PROJECT_STATUSES) {
  return and(
    inArray(projects.status, [...statuses]),
    sql`exists (select 1 from ${projectMembers} where ${projectMembers.projectId} = ${projects.id} and ${projectMembers.userId} = ${userId})`,
  );
}

/** An activity with what the participant sees of its project. */
export interface Visible<T> {
  item: T;
  projectName: string;
  projectStatus: ProjectStatus;
}

/**
 * The participant's hot lookups, prepared once per database (docs/decisions/026-prepared-statements.md):
 * every survey and mission call starts with one of the first two, every form read with the third.
 * Each finds one row by its key, so the plan PostgreSQL keeps fits every value.
 */
const participantLookups = preparedFor((db: Db) => {
  // A survey or a mission by its id: visible (live or closed) in a visible project the user is a member of.
  const visibleIn = <T extends typeof surveys | typeof missions>(table: T, name: string) =>
    db
      .select({ item: table, projectName: projects.name, projectStatus: projects.status })
      .from(table as typeof surveys | typeof missions) // widened: Drizzle's `from` cannot check a generic table
      .innerJoin(projects, eq(projects.id, table.projectId))
      .where(and(eq(table.id, sql.placeholder('id')), inArray(table.status, [...VISIBLE_ACTIVITY_STATUSES]), memberOfVisibleProject(sql.placeholder('userId'))))
      .prepare(name);
  return {
    survey: visibleIn(surveys, 'visible_survey'),
    mission: visibleIn(missions, 'visible_mission'),
    formDefinition: db
      .select({ definition: formVersions.definition })
      .from(formVersions)
      .where(and(eq(formVersions.formId, sql.placeholder('formId')), eq(formVersions.version, sql.placeholder('version'))))
      .prepare('form_definition'),
  };
});

/** The survey, when the user may see it; null otherwise (answer 404). */
export async function findVisibleSurvey(db: Db, userId: number, surveyId: number): Promise<Visible<Survey> | null> {
  const [row] = await participantLookups(db).survey.execute({ id: surveyId, userId });
  return row ?? null;
}

/** The mission, when the user may see it; null otherwise (answer 404). */
export async function findVisibleMission(db: Db, userId: number, missionId: number): Promise<Visible<Mission> | null> {
  const [row] = await participantLookups(db).mission.execute({ id: missionId, userId });
  return row ?? null;
}

/**
 * Whether a photo is shown in the instructions of a mission the user may see: moderators put
 * pictures there (`/api/media/{id}`), and every member taking part must see them. Only photos
 * owned by staff (moderators and admins) are granted this way: saving instructions replaces any
 * other photo with a staff-owned copy (`missions.ts`), so a participant's own photo never
 * becomes visible to other members (docs/permissions.md, "Photos").
 */
export async function seesMediaInInstructions(db: Db, userId: number, mediaId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: missions.id })
    .from(missions)
    .innerJoin(projects, eq(projects.id, missions.projectId))
    .where(
      and(
        inArray(missions.status, [...VISIBLE_ACTIVITY_STATUSES]),
        memberOfVisibleProject(userId),
        sql`position(${`/api/media/${mediaId}`} in ${missions.instructions}) > 0`,
        sql`exists (select 1 from media m join users u on u.id = m.owner_id where m.id = ${mediaId} and u.role in (${sql.join(
          ELEVATED_ROLES.map((role) => sql`${role}`),
          sql`, `,
        )}))`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The mission group, when the user may see it: a member of its live (or closed) project, and at
 * least one of its missions is visible (not a draft), as home shows it; null otherwise (404).
 */
export async function findVisibleGroup(db: Db, userId: number, groupId: number): Promise<Visible<MissionGroup> | null> {
  const [row] = await db
    .select({ item: missionGroups, projectName: projects.name, projectStatus: projects.status })
    .from(missionGroups)
    .innerJoin(projects, eq(projects.id, missionGroups.projectId))
    .where(
      and(
        eq(missionGroups.id, groupId),
        memberOfVisibleProject(userId),
        exists(
          db
            .select({ one: sql`1` })
            .from(missionGroupMissions)
            .innerJoin(missions, eq(missions.id, missionGroupMissions.missionId))
            .where(and(eq(missionGroupMissions.groupId, missionGroups.id), inArray(missions.status, [...VISIBLE_ACTIVITY_STATUSES]))),
        ),
      ),
    );
  return row ?? null;
}

/** The definition of a published form version (null when it is missing, which the data model prevents). */
export async function formDefinition(db: Db, formId: number, version: number): Promise<FormDefinition | null> {
  const [row] = await participantLookups(db).formDefinition.execute({ formId, version });
  return row?.definition ?? null;
}

// ---------------------------------------------------------------------------------------------
// Missions: one participant's entries, summed up

/** How many entries a participant has in a mission, by status. */
export interface EntryCounts {
  total: number;
  draft: number;
  submitted: number;
  approved: number;
  changesRequested: number;
  rejected: number;
  /** The latest submission, for ordering what is done. */
  lastSubmittedAt: Date | null;
}

export const NO_ENTRIES: EntryCounts = { total: 0, draft: 0, submitted: 0, approved: 0, changesRequested: 0, rejected: 0, lastSubmittedAt: null };

/** A timestamp read through raw SQL (a Date or a string, by driver) as a Date. */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The participant's entry counts in each of the missions, in one grouped query (missions without entries are left out). */
export async function entryCountsByMission(db: Db, userId: number, missionIds: readonly number[]): Promise<Map<number, EntryCounts>> {
  const out = new Map<number, EntryCounts>();
  if (missionIds.length === 0) return out;
  const status = missionEntries.status;
  const rows = await db
    .select({
      missionId: missionEntries.missionId,
      total: sql<number>`count(*)::int`,
      draft: sql<number>`(count(*) filter (where ${status} = 'draft'))::int`,
      submitted: sql<number>`(count(*) filter (where ${status} = 'submitted'))::int`,
      approved: sql<number>`(count(*) filter (where ${status} = 'approved'))::int`,
      changesRequested: sql<number>`(count(*) filter (where ${status} = 'changes_requested'))::int`,
      rejected: sql<number>`(count(*) filter (where ${status} = 'rejected'))::int`,
      lastSubmittedAt: sql<unknown>`max(${missionEntries.submittedAt})`,
    })
    .from(missionEntries)
    .where(and(eq(missionEntries.userId, userId), inArray(missionEntries.missionId, [...missionIds])))
    .groupBy(missionEntries.missionId);
  for (const row of rows) {
    out.set(row.missionId, {
      total: Number(row.total),
      draft: Number(row.draft),
      submitted: Number(row.submitted),
      approved: Number(row.approved),
      changesRequested: Number(row.changesRequested),
      rejected: Number(row.rejected),
      lastSubmittedAt: toDate(row.lastSubmittedAt),
    });
  }
  return out;
}

/** Finished entries: submitted or approved (what counts towards `entriesMin`). */
export function finishedEntries(counts: EntryCounts): number {
  return counts.submitted + counts.approved;
}

/**
 * A mission's state for the participant, by their entries: `approved` (approved entries reach
 * `entriesMin`), `submitted` (finished entries reach it), `in_progress` (any entry), `open` (none).
 */
export function missionProgressState(counts: EntryCounts, entriesMin: number): 'open' | 'in_progress' | 'submitted' | 'approved' {
  if (counts.approved >= entriesMin) return 'approved';
  if (finishedEntries(counts) >= entriesMin) return 'submitted';
  if (counts.total > 0) return 'in_progress';
  return 'open';
}

/** Whether the mission counts as finished for a group's `unlockOn` (its next mission opens; the group's progress counts it). */
export function missionFinishedFor(unlockOn: GroupUnlockOn, counts: EntryCounts, entriesMin: number): boolean {
  return unlockOn === 'approved' ? counts.approved >= entriesMin : finishedEntries(counts) >= entriesMin;
}

/** What the group rules need of each of its missions. */
export interface GroupMissionInput {
  id: number;
  title: string;
  opensAt: Date | null;
  closesAt: Date | null;
  availability: Availability;
  entriesMin: number;
  counts: EntryCounts;
}

/** A mission's state inside a group; `lockedByOrder` when an `in_order` group holds it back. */
export interface GroupMissionStateOf {
  id: number;
  state: GroupMissionState;
  lockedReason: string | null;
  lockedByOrder: boolean;
}

/**
 * The state of each mission of a group, in its order. Finished missions show `submitted` or
 * `approved`. Otherwise, in an `in_order` group a mission whose previous one is not finished (by
 * `unlockOn`) is `locked` ("Opens when you finish “Day 1”"); a mission not open yet is `locked`
 * ("Opens on 3 Dec"), a closed one `locked` ("Closed on 9 Dec"); else `open` or `in_progress`.
 */
export function groupMissionStates(group: { unlock: GroupUnlock; unlockOn: GroupUnlockOn }, list: readonly GroupMissionInput[]): GroupMissionStateOf[] {
  return list.map((mission, index) => {
    const progress = missionProgressState(mission.counts, mission.entriesMin);
    if (progress === 'submitted' || progress === 'approved') return { id: mission.id, state: progress, lockedReason: null, lockedByOrder: false };
    const previous = index > 0 ? list[index - 1] : undefined;
    if (group.unlock === 'in_order' && previous && !missionFinishedFor(group.unlockOn, previous.counts, previous.entriesMin)) {
      const reason = group.unlockOn === 'approved' ? `Opens when “${previous.title}” is approved` : `Opens when you finish “${previous.title}”`;
      return { id: mission.id, state: 'locked', lockedReason: reason, lockedByOrder: true };
    }
    if (mission.availability === 'upcoming') {
      return {
        id: mission.id,
        state: 'locked',
        lockedReason: mission.opensAt ? `Opens on ${shortDay(mission.opensAt)}` : 'Not open yet',
        lockedByOrder: false,
      };
    }
    if (mission.availability === 'closed') {
      return { id: mission.id, state: 'locked', lockedReason: mission.closesAt ? `Closed on ${shortDay(mission.closesAt)}` : 'Closed', lockedByOrder: false };
    }
    return { id: mission.id, state: progress, lockedReason: null, lockedByOrder: false };
  });
}

/** A visible mission of a group, in order, with the participant's counts. */
export interface GroupMissionRow {
  groupId: number;
  mission: Mission;
  projectStatus: ProjectStatus;
}

/**
 * The visible (not draft) missions of these groups, in each group's order, in one query. Draft
 * missions are left out: participants never see them, so they neither show nor lock anything.
 */
export async function groupMissionRows(db: Db, groupIds: readonly number[]): Promise<GroupMissionRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .select({ groupId: missionGroupMissions.groupId, mission: missions, projectStatus: projects.status })
    .from(missionGroupMissions)
    .innerJoin(missions, eq(missions.id, missionGroupMissions.missionId))
    .innerJoin(projects, eq(projects.id, missions.projectId))
    .where(and(inArray(missionGroupMissions.groupId, [...groupIds]), inArray(missions.status, [...VISIBLE_ACTIVITY_STATUSES])))
    .orderBy(asc(missionGroupMissions.groupId), asc(missionGroupMissions.position));
}

/**
 * For each of the missions that an `in_order` group holds back for this user, the reason (a
 * mission may be in several groups: locked if locked in any). Three queries, whatever the number
 * of missions.
 */
export async function orderLocks(db: Db, userId: number, missionIds: readonly number[], now: Date): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (missionIds.length === 0) return out;
  const groups = await db
    .selectDistinct({ id: missionGroups.id, unlock: missionGroups.unlock, unlockOn: missionGroups.unlockOn })
    .from(missionGroupMissions)
    .innerJoin(missionGroups, eq(missionGroups.id, missionGroupMissions.groupId))
    .where(and(inArray(missionGroupMissions.missionId, [...missionIds]), eq(missionGroups.unlock, 'in_order')));
  if (groups.length === 0) return out;
  const rows = await groupMissionRows(
    db,
    groups.map((group) => group.id),
  );
  const counts = await entryCountsByMission(db, userId, [...new Set(rows.map((row) => row.mission.id))]);
  const wanted = new Set(missionIds);
  for (const group of groups) {
    const list = rows
      .filter((row) => row.groupId === group.id)
      .map((row) => groupMissionInput(row.mission, row.projectStatus, counts.get(row.mission.id) ?? NO_ENTRIES, now));
    for (const state of groupMissionStates(group, list)) {
      if (state.lockedByOrder && state.lockedReason && wanted.has(state.id) && !out.has(state.id)) out.set(state.id, state.lockedReason);
    }
  }
  return out;
}

/** Why an `in_order` group holds this mission back for the user (see `orderLocks`), or null. */
export async function orderLockReason(db: Db, userId: number, missionId: number, now: Date): Promise<string | null> {
  return (await orderLocks(db, userId, [missionId], now)).get(missionId) ?? null;
}

/** A mission row as the group rules need it. */
export function groupMissionInput(
  mission: Pick<Mission, 'id' | 'title' | 'status' | 'opensAt' | 'closesAt' | 'entriesMin'>,
  projectStatus: ProjectStatus,
  counts: EntryCounts,
  now: Date,
): GroupMissionInput {
  return {
    id: mission.id,
    title: mission.title,
    opensAt: mission.opensAt,
    closesAt: mission.closesAt,
    availability: availabilityOf(mission, projectStatus, now),
    entriesMin: mission.entriesMin,
    counts,
  };
}

// ---------------------------------------------------------------------------------------------
// Submitting answers

/** The answers of a submission, checked: the validator's messages per element id, plus photo and video ownership and state. */
export interface CheckedSubmission {
  errors: Record<string, string[]>;
  /** The cleaned answers (hidden and unknown elements dropped, text trimmed): what is stored. */
  answers: Answers;
}

/** What `checkSubmission` reads of each media row an answer names. */
interface AnsweredMedia {
  kind: MediaKind;
  status: MediaStatus;
  failureReason: string | null;
  durationMs: number | null;
}

/**
 * Why one media id cannot be submitted in a photo or video answer, or null when it can: it must
 * be this user's own media (else "could not be found", like any other person's: never a hint that
 * it exists), of the question's kind; a video must be `ready` (`processing`/`uploading`:
 * `VIDEO_MESSAGES.notReady`; `failed`: its reason) and at most the question's `maxSeconds` long
 * (plus `VIDEO_LIMITS.lengthLeewaySeconds`). Pure: the rows are read once for the whole submit.
 */
export function answeredMediaProblem(element: { type: 'photo' } | { type: 'video'; maxSeconds: number }, row: AnsweredMedia | undefined): string | null {
  if (element.type === 'photo') {
    if (!row) return PHOTO_NOT_FOUND_MESSAGE;
    return row.kind === 'video' ? PHOTO_NOT_VIDEO_MESSAGE : null;
  }
  if (!row) return VIDEO_NOT_FOUND_MESSAGE;
  if (row.kind !== 'video') return VIDEO_NOT_PHOTO_MESSAGE;
  if (row.status === 'failed') return row.failureReason ?? VIDEO_MESSAGES.processingFailed;
  if (row.status !== 'ready') return VIDEO_MESSAGES.notReady;
  if (row.durationMs !== null && row.durationMs > (element.maxSeconds + VIDEO_LIMITS.lengthLeewaySeconds) * 1000) {
    return VIDEO_MESSAGES.tooLong(element.maxSeconds);
  }
  return null;
}

/**
 * Checks answers for a submit: `validateAnswers(definition, answers, { today })`, then every id
 * of a photo or video answer must pass `answeredMediaProblem` (its message goes on that element).
 * One query for all media. (A draft save checks none of this: the outbox saves a video's id as
 * soon as its upload is created, long before it is ready.)
 */
export async function checkSubmission(db: Db, userId: number, definition: FormDefinition, answers: Answers, today: string): Promise<CheckedSubmission> {
  const result = validateAnswers(definition, answers, { today });
  const errors: Record<string, string[]> = { ...result.errors };
  const wanted: { element: Parameters<typeof answeredMediaProblem>[0]; id: string; ids: string[] }[] = [];
  for (const { element } of allElements(definition.pages)) {
    if ((element.type !== 'photo' && element.type !== 'video') || !Object.hasOwn(result.answers, element.id)) continue;
    const value = result.answers[element.id];
    if (!Array.isArray(value)) continue;
    wanted.push({
      element: element.type === 'video' ? { type: 'video', maxSeconds: element.maxSeconds } : { type: 'photo' },
      id: element.id,
      ids: value.filter((id): id is string => typeof id === 'string'),
    });
  }
  const allIds = [...new Set(wanted.flatMap((each) => each.ids))];
  if (allIds.length > 0) {
    const rows = new Map(
      (
        await db
          .select({ id: media.id, kind: media.kind, status: media.status, failureReason: media.failureReason, durationMs: media.durationMs })
          .from(media)
          .where(and(inArray(media.id, allIds), eq(media.ownerId, userId)))
      ).map((row) => [row.id, row]),
    );
    for (const { element, id, ids } of wanted) {
      for (const mediaId of ids) {
        const problem = answeredMediaProblem(element, rows.get(mediaId));
        if (problem === null) continue;
        const list = errors[id] ?? [];
        if (!list.includes(problem)) errors[id] = [...list, problem];
      }
    }
  }
  return { errors, answers: result.answers };
}

/**
 * The language a save or submit records (decision 035): the one sent, when the pinned version
 * offers it (400 `validation_failed` on `language` otherwise); left out, null: the statement
 * keeps what was recorded, and a first save records the version's source language
 * (`sourceLanguageOf`, the insert's value).
 */
export function answerLanguage(definition: FormDefinition, sent: Language | undefined): { sent: Language | null; first: Language } {
  if (sent !== undefined && !offeredLanguages(definition).includes(sent)) {
    throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { language: [ANSWER_LANGUAGE_NOT_OFFERED] } });
  }
  return { sent: sent ?? null, first: sent ?? sourceLanguageOf(definition) };
}

/** The 400 of a submit whose answers have problems: `fields` holds the messages per element id. */
export function answersError(errors: Record<string, string[]>): ApiError {
  return new ApiError(400, 'validation_failed', 'Some answers need your attention', { fields: errors });
}

// ---------------------------------------------------------------------------------------------
// Mission groups

/**
 * `GET /api/mission-groups/{id}` for a visible group: its visible missions in order with their
 * state for the participant (see `groupMissionStates`) and progress (missions finished by the
 * group's `unlockOn`, out of all). A few queries (the group's missions, the participant's counts,
 * and the other in_order groups its open missions are in).
 */
export async function participantGroup(
  db: Db,
  now: Date,
  visible: Visible<MissionGroup>,
  userId: number,
  language?: unknown,
): Promise<ParticipantMissionGroup> {
  const group = visible.item;
  // The missions' titles in the participant's language where translated (decision 035), lock reasons too.
  const rows = (await groupMissionRows(db, [group.id])).map((row) => ({
    ...row,
    mission: { ...row.mission, ...localizedItemTexts({ title: row.mission.title }, row.mission.translations, language) },
  }));
  const counts = await entryCountsByMission(
    db,
    userId,
    rows.map((row) => row.mission.id),
  );
  const inputs = rows.map((row) => groupMissionInput(row.mission, row.projectStatus, counts.get(row.mission.id) ?? NO_ENTRIES, now));
  const states = groupMissionStates(group, inputs);
  // A mission this group leaves open may be held back by another (in_order) group it is also in.
  // (Missions already in progress keep their state: their drafts can still be finished.)
  const open = states.filter((entry) => entry.state === 'open').map((entry) => entry.id);
  const elsewhere = await orderLocks(db, userId, open, now);
  return {
    id: group.id,
    title: group.title,
    description: group.description,
    projectName: visible.projectName,
    unlock: group.unlock,
    unlockOn: group.unlockOn,
    missions: rows.map((row, index) => {
      const state = states[index];
      const lockedElsewhere = state?.state === 'open' ? elsewhere.get(row.mission.id) : undefined;
      return {
        id: row.mission.id,
        title: row.mission.title,
        points: row.mission.points,
        ...(row.mission.entriesMax > 1 ? { pointsPerEntry: true } : {}),
        closesAt: row.mission.closesAt?.toISOString() ?? null,
        state: lockedElsewhere ? 'locked' : (state?.state ?? 'locked'),
        lockedReason: lockedElsewhere ?? state?.lockedReason ?? null,
      };
    }),
    progress: { done: inputs.filter((input) => missionFinishedFor(group.unlockOn, input.counts, input.entriesMin)).length, total: inputs.length },
  };
}
