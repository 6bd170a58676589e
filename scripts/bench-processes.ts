/**
 * `npm run bench:processes` (docs/scaling.md): what one API process serves on the embedded database
 * and on PostgreSQL, and what one and two serve behind nginx configured by
 * `npm run cli -- deploy:nginx` (the static host of docs/deploy.md), each database seeded like
 * `npm run bench` (scripts/bench-seed.ts).
 *
 * Cases, 10 connections each: the login page from nginx, signed-in `GET /api/auth`, a member's home,
 * a survey save (`PUT /api/surveys/{id}/response`), the review queue over 2,000 entries, and review
 * decisions (approve, each on another submitted entry, a fixed number of them). Then Lighthouse
 * (mobile, median of 5) on /login and home signed in, through nginx and from the Node server.
 *
 * Environment: BENCH_DURATION (seconds per case, default 5), BENCH_WRITE=1 (rewrite the section of
 * docs/scaling.md between its markers), BENCH_LIGHTHOUSE=0 (skip Lighthouse), CHROMIUM_PATH.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Options as CannonOptions } from 'autocannon';
import { startNginx, type RunningNginx } from '../tests/support/nginx.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../tests/support/postgres.ts';
import { lighthousePages, lighthouseTable, type LighthouseRow } from './bench-lighthouse.ts';
import { seedBench, type Seeded } from './bench-seed.ts';
import { cannon, freePort, percentile, sleep, spawnServer, stopServer, waitForHealth, writeBenchmarksSection, type ServerChild } from './bench-server.ts';
import { buildIfStale } from './start.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
/** Review decisions per setup: each on its own entry (the seed has 2,000 submitted). */
const DECISIONS = 600;

interface Row {
  setup: string;
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  bad: number;
}

interface Target {
  url: string;
  seeded: Seeded;
  entryIds: number[];
  /** The project's live surveys: each connection saves its own draft (a save carries the revision it is based on). */
  surveyIds: number[];
  forgetDrafts: () => Promise<unknown>;
}

interface Case {
  name: string;
  /** `path` is joined to the target's URL (autocannon takes a whole URL). */
  options: (target: Target) => Partial<CannonOptions> & { path?: string };
  expected: number;
  /** A fixed number of requests instead of a duration (each request changes something once). */
  amount?: number;
  /** Instead of `options`: CONNECTIONS clients of one connection each, run side by side. */
  perConnection?: (target: Target, index: number) => CannonOptions;
  /** Before the warm-up and before the measured run. */
  before?: (target: Target) => Promise<unknown>;
}

const participant = (t: Target) => ({ cookie: `fw_session=${t.seeded.participantToken}` });
const admin = (t: Target) => ({ cookie: `fw_session=${t.seeded.adminToken}` });
const json = (t: Target) => ({ origin: t.url, 'content-type': 'application/json' });

const CASES: Case[] = [
  { name: 'page `GET /login` (gzip)', options: () => ({ path: '/login', headers: { 'accept-encoding': 'gzip' } }), expected: 200 },
  { name: '`GET /api/auth`, signed in', options: (t) => ({ path: '/api/auth', headers: participant(t) }), expected: 200 },
  { name: '`GET /api/home` (participant)', options: (t) => ({ path: '/api/home', headers: participant(t) }), expected: 200 },
  {
    name: 'survey save `PUT /api/surveys/{id}/response`',
    // One connection per survey, each a client of its own: a save carries the revision of the
    // last one it got back (autocannon keeps no state per connection across requests).
    perConnection: (t, index) => {
      const surveyId = t.surveyIds[index % t.surveyIds.length] ?? 0;
      let revision = 0;
      return {
        url: `${t.url}/api/surveys/${surveyId}/response`,
        method: 'PUT',
        headers: { ...participant(t), ...json(t) },
        requests: [
          {
            setupRequest: (request) => ({ ...request, body: JSON.stringify({ answers: { often: 'weekly' }, pageId: 'page_1', revision }) }),
            onResponse: (status, body) => {
              if (status === 200) revision = (JSON.parse(body) as { revision: number }).revision;
            },
          },
        ],
      };
    },
    options: () => ({}),
    expected: 200,
    before: (t) => t.forgetDrafts(),
  },
  {
    name: 'review queue (2,000 entries, admin)',
    options: (t) => ({ path: `/api/admin/missions/${t.seeded.missionId}/submissions?status=submitted`, headers: admin(t) }),
    expected: 200,
  },
  {
    name: `review decision (approve, ${DECISIONS} entries)`,
    amount: DECISIONS,
    options: (t) => {
      const ids = t.entryIds.splice(0, DECISIONS);
      let next = 0;
      return {
        method: 'POST',
        headers: { ...admin(t), ...json(t) },
        body: JSON.stringify({ decision: 'approve', expectedStatus: 'submitted' }),
        requests: [{ setupRequest: (request) => ({ ...request, path: `/api/admin/submissions/${ids[next++ % ids.length]}/review` }) }],
      };
    },
    expected: 200,
  },
];

