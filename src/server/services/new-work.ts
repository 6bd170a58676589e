/**
 * Members hear of new work (issue 28 §15): when a survey or mission becomes open to the members of
 * a live project, each of them gets a `new_work` notification (the menu) and, a few minutes later
 * and per their preferences, one mail listing everything new since (`mailBatchedNotifications`,
 * services/notifications.ts).
 *
 * - A change that makes an activity live (its status, its project's status, or a new opening time
 *   of a live one) queues a `new-work.fan-out` job in its own transaction (`queueNewWork`); the job
 *   re-reads everything when it runs, so a change undone meanwhile tells nobody. An activity that
 *   opens later is told of when it opens (the job is queued, or queued again, for its opening time).
 * - The job writes the notifications a batch of members at a time, each under the key
 *   `new_work:{survey|mission}:{id}` (`notifications.dedupe_key`, unique per user): a second
 *   publish, a toggle, a retried or repeated job tells nobody twice. Members who already took part
 *   are left out, and so are members an `in_order` mission group still holds back: they hear of the
 *   mission when it opens for them (`notifyUnlockedMissions`, called where an entry is submitted or
 *   approved), under the same key.
 */
import { noticeRow } from './notices.ts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/index.ts';
import { missionEntries, missions, notifications, projects, surveys, users } from '../db/schema/index.ts';
import type { JobSender } from '../jobs/queue.ts';
import type { JobDataMap } from '../jobs/types.ts';
import type { ActivityStatus, ProjectStatus } from '../../shared/projects.ts';
import type { Clock } from './clock.ts';
import { activeMemberBatches } from './members.ts';
import { availabilityOf, orderLocks } from './participation.ts';

export type NewWorkTarget = JobDataMap['new-work.fan-out'];
type ActivityKind = 'survey' | 'mission';

/** The key under which a member hears of an activity once. */
export const newWorkKey = (kind: ActivityKind, id: number): string => `new_work:${kind}:${id}`;

/** The screen of the activity. */
export const newWorkLink = (kind: ActivityKind, id: number): string => (kind === 'survey' ? `/surveys/${id}` : `/missions/${id}`);

/** What decides whether a change makes an activity new to members. */
interface ActivityState {
  id: number;
  status: ActivityStatus;
  opensAt: Date | null;
}

export type NewWorkChange =
  | { kind: ActivityKind; before: ActivityState | null; after: ActivityState }
  | { kind: 'project'; before: { status: ProjectStatus } | null; after: { id: number; status: ProjectStatus } };

/**
 * Queues the fan-out a change calls for, in the change's transaction `tx`: an activity made live
 * (or created live), a live activity given another opening time (at that time when it is later),
 * a project made live (all its live activities). Nothing otherwise.
 */
export async function queueNewWork(tx: Db, jobs: JobSender, clock: Clock, change: NewWorkChange): Promise<void> {
  if (change.kind === 'project') {
    if (change.after.status === 'live' && change.before?.status !== 'live')
      await jobs.send('new-work.fan-out', { kind: 'project', id: change.after.id }, { tx });
    return;
  }
  const { before, after } = change;
  if (after.status !== 'live') return;
  const wentLive = before?.status !== 'live';
  const reopens = !wentLive && (before?.opensAt?.getTime() ?? null) !== (after.opensAt?.getTime() ?? null);
  if (!wentLive && !reopens) return;
  const wait = after.opensAt ? secondsUntil(after.opensAt, clock) : 0;
  await jobs.send('new-work.fan-out', { kind: change.kind, id: after.id }, wait > 0 ? { tx, startAfter: wait } : { tx });
}

/**
 * Seconds from now until `opensAt` by this process's clock (0 once passed), at least a minute when
 * any: given to the queue as a delay, not a date, so a database clock ahead of ours cannot run the
 * job early and again and again until ours catches up.
 */
function secondsUntil(opensAt: Date, clock: Clock): number {
  const ms = opensAt.getTime() - clock.now().getTime();
  return ms > 0 ? Math.max(60, Math.ceil(ms / 1000)) : 0;
}

