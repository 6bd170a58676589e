/**
 * The admin dashboard (`GET /api/admin/dashboard`, docs/product.md §2.5): counts across the whole
 * site, each one a query an index serves (migration 0006), run in parallel, and kept for at most
 * `DASHBOARD_MAX_AGE_MS` (10 s) per process and database.
 *
 * What each number counts (`src/shared/dashboard.ts` says it again for the browser):
 * - participants: accounts with the role `participant`, any status (`users_role_status_idx`);
 *   active: `last_active_at` (sign-in or session renewal) within 30 days (`users_last_active_idx`);
 *   new this week: created since Monday 00:00 UTC (`users_created_idx`).
 * - review: mission entries with the status `submitted` (`mission_entries_waiting_idx`, partial), the
 *   5 oldest by their latest submission.
 * - projects: the 20 most recently updated live projects (`projects_status_updated_idx`); a member
 *   counts as "completed" (taking part) once they made a mission entry in the project (a draft
 *   counts: the entries are read from `mission_entries_mission_user_idx` alone, an index-only scan;
 *   telling drafts apart would read every entry's row, 1.4 s instead of 0.17 s on 1,000,000
 *   entries), submitted a survey response or returned from an external survey (any outcome).
 * - points: credits made this UTC month (`points_ledger_created_idx`), summed by their state now.
 * - charts: participant accounts created per week (12 weeks, `users_created_idx`) and mission
 *   entries per day of their latest submission (30 days, `mission_entries_submitted_at_idx`),
 *   zero-filled.
 * - client errors: distinct reports that are not actions (`client_reports_errors_idx`, partial).
 * - rewards: points outstanding — every `available` ledger row (held points included: their
 *   negative row is `held`, not `available`) — an index-only scan of `points_ledger_created_idx`;
 *   held points (the same index); its value at the settings' rates; requests `requested` and
 *   approved manual ones (`redemptions_status_requested_idx`).
 *
 * The cache is keyed on the `Db` object (a WeakMap: tests open many databases) and timed with the
 * app's Clock, so a test moves time past 10 s to see fresh numbers. One computation at a time:
 * callers that arrive while it runs share its promise; a failed one is forgotten at once.
 */
import { sql } from 'drizzle-orm';
import {
  DASHBOARD_ACTIVE_DAYS,
  DASHBOARD_MAX_AGE_MS,
  DASHBOARD_OLDEST_WAITING,
  DASHBOARD_PROJECTS,
  DASHBOARD_SIGNUP_WEEKS,
  DASHBOARD_SUBMISSION_DAYS,
  lastDays,
  lastWeeks,
  utcDay,
  utcMonthStart,
  utcWeekStart,
  type DashboardAnswer,
  type DashboardProject,
  type DashboardWaitingEntry,
} from '../../shared/dashboard.ts';
import { queryRows, type Db } from '../db/index.ts';
import { clientReports, missionEntries, missions, pointsLedger, projectMembers, projects, redemptions, rewards, users } from '../db/schema/index.ts';
import { getRewardSettings } from './rewards.ts';
import type { Clock } from './clock.ts';

const DAY_MS = 86_400_000;

/** A time as a query parameter (both drivers take the ISO text with a cast). */
const at = (time: Date) => sql`${time.toISOString()}::timestamptz`;

/** Counts the rows of a raw count query (`select count(*)::int as value …`). */
async function countRows(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ value: number | string }>(db, query);
  return Number(row?.value ?? 0);
}

async function participantCounts(db: Db, now: Date, weekStart: Date): Promise<DashboardAnswer['participants']> {
  const activeSince = new Date(now.getTime() - DASHBOARD_ACTIVE_DAYS * DAY_MS);
  const participant = sql`${users.role} = 'participant'`;
  const [total, active30d, newThisWeek] = await Promise.all([
    countRows(db, sql`select count(*)::int as value from ${users} where ${participant}`),
    countRows(db, sql`select count(*)::int as value from ${users} where ${participant} and ${users.lastActiveAt} >= ${at(activeSince)}`),
    countRows(db, sql`select count(*)::int as value from ${users} where ${participant} and ${users.createdAt} >= ${at(weekStart)}`),
  ]);
  return { total, active30d, newThisWeek, weekStart: utcDay(weekStart) };
}

