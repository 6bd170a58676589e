/**
 * The durable job queue (pg-boss on PGlite and PostgreSQL): jobs survive a restart, are retried
 * with backoff, run once with several workers on one database, and a stop waits for the job that
 * runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/index.ts';
import { createJobHandlers } from '../../src/server/jobs/handlers.ts';
import { JobQueue, type JobConnection } from '../../src/server/jobs/queue.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createMailer, type MailMessage, type Mailer } from '../../src/server/mail/mailer.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import { readOutbox } from '../support/outbox.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { createFreshDatabase, type FreshDatabase } from '../support/postgres.ts';
import { BACKENDS, ORIGIN, TestClock, createTestContext, type Backend } from './harness.ts';
import { PASSWORD, signedInUser, uniqueEmail } from './helpers.ts';
import { addMember, createMission, createProject, insertEntry } from './programme-fixtures.ts';

const tempDirs: string[] = [];
const freshDatabases: FreshDatabase[] = [];
afterAll(async () => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const database of freshDatabases) await database.drop();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** A database that outlives the apps opened on it: a PGlite folder, or a PostgreSQL database. */
async function lastingDatabase(backend: Backend): Promise<{ kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string }> {
  if (backend === 'pglite') return { kind: 'pglite', dir: tempDir('fw-jobs-db-') };
  const fresh = await createFreshDatabase();
  freshDatabases.push(fresh);
  return { kind: 'postgres', url: fresh.url };
}

async function openLasting(
  target: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string },
): Promise<{ database: Database; connection?: JobConnection }> {
  if (target.kind === 'pglite') return { database: await openDatabase({ kind: 'pglite', dataDir: target.dir }) };
  return { database: await openDatabase({ kind: 'postgres', connection: target.url, poolSize: 4 }), connection: target.url };
}

/** A mailer that records what it sends; `gate` (if set) holds each send until it resolves. */
function recordingMailer(options: { failFirst?: number; gate?: () => Promise<void> } = {}) {
  const sent: MailMessage[] = [];
  const attempts: number[] = [];
  let started = 0;
  let failures = options.failFirst ?? 0;
  const mailer: Mailer = {
    outboxDir: null,
    close: () => undefined,
    async send(message) {
      started++;
      attempts.push(Date.now());
      if (options.gate) await options.gate();
      if (failures > 0) {
        failures--;
        throw new Error('SMTP server unavailable');
      }
      sent.push(message);
    },
  };
  return { mailer, sent, attempts, started: () => started };
}

/** A queue as the server runs it (workers), on a database, with this mailer. */
async function workerQueue(database: Database, connection: JobConnection | undefined, mailer: Mailer, dataDir: string): Promise<JobQueue> {
  const logger = createLogger('silent');
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN });
  const jobs = new JobQueue({ database, connection, logger, mode: 'worker', pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 });
  jobs.setHandlers(createJobHandlers({ db: database.db, mailer, clock: new TestClock(), config, logger, jobs }));
  await jobs.start();
  await jobs.startWorkers();
  return jobs;
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const message = (to: string, subject: string): MailMessage => ({ to, subject, text: subject, html: `<p>${subject}</p>` });

