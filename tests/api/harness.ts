import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { AppEnv } from '../../src/server/context.ts';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, PGLITE_OPTIONS, wrapPglite, type Database } from '../../src/server/db/index.ts';
import { createJobHandlers } from '../../src/server/jobs/handlers.ts';
import { JobQueue } from '../../src/server/jobs/queue.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createMailer, type Mailer } from '../../src/server/mail/mailer.ts';
import type { Clock } from '../../src/server/services/clock.ts';
import { createUploadStore } from '../../src/server/services/uploads.ts';
import { createStorage, S3Storage, type Storage } from '../../src/server/storage/index.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';
import { startS3, type TestS3 } from '../support/s3.ts';

export const ORIGIN = 'http://127.0.0.1:4321';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  private current: number;
  constructor(start = Date.parse('2026-11-01T12:00:00Z')) {
    this.current = start;
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestContext {
  app: Hono<AppEnv>;
  database: Database;
  mailer: Mailer;
  clock: TestClock;
  config: Config;
  dataDir: string;
  /**
   * The job queue, in `manual` mode: jobs run only when a test calls `jobs.drain()`, which runs
   * every job due now (mails included) before returning.
   */
  jobs: JobQueue;
  /** Uploads: a LocalStorage in the test's own DATA_DIR (`dataDir/uploads`), or an S3Storage on `s3`. */
  storage: Storage;
  /** Where photos are kept (`mediaStore` option). */
  mediaStore: MediaStore;
  /** The local S3 server of a context with `mediaStore: 's3'`. */
  s3: TestS3 | undefined;
  /** The storage keys under `under` (e.g. `{mediaId}/`), sorted, from whichever store holds them. */
  storedKeys(under?: string): Promise<string[]>;
  /** Log lines the app wrote. */
  logs: string[];
  /** app.request with same-origin headers for calls that change state. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  json(method: string, pathname: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

export type Backend = 'pglite' | 'postgres';

/** Where a context keeps photos: files in its data folder, or a bucket of a local S3 server. */
export type MediaStore = 'local' | 's3';

/** The backends this run tests: PGlite always, PostgreSQL when one answers. */
export const BACKENDS: Backend[] = (await postgresReachable()) ? ['pglite', 'postgres'] : ['pglite'];

let template: Blob | undefined;

/**
 * A migrated in-memory PGlite with the job queue's schema installed, loaded from the dump the
 * suite's global setup made once for the whole run (`tests/support/pglite-template.ts`).
 */
async function migratedPglite(): Promise<PGlite> {
  template ??= new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
  const pglite = new PGlite({ ...PGLITE_OPTIONS, loadDataDir: template });
  await pglite.waitReady;
  return pglite;
}

/** An existing database to open instead of a fresh one (kept when the context closes): a restart. */
export type ExistingDatabase = { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string };

export interface TestContextOptions {
  pages?: Hono<AppEnv>;
  env?: NodeJS.ProcessEnv;
  /** Open this database (migrations run as at a server start) and leave it in place on close. */
  database?: ExistingDatabase;
  /** Use this data folder (outbox, uploads) and leave it in place on close. */
  dataDir?: string;
  /** The job queue's first retry delay in seconds (30 by default). */
  retryDelaySeconds?: number;
  /** The mailer the jobs send with (default: the outbox in the data folder). */
  mailer?: (dataDir: string) => Mailer;
  /**
   * `s3`: photos in a bucket of a local S3 server (`tests/support/s3.ts`) the context starts and
   * stops (or `s3`, left running), with `S3_DELIVERY=stream` unless `env` says otherwise.
   */
  mediaStore?: MediaStore;
  /** An S3 server already running for `mediaStore: 's3'` (not stopped on close). */
  s3?: TestS3;
}

/** Every key under `dir/under`, as `a/b.jpg`, sorted. */
function filesUnder(dir: string, under: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(key);
      else found.push(key);
    }
  };
  const folder = under.replace(/\/+$/, '');
  walk(folder);
  return found.filter((key) => key.startsWith(under)).sort();
}

