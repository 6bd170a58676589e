/**
 * PostgreSQL restarted under load (issue 19 §4; docs/deploy.md, "What happens when…"): while
 * participants and moderators keep sending (scripts/load.ts's scenarios, open-loop), the database
 * is stopped and started again. Fieldwork answers 503 `database_unavailable` with Retry-After in
 * the one error shape meanwhile (never a 500, never a dropped connection), answers 2xx again once
 * PostgreSQL is back without being restarted itself, and every write it acknowledged (2xx) is in
 * the database afterwards.
 *
 * The PostgreSQL is a private cluster in a temporary folder (tests/support/private-postgres.ts),
 * never the machine's shared one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePhotos, missingAcknowledged, seedLoad, startLoad, type LoadResult, type LoadWorld } from '../../scripts/load.ts';
import { openDatabase } from '../../src/server/db/index.ts';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';

const unavailable = privatePostgresUnavailable();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests per second: enough that some are in flight when PostgreSQL goes. */
const RATE = 40;

describe.skipIf(unavailable !== null)(`PostgreSQL restarted under load${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let cluster: PrivatePostgres;
  let url: string;
  let server: ServerProcess;
  let dataDir: string;
  let world: LoadWorld;
  let result: LoadResult;
  /** Seconds from the load's start: PostgreSQL stopped, started again, /api/health 200 again. */
  const marks = { stopped: 0, started: 0, healthy: 0 };

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database fieldwork');
    await admin.end();
    url = cluster.url.replace(/\/postgres$/, '/fieldwork');
    const database = await openDatabase({ kind: 'postgres', connection: url });
    world = await seedLoad(database.db, { participants: 24, moderators: 4, surveys: 24, busyProgramme: false });
    await database.close();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-faults-pg-'));
    server = await startServerProcess({ DATABASE_URL: url, DATA_DIR: dataDir, SERVE_STATIC: '0', LOG_LEVEL: 'warn' });
  }, 120_000);

  afterAll(async () => {
    if (server) await server.stop('SIGKILL');
    cluster?.destroy();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 while it is down, recovers by itself, and loses nothing it acknowledged', async () => {
    const load = startLoad(server.url, world, await makePhotos(2), { rate: RATE, timeoutMs: 20_000 });
    const now = () => (performance.now() - load.startedAt) / 1000;
    await sleep(5_000);
    marks.stopped = now();
    cluster.stop('fast');
    await sleep(4_000);
    // Down for a while: the health check says so, and the server is still the same process.
    const down = await fetch(`${server.url}/api/health`);
    expect(down.status).toBe(503);
    marks.started = now();
    cluster.start();
    for (;;) {
      const health = await fetch(`${server.url}/api/health`).catch(() => null);
      if (health?.status === 200) break;
      if (now() - marks.started > 30) throw new Error('/api/health did not answer 200 within 30 s of PostgreSQL starting');
      await sleep(100);
    }
    marks.healthy = now();
    await sleep(6_000);
    result = await load.stop();

    expect(server.child.exitCode, server.output()).toBeNull();
    expect(server.child.signalCode).toBeNull();

    // While it was down: 503s in the one error shape, with Retry-After; nothing else went wrong.
    const unavailableAnswers = result.failures.filter((f) => f.status === 503);
    expect(unavailableAnswers.length).toBeGreaterThan(0);
    for (const failure of result.failures) {
      expect(failure, JSON.stringify(failure)).toMatchObject({ status: 503 });
      // `busy`: an upload queued behind others (routes/media.ts), also a 503 with Retry-After.
      expect(['database_unavailable', 'busy']).toContain(failure.code);
      expect(Number(failure.retryAfter)).toBeGreaterThan(0);
      if (failure.code === 'busy') continue;
      expect(failure.at).toBeGreaterThan(marks.stopped - 1);
      expect(failure.at).toBeLessThan(marks.healthy + 1);
    }
    // Back without restarting Fieldwork: every request after that answered 2xx, and plenty did.
    expect(result.answeredAt.filter((at) => at > marks.healthy + 1).length).toBeGreaterThan(RATE * 2);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const missing = await missingAcknowledged(
        result.acknowledged,
        async <T>(text: string, values: unknown[]) => (await client.query(text, values)).rows as T[],
      );
      expect(missing).toEqual([]);
    } finally {
      await client.end();
    }
    expect(result.acknowledged.filter((ack) => ack.kind === 'survey.submit').length).toBeGreaterThan(0);
    expect(result.acknowledged.filter((ack) => ack.kind === 'media.upload').length).toBeGreaterThan(0);
  }, 120_000);

  it('runs jobs again after the restart (a registration mail reaches the outbox)', async () => {
    const email = 'after-restart@faults.test';
    const res = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url },
      body: JSON.stringify({ firstName: 'After', lastName: 'Restart', email, acceptTerms: true }),
    });
    expect(res.status).toBe(202);
    const outbox = path.join(dataDir, 'outbox');
    const deadline = Date.now() + 30_000;
    const mailed = () =>
      fs.existsSync(outbox) &&
      fs
        .readdirSync(outbox)
        .filter((name) => name.endsWith('.eml'))
        .some((name) => fs.readFileSync(path.join(outbox, name), 'utf8').includes(email));
    while (!mailed()) {
      if (Date.now() > deadline) throw new Error(`no mail to ${email} in the outbox within 30 s:\n${server.output().slice(-3000)}`);
      await sleep(200);
    }
  }, 60_000);
});
