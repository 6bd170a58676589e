/**
 * The participant's home (`GET /api/home`): what to do, what waits for review, what is done,
 * across the live projects they belong to. A handful of queries for the whole page (surveys with
 * the participant's response and first external outcome; the drafts' forms; missions; entry
 * counts; groups), whatever the number of items.
 *
 * - Surveys: `todo` while `open`, `in_progress` or `upcoming`; `done` once submitted (or returned
 *   from, any outcome); closed ones left out. `progress`: answered visible questions / visible
 *   questions of the draft (0 before, 1 when done).
 * - Missions that belong to no group: `todo` while not closed and the participant can still add
 *   an entry they need (fewer finished entries than `entriesMin`) or has a draft or an entry sent
 *   back for changes; else `submitted` while an entry waits for review; else `done` once finished
 *   (`entriesMin` entries submitted or approved). `progress`: finished entries / `entriesMin`.
 *   The state of one to do is `changes_requested` while an entry is sent back, so its card says so.
 * - Diaries (`isDiary`: a daily limit, more than one entry) stay `todo` until their maximum is
 *   reached or they close, even on a day whose entry is made; `diary` says what today offers
 *   (add, continue, come back tomorrow), the entries made and the streak, on the participant's
 *   calendar day (their time zone, else their latest entry's, else UTC). `progress`: finished
 *   entries / `entriesMax` (docs/decisions/018-first-use.md).
 * - Missions in a group are shown through their group (one card): `todo` while one of its
 *   missions is open or in progress, or one is upcoming; `done` when every mission is finished
 *   (by the group's `unlockOn`); else `submitted` while one waits for review. `progress`:
 *   finished missions / missions.
 *
 * `todo` is sorted by closing time (soonest first, none last), upcoming items after the rest;
 * `submitted` and `done` by latest activity first.
 */
import { and, desc, eq, gt, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ANNOUNCEMENT_LIMITS, type HomeAnnouncement } from '../../shared/announcements.ts';
import type { Answers, FormDefinition } from '../../shared/forms/definition.ts';
import { isAnswerable, resolveVisibility } from '../../shared/forms/logic.ts';
import { localizedItemTexts } from '../../shared/projects.ts';
import type { ActivityStatus, HomeAnswer, HomeDiary, HomeItem, HomeList, ItemTranslations, ProjectStatus } from '../../shared/projects.ts';
import type { GroupUnlock, GroupUnlockOn } from '../../shared/mission-groups.ts';
import { isElevated, type Role } from '../../shared/roles.ts';
import type { ExternalOutcome } from '../../shared/surveys.ts';
import { utcDate } from '../../shared/calendar-day.ts';
import { diaryStreak, entryGoal, isDiary } from '../../shared/mission-entries.ts';
import { canonicalTimeZone, localDateIn, safeTimeZone } from '../../shared/time-zone.ts';
import { parsedJson, type Db } from '../db/index.ts';
import {
  announcements,
  formVersions,
  missionEntries,
  missionGroupMissions,
  missionGroups,
  missions,
  projects,
  surveyExternalRefs,
  surveyResponses,
  surveys,
  type Mission,
  type SurveyResponse,
} from '../db/schema/index.ts';
import { preparedFor } from '../db/prepared.ts';
import type { Clock } from './clock.ts';
import {
  NO_ENTRIES,
  VISIBLE_ACTIVITY_STATUSES,
  availabilityOf,
  finishedEntries,
  groupMissionInput,
  groupMissionStates,
  memberOfVisibleProject,
  missionFinishedFor,
  toDate,
  type EntryCounts,
} from './participation.ts';
import { reviewWaitingCount } from './dashboard.ts';
import { surveyState } from './survey-responses.ts';
import { entriesOnDay } from './mission-entries.ts';

/** A home item with what orders it. */
interface Ranked {
  item: HomeItem;
  list: HomeList;
  /** Latest activity (submitted / done lists). */
  activityAt: Date | null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The share of the visible questions a draft answers (0…1). */
function draftProgress(definition: FormDefinition, answers: Answers, today: string): number {
  const visibility = resolveVisibility(definition, answers, { today });
  let questions = 0;
  for (const page of visibility.pages) for (const element of page.elements) if (visibility.elementIds.has(element.id) && isAnswerable(element)) questions++;
  if (questions === 0) return 0;
  return Math.min(1, Object.keys(visibility.answers).length / questions);
}

/** In live projects the user belongs to (the user is the statement's `userId` placeholder). */
const liveMemberProjects = () => memberOfVisibleProject(sql.placeholder('userId'), ['live']);

/** Each field under its own name (`select … as "name"`), so a row read as JSON has the keys of the object. */
function named<T extends Record<string, SQLWrapper>>(fields: T): { [K in keyof T]: SQL.Aliased } {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, sql`${field}`.as(name)])) as { [K in keyof T]: SQL.Aliased };
}