async function runCase(setup: string, target: Target, benchCase: Case, seconds: number): Promise<Row> {
  const { path: at = '/', ...options } = benchCase.options(target);
  const base: CannonOptions = { url: `${target.url}${at}`, connections: CONNECTIONS, ...options };
  const split = benchCase.perConnection;
  const load = async (extra: Partial<CannonOptions>) => {
    if (!split) return cannon({ ...base, ...extra });
    const runs = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => cannon({ ...split(target, i), connections: 1, ...extra })));
    const first = runs[0];
    if (!first) throw new Error('no run');
    const statusCodeStats: Record<string, { count: number }> = {};
    for (const run of runs)
      for (const [status, stats] of Object.entries(run.result.statusCodeStats ?? {}))
        statusCodeStats[status] = { count: (statusCodeStats[status]?.count ?? 0) + (stats.count ?? 0) };
    const total = runs.reduce((sum, run) => sum + run.result.requests.average, 0);
    return {
      result: {
        ...first.result,
        errors: runs.reduce((sum, run) => sum + run.result.errors, 0),
        statusCodeStats,
        requests: { ...first.result.requests, average: total },
      },
      latencies: runs.flatMap((run) => run.latencies),
      lastResponseAt: Math.max(...runs.map((run) => run.lastResponseAt)),
    };
  };
  await benchCase.before?.(target);
  if (!benchCase.amount) await load({ duration: WARMUP_SECONDS });
  // Requests of the warm-up still in flight land before the measured run starts from a clean slate.
  await sleep(500);
  await benchCase.before?.(target);
  const startedAt = performance.now();
  const { result, latencies, lastResponseAt } = await load(benchCase.amount ? { amount: benchCase.amount } : { duration: seconds });
  // autocannon reports whole seconds: a fixed number of requests is timed here, to its last answer.
  const elapsedSeconds = (lastResponseAt - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  let bad = result.errors;
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) if (Number(status) !== benchCase.expected) bad += stats.count ?? 0;
  const row = {
    setup,
    name: benchCase.name,
    requestsPerSecond: benchCase.amount ? latencies.length / elapsedSeconds : result.requests.average,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    bad,
  };
  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => `${status}×${stats.count ?? 0}`);
  console.log(
    `  ${setup} · ${row.name}: ${Math.round(row.requestsPerSecond)} req/s, p50 ${row.p50Ms.toFixed(2)} ms, p99 ${row.p99Ms.toFixed(2)} ms (${statuses.join(', ')}${result.errors ? `, ${result.errors} errors` : ''})`,
  );
  if (bad && !benchCase.amount) {
    // Say why, once: the answer to the same request.
    const answer = await fetch(base.url, {
      method: base.method ?? 'GET',
      headers: base.headers as Record<string, string>,
      body: typeof base.body === 'string' ? base.body : null,
    });
    console.log(`    e.g. ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
  }
  return row;
}

/** A PostgreSQL URL, or where the embedded server shares its database (its socket). */
type Connection = string | pg.ClientConfig;

/** Runs one query on the bench's database. */
async function query<T extends pg.QueryResultRow>(connection: Connection, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client(typeof connection === 'string' ? { connectionString: connection } : connection);
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The ids the cases need, and a way to forget the bench member's drafts, from a database reachable with `pg`. */
async function targetData(connection: Connection, seeded: Seeded): Promise<Omit<Target, 'url'>> {
  const entryIds = (
    await query<{ id: number }>(connection, "select id from mission_entries where mission_id = $1 and status = 'submitted' order by id", [seeded.missionId])
  ).map((r) => r.id);
  const surveyIds = (
    await query<{ id: number }>(
      connection,
      "select id from surveys where project_id = (select project_id from surveys where id = $1) and status = 'live' order by id",
      [seeded.surveyId],
    )
  ).map((r) => r.id);
  const forgetDrafts = () =>
    query(connection, "delete from survey_responses where status = 'draft' and user_id = (select id from users where email = 'bench@fieldwork.localhost')");
  return { seeded, entryIds, surveyIds, forgetDrafts };
}

const SETUPS = ['PGlite, one process', 'PostgreSQL, one process', 'PostgreSQL, one process behind nginx', 'PostgreSQL, two processes behind nginx'] as const;
type Setup = (typeof SETUPS)[number];

async function main(): Promise<void> {
  if (!(await postgresReachable())) {
    console.log('PostgreSQL is not reachable (TEST_DATABASE_URL or 127.0.0.1:5432): several processes need it; nothing measured.');
    return;
  }
  const seconds = Number(process.env.BENCH_DURATION ?? 5);
  const dist = path.join(root, 'dist');
  buildIfStale(dist);
  const servers: ServerChild[] = [];
  const proxies: RunningNginx[] = [];
  const folders: string[] = [];
  let fresh: FreshDatabase | undefined;
  const rows: Row[] = [];
  const lighthouse: { setup: string; rows: LighthouseRow[] }[] = [];
  const failures: string[] = [];
  const folder = () => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bp-'));
    folders.push(made);
    return made;
  };
  const start = async (env: Record<string, string>) => {
    const port = await freePort();
    const server = spawnServer({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', TRUST_PROXY: '1', DATABASE_URL: '', ...env }, port);
    servers.push(server);
    await waitForHealth(server);
    return { server, port };
  };
  const measure = async (setup: Setup, target: Target) => {
    console.log(`${setup} at ${target.url}`);
    for (const benchCase of CASES) {
      const row = await runCase(setup, target, benchCase, seconds);
      rows.push(row);
      if (row.bad) failures.push(`${setup} / ${row.name}: ${row.bad} unexpected answers`);
    }
  };
  try {
    // The embedded database: one process, the pages from Node.
    const pgliteDir = folder();
    const pgliteSeeded = await seedBench({ kind: 'pglite', dataDir: pgliteDir });
    const embedded = await start({ DATA_DIR: pgliteDir });
    // While the server runs, its database is reached through its socket (docs/decisions/002).
    const socket = { host: pgliteDir, port: 5432, user: 'postgres', database: 'postgres' };
    await measure('PGlite, one process', { url: embedded.server.url, ...(await targetData(socket, pgliteSeeded)) });
    await stopServer(embedded.server);
    servers.splice(servers.indexOf(embedded.server), 1);

    // PostgreSQL: one process on its own, then behind nginx, then two behind nginx.
    fresh = await createFreshDatabase();
    const seeded = await seedBench({ kind: 'postgres', connection: fresh.url, poolSize: 2 });
    const data = await targetData(fresh.url, seeded);
    const dataDir = folder();
    const first = await start({ DATA_DIR: dataDir, DATABASE_URL: fresh.url });
    await measure('PostgreSQL, one process', { url: first.server.url, ...data });
    const second = await start({ DATA_DIR: dataDir, DATABASE_URL: fresh.url, SERVE_STATIC: '0' });
    const one = await startNginx({ root: dist, api: [`127.0.0.1:${first.port}`], port: await freePort() });
    proxies.push(one);
    const two = await startNginx({ root: dist, api: [`127.0.0.1:${first.port}`, `127.0.0.1:${second.port}`], port: await freePort() });
    proxies.push(two);
    await measure('PostgreSQL, one process behind nginx', { url: one.url, ...data });
    await measure('PostgreSQL, two processes behind nginx', { url: two.url, ...data });

    if (process.env.BENCH_LIGHTHOUSE !== '0') {
      const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
      const pages = [
        { label: '`/login` (guest)', path: '/login' },
        { label: '`/` (home, signed in)', path: '/', headers: { Cookie: `fw_session=${seeded.participantToken}` } },
      ];
      for (const [setup, url] of [
        ['through nginx (the static host; the guard decides in the browser)', one.url],
        ['from the Node server (it decides the redirects before sending the page)', first.server.url],
      ] as const) {
        try {
          lighthouse.push({ setup, rows: await lighthousePages(url, pages, chromium) });
        } catch (error) {
          failures.push(`Lighthouse ${setup}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
  } finally {
    for (const proxy of proxies) await proxy.stop();
    for (const server of servers) await stopServer(server).catch((error: unknown) => failures.push(String(error)));
    await fresh?.drop();
    for (const made of folders) fs.rmSync(made, { recursive: true, force: true });
  }

  const find = (setup: Setup, name: string) => rows.find((r) => r.setup === setup && r.name === name);
  const cell = (row: Row | undefined) => (row ? `${Math.round(row.requestsPerSecond).toLocaleString('en-US')} / ${row.p99Ms.toFixed(1)}` : 'n/a');
  const lines = [
    `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus()[0]?.model.trim() ?? 'a CPU'} × ${os.cpus().length} cores, Node ${process.version}, PostgreSQL on the same machine.`,
    `${CONNECTIONS} connections, ${seconds} s per case after a ${WARMUP_SECONDS} s warm-up (review decisions: ${DECISIONS} requests, each on its own entry). Each cell: requests per second / p99 ms.`,
    '',
    `| case | ${SETUPS.join(' | ')} | two ÷ one behind nginx |`,
    `| --- | ${SETUPS.map(() => '---:').join(' | ')} | ---: |`,
    ...CASES.map((c) => {
      const ratio =
        (find('PostgreSQL, two processes behind nginx', c.name)?.requestsPerSecond ?? NaN) /
        (find('PostgreSQL, one process behind nginx', c.name)?.requestsPerSecond ?? NaN);
      return `| ${c.name} | ${SETUPS.map((setup) => cell(find(setup, c.name))).join(' | ')} | ${Number.isNaN(ratio) ? 'n/a' : `${ratio.toFixed(2)}×`} |`;
    }),
  ];
  for (const { setup, rows: lhRows } of lighthouse) lines.push('', `**${setup}**`, '', lighthouseTable(lhRows));
  const section = lines.join('\n');
  console.log(`\n${section}\n`);
  if (process.env.BENCH_WRITE === '1') {
    if (failures.length > 0) console.log('Not updating docs/scaling.md: the run had failures.');
    else writeBenchmarksSection('processes', section, 'scaling.md');
  }
  if (failures.length > 0) {
    console.error(`Benchmark failed:\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  }
}

await main();
