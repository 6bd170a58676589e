/**
 * Telling participants what happened to their work: a notification for the header's menu and,
 * through the job queue, a mail (approvals as a daily digest), each kind switchable in their
 * preferences.
 *
 * The notifications table is the mail outbox. `notify()` records the row inside the caller's
 * transaction and, for the immediate kinds, queues a `notifications.mail-one` job for it in that
 * same transaction: a rollback leaves neither, a commit makes the job visible to the workers at
 * once (pg-boss wakes them with NOTIFY), so the mail reaches the mail server within seconds. The
 * job (and the `notifications.mail` sweep, every minute, the safety net for any row whose job did
 * not run) claims a row by setting its `mailedAt` — under the row's lock, only while it is still
 * null — in the transaction that queues its `mail.send`: whichever runs first mails it, the other
 * finds it handled, so a notification is mailed at most once (docs/decisions/020-notification-mail-at-once.md).
 * `digest.approvals` does the same once a day for approvals. `mailedAt` is set on every row the
 * mail step has handled, mailed or skipped (preferences off, account not active).
 *
 * New work and points changes come in bursts (a project made live, a bulk correction): the sweep
 * mails a user's rows of such a kind together in one mail, once none has come for a couple of
 * minutes (`mailBatchedNotifications`), claimed the same way. Announcements are mailed by their own
 * job as it records them (services/announcements.ts).
 */
