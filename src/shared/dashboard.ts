/**
 * The admin dashboard (`GET /api/admin/dashboard`, `/admin`): what it answers, and the few
 * constants both sides agree on. Zod-free: the dashboard island imports it. What each number
 * counts is written beside it (docs/api.md, "Admin: the dashboard and the review queue across
 * projects").
 */

/** At most this old: the server keeps one answer per process for this long (docs/product.md §2.5). */
export const DASHBOARD_MAX_AGE_MS = 10_000;
/** The oldest entries waiting for review that the dashboard lists. */
export const DASHBOARD_OLDEST_WAITING = 5;
/** Weeks in the sign-ups chart (this week included). */
export const DASHBOARD_SIGNUP_WEEKS = 12;
/** Days in the submissions chart (today included). */
export const DASHBOARD_SUBMISSION_DAYS = 30;
/** "Active": signed in or renewed a session within this many days. */
export const DASHBOARD_ACTIVE_DAYS = 30;
/** Live projects listed with their completion (the most recently updated first). */
export const DASHBOARD_PROJECTS = 20;

/** One of the oldest entries waiting for review. */
export interface DashboardWaitingEntry {
  entryId: number;
  missionId: number;
  missionTitle: string;
  projectId: number;
  projectName: string;
  participant: { id: number; firstName: string; lastName: string; email: string };
  /** ISO time of its latest submission. */
  submittedAt: string;
  /** Whole hours since then. */
  ageHours: number;
}

/**
 * A live project's completion: `completed` members who submitted something in the project — a
 * mission entry, a survey response, or a return from an external survey (drafts do not count) — out
 * of `members`; `completion` is their share (0…1; 0 with no members).
 */
export interface DashboardProject {
  id: number;
  name: string;
  members: number;
  completed: number;
  completion: number;
}

export interface DashboardAnswer {
  /** ISO time the numbers were counted (at most `DASHBOARD_MAX_AGE_MS` before the answer). */
  generatedAt: string;
  /**
   * Accounts with the role `participant` (any status): `total`; `active30d` whose last sign-in or
   * session renewal is within 30 days; `newThisWeek` created since Monday 00:00 UTC (`weekStart`).
   */
  participants: { total: number; active30d: number; newThisWeek: number; weekStart: string };
  /** Mission entries with the status `submitted`: how many, and the oldest first. */
  review: { waiting: number; oldest: DashboardWaitingEntry[] };
  projects: DashboardProject[];
  /** Points credited this month (UTC, `YYYY-MM`), summed by their state now: pending and available (voided left out). */
  points: { month: string; pending: number; available: number };
  /** Participant accounts created per week (Monday `YYYY-MM-DD`, UTC), the last 12 weeks, oldest first, every week present. */
  signupsPerWeek: { week: string; count: number }[];
  /** Mission entries by the day (`YYYY-MM-DD`, UTC) of their latest submission, the last 30 days, oldest first, every day present. */
  submissionsPerDay: { day: string; count: number }[];
  /** Distinct client error reports (actions such as `page_load` left out). */
  clientErrors: { total: number };
  /**
   * Rewards (issue 30): `outstandingPoints` every participant could still redeem or has asked for
   * (available + held, summed over the whole ledger), `value` what that is worth in each currency
   * the settings price (points per unit), `waiting` requests waiting for a person's approval, and
   * `toDeliver` approved requests of rewards delivered by hand.
   */
  rewards: { outstandingPoints: number; held: number; value: { currency: string; value: number }[]; waiting: number; toDeliver: number };
}

/** `YYYY-MM-DD` of a time, in UTC. */
export function utcDay(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/** Monday 00:00 UTC of the week holding `time`. */
export function utcWeekStart(time: Date): Date {
  const day = new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - sinceMonday);
  return day;
}

/** The first instant of the UTC month holding `time`. */
export function utcMonthStart(time: Date): Date {
  return new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), 1));
}

/** `count` consecutive UTC days ending with `last`'s, oldest first (`YYYY-MM-DD`). */
export function lastDays(last: Date, count: number): string[] {
  const start = Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), last.getUTCDate());
  return Array.from({ length: count }, (_, i) => utcDay(new Date(start - (count - 1 - i) * 86_400_000)));
}

/** `count` consecutive week starts (Mondays) ending with `last`'s week, oldest first (`YYYY-MM-DD`). */
export function lastWeeks(last: Date, count: number): string[] {
  const start = utcWeekStart(last).getTime();
  return Array.from({ length: count }, (_, i) => utcDay(new Date(start - (count - 1 - i) * 7 * 86_400_000)));
}
