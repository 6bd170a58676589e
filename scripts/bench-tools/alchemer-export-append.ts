/**
 * Part of `npm run bench:tools` (scripts/bench-tools.ts): the Alchemer export append at real size,
 * through the production server (`node src/server/main.ts`) on a fresh PostgreSQL database.
 *
 * Seeds 5,000 participants, members of a live project with an external survey, each with a
 * reference (pid). Writes, streamed to disk, an Alchemer-like CSV export of 500,000 rows (~200 MB:
 * Alchemer's standard columns, multi-select and grid columns, a quoted multi-line comment in some
 * rows, `URL Variable: pid` with 80 % known references), sends it with Node's http streaming from
 * disk and streams the answer to disk; reports the time and the server's peak RSS
 * (`/proc/<pid>/status` VmHWM; a fresh server for each file). Then XLSX
 * exports of growing row counts (exceljs' streaming writer, shared strings as Excel writes them):
 * the largest one whose append peaks within 512 MB.
 *
 * Environment: BENCH_ALCHEMER_ROWS (CSV rows, default 500000), BENCH_ALCHEMER_XLSX (comma-separated
 * XLSX row counts to try, default 25000,50000,100000,200000,400000).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { openDatabase } from '../../src/server/db/index.ts';
import { systemClock } from '../../src/server/services/clock.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import { createFreshDatabase, postgresReachable } from '../../tests/support/postgres.ts';
import { freePort, spawnServer, stopServer, waitForHealth, type ServerChild } from '../bench-server.ts';

const PARTICIPANTS = 5_000;
const CSV_ROWS = Number(process.env.BENCH_ALCHEMER_ROWS ?? 500_000);
const XLSX_ROWS = (process.env.BENCH_ALCHEMER_XLSX ?? '25000,50000,100000,200000,400000').split(',').map(Number);
const MEMORY_LIMIT = 512 * 1024 * 1024;

const pidOf = (n: number) => `benchpid${String(n).padStart(8, '0')}`.padEnd(43, 'Q');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function seed(url: string): Promise<string> {
  const database = await openDatabase({ kind: 'postgres', connection: url, poolSize: 2 });
  try {
    const { db } = database;
    const admin = await createActiveUser(db, {
      email: 'admin@alchemer.bench',
      password: 'Bench-alchemer-1',
      role: 'admin',
      firstName: 'Ada',
      lastName: 'Admin',
    });
    const { token } = await createSession(db, systemClock, admin.id);
    await db.execute(sql`insert into projects (name, client, status, created_by) values ('Kitchen study', 'Acme', 'live', ${admin.id})`);
    await db.execute(sql`
      insert into surveys (project_id, title, kind, external_url, points, status)
      select id, 'Brand tracker', 'external', 'https://survey.alchemer.com/s3/1/x', 25, 'live' from projects where name = 'Kitchen study'`);
    await db.execute(sql`
      insert into users (email, first_name, last_name, role, status, address)
      select 'person' || g || '@bench.example', 'Ana' || g, 'García ' || g, 'participant', 'active',
        jsonb_build_object('line1', '1 Main St', 'city', 'Paris', 'region', 'Île-de-France', 'postalCode', '7500' || (g % 10), 'country', 'FR')
      from generate_series(1, ${PARTICIPANTS}) g`);
    await db.execute(sql`insert into project_members (project_id, user_id) select p.id, u.id from projects p, users u where u.role = 'participant'`);
    const pids = Array.from({ length: PARTICIPANTS }, (_, index) => sha256(pidOf(index + 1)));
    await db.execute(sql`
      insert into survey_external_refs (survey_id, user_id, pid_hash, outcome, returned_at)
      select s.id, u.id, (${sql.param(pids)}::text[])[u.n], 'complete', now()
      from surveys s, (select id, row_number() over (order by id) as n from users where role = 'participant') u`);
    await db.execute(sql`
      insert into points_ledger (user_id, points, state, reason, source, reference)
      select id, 100, 'available', 'Welcome', 'adjustment', 'bench-' || id from users where role = 'participant'`);
    return token;
  } finally {
    await database.close();
  }
}

const HEADER = [
  'Response ID',
  'Time Started',
  'Date Submitted',
  'Status',
  'Contact ID',
  'Language',
  'Referer',
  'SessionID',
  'User Agent',
  'Tags',
  'IP Address',
  'Longitude',
  'Latitude',
  'Country',
  'City',
  'State/Region',
  'Postal',
  'Breakfast:Which meals do you cook?',
  'Lunch:Which meals do you cook?',
  'Dinner:Which meals do you cook?',
  'Other:Which meals do you cook?',
  'Other:Which meals do you cook?',
  'Taste:Rate the product',
  'Price:Rate the product',
  'Packaging:Rate the product',
  'How often do you cook?',
  'Anything else?',
  'URL Variable: pid',
];

function rowValues(n: number): string[] {
  const known = n % 10 < 8;
  const pid = known ? pidOf((n % PARTICIPANTS) + 1) : `unknown${String(n).padStart(10, '0')}`.padEnd(43, 'Z');
  const status = n % 7 === 0 ? 'Partial' : n % 11 === 0 ? 'Disqualified' : 'Complete';
  const comment = n % 5 === 0 ? `We cook at home most days, "mostly" pasta.\r\nRow ${n}, second line.` : `Fine ${n}`;
  return [
    String(100000 + n),
    `Mar ${(n % 28) + 1}, 2026 9:${String(n % 60).padStart(2, '0')}:02 am`,
    `2026-03-${String((n % 28) + 1).padStart(2, '0')} 09:20:11`,
    status,
    '',
    'English',
    'https://www.example.org/panel/landing?src=mail',
    `a1b2c3d4e5f6${n}`,
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    '',
    `192.0.2.${n % 250}`,
    '2.3522',
    '48.8566',
    'France',
    'Paris',
    'Île-de-France',
    '75001',
    n % 2 ? 'Breakfast' : '',
    n % 3 ? 'Lunch' : '',
    'Dinner',
    n % 4 ? '' : 'Other',
    n % 4 ? '' : 'Brunch on Sundays',
    String((n % 5) + 1),
    String((n % 4) + 2),
    String((n % 3) + 3),
    'Every day',
    comment,
    pid,
  ];
}

const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

async function writeCsv(file: string, rows: number): Promise<number> {
  const out = fs.createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`\ufeff${HEADER.map(csvField).join(',')}\r\n`);
  let chunk = '';
  for (let n = 1; n <= rows; n++) {
    chunk += `${rowValues(n).map(csvField).join(',')}\r\n`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await once(out, 'finish');
  return fs.statSync(file).size;
}

async function writeXlsx(file: string, rows: number): Promise<number> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: false });
  const sheet = book.addWorksheet('Responses');
  sheet.addRow(HEADER).commit();
  for (let n = 1; n <= rows; n++) sheet.addRow(rowValues(n)).commit();
  sheet.commit();
  await book.commit();
  return fs.statSync(file).size;
}

/** The peak resident memory of a process since its last reset (VmHWM, bytes). */
function peakRss(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Resets the peak (`echo 5 > /proc/<pid>/clear_refs`); false when the kernel does not allow it. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

interface Sent {
  status: number;
  ms: number;
  bytesOut: number;
  headers: http.IncomingHttpHeaders;
  error: string;
}

/** POSTs the file as multipart, streamed from disk; the answer streamed to `outFile`. */
function send(server: ServerChild, token: string, file: string, fileName: string, outFile: string): Promise<Sent> {
  const boundary = `bench${Date.now().toString(36)}`;
  const fields = {
    idColumn: 'URL Variable: pid',
    'fields[]': ['firstName', 'lastName', 'email', 'country', 'region', 'postcode', 'projects', 'points'],
    confirmCompletes: 'false',
  };
  let head = '';
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${one}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + fs.statSync(file).size + Buffer.byteLength(tail);
  const url = new URL('/api/admin/tools/alchemer-export-append', server.url);
  const started = performance.now();
  return new Promise<Sent>((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(length),
        Cookie: `fw_session=${token}`,
        Origin: server.url,
      },
    });
    request.on('response', (response) => {
      const sink = response.statusCode === 200 ? fs.createWriteStream(outFile) : null;
      let error = '';
      if (!sink) response.on('data', (chunk: Buffer) => (error += chunk.toString('utf8')));
      const done = sink ? pipeline(response, sink) : once(response, 'end');
      done
        .then(() =>
          resolve({
            status: response.statusCode ?? 0,
            ms: performance.now() - started,
            bytesOut: sink ? fs.statSync(outFile).size : 0,
            headers: response.headers,
            error,
          }),
        )
        .catch(reject);
    });
    request.on('error', reject);
    request.write(head);
    const body = fs.createReadStream(file);
    body.pipe(request, { end: false });
    body.on('end', () => request.end(tail));
    body.on('error', reject);
  });
}

