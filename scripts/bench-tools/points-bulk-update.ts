/**
 * Part of `npm run bench:tools` (scripts/bench-tools.ts): the points bulk update at 100,000 rows.
 *
 * For each backend (a fresh PostgreSQL database, then the embedded PGlite in a fresh DATA_DIR):
 * seeds 100,000 participants with `generate_series` and one admin with a session, starts the
 * production server (`node src/server/main.ts`), and times through HTTP, one at a time: the preview
 * of a 100,000-row CSV (upload + parse + check + store), applying it (100,000 ledger rows in one
 * transaction), applying it again (alreadyApplied), the preview of the same rows as an XLSX
 * (the same content: answered as applied, so read + hash), and other rows as an XLSX, previewed
 * and applied. Answers its markdown section.
 *
 * Environment: BENCH_POINTS_ROWS (default 100000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { openDatabase, type Database } from '../../src/server/db/index.ts';
import { systemClock } from '../../src/server/services/clock.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import type { BulkApplyResult, BulkPreview } from '../../src/shared/points-bulk-update.ts';
import { createFreshDatabase, postgresReachable } from '../../tests/support/postgres.ts';
import { freePort, spawnServer, stopServer, waitForHealth } from '../bench-server.ts';

const ROWS = Number(process.env.BENCH_POINTS_ROWS ?? 100_000);
const BASE = '/api/admin/tools/points-bulk-update';

interface Timings {
  backend: string;
  csvBytes: number;
  xlsxBytes: number;
  preview: number;
  apply: number;
  applyAgain: number;
  previewXlsx: number;
  freshXlsx: number;
  applyXlsx: number;
  applied: number;
}

/** 100,000 participants (every fourth by id, the rest by email) and an admin with a session. */
async function seed(database: Database): Promise<{ token: string; firstId: number }> {
  const { db } = database;
  const admin = await createActiveUser(db, { email: 'admin@bench.localhost', password: 'Bench-points-1', role: 'admin', firstName: 'Ada', lastName: 'Admin' });
  const { token } = await createSession(db, systemClock, admin.id);
  await db.execute(sql`
    insert into users (email, first_name, last_name, role, status)
    select 'person' || g || '@bench.example', 'Person', 'No ' || g, 'participant', 'active'
    from generate_series(1, ${ROWS}) g`);
  const result = (await db.execute(sql`select min(id) as id from users where role = 'participant'`)) as unknown as { rows: { id: number }[] };
  return { token, firstId: Number(result.rows[0]?.id ?? 0) };
}

function rowsOf(firstId: number, week: number): [string | number, number, string, string][] {
  const rows: [string | number, number, string, string][] = [];
  for (let g = 1; g <= ROWS; g += 1) {
    const participant = g % 4 === 0 ? firstId + g - 1 : `person${g}@bench.example`;
    rows.push([participant, (g % 200) - 100 || 7, `Week ${week} panel bonus ${g % 12}`, `w${week}-${g}`]);
  }
  return rows;
}

