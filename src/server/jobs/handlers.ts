/** What runs each job of the queue (`types.ts` lists them). */
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Clock } from '../services/clock.ts';
import type { DataStore } from '@tus/server';
import { housekeepMedia } from '../services/media-housekeeping.ts';
import { createUploadStore, expireUploads, processUpload, uploadIdPrefix, type UploadJobDeps } from '../services/uploads.ts';
import { sendAnnouncement } from '../services/announcements.ts';
import { fanOutNewWork } from '../services/new-work.ts';
import { mailApprovalDigests, mailBatchedNotifications, mailNotification, mailPendingNotifications } from '../services/notifications.ts';
import { newSignInMail } from '../services/new-sign-in.ts';
import { mailReviewDigests } from '../services/review-digest.ts';
import { fulfilRedemption, pollProviderOrders } from '../services/reward-provider-fulfilment.ts';
import { deliverWebhook, fanOutWebhookEvent, pruneWebhookEvents, sweepWebhookEvents, withWebhookQueue } from '../services/webhooks.ts';
import { createStorage, type Storage } from '../storage/index.ts';
import { accountNoticeMail, dataDeletionRequestMail, emailChangeMail, forgotPasswordMail, invitationSendMail, registerMail } from './account-mail.ts';
import type { JobSender } from './queue.ts';
import { sendMissionReminders } from './reminders.ts';
import { videoProcessor } from '../services/video.ts';
import type { JobAttempt, JobHandlers, ProcessVideo } from './types.ts';

/** What the handlers use: the real mailer (the only place mail leaves), the database, time, and the queue for follow-up jobs. */
export interface JobDeps {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  config: Config;
  logger: Logger;
  jobs: JobSender;
  /** Uploaded files (media housekeeping); default the storage the configuration names, as the app's. */
  storage?: Storage;
  /** The resumable uploads' store (`media.process`, `uploads.expire`); default the one the configuration names. */
  uploadStore?: DataStore;
  /** The video pipeline (`media.process` of a video); default ffmpeg's (`videoProcessor`); `null`: none, videos fail with `VIDEO_MESSAGES.processingFailed`. */
  processVideo?: ProcessVideo | null;
}

/**
 * One handler per job name. Each runs with `deps.jobs` as the queue of its work
 * (`withWebhookQueue`), so the webhook events a job's changes record are queued with them.
 */
export function createJobHandlers(deps: JobDeps): JobHandlers {
  const handlers = jobHandlers(deps);
  const scoped = Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [name, (data: never, job: JobAttempt) => withWebhookQueue(deps.jobs, () => handler(data, job))]),
  );
  return scoped as unknown as JobHandlers;
}

function jobHandlers(deps: JobDeps): JobHandlers {
  const storage = deps.storage ?? createStorage(deps.config);
  let uploadStore = deps.uploadStore;
  const uploads = (): UploadJobDeps => {
    uploadStore ??= createUploadStore(deps.config, { now: () => deps.clock.now().getTime() });
    return {
      db: deps.db,
      clock: deps.clock,
      storage,
      logger: deps.logger,
      uploadStore,
      uploadIdPrefix: uploadIdPrefix(deps.config),
      processVideo: deps.processVideo === undefined ? videoProcessor({ db: deps.db, storage, logger: deps.logger }) : (deps.processVideo ?? undefined),
    };
  };
  return {
    'mail.send': async ({ message }) => {
      await deps.mailer.send(message);
    },
    'auth.register': (data) => registerMail(deps, data),
    'auth.forgot-password': (data) => forgotPasswordMail(deps, data),
    'auth.new-sign-in': (data) => newSignInMail(deps, data),
    'account.email-change': (data) => emailChangeMail(deps, data),
    'data-deletion.request': (data) => dataDeletionRequestMail(deps, data),
    'invitation.send': (data) => invitationSendMail(deps, data),
    'account.notice': (data) => accountNoticeMail(deps, data),
    'notifications.mail-one': async ({ notificationId }) => {
      await mailNotification(deps, notificationId);
    },
    'notifications.mail': async () => {
      const queued = (await mailPendingNotifications(deps)) + (await mailBatchedNotifications(deps));
      if (queued > 0) deps.logger.info({ queued }, 'notification mails queued');
    },
    'new-work.fan-out': async (target) => {
      const written = await fanOutNewWork(deps, target);
      if (written > 0) deps.logger.info({ written, target }, 'new work notifications written');
    },
    'announcement.send': async ({ announcementId }) => {
      const sent = await sendAnnouncement(deps, announcementId);
      deps.logger.info({ announcementId, ...sent }, 'announcement sent');
    },
    'digest.approvals': async () => {
      const queued = await mailApprovalDigests(deps);
      deps.logger.info({ queued }, 'approval digests queued');
    },
    'digest.review': async () => {
      const queued = await mailReviewDigests(deps);
      deps.logger.info({ queued }, 'review digests queued');
    },
    'reminders.scan': async () => {
      const reminded = await sendMissionReminders(deps);
      if (reminded > 0) deps.logger.info({ reminded }, 'mission reminders sent');
    },
    'rewards.order': async ({ redemptionId }) => {
      await fulfilRedemption(deps, redemptionId);
    },
    'rewards.poll': async () => {
      const done = await pollProviderOrders(deps);
      if (done.delivered + done.failed + done.pending + done.errors > 0) deps.logger.info(done, 'reward orders checked');
    },
    'media.housekeeping': async () => {
      const done = await housekeepMedia({ db: deps.db, clock: deps.clock, storage, logger: deps.logger });
      deps.logger.info(done, 'media housekeeping done');
    },
    'media.process': async ({ mediaId }, job) => {
      const outcome = await processUpload(uploads(), mediaId, job.lastAttempt);
      deps.logger.info({ mediaId, outcome }, 'upload processed');
    },
    'uploads.expire': async () => {
      const removed = await expireUploads(uploads());
      if (removed > 0) deps.logger.info({ removed }, 'expired uploads removed');
    },
    'webhooks.fan-out': async ({ eventId }) => {
      await fanOutWebhookEvent(deps, eventId);
    },
    'webhooks.sweep': async () => {
      const made = await sweepWebhookEvents(deps);
      if (made > 0) deps.logger.info({ made }, 'webhook deliveries made by the sweep');
    },
    'webhooks.deliver': async (data) => {
      const status = await deliverWebhook(deps, data);
      if (status === 'failed') deps.logger.info(data, 'webhook delivery failed');
    },
    'webhooks.prune': async () => {
      const removed = await pruneWebhookEvents(deps);
      if (removed > 0) deps.logger.info({ removed }, 'old webhook events removed');
    },
  };
}