export async function measure(): Promise<string> {
  if (!(await postgresReachable())) return 'PostgreSQL is not reachable (TEST_DATABASE_URL or 127.0.0.1:5432): Alchemer export append not measured.';
  const fresh = await createFreshDatabase();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-alchemer-'));
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir);
  let server: ServerChild | undefined;
  const lines: string[] = [];
  try {
    console.log('  seeding…');
    const token = await seed(fresh.url);
    const port = await freePort();
    server = spawnServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: fresh.url, LOG_LEVEL: 'warn' }, port);
    await waitForHealth(server);
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    const idle = peakRss(pid);

    console.log(`  writing a CSV of ${CSV_ROWS.toLocaleString('en')} rows…`);
    const csv = path.join(work, 'export.csv');
    const csvBytes = await writeCsv(csv, CSV_ROWS);
    const out = path.join(work, 'appended.csv');
    console.log(`  sending it (${mb(csvBytes)})…`);
    const sent = await send(server, token, csv, 'export.csv', out);
    if (sent.status !== 200) throw new Error(`the CSV append answered ${sent.status}: ${sent.error.slice(0, 300)}`);
    const csvPeak = peakRss(pid);
    const count = (name: string) => Number(sent.headers[`fieldwork-${name}`] ?? Number.NaN).toLocaleString('en');
    lines.push(
      '### Alchemer export append (a 200 MB CSV, and XLSX up to 400,000 rows)',
      '',
      `Through the production server on PostgreSQL (${os.cpus().length} cores), ${PARTICIPANTS.toLocaleString('en')} participants with references; the server's peak RSS is \`/proc/<pid>/status\` VmHWM (idle after start: ${mb(idle)}).`,
      '',
      '| File | rows | size in → out | time (upload to last byte) | server peak RSS | counts |',
      '|---|---:|---|---:|---:|---|',
      `| CSV (UTF-8 with BOM, CRLF) | ${CSV_ROWS.toLocaleString('en')} | ${mb(csvBytes)} → ${mb(sent.bytesOut)} | ${seconds(sent.ms)} | ${mb(csvPeak)} | ${count('matched')} matched, ${count('unmatched')} unmatched |`,
    );
    fs.rmSync(csv, { force: true });
    fs.rmSync(out, { force: true });

    let largest: string | null = null;
    for (const rows of XLSX_ROWS) {
      // A fresh server for each size: its peak is this file's alone (memory V8 took stays taken).
      await stopServer(server);
      server = spawnServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: fresh.url, LOG_LEVEL: 'warn' }, port);
      await waitForHealth(server);
      const serverPid = server.child.pid ?? pid;
      resetPeak(serverPid);
      console.log(`  writing an XLSX of ${rows.toLocaleString('en')} rows…`);
      const xlsx = path.join(work, `export-${rows}.xlsx`);
      const xlsxBytes = await writeXlsx(xlsx, rows);
      console.log(`  sending it (${mb(xlsxBytes)})…`);
      const xlsxOut = path.join(work, `appended-${rows}.xlsx`);
      let result: Sent | null = null;
      let failure = '';
      try {
        result = await send(server, token, xlsx, 'export.xlsx', xlsxOut);
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      const alive = server.child.exitCode === null && server.child.signalCode === null;
      const peak = alive ? peakRss(serverPid) : Number.NaN;
      const ok = result?.status === 200 && peak <= MEMORY_LIMIT;
      lines.push(
        `| XLSX (shared strings) | ${rows.toLocaleString('en')} | ${mb(xlsxBytes)} → ${result?.status === 200 ? mb(result.bytesOut) : '—'} | ${result ? seconds(result.ms) : '—'} | ${alive ? mb(peak) : 'server died'} | ${result?.status === 200 ? `${Number(result.headers['fieldwork-matched']).toLocaleString('en')} matched` : `failed: ${result?.status ?? ''} ${failure || result?.error.slice(0, 120) || ''}`} |`,
      );
      fs.rmSync(xlsx, { force: true });
      fs.rmSync(xlsxOut, { force: true });
      if (ok) largest = `${rows.toLocaleString('en')} rows (${mb(xlsxBytes)})`;
      if (!alive) break;
      if (!ok) break;
    }
    lines.push('', `Largest XLSX handled within 512 MB of server memory: ${largest ?? 'none of the sizes tried'}.`);
    return lines.join('\n');
  } finally {
    if (server && server.child.exitCode === null && server.child.signalCode === null) await stopServer(server).catch((error: unknown) => console.error(error));
    fs.rmSync(work, { recursive: true, force: true });
    await fresh.drop();
  }
}