import { and, asc, count, desc, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { MAIL_PREFERENCE_KEYS, type Notice, type NotificationKind, type NotificationView, type NotificationsAnswer } from '../../shared/notifications.ts';
import { utcDate, utcMidnight } from '../../shared/calendar-day.ts';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { notifications, users, type Notification, type Preferences } from '../db/schema/index.ts';
import type { JobSender } from '../jobs/queue.ts';
import type { MailMessage } from '../mail/mailer.ts';
import {
  approvalsDigestMail,
  changesRequestedMail,
  newWorkMail,
  pointsChangedMail,
  mailLanguageOf,
  preferencesUrl,
  probeMail,
  rewardMail,
  rejectedMail,
  type BatchedMailInput,
  type NotificationMailInput,
} from '../mail/templates.ts';
import type { Clock } from './clock.ts';
import { noticeRow, notificationText } from './notices.ts';
import type { Language } from '../../shared/languages.ts';

/**
 * A notification to record: what happened as a `notice` (said in the reader's language when read
 * or mailed; services/notices.ts), or a fixed `text` (one sentence, shown as it is).
 */
export type NotifyInput = {
  userId: number;
  kind: NotificationKind;
  /** A same-site path to the screen it is about (e.g. `/account/mission-history/12`). */
  link: string;
} & ({ notice: Notice } | { text: string });

/** The row of a `NotifyInput`: the notice and its English sentence. */
function rowOf(input: NotifyInput) {
  const { userId, kind, link } = input;
  return 'notice' in input ? { userId, kind, link, ...noticeRow(input.notice) } : { userId, kind, link, text: input.text };
}

/**
 * Records a notification. Call it inside the transaction that makes the change, with that
 * transaction as `db`, so the two stand or fall together. For an immediate kind, `jobs` queues its
 * mail job in the same transaction (mailed within seconds of the commit, if the user's preferences
 * allow it when the job runs); without `jobs` the every-minute sweep mails it. Approvals go in the
 * next daily digest either way.
 */
export async function notify(db: Db, input: NotifyInput, jobs?: JobSender): Promise<Notification> {
  const [row] = await db.insert(notifications).values(rowOf(input)).returning();
  if (!row) throw new Error('insert returned no row');
  if (jobs && isImmediateKind(row.kind)) await jobs.send('notifications.mail-one', { notificationId: row.id }, { tx: db });
  return row;
}

/**
 * Records several notifications in one statement, inside the caller's transaction as `notify`
 * (bulk approvals: `services/review.ts`, `services/redemptions-admin.ts`). Digest kinds wait for
 * their digest; for immediate kinds one `notifications.mail` sweep is queued in the same
 * transaction (it mails every immediate notification not mailed yet, a batch at a time), instead
 * of a `notifications.mail-one` job each.
 */
export async function notifyMany(db: Db, inputs: readonly NotifyInput[], jobs?: JobSender): Promise<void> {
  if (inputs.length === 0) return;
  await db.insert(notifications).values(inputs.map(rowOf));
  if (jobs && inputs.some((input) => isImmediateKind(input.kind))) await jobs.send('notifications.mail', {}, { tx: db });
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

function view(row: Notification, language: Language): NotificationView {
  return {
    id: row.id,
    kind: row.kind,
    text: notificationText(row, language),
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

/** How many of the user's notifications are unread. */
export async function unreadCount(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.value ?? 0;
}

/** A page of the user's notifications, newest first, each said in `language`, and the unread count. */
export async function listNotifications(db: Db, userId: number, query: { page: number; pageSize: number }, language: Language): Promise<NotificationsAnswer> {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { items: rows.map((row) => view(row, language)), unread: await unreadCount(db, userId) };
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

/** The kinds mailed one by one, as soon as their job runs. */
export const IMMEDIATE_MAIL_KINDS = ['changes_requested', 'rejected', 'probe', 'reward'] as const satisfies readonly NotificationKind[];
type ImmediateKind = (typeof IMMEDIATE_MAIL_KINDS)[number];

function isImmediateKind(kind: NotificationKind): kind is ImmediateKind {
  return (IMMEDIATE_MAIL_KINDS as readonly NotificationKind[]).includes(kind);
}

const IMMEDIATE_TEMPLATES: Record<ImmediateKind, (input: NotificationMailInput) => MailMessage> = {
  changes_requested: changesRequestedMail,
  rejected: rejectedMail,
  probe: probeMail,
  reward: rewardMail,
};

/** Rows handled per transaction by the mail jobs. */
const MAIL_BATCH = 100;
/** Approvals listed in a digest; the rest are counted. */
export const DIGEST_LIST_MAX = 20;

/**
 * Claims the unhandled notifications of the immediate kinds that `where` picks (at most `limit`)
 * and queues a mail for each whose user is active and allows it, all in `tx`. The claim is the
 * row's lock and `mailedAt` set while it is still null: a row another transaction holds is
 * skipped (it is being handled), one it handled meanwhile no longer matches. Returns how many rows
 * were claimed and how many mails queued.
 */
async function claimAndMail(deps: NotificationMailDeps, tx: Db, where: SQL | undefined, limit: number): Promise<{ claimed: number; queued: number }> {
  const { clock, config, jobs } = deps;
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
    .where(and(inArray(notifications.kind, [...IMMEDIATE_MAIL_KINDS]), isNull(notifications.mailedAt), where))
    .orderBy(asc(notifications.id))
    .limit(limit)
    .for('update', { of: notifications, skipLocked: true });
  let queued = 0;
  for (const row of rows) {
    const kind = row.notification.kind as ImmediateKind;
    if (row.status !== 'active' || !mailAllowed(row.preferences, kind)) continue;
    // The account's language now, when the job runs (issue 31), for the mail and the notice's sentence.
    const language = mailLanguageOf(row.preferences);
    const message = IMMEDIATE_TEMPLATES[kind]({
      to: row.email,
      language,
      firstName: row.firstName,
      text: notificationText(row.notification, language),
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
        and(
          inArray(
            notifications.id,
            rows.map((row) => row.notification.id),
          ),
          isNull(notifications.mailedAt),
        ),
      );
  }
  return { claimed: rows.length, queued };
}

/**
 * The `notifications.mail-one` job: mails one notification (when the user's preferences allow it)
 * unless the sweep or an earlier run of the job has handled it already. Returns whether a mail was
 * queued.
 */
export async function mailNotification(deps: NotificationMailDeps, notificationId: number): Promise<boolean> {
  const { queued } = await deps.db.transaction((tx) => claimAndMail(deps, tx, eq(notifications.id, notificationId), 1));
  return queued > 0;
}

/**
 * The `notifications.mail` job (every minute), the safety net: queues a mail for each
 * notification of an immediate kind not handled yet (when the user's preferences allow it) and
 * marks it handled, in one transaction per batch. Rows locked by another run or by their own job
 * are skipped, so nothing is mailed twice. Returns how many mails were queued.
 */
export async function mailPendingNotifications(deps: NotificationMailDeps): Promise<number> {
  let queued = 0;
  for (;;) {
    const batch = await deps.db.transaction((tx) => claimAndMail(deps, tx, undefined, MAIL_BATCH));
    queued += batch.queued;
    if (batch.claimed < MAIL_BATCH) return queued;
  }
}

/** The kinds mailed in batches: a user's rows of the kind in one mail, once they have stopped coming. */
export const BATCHED_MAIL_KINDS = ['new_work', 'points'] as const satisfies readonly NotificationKind[];
type BatchedKind = (typeof BATCHED_MAIL_KINDS)[number];

/** A user's batch is mailed once none of its kind came for this long… */
export const BATCH_QUIET_MS = 2 * 60_000;
/** …or once its first has waited this long, whatever keeps coming. */
export const BATCH_MAX_WAIT_MS = 10 * 60_000;

const BATCHED_TEMPLATES: Record<BatchedKind, (input: BatchedMailInput) => MailMessage> = {
  new_work: newWorkMail,
  points: pointsChangedMail,
};

/** Claims a user's unhandled rows of a batched kind and queues their one mail (preferences allowing), in `tx`. */
async function claimBatch(deps: NotificationMailDeps, tx: Db, userId: number, kind: BatchedKind): Promise<boolean> {
  const { clock, config, jobs } = deps;
  const rows = await tx
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, kind), isNull(notifications.mailedAt)))
    .orderBy(asc(notifications.createdAt), asc(notifications.id))
    .for('update', { skipLocked: true });
  if (rows.length === 0) return false;
  const [user] = await tx
    .select({ email: users.email, firstName: users.firstName, status: users.status, preferences: users.preferences })
    .from(users)
    .where(eq(users.id, userId));
  let mailed = false;
  if (user && user.status === 'active' && mailAllowed(user.preferences, kind)) {
    const listed = rows.slice(0, DIGEST_LIST_MAX);
    const language = mailLanguageOf(user.preferences);
    const message = BATCHED_TEMPLATES[kind]({
      to: user.email,
      language,
      firstName: user.firstName,
      items: listed.map((row) => ({ text: notificationText(row, language), url: `${config.publicUrl}${row.link}` })),
      more: rows.length - listed.length,
      preferencesUrl: preferencesUrl(config.publicUrl),
      publicUrl: config.publicUrl,
    });
    await jobs.mail(message, { tx });
    mailed = true;
  }
  for (let at = 0; at < rows.length; at += 1000) {
    const ids = rows.slice(at, at + 1000).map((row) => row.id);
    await tx
      .update(notifications)
      .set({ mailedAt: clock.now() })
      .where(and(inArray(notifications.id, ids), isNull(notifications.mailedAt)));
  }
  return mailed;
}

/**
 * Part of the `notifications.mail` sweep: for each user and batched kind (new work, points) whose
 * unhandled rows have stopped coming (`BATCH_QUIET_MS`) or waited long enough (`BATCH_MAX_WAIT_MS`),
 * one mail listing them (the first `DIGEST_LIST_MAX`, the rest counted) when the preferences allow
 * it, and the rows marked handled, in one transaction per user and kind. Returns how many mails
 * were queued.
 */
export async function mailBatchedNotifications(deps: NotificationMailDeps): Promise<number> {
  const now = deps.clock.now().getTime();
  const quiet = new Date(now - BATCH_QUIET_MS).toISOString();
  const waited = new Date(now - BATCH_MAX_WAIT_MS).toISOString();
  let queued = 0;
  let after: { userId: number; kind: string } | null = null;
  for (;;) {
    const due: { userId: number; kind: NotificationKind }[] = await deps.db
      .select({ userId: notifications.userId, kind: notifications.kind })
      .from(notifications)
      .where(
        and(
          inArray(notifications.kind, [...BATCHED_MAIL_KINDS]),
          isNull(notifications.mailedAt),
          after ? sql`(${notifications.userId}, ${notifications.kind}) > (${after.userId}, ${after.kind})` : undefined,
        ),
      )
      .groupBy(notifications.userId, notifications.kind)
      .having(sql`max(${notifications.createdAt}) <= ${quiet}::timestamptz or min(${notifications.createdAt}) <= ${waited}::timestamptz`)
      .orderBy(asc(notifications.userId), asc(notifications.kind))
      .limit(MAIL_BATCH);
    for (const group of due) {
      if (await deps.db.transaction((tx) => claimBatch(deps, tx, group.userId, group.kind as BatchedKind))) queued++;
    }
    const last = due.at(-1);
    if (!last || due.length < MAIL_BATCH) return queued;
    after = last;
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
        const language = mailLanguageOf(user.preferences);
        const message = approvalsDigestMail({
          to: user.email,
          language,
          firstName: user.firstName,
          items: listed.map((row) => ({ text: notificationText(row, language), url: `${config.publicUrl}${row.link}` })),
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