async function waitingForReview(db: Db, now: Date): Promise<DashboardAnswer['review']> {
  const waitingCount = countRows(db, sql`select count(*)::int as value from ${missionEntries} where ${missionEntries.status} = 'submitted'`);
  const oldestRows = queryRows<{
    entry_id: number;
    mission_id: number;
    mission_title: string;
    project_id: number;
    project_name: string;
    user_id: number;
    first_name: string;
    last_name: string;
    email: string;
    submitted_at: string | Date;
  }>(
    db,
    sql`select e.id as entry_id, e.mission_id, m.title as mission_title, m.project_id, p.name as project_name,
          u.id as user_id, u.first_name, u.last_name, u.email, e.submitted_at
        from (select ${missionEntries.id} as id, ${missionEntries.missionId} as mission_id, ${missionEntries.userId} as user_id,
                     ${missionEntries.submittedAt} as submitted_at
              from ${missionEntries}
              where ${missionEntries.status} = 'submitted'
              order by ${missionEntries.submittedAt}, ${missionEntries.id}
              limit ${DASHBOARD_OLDEST_WAITING}) e
        join ${missions} m on m.id = e.mission_id
        join ${projects} p on p.id = m.project_id
        join ${users} u on u.id = e.user_id
        order by e.submitted_at, e.id`,
  );
  const [waiting, rows] = await Promise.all([waitingCount, oldestRows]);
  const oldest = rows.map((row): DashboardWaitingEntry => {
    const submittedAt = new Date(row.submitted_at);
    return {
      entryId: row.entry_id,
      missionId: row.mission_id,
      missionTitle: row.mission_title,
      projectId: row.project_id,
      projectName: row.project_name,
      participant: { id: row.user_id, firstName: row.first_name, lastName: row.last_name, email: row.email },
      submittedAt: submittedAt.toISOString(),
      ageHours: Math.max(0, Math.floor((now.getTime() - submittedAt.getTime()) / 3_600_000)),
    };
  });
  return { waiting, oldest };
}

async function liveProjects(db: Db): Promise<DashboardProject[]> {
  const rows = await queryRows<{ id: number; name: string; members: number | string; completed: number | string }>(
    db,
    sql`select p.id, p.name,
          (select count(*)::int from ${projectMembers} pm where pm.project_id = p.id) as members,
          (select count(*)::int from ${projectMembers} pm where pm.project_id = p.id and pm.first_contribution_at is not null) as completed
        from (select ${projects.id} as id, ${projects.name} as name, ${projects.updatedAt} as updated_at
              from ${projects} where ${projects.status} = 'live'
              order by ${projects.updatedAt} desc, ${projects.id} desc
              limit ${DASHBOARD_PROJECTS}) p
        order by p.updated_at desc, p.id desc`,
  );
  return rows.map((row) => {
    const members = Number(row.members);
    // Entries and answers of someone removed from the project since still count: never more than the members.
    const completed = Math.min(members, Number(row.completed));
    return { id: row.id, name: row.name, members, completed, completion: members === 0 ? 0 : completed / members };
  });
}

/** Points credited this month: what redemptions hold or spent is not a credit (issue 30), so it is left out. */
async function pointsThisMonth(db: Db, now: Date): Promise<DashboardAnswer['points']> {
  const start = utcMonthStart(now);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const [row] = await queryRows<{ pending: number | string | null; available: number | string | null }>(
    db,
    sql`select coalesce(sum(${pointsLedger.points}) filter (where ${pointsLedger.state} = 'pending'), 0)::int as pending,
               coalesce(sum(${pointsLedger.points}) filter (where ${pointsLedger.state} = 'available'), 0)::int as available
        from ${pointsLedger}
        where ${pointsLedger.createdAt} >= ${at(start)} and ${pointsLedger.createdAt} < ${at(end)}
          and ${pointsLedger.source} <> 'redemption'`,
  );
  return { month: utcDay(start).slice(0, 7), pending: Number(row?.pending ?? 0), available: Number(row?.available ?? 0) };
}

async function signupsPerWeek(db: Db, now: Date): Promise<DashboardAnswer['signupsPerWeek']> {
  const weeks = lastWeeks(now, DASHBOARD_SIGNUP_WEEKS);
  const since = new Date(`${weeks[0] ?? utcDay(now)}T00:00:00Z`);
  const rows = await queryRows<{ week: string; count: number | string }>(
    db,
    sql`select to_char(w, 'YYYY-MM-DD') as week, n as count from (
          select date_trunc('week', ${users.createdAt} at time zone 'UTC') as w, count(*)::int as n
          from ${users}
          where ${users.role} = 'participant' and ${users.createdAt} >= ${at(since)}
          group by 1) per_week`,
  );
  const counts = new Map(rows.map((row) => [row.week, Number(row.count)]));
  return weeks.map((week) => ({ week, count: counts.get(week) ?? 0 }));
}

