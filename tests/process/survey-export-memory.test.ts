/**
 * The CSV export of 100,000 responses comes out whole from the production server on PostgreSQL
 * in bounded memory: pages are read over `survey_responses_survey_id_idx` only as fast as the
 * client reads (a response written while the client pauses is in the export), and the resident
 * set grows by far less than the export's size (docs/api.md "Results"). Skipped without a
 * PostgreSQL to use.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../../src/server/db/index.ts';
import { systemClock } from '../../src/server/services/clock.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import { textDefinition } from '../api/programme-fixtures.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';

const RESPONSES = 100_000;
/** The resident set may grow by this much while exporting (the export itself is over 5 MB). */
const GROWTH_LIMIT_BYTES = 32 * 1024 * 1024;

const reachable = await postgresReachable();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** VmRSS of a process, in bytes. */
function rss(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? Number.NaN) * 1024;
}

describe.skipIf(!reachable || process.platform !== 'linux')('CSV export of 100,000 responses', () => {
  let database: FreshDatabase;
  let server: ServerProcess | undefined;
  let dataDir: string;
  let cookie = '';
  let surveyId = 0;

  /** A response of `late@export.test`, written straight into the database. */
  async function submitLate(): Promise<void> {
    const opened = await openDatabase({ kind: 'postgres', connection: database.url }, { migrate: false });
    try {
      await opened.db.execute(sql`insert into survey_responses (survey_id, user_id, form_version, answers, status, submitted_at)
        select ${surveyId}, id, 1, '{"name": "Came late"}'::jsonb, 'submitted', now() from users where email = 'late@export.test'`);
    } finally {
      await opened.close();
    }
  }

  beforeAll(async () => {
    database = await createFreshDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-export-'));
    const opened = await openDatabase({ kind: 'postgres', connection: database.url });
    try {
      const db = opened.db;
      const admin = await createActiveUser(db, {
        email: 'admin@export.test',
        password: 'Export-adm1n!',
        role: 'admin',
        firstName: 'Ex',
        lastName: 'Port',
      });
      cookie = `fw_session=${(await createSession(db, systemClock, admin.id)).token}`;
      const definition = JSON.stringify(textDefinition('Export form'));
      const [made] = await queryRows<{ survey: number }>(
        db,
        sql`with f as (insert into forms (title, draft, status, created_by) values ('Export form', ${definition}::jsonb, 'published', ${admin.id}) returning id),
          v as (insert into form_versions (form_id, version, definition, published_by) select id, 1, ${definition}::jsonb, ${admin.id} from f returning form_id),
          p as (insert into projects (name, client, status, created_by) values ('Export project', 'Export', 'live', ${admin.id}) returning id)
          insert into surveys (project_id, title, kind, form_id, form_version, status) select p.id, 'Big export', 'native', v.form_id, 1, 'live' from p, v
          returning id as survey`,
      );
      surveyId = made?.survey ?? 0;
      await db.execute(sql`insert into users (email, first_name, last_name, role, status)
        select 'export-' || i || '@example.org', 'Person', i::text, 'participant', 'active' from generate_series(1, ${RESPONSES}) i`);
      await db.execute(sql`insert into survey_responses (survey_id, user_id, form_version, answers, status, submitted_at)
        select ${surveyId}, id, 1, jsonb_build_object('name', '=Answer ' || id), 'submitted', now() from users where email like 'export-%'`);
      await db.execute(
        sql`insert into users (email, first_name, last_name, role, status) values ('late@export.test', 'Late', 'Comer', 'participant', 'active')`,
      );
      await db.execute(sql`analyze`);
    } finally {
      await opened.close();
    }
    server = await startServerProcess({ DATABASE_URL: database.url, DATA_DIR: dataDir, SERVE_STATIC: '0', LOG_LEVEL: 'warn' });
  }, 180_000);

  afterAll(async () => {
    if (server) await server.stop();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('comes out whole and formula-safe, read only as fast as the client reads, while the server grows by far less than the export', async () => {
    const pid = server?.child.pid ?? 0;
    const url = `${server?.url ?? ''}/api/admin/surveys/${surveyId}/responses.csv`;
    // Warm up the route (its modules, the pool) on a first page, then measure from there.
    const warm = await fetch(url, { headers: { cookie } });
    await warm.body?.cancel();
    const before = rss(pid);
    let peak = before;
    const sampling = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
    let bytes = 0;
    let lines = 0;
    let last = '';
    let formulaSafe = 0;
    try {
      const res = await fetch(url, { headers: { cookie } });
      expect(res.status).toBe(200);
      const decoder = new TextDecoder();
      let paused = false;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (!paused) {
          // The client stops reading for a while, then a response with the highest id is submitted: a server that
          // had read every page already (into memory or the socket) would leave it out; one that reads as the
          // client reads has it in its last page.
          paused = true;
          await sleep(1000);
          await submitLate();
        }
        bytes += chunk.length;
        const text = last + decoder.decode(chunk, { stream: true });
        const parts = text.split('\r\n');
        last = parts.pop() ?? '';
        lines += parts.length;
        for (const line of parts) if (/,"'=Answer \d+"$/.test(line)) formulaSafe++;
        peak = Math.max(peak, rss(pid));
      }
    } finally {
      clearInterval(sampling);
    }
    lines += last ? 1 : 0;
    expect(lines).toBe(RESPONSES + 2);
    expect(last).toMatch(/,late@export\.test,Late,Comer,submitted,.*,Came late$/);
    expect(formulaSafe).toBeGreaterThan(RESPONSES - 2);
    expect(bytes).toBeGreaterThan(5_000_000);
    const growth = peak - before;
    console.log(
      `export of ${RESPONSES} responses: ${(bytes / 1e6).toFixed(1)} MB, RSS ${(before / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB`,
    );
    expect(growth).toBeLessThan(GROWTH_LIMIT_BYTES);
  }, 120_000);
});