/** `change` run in a transaction, then the fan-out it calls for (`queueNewWork`) queued in that transaction. */
export function withNewWork<T>(
  deps: { jobs: JobSender; clock: Clock },
  change: (tx: Db) => Promise<T>,
  describe: (result: T) => NewWorkChange,
): (tx: Db) => Promise<T> {
  return async (tx) => {
    const result = await change(tx);
    await queueNewWork(tx, deps.jobs, deps.clock, describe(result));
    return result;
  };
}

export interface NewWorkDeps {
  db: Db;
  clock: Clock;
  jobs: JobSender;
}

/** The `new-work.fan-out` job: tells the members of what is new; returns how many notifications it wrote. */
export async function fanOutNewWork(deps: NewWorkDeps, target: NewWorkTarget): Promise<number> {
  if (target.kind !== 'project') return fanOutActivity(deps, target.kind, target.id);
  const live = (table: typeof surveys | typeof missions) =>
    deps.db
      .select({ id: table.id })
      .from(table as typeof surveys)
      .innerJoin(projects, eq(projects.id, table.projectId))
      .where(and(eq(table.projectId, target.id), eq(table.status, 'live'), eq(projects.status, 'live')))
      .orderBy(asc(table.id));
  let written = 0;
  for (const { id } of await live(surveys)) written += await fanOutActivity(deps, 'survey', id);
  for (const { id } of await live(missions)) written += await fanOutActivity(deps, 'mission', id);
  return written;
}