/** A select's rows as one JSON array (`[]` for none), in `order` when given. */
const jsonRows = (select: SQLWrapper, order?: SQL) =>
  sql`(select coalesce(json_agg(row_to_json(rows)${order ? sql` order by ${order}` : sql``}), '[]'::json) from (${select}) as rows)`;

/** A visible survey as home's statement gives it (moments as JSON strings). */
interface HomeSurveyRow {
  id: number;
  title: string;
  /** The title's translations (`translations->'title'`, decision 035); null when none. */
  titleTranslations: ItemTranslations['title'] | null;
  kind: 'native' | 'external';
  points: number;
  estimatedMinutes: number | null;
  opensAt: string | null;
  closesAt: string | null;
  status: ActivityStatus;
  projectName: string;
  projectStatus: ProjectStatus;
  responseStatus: SurveyResponse['status'] | null;
  submittedAt: string | null;
  outcome: ExternalOutcome | null;
  returnedAt: string | null;
  draftAnswers: Answers | null;
  draftDefinition: FormDefinition | null;
}

/** A visible mission with the participant's entry counts, as home's statement gives it. */
interface HomeMissionRow extends Omit<HomeMission, 'opensAt' | 'closesAt'>, Omit<EntryCounts, 'lastSubmittedAt'> {
  opensAt: string | null;
  closesAt: string | null;
  projectName: string;
  lastSubmittedAt: string | null;
  /** The title's translations (`translations->'title'`, decision 035); null when none. */
  titleTranslations: ItemTranslations['title'] | null;
}

/** A visible mission group with its missions in order, as home's statement gives it. */
interface HomeGroupRow {
  id: number;
  title: string;
  unlock: GroupUnlock;
  unlockOn: GroupUnlockOn;
  projectName: string;
  missionIds: number[];
}

/** An announcement as home's statement gives it (its moment as a JSON string). */
type HomeAnnouncementRow = HomeAnnouncement;

/**
 * Home's read, prepared once per database (planned once per connection on PostgreSQL, built once
 * by Drizzle): one statement, one round trip, for the programme's most frequent call. Its four
 * columns are JSON arrays:
 *
 * - `surveys`: each visible survey with the participant's response, its first external outcome
 *   and, for a draft, its answers and pinned form (for the progress);
 * - `missions`: each visible mission (the columns home shows, not the instructions) with the
 *   participant's entry counts;
 * - `groups`: each visible group with its missions in order;
 * - `announcements`: the latest few of the live projects (`ANNOUNCEMENT_LIMITS.onHome`, since the
 *   `since` placeholder), newest first (index `announcements_project_created_idx`).
 *
 * And the diaries' days, read apart and only when there are diaries to do.
 */
