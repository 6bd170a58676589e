/**
 * A points batch applied by the real server (PostgreSQL) that is killed (SIGKILL) in the middle of
 * the apply: after the restart the ledger holds none of the batch, and the batch is still to apply;
 * applied then, it holds all of it, once. The apply's progress stream tells the test when the
 * server is inside the transaction (a chunk of rows written, more to come). A browser that goes
 * away in the middle of an apply does not stop it: it commits whole.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/index.ts';
import { systemClock } from '../../src/server/services/clock.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import type { BulkApplyResult, BulkPreview } from '../../src/shared/points-bulk-update.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';

const ROWS = 60_000;
const BASE = '/api/admin/tools/points-bulk-update';
const reachable = await postgresReachable();

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function count(url: string, query: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>(query);
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

describe.skipIf(!reachable)('points bulk update: kill -9 while a batch applies [PostgreSQL]', () => {
  it('after the restart the batch is there whole or not at all; applied again it is there once', async () => {
    const fresh: FreshDatabase = await createFreshDatabase();
    cleanups.push(() => fresh.drop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-proc-points-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));

    const database = await openDatabase({ kind: 'postgres', connection: fresh.url, poolSize: 2 });
    const admin = await createActiveUser(database.db, {
      email: 'admin@points.test',
      password: 'Points-kill-9',
      role: 'admin',
      firstName: 'Ada',
      lastName: 'Admin',
    });
    const { token } = await createSession(database.db, systemClock, admin.id);
    await database.db.execute(
      sql`insert into users (email, first_name, last_name, role, status)
        select 'p' || g || '@points.test', 'P', 'No ' || g, 'participant', 'active' from generate_series(1, ${ROWS}) g`,
    );
    await database.close();

    const env = { DATA_DIR: dataDir, DATABASE_URL: fresh.url, PUBLIC_URL: 'http://fieldwork.test' };
    let server: ServerProcess = await startServerProcess(env);
    cleanups.push(() => server.stop('SIGKILL').then(() => undefined));
    const headers = () => ({ cookie: `fw_session=${token}`, origin: server.url });

    const lines = ['participant,points,reason,reference'];
    for (let g = 1; g <= ROWS; g += 1) lines.push(`p${g}@points.test,${(g % 50) + 1},Kill test,k-${g}`);
    const body = new FormData();
    body.set('file', new File([lines.join('\n')], 'kill.csv'));
    const previewRes = await fetch(`${server.url}${BASE}/preview`, { method: 'POST', headers: headers(), body });
    expect(previewRes.status).toBe(200);
    const preview = (await previewRes.json()) as BulkPreview;
    expect(preview.cleanRows).toBe(ROWS);

    // Apply with the progress stream; kill the server once a chunk is written and more remain.
    const applyRes = await fetch(`${server.url}${BASE}/${preview.batchId}/apply`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: '{}',
    });
    expect(applyRes.status).toBe(200);
    const reader = applyRes.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    let buffered = '';
    let killedAt: { done: number; total: number } | null = null;
    while (!killedAt) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const complete = buffered.split('\n');
      buffered = complete.pop() ?? '';
      for (const raw of complete) {
        const line = JSON.parse(raw) as { phase?: string; done?: number; total?: number };
        if (line.phase === 'applying' && (line.done ?? 0) > 0 && (line.done ?? 0) < (line.total ?? 0)) {
          killedAt = { done: line.done ?? 0, total: line.total ?? 0 };
          await server.stop('SIGKILL');
          break;
        }
      }
    }
    await reader.cancel().catch(() => {});
    expect(killedAt, 'the apply ended before a kill could land mid-way').not.toBeNull();
    expect(killedAt?.done).toBeLessThan(ROWS);

    // None of it: the transaction never committed.
    expect(await count(fresh.url, `select count(*) as n from points_ledger where source = 'bulk'`)).toBe(0);
    expect(await count(fresh.url, `select count(*) as n from points_batches where status = 'applied'`)).toBe(0);
    expect(await count(fresh.url, `select count(*) as n from points_batch_rows where result is not null`)).toBe(0);

    // Restarted: applying it writes all of it, once.
    server = await startServerProcess(env);
    const apply = () =>
      fetch(`${server.url}${BASE}/${preview.batchId}/apply`, { method: 'POST', headers: { ...headers(), 'content-type': 'application/json' }, body: '{}' });
    const first = await apply();
    expect(first.status).toBe(200);
    expect((await first.json()) as BulkApplyResult).toMatchObject({ applied: ROWS, alreadyApplied: false });
    const again = await apply();
    expect((await again.json()) as BulkApplyResult).toMatchObject({ applied: 0, alreadyApplied: true });
    expect(await count(fresh.url, `select count(*) as n from points_ledger where source = 'bulk'`)).toBe(ROWS);
    expect(await count(fresh.url, `select sum(points) as n from points_ledger where source = 'bulk'`)).toBe(
      Array.from({ length: ROWS }, (_, i) => ((i + 1) % 50) + 1).reduce((a, b) => a + b, 0),
    );

    // A browser that goes away during an apply (the tab closed) does not stop it: it commits whole.
    const second = new FormData();
    second.set('file', new File([lines.join('\n').replaceAll('Kill test,k-', 'Tab closed,t-')], 'closed.csv'));
    const secondPreview = (await (await fetch(`${server.url}${BASE}/preview`, { method: 'POST', headers: headers(), body: second })).json()) as BulkPreview;
    const abort = new AbortController();
    const streamed = await fetch(`${server.url}${BASE}/${secondPreview.batchId}/apply`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: '{}',
      signal: abort.signal,
    });
    const secondReader = streamed.body?.getReader();
    const firstChunk = await secondReader?.read();
    expect(decoder.decode(firstChunk?.value)).toContain('"phase":"applying"');
    abort.abort();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await count(fresh.url, `select count(*) as n from points_batches where status = 'applied'`)) < 2) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await count(fresh.url, `select count(*) as n from points_ledger where source = 'bulk'`)).toBe(2 * ROWS);

    expect(await server.stop()).toBe(0);
  }, 120_000);
});
