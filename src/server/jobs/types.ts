/**
 * The jobs of the durable queue (`queue.ts`): each name, the data it carries (JSON, stored in the
 * database until the job is done) and what runs it (`handlers.ts`).
 *
 * Data carries references and what the work needs to start, never a secret it can make itself:
 * jobs that mail a link token issue the token when they run (see docs/decisions/011-job-queue.md).
 */
import type { Language } from '../../shared/languages.ts';
import type { MailMessage } from '../mail/mailer.ts';

/**
 * The language of the page a request came from (issue 31): the mail of a job that may go to an
 * address with no account, or to an account that never chose a language, is written in it. An
 * account's own language, read when the job runs, always wins (`mailLanguageOf`).
 */
interface AskedIn {
  language?: Language;
}

/** The account notices (`account.notice`), each always sent: no preference turns it off. */
export type AccountNotice =
  /** The address was changed: to the old address, naming the new one (`newEmail`). */
  | 'email-changed'
  /** The password was changed or reset. */
  | 'password-changed'
  /** An admin reset the second factors. */
  | 'second-factors-reset'
  /** A data-deletion request is confirmed. */
  | 'data-deletion-confirmed'
  /** A data-deletion request is completed (the account may be gone by then). */
  | 'data-deletion-completed';

export interface JobDataMap {
  /** One rendered mail to send (the contact form, notifications, digests, the CLI's invitation). */
  'mail.send': { message: MailMessage };
  /** Registration: looks the address up, creates or completes the invited account, mails the link. */
  'auth.register': { email: string; firstName: string; lastName: string; ip: string } & AskedIn;
  /** Forgot password: a reset link to a known active address (the setup link to an invited one). */
  'auth.forgot-password': { email: string } & AskedIn;
  /** A sign-in from a browser not seen before on the account: "New sign-in to Fieldwork" (services/new-sign-in.ts). */
  'auth.new-sign-in': { userId: number; at: string; device: string; ip: string | null };
  /**
   * A notice to an account (`AccountNotice`), queued in the transaction of the change: written when
   * the job runs, in the account's language then (issue 31); `to` is the address when it was
   * queued (the old one, for an address change), `userId` null when the account is gone.
   */
  'account.notice': { notice: AccountNotice; to: string; userId: number | null; newEmail?: string };
  /** Email change: a confirmation link to the new address, or a notice when it has an account. */
  'account.email-change': { userId: number; newEmail: string };
  /** Data deletion asked by email: a confirmation link when the address has an active account. */
  'data-deletion.request': { email: string; reason?: string; ip: string } & AskedIn;
  /**
   * An invitation (members added by email): a fresh onboarding link mailed to the invited account,
   * naming who invites and the project it joins (`invitedBy`, `projectId`: when known).
   */
  'invitation.send': { userId: number; invitedBy?: number; projectId?: number } & AskedIn;
  /**
   * One notification of an immediate kind (changes asked, rejected, probe): queued by `notify()` in
   * the transaction that records it, so its mail follows within seconds of the commit.
   */
  'notifications.mail-one': { notificationId: number };
  /**
   * New work for members (services/new-work.ts): an activity made live (or opening now), or every
   * live activity of a project made live. Queued by the change, in its transaction; writes the
   * `new_work` notifications (their mail follows in the batched sweep of `notifications.mail`).
   */
  'new-work.fan-out': { kind: 'survey' | 'mission' | 'project'; id: number };
  /** A project announcement (services/announcements.ts): one notification and (per preferences) one mail per member. */
  'announcement.send': { announcementId: number };
  /**
   * Every minute: the safety net that mails the notifications of the immediate kinds not mailed
   * yet, and the mail of the batched kinds (new work, points) once a user's have stopped coming.
   */
  'notifications.mail': Record<string, never>;
  /** Every day: one digest per user of their approvals not mailed yet. */
  'digest.approvals': Record<string, never>;
  /** Every day: one review digest per opted-in moderator or admin when entries have waited for review more than a day. */
  'digest.review': Record<string, never>;
  /** Every hour: one reminder per member who has not finished a mission closing within 48 hours. */
  'reminders.scan': Record<string, never>;
  /**
   * A provider reward's order (services/reward-provider-fulfilment.ts): queued by the approval (or
   * the automatic one) in its transaction, and by the provider's webhook. Asks the provider with
   * the redemption's own key, the same on every retry.
   */
  'rewards.order': { redemptionId: number };
  /** Every 10 minutes (and once at start): asks the provider about orders left `ordering` for 10 minutes or more. */
  'rewards.poll': Record<string, never>;
  /** Every day: uploads never attached to anything for 7 days are deleted (rows and files); expired upload reservations too. */
  'media.housekeeping': Record<string, never>;
  /**
   * A resumable upload's last byte arrived (services/uploads.ts, `processUpload`): its bytes become
   * stored media (photos re-encoded here, videos by the injected `ProcessVideo`), the row `ready` or
   * `failed`. Queued with the row's move to `processing`; a retry leaves a ready row alone.
   */
  'media.process': { mediaId: string };
  /** Every hour: resumable uploads still `uploading` past their expiry (24 hours) removed, rows and bytes. */
  'uploads.expire': Record<string, never>;
  /**
   * Outgoing webhooks (services/webhooks.ts): an event of the outbox, queued in the transaction
   * that recorded it: one delivery (attempt 1) per enabled endpoint that asks for it.
   */
  'webhooks.fan-out': { eventId: string };
  /** Every minute (and queued by bulk changes): fans out every event whose fan-out has not run. */
  'webhooks.sweep': Record<string, never>;
  /**
   * One attempt of an event to an endpoint; a failure queues the next attempt itself (the Standard
   * Webhooks schedule, `startAfter`). pg-boss's own retries are for crashes only.
   */
  'webhooks.deliver': { endpointId: number; eventId: string; attempt: number };
  /** Daily: events older than `WEBHOOK_LIMITS.retentionDays` and their deliveries removed (none with a delivery still pending). */
  'webhooks.prune': Record<string, never>;
}

export type JobName = keyof JobDataMap;

/** Every job name, in the order `drain()` visits the queues. */
export const JOB_NAMES = [
  'notifications.mail-one',
  'notifications.mail',
  'new-work.fan-out',
  'announcement.send',
  'digest.approvals',
  'digest.review',
  'reminders.scan',
  'media.housekeeping',
  'media.process',
  'uploads.expire',
  'rewards.order',
  'rewards.poll',
  'webhooks.fan-out',
  'webhooks.sweep',
  'webhooks.deliver',
  'webhooks.prune',
  'auth.register',
  'auth.forgot-password',
  'auth.new-sign-in',
  'account.email-change',
  'data-deletion.request',
  'invitation.send',
  'account.notice',
  'mail.send',
] as const satisfies readonly JobName[];

/** What a handler knows about the attempt it runs. */
export interface JobAttempt {
  id: string;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  /** True when a failure now is final (no retry left). */
  lastAttempt: boolean;
}

/** Runs one job; a throw fails the attempt (retried with backoff while retries are left). */
export type JobHandler<N extends JobName> = (data: JobDataMap[N], job: JobAttempt) => Promise<void>;

/** One handler per job name. */
export type JobHandlers = { [N in JobName]: JobHandler<N> };

/**
 * Processes a received video (the video pipeline, services/video.ts): sets its media row `ready`
 * itself, or throws `MediaProcessingFailed(reason)` (services/uploads.ts) for a clean failure the
 * participant is told; anything else thrown is retried. `sourcePath` is a local file, read only.
 */
export type ProcessVideo = (input: { mediaId: string; sourcePath: string }) => Promise<void>;
