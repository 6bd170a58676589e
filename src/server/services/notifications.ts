/**
 * Telling participants what happened to their work: a notification for the header's menu and,
 * through the job queue, a mail (approvals as a daily digest), each kind switchable in their
 * preferences.
 *
 * The notifications table is the mail outbox: `notify()` only records the row (inside the
 * caller's transaction), and the `notifications.mail` job (every minute) mails the immediate kinds
 * whose `mailedAt` is still null, queuing each mail and setting `mailedAt` in one transaction, so
 * a mail is queued once, and never for a change that was rolled back. `digest.approvals` does the
 * same once a day for approvals. `mailedAt` is set on every row the mail step has handled, mailed
 * or skipped (preferences off, account not active).
 */
import { and, asc, count, desc, eq, gte, inArray, isNull } from 'drizzle-orm';
import { MAIL_PREFERENCE_KEYS, type NotificationKind, type NotificationView, type NotificationsAnswer } from '../../shared/notifications.ts';
import { utcDate, utcMidnight } from '../../shared/calendar-day.ts';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { notifications, users, type Notification, type Preferences } from '../db/schema/index.ts';
import type { JobSender } from '../jobs/queue.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { approvalsDigestMail, changesRequestedMail, preferencesUrl, probeMail, rejectedMail, type NotificationMailInput } from '../mail/templates.ts';
import type { Clock } from './clock.ts';

export interface NotifyInput {
  userId: number;
  kind: NotificationKind;
  /** One sentence, shown in the menu and used in the mail. */
  text: string;
  /** A same-site path to the screen it is about (e.g. `/account/mission-history/12`). */
  link: string;
}

/**
 * Records a notification. Call it inside the transaction that makes the change, so the two stand
 * or fall together. Its mail follows through the job queue (immediate kinds within about a
 * minute, approvals in the next daily digest), if the user's preferences allow it.
 */
export async function notify(db: Db, input: NotifyInput): Promise<Notification> {
  const [row] = await db.insert(notifications).values(input).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Whether the user wants mail of this kind: the master switch and the kind's own, both on by default. */
export function mailAllowed(preferences: Preferences, kind: NotificationKind): boolean {
  return preferences.emailNotifications !== false && preferences[MAIL_PREFERENCE_KEYS[kind]] !== false;
}

/** `GET /api/account/notifications?page=&pageSize=`: newest first, 20 a page by default. */
export const notificationsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

function view(row: Notification): NotificationView {
  return { id: row.id, kind: row.kind, text: row.text, link: row.link, createdAt: row.createdAt.toISOString(), read: row.readAt !== null };
}

/** How many of the user's notifications are unread. */
export async function unreadCount(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.value ?? 0;
}

/** A page of the user's notifications, newest first, and the unread count. */
export async function listNotifications(db: Db, userId: number, query: { page: number; pageSize: number }): Promise<NotificationsAnswer> {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { items: rows.map(view), unread: await unreadCount(db, userId) };
}

/** Marks these notifications of the user read (ids of others are ignored), or all of them; returns the unread count. */
export async function markNotificationsRead(db: Db, clock: Clock, userId: number, ids?: readonly number[]): Promise<number> {
  if (ids?.length !== 0) {
    await db
      .update(notifications)
      .set({ readAt: clock.now() })
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), ids ? inArray(notifications.id, [...ids]) : undefined));
  }
  return unreadCount(db, userId);
}

/** What the mail jobs use. */
export interface NotificationMailDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobSender;
}

/** The kinds mailed one by one, as soon as the job runs. */
export const IMMEDIATE_MAIL_KINDS = ['changes_requested', 'rejected', 'probe'] as const satisfies readonly NotificationKind[];
type ImmediateKind = (typeof IMMEDIATE_MAIL_KINDS)[number];

const IMMEDIATE_TEMPLATES: Record<ImmediateKind, (input: NotificationMailInput) => MailMessage> = {
  changes_requested: changesRequestedMail,
  rejected: rejectedMail,
  probe: probeMail,
};

/** Rows handled per transaction by the mail jobs. */
const MAIL_BATCH = 100;
/** Approvals listed in a digest; the rest are counted. */
export const DIGEST_LIST_MAX = 20;