for (const backend of BACKENDS) {
  describe(`job queue [${backend}]`, () => {
    it('a job queued before the app closed is sent by the next app on the same database', async () => {
      const target = await lastingDatabase(backend);
      const dataDir = tempDir('fw-jobs-data-');
      const first = await createTestContext(backend, { database: target, dataDir });
      const email = uniqueEmail('durable');
      await createActiveUser(first.context.database.db, { email, password: PASSWORD, role: 'participant', firstName: 'Dana', lastName: 'Reed' });
      const res = await first.context.json('POST', '/api/auth/password/forgot', { email });
      expect(res.status).toBe(202);
      // The answer came before any mail work: the job waits in the database.
      expect(await first.context.jobs.waiting('auth.forgot-password')).toBe(1);
      await first.close();
      expect(await readOutbox(dataDir)).toEqual([]);

      const second = await createTestContext(backend, { database: target, dataDir });
      try {
        expect(await second.context.jobs.drain()).toMatchObject({ failed: 0 });
        const mails = (await readOutbox(dataDir)).filter((m) => m.to === email);
        expect(mails.map((m) => m.subject)).toEqual(['Reset your Fieldwork password']);
        const token = mails[0]?.links
          .find((link) => link.includes('/reset-password/'))
          ?.split('/')
          .at(-1);
        const verify = await second.context.request(`/api/tokens/verify?token=${token}&type=reset-password`);
        expect(verify.status).toBe(200);
        // Sent once: nothing is left to run.
        expect(await second.context.jobs.drain()).toEqual({ completed: 1, failed: 0 });
      } finally {
        await second.close();
      }
    });

    it('retries a failed mail with backoff, and a failed registration job mails a working link in the end', async () => {
      const recorder = recordingMailer({ failFirst: 2 });
      const { context: ctx, close } = await createTestContext(backend, { retryDelaySeconds: 1, mailer: () => recorder.mailer });
      try {
        await ctx.jobs.mail(message('someone@example.org', 'Hello once'));
        expect(await ctx.jobs.drain({ notifications: false })).toEqual({ completed: 0, failed: 1 });
        // Not due again at once: it waits for its backoff.
        expect(await ctx.jobs.waiting('mail.send')).toBe(1);
        expect(await ctx.jobs.drain({ notifications: false })).toEqual({ completed: 0, failed: 0 });
        expect(recorder.attempts).toHaveLength(1);
        await waitFor(async () => (await ctx.jobs.drain({ notifications: false })).failed + recorder.sent.length > 0);
        // The second try failed too (failFirst: 2); the third, later still, goes through.
        await waitFor(async () => {
          await ctx.jobs.drain({ notifications: false });
          return recorder.sent.length === 1;
        });
        expect(recorder.attempts).toHaveLength(3);
        const [a, b, c] = recorder.attempts as [number, number, number];
        expect(b - a).toBeGreaterThanOrEqual(900);
        expect(c - b).toBeGreaterThanOrEqual(900);
        expect(recorder.sent.map((m) => m.subject)).toEqual(['Hello once']);

        // Registration: the job issues the link when it runs; after a failed try the mail that goes
        // out carries the link that works.
        const broken = recordingMailer({ failFirst: 1 });
        const second = await createTestContext(backend, { retryDelaySeconds: 1, mailer: () => broken.mailer });
        try {
          const email = uniqueEmail('retry');
          const res = await second.context.json('POST', '/api/auth/register', { firstName: 'Ren', lastName: 'Ito', email, acceptTerms: true });
          expect(res.status).toBe(202);
          expect(await second.context.jobs.drain({ notifications: false })).toEqual({ completed: 0, failed: 1 });
          await waitFor(async () => {
            await second.context.jobs.drain({ notifications: false });
            return broken.sent.length === 1;
          });
          const link = /https?:\/\/\S+\/onboarding\/([A-Za-z0-9_-]{43})/.exec(broken.sent[0]?.text ?? '')?.[1];
          const verify = await second.context.request(`/api/tokens/verify?token=${link}&type=onboarding`);
          expect(await verify.json()).toMatchObject({ valid: true, email });
        } finally {
          await second.close();
        }
      } finally {
        await close();
      }
    });

    it('a “changes requested” mail reaches the mail server within 5 seconds of the answer, through the workers (woken, not polling)', async () => {
      const target = await lastingDatabase(backend);
      const dataDir = tempDir('fw-jobs-data-');
      const sink = await startSmtpSink();
      // The API (its queue only sends) and, on the same database, the server's workers with the
      // production polling interval (5 s) and a real SMTP mailer: only the NOTIFY of the commit
      // wakes them in time.
      const { context: ctx, close } = await createTestContext(backend, { database: target, dataDir });
      const logger = createLogger('silent');
      const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN, SMTP_URL: sink.url });
      const mailer = createMailer({ smtpUrl: sink.url, from: config.mailFrom, dataDir, logger });
      const workers = new JobQueue({ database: ctx.database, connection: target.kind === 'postgres' ? target.url : undefined, logger, mode: 'worker' });
      workers.setHandlers(createJobHandlers({ db: ctx.database.db, mailer, clock: new TestClock(), config, logger, jobs: workers }));
      try {
        await workers.start();
        await workers.startWorkers();
        const project = await createProject(ctx);
        const mission = await createMission(ctx, project.id, { title: 'Park benches' });
        const user = await signedInUser(ctx);
        await addMember(ctx, project.id, user);
        const moderator = await signedInUser(ctx, 'moderator');
        const elapsed: number[] = [];
        for (let i = 0; i < 3; i++) {
          const entry = await insertEntry(ctx, mission, user.id, { status: 'submitted' });
          const res = await ctx.json(
            'POST',
            `/api/admin/submissions/${entry.id}/review`,
            { decision: 'request_changes', reason: `Blurry ${i}` },
            moderator.headers,
          );
          expect(res.status).toBe(200);
          const answered = Date.now();
          await waitFor(() => sink.received.filter((mail) => mail.to.includes(user.email)).length > i, 20_000);
          elapsed.push(Date.now() - answered);
        }
        const mails = sink.received.filter((mail) => mail.to.includes(user.email));
        expect(mails.map((mail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1])).toEqual(Array(3).fill('Changes asked on your Fieldwork entry'));
        expect(Math.max(...elapsed)).toBeLessThan(5000);
        // Once each: the sweep (due every minute, run now) finds nothing left to mail.
        await workers.send('notifications.mail', {});
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(sink.received.filter((mail) => mail.to.includes(user.email))).toHaveLength(3);
      } finally {
        await workers.stop();
        mailer.close();
        await close();
        await sink.close();
      }
    });

    it('two workers on one database run each job once', async () => {
      const target = await lastingDatabase(backend);
      const dataDir = tempDir('fw-jobs-data-');
      const a = await openLasting(target);
      // PGlite has one owner process: two queues share its instance; PostgreSQL gets two pools.
      const b = target.kind === 'pglite' ? a : await openLasting(target);
      const one = recordingMailer();
      const two = recordingMailer();
      const first = await workerQueue(a.database, a.connection, one.mailer, dataDir);
      const second = await workerQueue(b.database, b.connection, two.mailer, dataDir);
      try {
        const count = 60;
        for (let i = 0; i < count; i++) await (i % 2 === 0 ? first : second).mail(message('many@example.org', `Mail ${i}`));
        await waitFor(() => one.sent.length + two.sent.length >= count);
        // Give a duplicate the time to show up.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const subjects = [...one.sent, ...two.sent].map((m) => m.subject).sort();
        expect(subjects).toHaveLength(count);
        expect(new Set(subjects).size).toBe(count);
        expect(await first.waiting('mail.send')).toBe(0);
      } finally {
        await first.stop();
        await second.stop();
        await a.database.close();
        if (b !== a) await b.database.close();
      }
    });

    it('stop() waits for the running job; one still running after the timeout goes back for a retry', async () => {
      const target = await lastingDatabase(backend);
      const dataDir = tempDir('fw-jobs-data-');
      const opened = await openLasting(target);
      try {
        let finished = false;
        const slow = recordingMailer({
          gate: async () => {
            await new Promise((resolve) => setTimeout(resolve, 1500));
            finished = true;
          },
        });
        const jobs = await workerQueue(opened.database, opened.connection, slow.mailer, dataDir);
        await jobs.mail(message('slow@example.org', 'Slow'));
        await waitFor(() => slow.started() === 1);
        const stopping = Date.now();
        await jobs.stop({ timeoutMs: 8000 });
        expect(finished).toBe(true);
        expect(Date.now() - stopping).toBeLessThan(8000);
        expect(slow.sent.map((m) => m.subject)).toEqual(['Slow']);

        // Too slow for the grace period: released (failed, to be retried), not lost.
        const stuck = recordingMailer({ gate: () => new Promise((resolve) => setTimeout(resolve, 4000)) });
        const again = await workerQueue(opened.database, opened.connection, stuck.mailer, dataDir);
        await again.mail(message('stuck@example.org', 'Stuck'));
        await waitFor(() => stuck.started() === 1);
        const before = Date.now();
        await again.stop({ timeoutMs: 1000 });
        expect(Date.now() - before).toBeLessThan(3500);

        const check = new JobQueue({ database: opened.database, connection: opened.connection, logger: createLogger('silent'), mode: 'manual' });
        await check.start();
        try {
          expect(await check.waiting('mail.send')).toBe(1);
        } finally {
          await check.stop();
        }
      } finally {
        await opened.database.close();
      }
    });
  });
}

describe('the outbox mailer behind the queue', () => {
  it('writes what mail.send jobs carry', async () => {
    const dataDir = tempDir('fw-jobs-outbox-');
    const { context: ctx, close } = await createTestContext('pglite', {
      dataDir,
      mailer: (dir) => createMailer({ from: 'Fieldwork <no-reply@fieldwork.localhost>', dataDir: dir, logger: createLogger('silent') }),
    });
    try {
      await ctx.jobs.mail(message('reader@example.org', 'Queued hello'));
      expect(await readOutbox(dataDir)).toEqual([]);
      await ctx.jobs.drain();
      expect((await readOutbox(dataDir)).map((m) => [m.to, m.subject])).toEqual([['reader@example.org', 'Queued hello']]);
    } finally {
      await close();
    }
  });
});
