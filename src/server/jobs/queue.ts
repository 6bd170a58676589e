/**
 * The durable job queue: pg-boss (https://github.com/timgit/pg-boss) in the `pgboss` schema of the
 * application's own database, embedded PGlite or PostgreSQL alike. A job is a row: it survives a
 * restart, is retried with exponential backoff, and `SELECT … FOR UPDATE SKIP LOCKED` gives each
 * one to one worker however many API processes run. docs/decisions/011-job-queue.md says why and
 * how a job stays consistent with the change that causes it (pass `tx`).
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgBoss, fromDrizzle, fromPglite, type ConstructorOptions, type JobResult, type JobWithMetadata, type Queue } from 'pg-boss';
import { VIDEO_LIMITS } from '../../shared/media.ts';
import type { Database, Db } from '../db/index.ts';
import type { Logger } from '../logger.ts';
import type { MailMessage, Mailer } from '../mail/mailer.ts';
import { JOB_NAMES, type JobAttempt, type JobDataMap, type JobHandlers, type JobName } from './types.ts';

export type { JobDataMap, JobHandlers, JobName } from './types.ts';

/** The schema pg-boss keeps its tables in. */
export const JOB_SCHEMA = 'pgboss';

/** How a queue is kept and, for the periodic jobs, when pg-boss creates one (cron, UTC). */
interface QueueSpec {
  options: Omit<Queue, 'name'>;
  /** Jobs a worker takes at once (settled one by one). */
  batchSize: number;
  cron?: string;
  /** Workers of this queue in each process (default 1): jobs that wait on the network run side by side. */
  localConcurrency?: number;
}

/** Retries for work a person waits for (mails): 11 tries over about 4 to 5 hours before giving up. */
const PATIENT = { retryLimit: 10, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600 } as const;
/** Periodic sweeps: the next run picks up whatever a failed one left. */
const PERIODIC = { retryLimit: 2, retryDelay: 30, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 600, deleteAfterSeconds: 86_400 } as const;
/**
 * Mail jobs hold addresses (and a queued `mail.send` the rendered message): completed ones are
 * kept one hour, then pg-boss's maintenance deletes them.
 */
const MAIL = { ...PATIENT, expireInSeconds: 300, deleteAfterSeconds: 3600, notify: true } as const;
/** Fan-outs to every member of a project (thousands, a batch per transaction): more time before a run counts as dead. */
const FAN_OUT = { ...PATIENT, expireInSeconds: 900, deleteAfterSeconds: 86_400, notify: true } as const;
/**
 * Provider orders (issue 30 §4): retried like mail, for hours, always with the same key. A run
 * (three provider calls at most, 10 s each) counts as dead after 2 minutes: a killed process's
 * order is retried then, and `rewards.poll` at the next start asks about it sooner.
 */
const ORDER = { ...PATIENT, expireInSeconds: 120, deleteAfterSeconds: 7 * 86_400, notify: true } as const;

/**
 * Webhook deliveries (issue 32 §1): the job schedules its own retries (a new job per attempt, on
 * the Standard Webhooks schedule), so pg-boss retries only a run that crashed or was cut off; one
 * run (a 10 s POST at most) counts as dead after a minute. Kept a week.
 */
const WEBHOOK = {
  retryLimit: 5,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 600,
  expireInSeconds: 60,
  deleteAfterSeconds: 7 * 86_400,
  notify: true,
} as const;

/**
 * Processing a resumable upload (issue 33 §3): a few retries (a storage or database hiccup); a
 * run may take a video's whole processing time before it counts as dead.
 */
const PROCESS = {
  retryLimit: 3,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 600,
  expireInSeconds: VIDEO_LIMITS.processingSeconds + 300,
  deleteAfterSeconds: 7 * 86_400,
  notify: true,
} as const;

