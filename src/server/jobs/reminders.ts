/**
 * Mission reminders (the hourly `reminders.scan` job): a member who has not finished a mission
 * that closes within the next 48 hours gets one notification and, if their preferences allow it,
 * one mail. `mission_reminders` records each (mission, user) in the same transaction, so nobody is
 * reminded twice, whatever the number of runs or processes.
 */
import { and, asc, eq, gt, isNull, lte, notExists, or, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { missionEntries, missionReminders, missions, notifications, projectMembers, projects, users } from '../db/schema/index.ts';
import { mailLanguageOf, missionReminderMail, preferencesUrl } from '../mail/templates.ts';
import type { Clock } from '../services/clock.ts';
import { mailAllowed } from '../services/notifications.ts';
import { noticeRow } from '../services/notices.ts';
import { orderLocks } from '../services/participation.ts';
import type { JobSender } from './queue.ts';

/** How long before a mission closes its reminders go out. */
export const REMINDER_WINDOW_MS = 48 * 3_600_000;
const BATCH = 500;

export interface ReminderDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobSender;
}

/** Entries of the member in the mission with one of these statuses (SQL). */
function entriesOf(statuses: readonly string[]) {
  return sql<number>`(select count(*) from ${missionEntries} where ${missionEntries.missionId} = ${missions.id} and ${missionEntries.userId} = ${users.id} and ${missionEntries.status} in (${sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  )}))`;
}

/**
 * Sends the reminders due now: live missions of live projects, open, closing within 48 hours;
 * their active members with fewer finished entries (submitted or approved) than the mission asks
 * and something left to do (room for an entry, a draft, or an entry sent back); not held back by
 * an `in_order` group (they cannot start it yet); not reminded before. Returns how many members
 * were reminded.
 */
export async function sendMissionReminders(deps: ReminderDeps): Promise<number> {
  const { db, clock, config, jobs } = deps;
  const now = clock.now();
  const horizon = new Date(now.getTime() + REMINDER_WINDOW_MS);
  let reminded = 0;
  // Keyset paging: rows passed over (a mission the member cannot start yet) are not fetched again.
  let after: { missionId: number; userId: number } | null = null;
  for (;;) {
    const due = await db
      .select({
        missionId: missions.id,
        title: missions.title,
        closesAt: missions.closesAt,
        userId: users.id,
        email: users.email,
        firstName: users.firstName,
        preferences: users.preferences,
      })
      .from(missions)
      .innerJoin(projects, and(eq(projects.id, missions.projectId), eq(projects.status, 'live')))
      .innerJoin(projectMembers, eq(projectMembers.projectId, missions.projectId))
      .innerJoin(users, and(eq(users.id, projectMembers.userId), eq(users.status, 'active')))
      .where(
        and(
          eq(missions.status, 'live'),
          gt(missions.closesAt, now),
          lte(missions.closesAt, horizon),
          or(isNull(missions.opensAt), lte(missions.opensAt, now)),
          notExists(
            db
              .select({ one: sql`1` })
              .from(missionReminders)
              .where(and(eq(missionReminders.missionId, missions.id), eq(missionReminders.userId, users.id))),
          ),
          sql`${entriesOf(['submitted', 'approved'])} < ${missions.entriesMin}`,
          sql`(${entriesOf(['draft', 'submitted', 'approved', 'changes_requested', 'rejected'])} < ${missions.entriesMax} or ${entriesOf(['draft', 'changes_requested'])} > 0)`,
          after ? sql`(${missions.id}, ${users.id}) > (${after.missionId}, ${after.userId})` : undefined,
        ),
      )
      .orderBy(asc(missions.id), asc(users.id))
      .limit(BATCH);

    const last = due.at(-1);
    if (last) after = { missionId: last.missionId, userId: last.userId };
    // Missions an `in_order` group still holds back for the member: nothing to remind of yet (a
    // later run reminds them once it opens, if it still closes within the window).
    const locked = new Set<string>();
    const missionsOfUser = new Map<number, number[]>();
    for (const row of due) missionsOfUser.set(row.userId, [...(missionsOfUser.get(row.userId) ?? []), row.missionId]);
    for (const [userId, missionIds] of missionsOfUser) {
      for (const missionId of (await orderLocks(db, userId, missionIds, now)).keys()) locked.add(`${missionId}:${userId}`);
    }

    for (const row of due) {
      if (locked.has(`${row.missionId}:${row.userId}`)) continue;
      const closesAt = row.closesAt ?? horizon;
      const done = await db.transaction(async (tx) => {
        const recorded = await tx
          .insert(missionReminders)
          .values({ missionId: row.missionId, userId: row.userId, sentAt: now })
          .onConflictDoNothing()
          .returning({ missionId: missionReminders.missionId });
        if (recorded.length === 0) return false; // Another run got there first.
        const link = `/missions/${row.missionId}`;
        await tx.insert(notifications).values({
          userId: row.userId,
          kind: 'reminder',
          ...noticeRow({ key: 'reminder', title: row.title, closes: closesAt.toISOString() }),
          link,
          mailedAt: now,
        });
        if (mailAllowed(row.preferences, 'reminder')) {
          const message = missionReminderMail({
            to: row.email,
            language: mailLanguageOf(row.preferences),
            firstName: row.firstName,
            missionTitle: row.title,
            closesAt,
            url: `${config.publicUrl}${link}`,
            preferencesUrl: preferencesUrl(config.publicUrl),
          });
          await jobs.mail(message, { tx });
        }
        return true;
      });
      if (done) reminded++;
    }
    if (due.length < BATCH) return reminded;
  }
}