/** The missions of the `in_order` groups this mission is in (none: no group holds it back). */
async function orderedGroupMissions(db: Db, missionId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select distinct b.mission_id as id from mission_group_missions a
        join mission_groups g on g.id = a.group_id and g.unlock = 'in_order'
        join mission_group_missions b on b.group_id = a.group_id
        where a.mission_id = ${missionId}`,
  );
  return rows.map((row) => Number(row.id));
}

/** "The member has not taken part in it yet" (SQL on the candidate column `u`). */
function notTakenPart(kind: ActivityKind, id: number) {
  return kind === 'survey'
    ? sql`not exists (select 1 from survey_responses r where r.survey_id = ${id} and r.user_id = u)
          and not exists (select 1 from survey_external_refs x where x.survey_id = ${id} and x.user_id = u)`
    : sql`not exists (select 1 from mission_entries e where e.mission_id = ${id} and e.user_id = u)`;
}

/** Inserts one `new_work` notification per active user (unless told before or taken part); returns how many. */
async function insertNewWork(
  tx: Db,
  now: Date,
  activity: { kind: ActivityKind; id: number; title: string; projectName: string },
  userIds: readonly number[],
): Promise<number> {
  if (userIds.length === 0) return 0;
  const { kind, id } = activity;
  const notice = noticeRow({ key: 'new_work', activity: kind, title: activity.title, project: activity.projectName });
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`insert into ${notifications} (user_id, kind, text, notice, link, created_at, dedupe_key)
        select u, 'new_work', ${notice.text}, ${JSON.stringify(notice.notice)}::jsonb, ${newWorkLink(kind, id)}, ${now.toISOString()}::timestamptz, ${newWorkKey(kind, id)}
        from unnest(${sql.param([...userIds])}::int[]) as t(u)
        where exists (select 1 from ${users} a where a.id = u and a.status = 'active') and ${notTakenPart(kind, id)}
        on conflict (user_id, dedupe_key) do nothing
        returning id`,
  );
  return rows.length;
}

async function fanOutActivity(deps: NewWorkDeps, kind: ActivityKind, id: number): Promise<number> {
  const { db, clock, jobs } = deps;
  const table = kind === 'survey' ? surveys : missions;
  const [row] = await db
    .select({
      id: table.id,
      title: table.title,
      status: table.status,
      opensAt: table.opensAt,
      closesAt: table.closesAt,
      projectId: projects.id,
      projectName: projects.name,
      projectStatus: projects.status,
    })
    .from(table as typeof surveys)
    .innerJoin(projects, eq(projects.id, table.projectId))
    .where(eq(table.id, id));
  if (!row || row.status !== 'live' || row.projectStatus !== 'live') return 0;
  const now = clock.now();
  const availability = availabilityOf(row, row.projectStatus, now);
  if (availability === 'closed') return 0;
  if (availability === 'upcoming' && row.opensAt) {
    // Told of when it opens (again if its opening time moved since this job was queued).
    await jobs.send('new-work.fan-out', { kind, id }, { startAfter: secondsUntil(row.opensAt, clock) });
    return 0;
  }

  // A mission an `in_order` group holds back waits for each member's unlock. Members with no entry
  // in the group's missions are all held back alike (decided once); the others one by one.
  const groupMissions = kind === 'mission' ? await orderedGroupMissions(db, id) : [];
  const lockedForNewcomers = groupMissions.length > 0 && (await orderLocks(db, 0, [id], now)).has(id);

  const activity = { kind, id, title: row.title, projectName: row.projectName };
  let written = 0;
  for await (const members of activeMemberBatches(db, row.projectId)) {
    let told = members;
    if (groupMissions.length > 0) {
      const started = new Set(
        (
          await db
            .selectDistinct({ userId: missionEntries.userId })
            .from(missionEntries)
            .where(and(inArray(missionEntries.missionId, groupMissions), inArray(missionEntries.userId, told)))
        ).map((entry) => entry.userId),
      );
      const open: number[] = [];
      for (const userId of told) {
        const locked = started.has(userId) ? (await orderLocks(db, userId, [id], now)).has(id) : lockedForNewcomers;
        if (!locked) open.push(userId);
      }
      told = open;
    }
    written += await db.transaction((tx) => insertNewWork(tx, now, activity, told));
  }
  return written;
}

/**
 * After an entry is submitted or approved (in that transaction, `tx`): the missions an `in_order`
 * group now opens for its participant — live, in a live project, open, not started — each get a
 * `new_work` notification, unless the participant heard of it before. One query when the missions
 * are in no such group.
 */
export async function notifyUnlockedMissions(tx: Db, clock: Clock, finished: readonly { userId: number; missionId: number }[]): Promise<number> {
  if (finished.length === 0) return 0;
  const missionIds = [...new Set(finished.map((each) => each.missionId))];
  const followers = await queryRows<{ done: number; next: number }>(
    tx,
    sql`select distinct a.mission_id as done, b.mission_id as next from mission_group_missions a
        join mission_groups g on g.id = a.group_id and g.unlock = 'in_order'
        join mission_group_missions b on b.group_id = a.group_id and b.position > a.position
        where a.mission_id = any(${sql.param(missionIds)}::int[])`,
  );
  if (followers.length === 0) return 0;
  const now = clock.now();
  const nextIds = [...new Set(followers.map((row) => Number(row.next)))];
  const candidates = await tx
    .select({
      id: missions.id,
      title: missions.title,
      status: missions.status,
      opensAt: missions.opensAt,
      closesAt: missions.closesAt,
      projectName: projects.name,
      projectStatus: projects.status,
    })
    .from(missions)
    .innerJoin(projects, eq(projects.id, missions.projectId))
    .where(and(inArray(missions.id, nextIds), eq(missions.status, 'live'), eq(projects.status, 'live')));
  const open = candidates.filter((mission) => availabilityOf(mission, mission.projectStatus, now) === 'open');
  if (open.length === 0) return 0;
  let written = 0;
  const people = [...new Set(finished.map((each) => each.userId))];
  for (const userId of people) {
    const done = new Set(finished.filter((each) => each.userId === userId).map((each) => each.missionId));
    const mine = open.filter((mission) => followers.some((row) => done.has(Number(row.done)) && Number(row.next) === mission.id));
    if (mine.length === 0) continue;
    const locks = await orderLocks(
      tx,
      userId,
      mine.map((mission) => mission.id),
      now,
    );
    for (const mission of mine) {
      if (locks.has(mission.id)) continue;
      written += await insertNewWork(tx, now, { kind: 'mission', id: mission.id, title: mission.title, projectName: mission.projectName }, [userId]);
    }
  }
  return written;
}