export const QUEUES: Readonly<Record<JobName, QueueSpec>> = {
  'mail.send': { options: MAIL, batchSize: 10 },
  'auth.register': { options: MAIL, batchSize: 10 },
  'auth.forgot-password': { options: MAIL, batchSize: 10 },
  'auth.new-sign-in': { options: MAIL, batchSize: 10 },
  'account.email-change': { options: MAIL, batchSize: 10 },
  'data-deletion.request': { options: MAIL, batchSize: 10 },
  'invitation.send': { options: MAIL, batchSize: 10 },
  'account.notice': { options: MAIL, batchSize: 10 },
  'notifications.mail-one': { options: MAIL, batchSize: 10 },
  'new-work.fan-out': { options: FAN_OUT, batchSize: 1 },
  'announcement.send': { options: FAN_OUT, batchSize: 1 },
  'notifications.mail': { options: PERIODIC, batchSize: 1, cron: '* * * * *' },
  'digest.approvals': { options: PERIODIC, batchSize: 1, cron: '0 8 * * *' },
  'digest.review': { options: PERIODIC, batchSize: 1, cron: '0 7 * * *' },
  'reminders.scan': { options: PERIODIC, batchSize: 1, cron: '5 * * * *' },
  'media.housekeeping': { options: PERIODIC, batchSize: 1, cron: '40 3 * * *' },
  'media.process': { options: PROCESS, batchSize: 1 },
  'uploads.expire': { options: PERIODIC, batchSize: 1, cron: '25 * * * *' },
  'rewards.order': { options: ORDER, batchSize: 1 },
  'rewards.poll': { options: PERIODIC, batchSize: 1, cron: '*/10 * * * *' },
  'webhooks.fan-out': { options: WEBHOOK, batchSize: 1 },
  'webhooks.sweep': { options: { ...PERIODIC, notify: true }, batchSize: 1, cron: '* * * * *' },
  'webhooks.deliver': { options: WEBHOOK, batchSize: 1, localConcurrency: 4 },
  'webhooks.prune': { options: PERIODIC, batchSize: 1, cron: '50 3 * * *' },
};

/** How a process uses the queue. */
export type JobQueueMode =
  /** The API process: workers and schedules run here. */
  | 'worker'
  /** The CLI: only sends. */
  | 'producer'
  /** Tests: sends, and runs jobs only when `drain()` is called. */
  | 'manual';

/** A PostgreSQL connection for pg-boss's own small pool (a URL, or the CLI's socket to the server's PGlite). */
export type JobConnection = string | { host: string; port: number; user: string; database: string };

export interface JobQueueOptions {
  database: Database;
  /** PostgreSQL (required there): where pg-boss connects. PGlite: unused (the instance in `database`). */
  connection?: JobConnection | undefined;
  logger: Logger;
  mode: JobQueueMode;
  /** Seconds before the first retry of a failed job (doubling, with jitter, up to an hour). Default 30. */
  retryDelaySeconds?: number;
  /** Workers look for jobs this often when no notification woke them (seconds, ≥ 0.5). Default 5. */
  pollingIntervalSeconds?: number;
}

export interface SendOptions {
  /**
   * The Drizzle transaction the job belongs to: the job is inserted in it, so it exists if and
   * only if the transaction commits. Required when sending from inside a transaction (on PGlite a
   * send outside it would wait for the transaction to end: a deadlock).
   */
  tx?: Db;
  /** Not before this time (or this many seconds from now). */
  startAfter?: Date | number;
}

/** What routes and handlers need of the queue. */
export interface JobSender {
  send<N extends JobName>(name: N, data: JobDataMap[N], options?: SendOptions): Promise<string>;
  /** Queues a rendered mail (`mail.send`). */
  mail(message: MailMessage, options?: SendOptions): Promise<string>;
}

/** What `drain()` did. */
export interface DrainResult {
  completed: number;
  failed: number;
}

const STOP_TIMEOUT_MS = 10_000;