/** Builds an app on a fresh database of the backend, as the server would (minus the network). */
export async function createTestContext(backend: Backend, options: TestContextOptions = {}) {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fw-api-'));
  let fresh: FreshDatabase | undefined;
  let database: Database;
  let connection: string | undefined;
  if (options.database?.kind === 'postgres') {
    connection = options.database.url;
    database = await openDatabase({ kind: 'postgres', connection, poolSize: 4 });
  } else if (options.database?.kind === 'pglite') {
    database = await openDatabase({ kind: 'pglite', dataDir: options.database.dir });
  } else if (backend === 'postgres') {
    fresh = await createFreshDatabase();
    connection = fresh.url;
    database = await openDatabase({ kind: 'postgres', connection, poolSize: 4 });
  } else {
    database = wrapPglite(await migratedPglite());
  }
  const mediaStore = options.mediaStore ?? 'local';
  const s3 = mediaStore === 's3' ? (options.s3 ?? (await startS3())) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'info',
    // The suites sign staff in with a password alone; the tests of the staff requirement turn it on.
    REQUIRE_STAFF_SECOND_FACTOR: '0',
    // The suites' staff sessions outlive the days their clocks move; the tests of the staff limits (12 h, 60 min) set them.
    STAFF_SESSION_HOURS: '720',
    STAFF_SESSION_IDLE_MINUTES: '43200',
    ...(s3 ? { ...s3.env, S3_DELIVERY: 'stream' } : {}),
    ...options.env,
  });
  const storage = createStorage(config, s3 ? { credentials: s3.credentials } : {});
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('info', sink);
  const mailer = options.mailer?.(dataDir) ?? createMailer({ from: config.mailFrom, dataDir, logger });
  const clock = new TestClock();
  // The resumable uploads' store on the same bucket and key (the server's finds the key in AWS_*), its expiry on the test's clock.
  const uploadStore = s3 ? createUploadStore(config, { credentials: s3.credentials, now: () => clock.now().getTime() }) : undefined;
  const jobs = new JobQueue({
    database,
    connection,
    logger,
    mode: 'manual',
    ...(options.retryDelaySeconds === undefined ? {} : { retryDelaySeconds: options.retryDelaySeconds }),
  });
  jobs.setHandlers(createJobHandlers({ db: database.db, mailer, clock, config, logger, jobs, storage, ...(uploadStore ? { uploadStore } : {}) }));
  await jobs.start();
  const app = createApp({ database, mailer, config, logger, clock, jobs, storage, ...(uploadStore ? { uploadStore } : {}) }, options.pages);

  const request = async (pathname: string, init: RequestInit = {}) => app.request(pathname, init);
  const json = async (method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(pathname, {
      method,
      headers: { Origin: ORIGIN, 'Content-Type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const storedKeys = async (under = '') => (s3 ? s3.keys(under) : filesUnder(config.mediaDir, under));
  const context: TestContext = { app, database, mailer, clock, config, dataDir, jobs, storage, mediaStore, s3, storedKeys, logs, request, json };
  const close = async () => {
    await jobs.stop();
    mailer.close();
    await database.close();
    await fresh?.drop();
    if (storage instanceof S3Storage) storage.client.destroy();
    if (uploadStore) (uploadStore as unknown as { client: S3Client }).client.destroy();
    if (s3 && !options.s3) await s3.stop();
    if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { context, close };
}

/**
 * Runs a suite once per backend with a fresh database each. `ctx()` gives the context inside
 * tests. With `stores: ['local', 's3']` the suite runs once more with photos in S3 (a local S3
 * server), on PGlite only: the store does not depend on the database.
 */
export function describeEachBackend(
  name: string,
  suite: (ctx: () => TestContext, backend: Backend, store: MediaStore) => void,
  options: { stores?: MediaStore[]; env?: NodeJS.ProcessEnv } = {},
): void {
  const runs: [Backend, MediaStore][] = [];
  for (const store of options.stores ?? ['local']) {
    if (store === 'local') runs.push(...BACKENDS.map((backend): [Backend, MediaStore] => [backend, 'local']));
    else runs.push(['pglite', store]);
  }
  for (const [backend, store] of runs) {
    describe(`${name} [${backend}${store === 'local' ? '' : `, ${store}`}]`, () => {
      let context: TestContext | undefined;
      let close: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        // TRUST_PROXY lets a test choose its client IP (X-Forwarded-For) for the rate limits.
        ({ context, close } = await createTestContext(backend, { env: { TRUST_PROXY: '1', ...options.env }, mediaStore: store }));
      });
      afterAll(async () => {
        await close?.();
      });
      suite(
        () => {
          if (!context) throw new Error('test context not ready');
          return context;
        },
        backend,
        store,
      );
    });
  }
}

/** `describeEachBackend` with photos on local disk (each backend) and in S3 (PGlite): the media suites. */
export function describeEachStore(name: string, suite: (ctx: () => TestContext, backend: Backend, store: MediaStore) => void): void {
  describeEachBackend(name, suite, { stores: ['local', 's3'] });
}
