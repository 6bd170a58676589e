import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { AppEnv } from '../../src/server/context.ts';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, wrapPglite, type Database } from '../../src/server/db/index.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createMailer, type Mailer } from '../../src/server/mail/mailer.ts';
import type { Clock } from '../../src/server/services/clock.ts';
import { BackgroundTasks } from '../../src/server/services/tasks.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';

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
  tasks: BackgroundTasks;
  /** Log lines the app wrote. */
  logs: string[];
  /** app.request with same-origin headers for calls that change state. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  json(method: string, pathname: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

export type Backend = 'pglite' | 'postgres';

/** The backends this run tests: PGlite always, PostgreSQL when one answers. */
export const BACKENDS: Backend[] = (await postgresReachable()) ? ['pglite', 'postgres'] : ['pglite'];

let template: Promise<PGlite> | undefined;

/** One migrated in-memory PGlite per test file; each context gets a clone (much faster than migrating). */
function migratedTemplate(): Promise<PGlite> {
  template ??= openDatabase({ kind: 'pglite', dataDir: null }).then((database) => {
    if (!database.pglite) throw new Error('expected PGlite');
    return database.pglite;
  });
  return template;
}

/** Builds an app on a fresh database of the backend, as the server would (minus the network). */
export async function createTestContext(backend: Backend, options: { pages?: Hono<AppEnv>; env?: NodeJS.ProcessEnv } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-api-'));
  let fresh: FreshDatabase | undefined;
  let database: Database;
  if (backend === 'postgres') {
    fresh = await createFreshDatabase();
    database = await openDatabase({ kind: 'postgres', connection: fresh.url, poolSize: 4 });
  } else {
    database = wrapPglite((await (await migratedTemplate()).clone()) as PGlite);
  }
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: ORIGIN, LOG_LEVEL: 'info', ...options.env });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('info', sink);
  const mailer = createMailer({ from: config.mailFrom, dataDir, logger });
  const clock = new TestClock();
  const tasks = new BackgroundTasks(logger);
  const app = createApp({ database, mailer, config, logger, clock, tasks }, options.pages);

  const request = async (pathname: string, init: RequestInit = {}) => app.request(pathname, init);
  const json = async (method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(pathname, {
      method,
      headers: { Origin: ORIGIN, 'Content-Type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const context: TestContext = { app, database, mailer, clock, config, dataDir, tasks, logs, request, json };
  const close = async () => {
    await tasks.idle();
    mailer.close();
    await database.close();
    await fresh?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { context, close };
}

/**
 * Runs a suite once per backend with a fresh database each. `ctx()` gives the context inside
 * tests.
 */
export function describeEachBackend(name: string, suite: (ctx: () => TestContext, backend: Backend) => void): void {
  for (const backend of BACKENDS) {
    describe(`${name} [${backend}]`, () => {
      let context: TestContext | undefined;
      let close: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        // TRUST_PROXY lets a test choose its client IP (X-Forwarded-For) for the rate limits.
        ({ context, close } = await createTestContext(backend, { env: { TRUST_PROXY: '1' } }));
      });
      afterAll(async () => {
        await close?.();
      });
      suite(() => {
        if (!context) throw new Error('test context not ready');
        return context;
      }, backend);
    });
  }
}