/** pg-boss statements run through a Drizzle transaction (pg-boss's own adapter, given Drizzle's `sql`). */
function inTransaction(tx: Db) {
  return fromDrizzle({ execute: async (query: unknown) => (await tx.execute(query as SQL)) as unknown as { rows: unknown[] } }, sql);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One queue per process: `start()` installs or upgrades pg-boss's schema (after our migrations),
 * creates the queues and, in `worker` mode, the schedules; `startWorkers()` (worker mode) runs
 * jobs here; `drain()` (manual mode) runs the jobs due now; `stop()` lets running jobs finish
 * (within the timeout) and releases the rest for a retry.
 */
export class JobQueue implements JobSender {
  readonly mode: JobQueueMode;
  private readonly options: JobQueueOptions;
  private readonly logger: Logger;
  private boss: PgBoss | null = null;
  private handlers: JobHandlers | null = null;
  private working = false;
  /** Set once `stop()` is called: workers start no further job. */
  private stopping = false;
  /** Set once pg-boss has closed: nothing can be sent any more. */
  private closed = false;
  private stopped: Promise<void> | null = null;

  constructor(options: JobQueueOptions) {
    this.options = options;
    this.mode = options.mode;
    this.logger = options.logger;
  }

  /** Sets what runs each job; needed before `startWorkers()` and `drain()`. */
  setHandlers(handlers: JobHandlers): void {
    this.handlers = handlers;
  }

  /** pg-boss's settings for this database and mode. */
  private bossOptions(): ConstructorOptions {
    const { database, connection, mode } = this.options;
    const working = mode === 'worker';
    const common: ConstructorOptions = {
      schema: JOB_SCHEMA,
      migrate: true,
      // Maintenance (expired jobs back to retry, deleting old ones) and the cron only where workers run.
      supervise: working,
      schedule: working,
      registerInstance: working,
      useListenNotify: working,
      openTelemetry: { enabled: false },
    };
    if (database.kind === 'pglite') {
      if (!database.pglite) throw new Error('a PGlite database without its instance');
      return { ...common, backend: 'pglite', db: fromPglite(database.pglite) };
    }
    if (!connection) throw new Error('the job queue needs the PostgreSQL connection');
    const pool = { max: working ? 4 : 1, connectionTimeoutMillis: 5000 };
    return typeof connection === 'string' ? { ...common, ...pool, connectionString: connection } : { ...common, ...pool, ...connection };
  }

  /** The queue options, with the retry delay this process was given. */
  private queueOptions(name: JobName): Omit<Queue, 'name'> {
    const { options } = QUEUES[name];
    return this.options.retryDelaySeconds === undefined ? options : { ...options, retryDelay: this.options.retryDelaySeconds };
  }

  /**
   * Installs or upgrades pg-boss's schema, creates the queues (so `send` works from here on) and,
   * in `worker` mode, the schedules. Workers start with `startWorkers()`.
   */
  async start(): Promise<void> {
    if (this.boss) return;
    const boss = new PgBoss(this.bossOptions());
    boss.on('error', (error) => this.logger.error({ err: error }, 'job queue error'));
    boss.on('warning', (warning) => this.logger.warn({ warning: warning.message, data: warning.data }, 'job queue warning'));
    await boss.start();
    try {
      for (const name of JOB_NAMES) {
        const options = this.queueOptions(name);
        if (await boss.getQueue(name)) await boss.updateQueue(name, options);
        else await boss.createQueue(name, options);
      }
      if (this.mode === 'worker') {
        for (const name of JOB_NAMES) {
          const { cron } = QUEUES[name];
          if (cron) await boss.schedule(name, cron, {}, { tz: 'UTC', missed: 'once' });
        }
      }
    } catch (error) {
      await boss.stop({ graceful: false }).catch(() => {});
      throw error;
    }
    this.boss = boss;
    this.logger.info({ mode: this.mode, backend: this.options.database.kind }, 'job queue started');
  }

  /**
   * `worker` mode: starts one worker per queue in this process (after `start()`, once what the
   * handlers read is ready: the server starts them when it listens and knows its public URL).
   *
   * A worker sleeps a polling interval after a fetch unless a NOTIFY woke it meanwhile, and
   * notifications coalesce (the jobs one transaction sends are one NOTIFY; several arriving
   * before a fetch wake it once). Queues taking batches keep fetching while batches come back full
   * (`burstWhenBatchFull`); pg-boss ignores that at a batch of one, so there each worker is
   * registered on its own and, having run a job, wakes itself (`notifyWorker`) to fetch again at
   * once: it sleeps only after a fetch that found nothing. Without it, five surveys submitted
   * together had their webhooks fanned out one every 5 s (docs/benchmarks.md, "Webhooks").
   */
  async startWorkers(): Promise<void> {
    const boss = this.started();
    if (this.mode !== 'worker') throw new Error(`no workers in ${this.mode} mode`);
    if (!this.handlers) throw new Error('setHandlers() before starting workers');
    if (this.working) return;
    this.working = true;
    const pollingIntervalSeconds = this.options.pollingIntervalSeconds ?? 5;
    for (const name of JOB_NAMES) {
      const { batchSize, localConcurrency = 1 } = QUEUES[name];
      const options = {
        batchSize,
        includeMetadata: true,
        perJobResults: true,
        pollingIntervalSeconds,
        notifyPollingIntervalSeconds: pollingIntervalSeconds,
      } as const;
      if (batchSize > 1) {
        await boss.work(name, { ...options, localConcurrency, burstWhenBatchFull: true }, (jobs: JobWithMetadata<object>[]) => this.runBatch(name, jobs));
        continue;
      }
      for (let worker = 0; worker < localConcurrency; worker++) {
        let workerId: string | null = null;
        workerId = await boss.work(name, options, async (jobs: JobWithMetadata<object>[]) => {
          const results = await this.runBatch(name, jobs);
          if (workerId && !this.stopping) boss.notifyWorker(workerId);
          return results;
        });
      }
    }
  }

  private started(): PgBoss {
    if (!this.boss || this.closed) throw new Error('the job queue is not running');
    return this.boss;
  }

  async send<N extends JobName>(name: N, data: JobDataMap[N], options: SendOptions = {}): Promise<string> {
    const boss = this.started();
    const id = await boss.send(name, data, {
      ...(options.tx ? { db: inTransaction(options.tx) } : {}),
      ...(options.startAfter === undefined ? {} : { startAfter: options.startAfter }),
    });
    if (!id) throw new Error(`the job queue did not accept a ${name} job`);
    return id;
  }

  mail(message: MailMessage, options: SendOptions = {}): Promise<string> {
    return this.send('mail.send', { message }, options);
  }

  /**
   * A Mailer whose `send` queues the message (`mail.send`) instead of sending it: for code that
   * takes a Mailer (invitations). `outboxDir` is where the real mailer will write.
   */
  queuedMailer(outboxDir: string | null, options: SendOptions = {}): Mailer {
    return {
      outboxDir,
      close: () => undefined,
      send: async (message) => {
        await this.mail(message, options);
      },
    };
  }

  /** Runs one job with its handler; false (and logged) when it failed. */
  private async runOne(name: JobName, job: JobWithMetadata<object>): Promise<{ ok: true } | { ok: false; message: string }> {
    const handlers = this.handlers;
    if (!handlers) throw new Error('no job handlers set');
    const attempt: JobAttempt = { id: job.id, attempt: job.retryCount + 1, lastAttempt: job.retryCount >= job.retryLimit };
    const handler = handlers[name] as (data: unknown, job: JobAttempt) => Promise<void>;
    try {
      await handler(job.data, attempt);
      return { ok: true };
    } catch (error) {
      const context = { err: error, job: name, jobId: job.id, attempt: attempt.attempt };
      if (attempt.lastAttempt) this.logger.error(context, `job ${name} failed for the last time; it will not be retried`);
      else this.logger.warn(context, `job ${name} failed; it will be retried`);
      return { ok: false, message: errorMessage(error) };
    }
  }

  /** A worker's batch, one job after the other; once stopping, the rest go back for a retry. */
  private async runBatch(name: JobName, jobs: JobWithMetadata<object>[]): Promise<JobResult[]> {
    const results: JobResult[] = [];
    for (const job of jobs) {
      if (this.stopping) {
        results.push({ id: job.id, status: 'failed', output: { message: 'not started: the process is shutting down' } });
        continue;
      }
      const outcome = await this.runOne(name, job);
      results.push(outcome.ok ? { id: job.id, status: 'completed' } : { id: job.id, status: 'failed', output: { message: outcome.message } });
    }
    return results;
  }

  /**
   * Runs every job that is due now, queue after queue, until none is left (jobs that jobs send
   * included); first it queues the notification mailing, as its every-minute schedule would.
   * For tests and scripts: deterministic, no polling. Failed jobs go back for a retry with backoff,
   * so they are not due again within the same drain.
   */
  async drain(options: { notifications?: boolean } = {}): Promise<DrainResult> {
    const boss = this.started();
    if (!this.handlers) throw new Error('setHandlers() before drain()');
    if (options.notifications ?? true) await this.send('notifications.mail', {});
    const result: DrainResult = { completed: 0, failed: 0 };
    for (let round = 0; round < 1000; round++) {
      let ran = 0;
      for (const name of JOB_NAMES) {
        const jobs = await boss.fetch<object>(name, { batchSize: 50, includeMetadata: true });
        for (const job of jobs) {
          ran++;
          const outcome = await this.runOne(name, job);
          if (outcome.ok) {
            await boss.complete(name, job.id);
            result.completed++;
          } else {
            await boss.fail(name, job.id, { message: outcome.message });
            result.failed++;
          }
        }
      }
      if (ran === 0) return result;
    }
    throw new Error('drain(): jobs keep coming after 1000 rounds');
  }

  /** How many jobs of a queue wait to run (due now or later, retries included). */
  async waiting(name: JobName): Promise<number> {
    const jobs = await this.started().findJobs(name, { queued: true });
    return jobs.length;
  }

  /**
   * Stops: no new jobs are taken; running ones may finish within `timeoutMs` (default 10 s);
   * jobs still running then, and those a worker had taken but not started, are failed so that
   * they are retried (here after a restart, or by another process). Then pg-boss closes its
   * connections. Idempotent.
   */
  stop(options: { timeoutMs?: number } = {}): Promise<void> {
    this.stopped ??= (async () => {
      const boss = this.boss;
      if (!boss) return;
      this.stopping = true;
      await boss.stop({ graceful: true, close: true, timeout: options.timeoutMs ?? STOP_TIMEOUT_MS });
      this.closed = true;
      this.logger.info('job queue stopped');
    })();
    return this.stopped;
  }
}

/** Installs pg-boss's schema and the queues in a database (the test harness does it once in its template). */
export async function installJobQueue(database: Database, logger: Logger, connection?: JobConnection): Promise<void> {
  const queue = new JobQueue({ database, connection, logger, mode: 'manual' });
  await queue.start();
  await queue.stop();
}