function prepareHome(db: Db) {
  const userId = sql.placeholder('userId');
  const refs = surveyExternalRefs;
  const entries = missionEntries;
  const status = entries.status;
  const draft = eq(surveyResponses.status, 'draft');
  const surveyRows = db
    .select(
      named({
        id: surveys.id,
        title: surveys.title,
        titleTranslations: sql`${surveys.translations}->'title'`,
        kind: surveys.kind,
        points: surveys.points,
        estimatedMinutes: surveys.estimatedMinutes,
        opensAt: surveys.opensAt,
        closesAt: surveys.closesAt,
        status: surveys.status,
        projectName: projects.name,
        projectStatus: projects.status,
        responseStatus: surveyResponses.status,
        submittedAt: surveyResponses.submittedAt,
        outcome: sql`(select ${refs.outcome} from ${refs} where ${refs.surveyId} = ${surveys.id} and ${refs.userId} = ${userId} and ${refs.outcome} is not null order by ${refs.returnedAt}, ${refs.id} limit 1)`,
        returnedAt: sql`(select min(${refs.returnedAt}) from ${refs} where ${refs.surveyId} = ${surveys.id} and ${refs.userId} = ${userId} and ${refs.outcome} is not null)`,
        draftAnswers: sql`case when ${draft} then ${surveyResponses.answers} end`,
        draftDefinition: formVersions.definition,
      }),
    )
    .from(surveys)
    .innerJoin(projects, eq(projects.id, surveys.projectId))
    .leftJoin(surveyResponses, and(eq(surveyResponses.surveyId, surveys.id), eq(surveyResponses.userId, userId)))
    .leftJoin(formVersions, and(draft, eq(formVersions.formId, surveys.formId), eq(formVersions.version, surveyResponses.formVersion)))
    .where(and(inArray(surveys.status, [...VISIBLE_ACTIVITY_STATUSES]), liveMemberProjects()));
  const missionRows = db
    .select(
      named({
        ...HOME_MISSION_COLUMNS,
        titleTranslations: sql`${missions.translations}->'title'`,
        projectName: projects.name,
        total: sql`count(${entries.id})::int`,
        draft: sql`(count(${entries.id}) filter (where ${status} = 'draft'))::int`,
        submitted: sql`(count(${entries.id}) filter (where ${status} = 'submitted'))::int`,
        approved: sql`(count(${entries.id}) filter (where ${status} = 'approved'))::int`,
        changesRequested: sql`(count(${entries.id}) filter (where ${status} = 'changes_requested'))::int`,
        rejected: sql`(count(${entries.id}) filter (where ${status} = 'rejected'))::int`,
        lastSubmittedAt: sql`max(${entries.submittedAt})`,
      }),
    )
    .from(missions)
    .innerJoin(projects, eq(projects.id, missions.projectId))
    .leftJoin(entries, and(eq(entries.missionId, missions.id), eq(entries.userId, userId)))
    .where(and(inArray(missions.status, [...VISIBLE_ACTIVITY_STATUSES]), liveMemberProjects()))
    .groupBy(missions.id, projects.id);
  const groupRows = db
    .select(
      named({
        id: missionGroups.id,
        title: missionGroups.title,
        unlock: missionGroups.unlock,
        unlockOn: missionGroups.unlockOn,
        projectName: projects.name,
        missionIds: sql`array(select ${missionGroupMissions.missionId} from ${missionGroupMissions} where ${missionGroupMissions.groupId} = ${missionGroups.id} order by ${missionGroupMissions.position})`,
      }),
    )
    .from(missionGroups)
    .innerJoin(projects, eq(projects.id, missionGroups.projectId))
    .where(liveMemberProjects());
  const announcementRows = db
    .select(
      named({ id: announcements.id, projectName: projects.name, title: announcements.title, body: announcements.body, createdAt: announcements.createdAt }),
    )
    .from(announcements)
    .innerJoin(projects, eq(projects.id, announcements.projectId))
    .where(and(gt(announcements.createdAt, sql.placeholder('since')), liveMemberProjects()))
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(ANNOUNCEMENT_LIMITS.onHome);
  return {
    home: db
      .select({
        surveys: jsonRows(surveyRows).mapWith((value: unknown) => parsedJson<HomeSurveyRow[]>(value)),
        missions: jsonRows(missionRows).mapWith((value: unknown) => parsedJson<HomeMissionRow[]>(value)),
        groups: jsonRows(groupRows, sql`rows.id`).mapWith((value: unknown) => parsedJson<HomeGroupRow[]>(value)),
        announcements: jsonRows(announcementRows, sql`rows."createdAt" desc, rows.id desc`).mapWith((value: unknown) =>
          parsedJson<HomeAnnouncementRow[]>(value),
        ),
      })
      .from(sql`(select 1) as home`)
      .prepare('home'),
    diaryEntries: db
      .select({ missionId: entries.missionId, status: entries.status, localDate: entries.localDate, timeZone: entries.timeZone, createdAt: entries.createdAt })
      .from(entries)
      .where(and(eq(entries.userId, userId), sql`${entries.missionId} = any(${sql.placeholder('missionIds')})`))
      .orderBy(desc(entries.createdAt), desc(entries.id))
      .prepare('home_diary_entries'),
  };
}

const homeQueries = preparedFor(prepareHome);