async function xlsxOf(rows: [string | number, number, string, string][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Points');
  sheet.addRow(['participant', 'points', 'reason', 'reference']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function timedJson<T>(label: string, run: () => Promise<Response>): Promise<{ ms: number; body: T }> {
  const started = performance.now();
  const res = await run();
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${label}: ${res.status} ${text.slice(0, 300)}`);
  console.log(`  ${label}: ${(ms / 1000).toFixed(2)} s`);
  return { ms, body: JSON.parse(text) as T };
}

async function run(backend: 'PostgreSQL' | 'PGlite', csv: (firstId: number) => Promise<{ csv: Buffer; xlsx: Buffer; freshXlsx: Buffer }>): Promise<Timings> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-points-'));
  const fresh = backend === 'PostgreSQL' ? await createFreshDatabase() : null;
  try {
    const database = fresh ? await openDatabase({ kind: 'postgres', connection: fresh.url, poolSize: 2 }) : await openDatabase({ kind: 'pglite', dataDir });
    const { token, firstId } = await seed(database);
    await database.close();
    const files = await csv(firstId);

    const port = await freePort();
    const server = spawnServer(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'warn',
        ...(fresh ? { DATABASE_URL: fresh.url } : {}),
      },
      port,
    );
    try {
      await waitForHealth(server);
      const headers = { cookie: `fw_session=${token}`, origin: server.url };
      const upload = (bytes: Buffer, name: string) => {
        const body = new FormData();
        body.set('file', new File([new Uint8Array(bytes)], name));
        return fetch(`${server.url}${BASE}/preview`, { method: 'POST', headers, body });
      };
      const applyCall = (batchId: number) =>
        fetch(`${server.url}${BASE}/${batchId}/apply`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
      console.log(`${backend}:`);
      const preview = await timedJson<BulkPreview>('preview (CSV)', () => upload(files.csv, 'points.csv'));
      if (preview.body.cleanRows !== ROWS)
        throw new Error(`preview: ${preview.body.cleanRows} clean rows of ${ROWS}: ${JSON.stringify(preview.body.problems.slice(0, 3))}`);
      const apply = await timedJson<BulkApplyResult>('apply', () => applyCall(preview.body.batchId));
      if (apply.body.applied !== ROWS) throw new Error(`apply wrote ${apply.body.applied} rows of ${ROWS}`);
      const again = await timedJson<BulkApplyResult>('apply again', () => applyCall(preview.body.batchId));
      if (!again.body.alreadyApplied) throw new Error('the second apply was not alreadyApplied');
      const xlsx = await timedJson<BulkPreview>('preview (same rows as XLSX)', () => upload(files.xlsx, 'points.xlsx'));
      if (xlsx.body.batchId !== preview.body.batchId || xlsx.body.status !== 'applied') throw new Error('the XLSX was not the same batch');
      const fresh = await timedJson<BulkPreview>('preview (other rows as XLSX)', () => upload(files.freshXlsx, 'week49.xlsx'));
      if (fresh.body.cleanRows !== ROWS) throw new Error(`XLSX preview: ${fresh.body.cleanRows} clean rows of ${ROWS}`);
      const applyXlsx = await timedJson<BulkApplyResult>('apply (XLSX batch)', () => applyCall(fresh.body.batchId));
      if (applyXlsx.body.applied !== ROWS) throw new Error(`XLSX apply wrote ${applyXlsx.body.applied} rows of ${ROWS}`);
      return {
        backend,
        csvBytes: files.csv.length,
        xlsxBytes: files.xlsx.length,
        preview: preview.ms,
        apply: apply.ms,
        applyAgain: again.ms,
        previewXlsx: xlsx.ms,
        freshXlsx: fresh.ms,
        applyXlsx: applyXlsx.ms,
        applied: apply.body.applied,
      };
    } finally {
      await stopServer(server);
    }
  } finally {
    await fresh?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Part of `npm run bench:tools` (scripts/bench-tools.ts): answers its markdown section. */
export async function measure(): Promise<string> {
  const files = async (firstId: number) => {
    const rows = rowsOf(firstId, 48);
    const text = `participant,points,reason,reference\r\n${rows.map((row) => row.join(',')).join('\r\n')}\r\n`;
    return { csv: Buffer.from(text, 'utf8'), xlsx: await xlsxOf(rows), freshXlsx: await xlsxOf(rowsOf(firstId, 49)) };
  };
  const results: Timings[] = [];
  if (await postgresReachable()) results.push(await run('PostgreSQL', files));
  else console.log('PostgreSQL not reachable: measured on PGlite only');
  results.push(await run('PGlite', files));
  const lines = [
    `### Points bulk update (${ROWS.toLocaleString('en')} rows)`,
    '',
    `One admin, ${ROWS.toLocaleString('en')} participants (a quarter named by id, the rest by email), a CSV of ${mb(results[0]?.csvBytes ?? 0)} and the same rows as an XLSX of ${mb(results[0]?.xlsxBytes ?? 0)}, through the production server. Preview = upload + parse + check + store the batch rows; apply = ${ROWS.toLocaleString('en')} ledger rows and per-row results in one transaction.`,
    '',
    '| Backend | Preview (CSV) | Apply | CSV: preview + apply | Apply again (alreadyApplied) | Same rows as XLSX (answered as applied) | Other rows as XLSX: preview + apply |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.backend} | ${s(r.preview)} | ${s(r.apply)} | **${s(r.preview + r.apply)}** | ${s(r.applyAgain)} | ${s(r.previewXlsx)} | **${s(r.freshXlsx + r.applyXlsx)}** (${s(r.freshXlsx)} + ${s(r.applyXlsx)}) |`,
    ),
  ];
  return lines.join('\n');
}