/**
 * The `notifications.mail` job: queues a mail for each notification of an immediate kind not
 * handled yet (when the user's preferences allow it) and marks it handled, in one transaction per
 * batch. Rows locked by another run are skipped, so two runs never mail one twice. Returns how
 * many mails were queued.
 */
export async function mailPendingNotifications(deps: NotificationMailDeps): Promise<number> {
  const { db, clock, config, jobs } = deps;
  let queued = 0;
  for (;;) {
    const handled = await db.transaction(async (tx) => {
      const rows = await tx
        .select({
          notification: notifications,
          email: users.email,
          firstName: users.firstName,
          status: users.status,
          preferences: users.preferences,
        })
        .from(notifications)
        .innerJoin(users, eq(users.id, notifications.userId))
        .where(and(inArray(notifications.kind, [...IMMEDIATE_MAIL_KINDS]), isNull(notifications.mailedAt)))
        .orderBy(asc(notifications.id))
        .limit(MAIL_BATCH)
        .for('update', { of: notifications, skipLocked: true });
      for (const row of rows) {
        const kind = row.notification.kind as ImmediateKind;
        if (row.status !== 'active' || !mailAllowed(row.preferences, kind)) continue;
        const message = IMMEDIATE_TEMPLATES[kind]({
          to: row.email,
          firstName: row.firstName,
          text: row.notification.text,
          url: `${config.publicUrl}${row.notification.link}`,
          preferencesUrl: preferencesUrl(config.publicUrl),
        });
        await jobs.mail(message, { tx });
        queued++;
      }
      if (rows.length > 0) {
        await tx
          .update(notifications)
          .set({ mailedAt: clock.now() })
          .where(
            inArray(
              notifications.id,
              rows.map((row) => row.notification.id),
            ),
          );
      }
      return rows.length;
    });
    if (handled < MAIL_BATCH) return queued;
  }
}

/** Midnight UTC of the day `now` is in: a digest goes at most once per UTC day. */
function startOfUtcDay(now: Date): Date {
  return utcMidnight(utcDate(now));
}

/**
 * The `digest.approvals` job: for each user with approvals not mailed yet, one mail listing them
 * (the latest `DIGEST_LIST_MAX`, the rest counted) when their preferences allow it, and the rows
 * marked handled. At most one digest per user per UTC day: a user already handled today waits for
 * tomorrow's run. Returns how many digests were queued.
 */
export async function mailApprovalDigests(deps: NotificationMailDeps): Promise<number> {
  const { db, clock, config, jobs } = deps;
  const now = clock.now();
  const today = startOfUtcDay(now);
  const pending = await db
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .where(and(eq(notifications.kind, 'approved'), isNull(notifications.mailedAt)));
  let queued = 0;
  for (const { userId } of pending) {
    const sent = await db.transaction(async (tx) => {
      const [already] = await tx
        .select({ id: notifications.id })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'approved'), gte(notifications.mailedAt, today)))
        .limit(1);
      if (already) return false;
      const rows = await tx
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'approved'), isNull(notifications.mailedAt)))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .for('update', { skipLocked: true });
      if (rows.length === 0) return false;
      const [user] = await tx.select().from(users).where(eq(users.id, userId));
      let mailed = false;
      if (user && user.status === 'active' && mailAllowed(user.preferences, 'approved')) {
        const listed = rows.slice(0, DIGEST_LIST_MAX);
        const message = approvalsDigestMail({
          to: user.email,
          firstName: user.firstName,
          items: listed.map((row) => ({ text: row.text, url: `${config.publicUrl}${row.link}` })),
          more: rows.length - listed.length,
          url: `${config.publicUrl}/account`,
          preferencesUrl: preferencesUrl(config.publicUrl),
        });
        await jobs.mail(message, { tx });
        mailed = true;
      }
      for (let at = 0; at < rows.length; at += 1000) {
        await tx
          .update(notifications)
          .set({ mailedAt: now })
          .where(
            inArray(
              notifications.id,
              rows.slice(at, at + 1000).map((row) => row.id),
            ),
          );
      }
      return mailed;
    });
    if (sent) queued++;
  }
  return queued;
}