/** Home's four lists of rows, in one round trip. */
async function homeRows(
  db: Db,
  userId: number,
  now: Date,
): Promise<{ surveys: HomeSurveyRow[]; missions: HomeMissionRow[]; groups: HomeGroupRow[]; announcements: HomeAnnouncementRow[] }> {
  const since = new Date(now.getTime() - ANNOUNCEMENT_LIMITS.onHomeDays * 86_400_000).toISOString();
  const [row] = await homeQueries(db).home.execute({ userId, since });
  return row ?? { surveys: [], missions: [], groups: [], announcements: [] };
}

/** A home row's title in the participant's language (`localizedItemTexts`). */
const localTitle = (row: { title: string; titleTranslations: ItemTranslations['title'] | null }, language: unknown): string =>
  localizedItemTexts({ title: row.title }, row.titleTranslations ? { title: row.titleTranslations } : null, language).title;

function surveyItems(rows: readonly HomeSurveyRow[], now: Date, language: unknown): Ranked[] {
  const today = utcDate(now);
  const out: Ranked[] = [];
  for (const row of rows) {
    const dates = { opensAt: toDate(row.opensAt), closesAt: toDate(row.closesAt) };
    const state = surveyState(availabilityOf({ status: row.status, ...dates }, row.projectStatus, now), row.responseStatus, row.outcome ?? null);
    if (state === 'closed') continue;
    const draft =
      row.responseStatus === 'draft' && row.draftAnswers && row.draftDefinition ? { answers: row.draftAnswers, definition: row.draftDefinition } : null;
    const progress = state === 'submitted' ? 1 : draft ? draftProgress(draft.definition, draft.answers, today) : 0;
    out.push({
      list: state === 'submitted' ? 'done' : 'todo',
      activityAt: toDate(row.submittedAt) ?? toDate(row.returnedAt),
      item: {
        kind: 'survey',
        id: row.id,
        title: localTitle(row, language),
        projectName: row.projectName,
        points: row.points,
        closesAt: iso(dates.closesAt),
        opensAt: iso(dates.opensAt),
        estimatedMinutes: row.estimatedMinutes,
        progress,
        state,
      },
    });
  }
  return out;
}

/** What home reads of a mission: the columns it shows and decides on (not the instructions, which can be long). */
const HOME_MISSION_COLUMNS = {
  id: missions.id,
  title: missions.title,
  status: missions.status,
  points: missions.points,
  opensAt: missions.opensAt,
  closesAt: missions.closesAt,
  entriesMin: missions.entriesMin,
  entriesMax: missions.entriesMax,
  perDay: missions.perDay,
};
type HomeMission = Pick<Mission, keyof typeof HOME_MISSION_COLUMNS>;

/** The rules of a mission's entries, as `shared/mission-entries.ts` reads them. */
const rulesOf = (mission: Pick<Mission, 'entriesMin' | 'entriesMax' | 'perDay'>) => ({
  min: mission.entriesMin,
  max: mission.entriesMax,
  perDay: mission.perDay,
});

/** A mission on its own: which list, and its state label. A diary needs entries until its maximum. */
export function classifyMission(mission: HomeMission, counts: EntryCounts, now: Date): { list: HomeList; state: string } | null {
  const availability = availabilityOf(mission, 'live', now);
  const finished = finishedEntries(counts);
  const needsEntry = (isDiary(rulesOf(mission)) || finished < mission.entriesMin) && counts.total < mission.entriesMax;
  const hasWork = counts.draft > 0 || counts.changesRequested > 0;
  if (availability !== 'closed' && (needsEntry || hasWork)) {
    const state = availability === 'upcoming' ? 'upcoming' : counts.changesRequested > 0 ? 'changes_requested' : counts.total > 0 ? 'in_progress' : 'open';
    return { list: 'todo', state };
  }
  if (counts.submitted > 0) return { list: 'submitted', state: 'submitted' };
  if (finished >= mission.entriesMin) return { list: 'done', state: counts.approved >= mission.entriesMin ? 'approved' : 'submitted' };
  return null;
}

/** One of the participant's diary entries, as home reads it. */
interface DiaryEntryRow {
  missionId: number;
  status: string;
  localDate: string;
  timeZone: string;
  createdAt: Date;
}

/**
 * What a diary to do offers today: `continue` while a draft or an entry sent back waits, else
 * `add` while the entries taking up today (`entriesOnDay`, as the daily limit counts them) are
 * under the daily limit (and the maximum not reached), else `tomorrow`. `today` is the
 * participant's calendar day in `timeZone`. Only finished entries count as made (`entries`, the
 * streak).
 */