async function submissionsPerDay(db: Db, now: Date): Promise<DashboardAnswer['submissionsPerDay']> {
  const days = lastDays(now, DASHBOARD_SUBMISSION_DAYS);
  const since = new Date(`${days[0] ?? utcDay(now)}T00:00:00Z`);
  const until = new Date(Date.parse(`${utcDay(now)}T00:00:00Z`) + DAY_MS);
  const rows = await queryRows<{ day: string; count: number | string }>(
    db,
    // Grouped on the day as a date (cheap per row), formatted once per day; only `submitted_at` is
    // read, so the partial index answers alone (an index-only scan).
    sql`select to_char(d, 'YYYY-MM-DD') as day, n as count from (
          select (${missionEntries.submittedAt} at time zone 'UTC')::date as d, count(*)::int as n
          from ${missionEntries}
          where ${missionEntries.submittedAt} is not null and ${missionEntries.submittedAt} >= ${at(since)} and ${missionEntries.submittedAt} < ${at(until)}
          group by 1) per_day`,
  );
  const counts = new Map(rows.map((row) => [row.day, Number(row.count)]));
  return days.map((day) => ({ day, count: counts.get(day) ?? 0 }));
}

function clientErrorCount(db: Db): Promise<number> {
  return countRows(db, sql`select count(*)::int as value from ${clientReports} where ${clientReports.data}->>'type' <> 'action'`);
}

/** Points outstanding and their value, reward requests waiting for a person. */
async function rewardFigures(db: Db): Promise<DashboardAnswer['rewards']> {
  const [[points], [requests], settings] = await Promise.all([
    queryRows<{ outstanding: number | string | null; held: number | string | null }>(
      db,
      sql`select coalesce(sum(${pointsLedger.points}) filter (where ${pointsLedger.state} = 'available'), 0)::bigint as outstanding,
                 coalesce(-sum(${pointsLedger.points}) filter (where ${pointsLedger.state} = 'held'), 0)::bigint as held
          from ${pointsLedger}`,
    ),
    queryRows<{ waiting: number | string; to_deliver: number | string }>(
      db,
      sql`select (select count(*) from ${redemptions} where ${redemptions.status} = 'requested')::int as waiting,
                 (select count(*) from ${redemptions} join ${rewards} on ${rewards.id} = ${redemptions.rewardId}
                   where ${redemptions.status} = 'approved' and ${rewards.fulfilment} = 'manual')::int as to_deliver`,
    ),
    getRewardSettings(db),
  ]);
  const outstandingPoints = Number(points?.outstanding ?? 0);
  return {
    outstandingPoints,
    held: Number(points?.held ?? 0),
    value: Object.entries(settings.pointsPerUnit)
      .filter(([, perUnit]) => perUnit > 0)
      .map(([currency, perUnit]) => ({ currency, value: Math.floor((outstandingPoints * 100) / perUnit) / 100 })),
    waiting: Number(requests?.waiting ?? 0),
    toDeliver: Number(requests?.to_deliver ?? 0),
  };
}

/** The dashboard's numbers, counted now (no cache). */
export async function computeDashboard(db: Db, now: Date): Promise<DashboardAnswer> {
  const weekStart = utcWeekStart(now);
  const [participants, review, projectRows, points, signups, submissions, errors, rewardNumbers] = await Promise.all([
    participantCounts(db, now, weekStart),
    waitingForReview(db, now),
    liveProjects(db),
    pointsThisMonth(db, now),
    signupsPerWeek(db, now),
    submissionsPerDay(db, now),
    clientErrorCount(db),
    rewardFigures(db),
  ]);
  return {
    generatedAt: now.toISOString(),
    participants,
    review,
    projects: projectRows,
    points,
    signupsPerWeek: signups,
    submissionsPerDay: submissions,
    clientErrors: { total: errors },
    rewards: rewardNumbers,
  };
}

interface Cached {
  /** The clock's time (ms) when the computation started. */
  startedAt: number;
  answer: Promise<DashboardAnswer>;
  /** Still being counted: every caller shares it, however long it takes. */
  running: boolean;
}

const cache = new WeakMap<Db, Cached>();

/**
 * `GET /api/admin/dashboard`: the numbers at most 10 s old (by the app's clock), counted once per
 * process and database however many staff ask at once.
 */
export function dashboard(db: Db, clock: Clock): Promise<DashboardAnswer> {
  const now = clock.now();
  const cached = cache.get(db);
  if (cached && (cached.running || (now.getTime() - cached.startedAt < DASHBOARD_MAX_AGE_MS && now.getTime() >= cached.startedAt))) return cached.answer;
  const entry: Cached = { startedAt: now.getTime(), answer: computeDashboard(db, now), running: true };
  cache.set(db, entry);
  entry.answer.then(
    () => {
      entry.running = false;
    },
    () => {
      entry.running = false;
      if (cache.get(db) === entry) cache.delete(db);
    },
  );
  return entry.answer;
}

/** How many entries wait for review (the staff card on home): one count on the partial index. */
export function reviewWaitingCount(db: Db): Promise<number> {
  return countRows(db, sql`select count(*)::int as value from ${missionEntries} where ${missionEntries.status} = 'submitted'`);
}