export function diaryOf(
  mission: Pick<Mission, 'entriesMax' | 'perDay'>,
  counts: EntryCounts,
  entries: readonly DiaryEntryRow[],
  today: string,
  timeZone: string,
): HomeDiary {
  const finishedDays = entries.filter((entry) => entry.status === 'submitted' || entry.status === 'approved').map((entry) => entry.localDate);
  const madeToday = entriesOnDay(entries, today, timeZone).length;
  const room = counts.total < mission.entriesMax && madeToday < (mission.perDay ?? Number.POSITIVE_INFINITY);
  const offer: HomeDiary['today'] = counts.draft > 0 || counts.changesRequested > 0 ? 'continue' : room ? 'add' : 'tomorrow';
  return { entries: finishedEntries(counts), max: mission.entriesMax, next: counts.total + 1, today: offer, streak: diaryStreak(finishedDays, today) };
}

/** The participant's entries in these diaries, newest first (one query; none asked without diaries). */
async function diaryEntries(db: Db, userId: number, missionIds: readonly number[]): Promise<DiaryEntryRow[]> {
  if (missionIds.length === 0) return [];
  return homeQueries(db).diaryEntries.execute({ userId, missionIds: [...missionIds] });
}

async function missionAndGroupItems(
  db: Db,
  userId: number,
  missionRows: readonly HomeMissionRow[],
  groups: readonly HomeGroupRow[],
  now: Date,
  preferredTimeZone: string | null,
  language: unknown,
): Promise<Ranked[]> {
  const rows = missionRows.map(
    ({ projectName, total, draft, submitted, approved, changesRequested, rejected, lastSubmittedAt, titleTranslations, ...mission }) => ({
      mission: {
        ...mission,
        title: localTitle({ title: mission.title, titleTranslations }, language),
        opensAt: toDate(mission.opensAt),
        closesAt: toDate(mission.closesAt),
      } satisfies HomeMission,
      projectName,
      counts: { total, draft, submitted, approved, changesRequested, rejected, lastSubmittedAt: toDate(lastSubmittedAt) } satisfies EntryCounts,
    }),
  );
  const byId = new Map(rows.map((row) => [row.mission.id, row]));
  const countsOf = (id: number) => byId.get(id)?.counts ?? NO_ENTRIES;

  const out: Ranked[] = [];
  const grouped = new Set<number>();
  for (const { projectName, missionIds, ...group } of groups) {
    // Only the group's visible missions (drafts are left out of `byId`).
    const members = missionIds.flatMap((id) => byId.get(Number(id)) ?? []);
    if (members.length === 0) continue;
    for (const row of members) grouped.add(row.mission.id);
    const inputs = members.map((row) => groupMissionInput(row.mission, 'live', countsOf(row.mission.id), now));
    const states = groupMissionStates(group, inputs);
    const done = inputs.filter((input) => missionFinishedFor(group.unlockOn, input.counts, input.entriesMin)).length;
    const active = states.some((entry) => entry.state === 'open' || entry.state === 'in_progress');
    const upcoming = inputs.some((input) => input.availability === 'upcoming');
    const waiting = inputs.some((input) => input.counts.submitted > 0);
    let list: HomeList;
    let state: string;
    if (done === inputs.length) [list, state] = ['done', 'done'];
    else if (active) [list, state] = ['todo', done > 0 || inputs.some((input) => input.counts.total > 0) ? 'in_progress' : 'open'];
    else if (upcoming) [list, state] = ['todo', 'upcoming'];
    else if (waiting) [list, state] = ['submitted', 'submitted'];
    else continue;
    const pending = inputs.filter((input) => input.availability !== 'closed' && !missionFinishedFor(group.unlockOn, input.counts, input.entriesMin));
    const earliest = (dates: (Date | null)[]) => dates.filter((date): date is Date => date !== null).sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
    const latest = (dates: (Date | null)[]) => dates.filter((date): date is Date => date !== null).sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
    out.push({
      list,
      activityAt: latest(inputs.map((input) => input.counts.lastSubmittedAt)),
      item: {
        kind: 'mission_group',
        id: group.id,
        title: group.title,
        projectName,
        points: members.reduce((sum, row) => sum + row.mission.points, 0),
        closesAt: iso(earliest(pending.map((input) => input.closesAt))),
        opensAt: iso(earliest(inputs.filter((input) => input.availability === 'upcoming').map((input) => input.opensAt))),
        estimatedMinutes: null,
        progress: done / inputs.length,
        state,
      },
    });
  }

  const diaryIds = rows.filter(({ mission }) => !grouped.has(mission.id) && isDiary(rulesOf(mission))).map(({ mission }) => mission.id);
  const diaryRows = await diaryEntries(db, userId, diaryIds);
  for (const { mission, projectName } of rows) {
    if (grouped.has(mission.id)) continue;
    const missionCounts = countsOf(mission.id);
    const placed = classifyMission(mission, missionCounts, now);
    if (!placed) continue;
    const rules = rulesOf(mission);
    let diary: HomeDiary | undefined;
    if (placed.list === 'todo' && placed.state !== 'upcoming' && isDiary(rules)) {
      const own = diaryRows.filter((row) => row.missionId === mission.id);
      const zone = canonicalTimeZone(preferredTimeZone) ?? safeTimeZone(own[0]?.timeZone);
      diary = diaryOf(mission, missionCounts, own, localDateIn(now, zone), zone);
    }
    out.push({
      list: placed.list,
      activityAt: missionCounts.lastSubmittedAt,
      item: {
        kind: 'mission',
        id: mission.id,
        title: mission.title,
        projectName,
        points: mission.points,
        closesAt: iso(mission.closesAt),
        opensAt: iso(mission.opensAt),
        estimatedMinutes: null,
        progress: Math.min(1, finishedEntries(missionCounts) / entryGoal(rules)),
        state: placed.state,
        ...(mission.entriesMax > 1 ? { pointsPerEntry: true } : {}),
        ...(diary ? { diary } : {}),
      },
    });
  }
  return out;
}

const time = (value: string | null | undefined) => (value ? Date.parse(value) : Number.POSITIVE_INFINITY);

/**
 * `GET /api/home` for the user. Moderators and admins also get `staff.reviewWaiting` (one count on
 * the partial index `mission_entries_waiting_idx`, run beside the rest); participants pay nothing
 * for it.
 */
export async function homeFor(
  db: Db,
  clock: Clock,
  user: { id: number; role: Role; preferences?: { timeZone?: string | undefined; language?: string | undefined } },
): Promise<HomeAnswer> {
  const now = clock.now();
  const userId = user.id;
  const zone = user.preferences?.timeZone ?? null;
  let announced: HomeAnnouncement[] = [];
  const lists = async () => {
    const rows = await homeRows(db, userId, now);
    announced = rows.announcements.map((row) => ({ ...row, createdAt: toDate(row.createdAt)?.toISOString() ?? row.createdAt }));
    // Surveys' and missions' titles in the participant's language where translated (decision 035).
    const language = user.preferences?.language;
    return [...surveyItems(rows.surveys, now, language), ...(await missionAndGroupItems(db, userId, rows.missions, rows.groups, now, zone, language))];
  };
  const [items, reviewWaiting] = await Promise.all([lists(), isElevated(user.role) ? reviewWaitingCount(db) : null]);
  const staff = reviewWaiting === null ? {} : { staff: { reviewWaiting } };
  const of = (list: HomeList) => items.filter((ranked) => ranked.list === list);
  const todo = of('todo').sort((a, b) => {
    const upcoming = Number(a.item.state === 'upcoming') - Number(b.item.state === 'upcoming');
    if (upcoming !== 0) return upcoming;
    const [closesA, closesB] = [time(a.item.closesAt), time(b.item.closesAt)];
    if (closesA !== closesB) return closesA < closesB ? -1 : 1;
    return a.item.title.localeCompare(b.item.title) || a.item.id - b.item.id;
  });
  const byActivity = (a: Ranked, b: Ranked) => (b.activityAt?.getTime() ?? 0) - (a.activityAt?.getTime() ?? 0) || a.item.title.localeCompare(b.item.title);
  return {
    todo: todo.map((ranked) => ranked.item),
    submitted: of('submitted')
      .sort(byActivity)
      .map((ranked) => ranked.item),
    done: of('done')
      .sort(byActivity)
      .map((ranked) => ranked.item),
    announcements: announced,
    ...staff,
  };
}
