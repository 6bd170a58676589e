/**
 * `npm run bench`: load-tests the production server on loopback, once per database backend.
 *
 * For PGlite (a temporary DATA_DIR) and PostgreSQL (a fresh database, when 127.0.0.1:5432 or
 * TEST_DATABASE_URL answers): seeds a participant and an admin with sessions and a busy project
 * (scripts/bench-seed.ts), starts `node src/server/main.ts` as a child process the way production
 * runs it, drives it with autocannon, reads the child's peak RSS, stops it with SIGTERM and cleans
 * up. First, the embedded server's first start on an empty DATA_DIR, for its peak RSS (a row of
 * the table; the run fails at 400 MiB or more).
 *
 * On the PGlite server it also runs Lighthouse (mobile, median of 5) on /login, /terms, and signed
 * in on home, a new participant's (empty) home, /account and a survey: performance, LCP, CLS and
 * JavaScript bytes (scripts/bench-lighthouse.ts).
 *
 * After the throughput cases, on each backend: the mail an action causes, from its answer to the
 * SMTP sink (scripts/bench-mail.ts), and whole sign-ins through the HTTP API, 20 each from a fresh
 * browser — a password alone, a password and an authenticator code, a password and a recovery
 * code, a passkey alone — with p50/p95/max and the second step's added cost (scripts/bench-sign-in.ts;
 * its accounts are made with the seed, before the server starts). Then the rewards bench
 * (scripts/bench-rewards.ts), and the delay from a survey submit to its webhook at a local
 * receiver, one at a time and five at once (scripts/bench-webhooks.ts; goal p95 ≤ 1 s on PostgreSQL).
 * Last, video processing: a generated 1-minute 1080p clip copied (H.264) and encoded again (HEVC)
 * (scripts/bench-video.ts; needs ffmpeg; BENCH_VIDEO=0 skips it), then uploads: a 200 MB file through
 * the resumable endpoint (tus) against the multipart photo call, with the server's memory
 * (scripts/bench-uploads.ts; BENCH_UPLOADS=0 skips it).
 *
 * Environment: BENCH_DURATION (seconds per case, default 5), BENCH_WRITE=1 (rewrite the table of
 * docs/benchmarks.md between its markers), BENCH_LIGHTHOUSE=0 (skip Lighthouse), BENCH_VIDEO=0 (skip video processing),
 * BENCH_UPLOADS=0 (skip the uploads bench), CHROMIUM_PATH
 * (default /usr/bin/chromium). Exits non-zero when a case saw errors or unexpected
 * statuses, or when a server did not start or stop cleanly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options as CannonOptions } from 'autocannon';
import type { DatabaseTarget } from '../src/server/db/index.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../tests/support/postgres.ts';
import { lighthousePages, lighthouseTable, newParticipantCookie, type LighthouseRow } from './bench-lighthouse.ts';
import { MAIL_GOAL_P95_MS, mailBenchLines, mailBenchTable, startMailBench, type MailBench, type MailBenchCase } from './bench-mail.ts';
import { BENCH_LARGE, BULK_APPROVE_CASE, benchBulkApprove, seedBench as seed, type Seeded } from './bench-seed.ts';
import { seedSignInBench, signInBenchLines, signInBenchTable, type SignInBenchCase } from './bench-sign-in.ts';
import { BULK_GOAL_MS, REDEMPTION_GOAL_P99_MS, rewardsBenchLines, rewardsBenchTable, seedRewardsBench, type RewardsBenchResult } from './bench-rewards.ts';
import { cannon, freePort, percentile, spawnServer, stopServer, waitForHealth, writeBenchmarksSection, type ServerChild } from './bench-server.ts';
import { benchVideo, videoBenchTable, type VideoBenchRow } from './bench-video.ts';
import { benchUploads, uploadsBenchTable, type UploadsBenchResult } from './bench-uploads.ts';
import { WEBHOOKS_BENCH_ENV, seedWebhooksBench, webhooksBenchLines, webhooksBenchTable, webhooksGoalMissed, type WebhooksBenchRun } from './bench-webhooks.ts';
import { checkPageJsBudgets, type BudgetRow } from './page-js.ts';
import { buildIfStale } from './start.ts';
import { NGINX, startNginx } from '../tests/support/nginx.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC_FILE = path.join(root, 'docs', 'benchmarks.md');
const START_MARKER = '<!-- bench:start -->';
const END_MARKER = '<!-- bench:end -->';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

const CONNECTIONS = 10;
const WARMUP_SECONDS = 3;

function durationSeconds(): number {
  const raw = process.env.BENCH_DURATION;
  if (raw === undefined || raw === '') return 5;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`BENCH_DURATION must be a positive number of seconds, not ${JSON.stringify(raw)}`);
  return value;
}

type BackendName = 'PGlite' | 'PostgreSQL';

interface BenchCase {
  name: string;
  path: (seeded: Seeded) => string;
  expectedStatus: number;
  headers: (seeded: Seeded) => Record<string, string>;
}

const STATIC_GZIP = 'static page `GET /login` (gzip)';
const AUTH_SIGNED_IN = '`GET /api/auth`, with session';

const asParticipant = (seeded: Seeded) => ({ cookie: `fw_session=${seeded.participantToken}` });
const asAdmin = (seeded: Seeded) => ({ cookie: `fw_session=${seeded.adminToken}` });

const CASES: readonly BenchCase[] = [
  { name: 'static page `GET /login` (br)', path: () => '/login', expectedStatus: 200, headers: () => ({ 'accept-encoding': 'br' }) },
  // gzip: what the nginx reference sends (Debian's nginx has no brotli), so the two compare.
  { name: STATIC_GZIP, path: () => '/login', expectedStatus: 200, headers: () => ({ 'accept-encoding': 'gzip' }) },
  { name: '`GET /api/health`', path: () => '/api/health', expectedStatus: 200, headers: () => ({}) },
  { name: '`GET /api/auth`, no session (401)', path: () => '/api/auth', expectedStatus: 401, headers: () => ({}) },
  { name: AUTH_SIGNED_IN, path: () => '/api/auth', expectedStatus: 200, headers: asParticipant },
  // The programme (scripts/bench-seed.ts): a member's home over 10 surveys, 10 missions and a group …
  { name: '`GET /api/home` (participant)', path: () => '/api/home', expectedStatus: 200, headers: asParticipant },
  { name: '`GET /api/surveys/{id}` (participant)', path: (s) => `/api/surveys/${s.surveyId}`, expectedStatus: 200, headers: asParticipant },
  // … and the moderators' heaviest reads: a review queue over 2,000 entries, results over 500 responses.
  {
    name: 'review queue (2,000 entries, admin)',
    path: (s) => `/api/admin/missions/${s.missionId}/submissions?status=submitted`,
    expectedStatus: 200,
    headers: asAdmin,
  },
  { name: 'survey results (500 responses, admin)', path: (s) => `/api/admin/surveys/${s.surveyId}/results`, expectedStatus: 200, headers: asAdmin },
  // The large project (scripts/bench-seed.ts, `seedLarge`): 200,000 entries and 100,000 responses.
  {
    name: 'review queue (200,000 entries, admin)',
    path: (s) => `/api/admin/missions/${s.largeMissionId}/submissions?status=submitted`,
    expectedStatus: 200,
    headers: asAdmin,
  },
  {
    name: 'review queue by name (200,000 entries, admin)',
    path: (s) => `/api/admin/missions/${s.largeMissionId}/submissions?status=submitted&sort=name`,
    expectedStatus: 200,
    headers: asAdmin,
  },
  { name: 'survey results (100,000 responses, admin)', path: (s) => `/api/admin/surveys/${s.largeSurveyId}/results`, expectedStatus: 200, headers: asAdmin },
  // Issue 32: what an integration reads with an API token: the first keyset page (50) of the large survey's responses.
  {
    name: 'token API: a page of responses (100,000 responses, API token)',
    path: (s) => `/api/v1/surveys/${s.largeSurveyId}/responses?limit=50`,
    expectedStatus: 200,
    headers: (s) => ({ authorization: `Bearer ${s.apiToken}` }),
  },
];

/**
 * The CSV export of the large survey: a whole file takes seconds, so it is not an autocannon case
 * (10 concurrent downloads on two cores finish none within a 5 s window): `CSV_DOWNLOADS` whole
 * downloads one after another, each read to its end and its lines counted.
 */
const CSV_DOWNLOADS = 3;
const CSV_CASE = `CSV export (100,000 responses, admin; ${CSV_DOWNLOADS} downloads one after another)`;

async function benchCsvExport(url: string, seeded: Seeded): Promise<{ latencies: number[]; failures: string[] }> {
  const latencies: number[] = [];
  const failures: string[] = [];
  for (let round = 0; round < CSV_DOWNLOADS; round++) {
    const started = performance.now();
    const res = await fetch(`${url}/api/admin/surveys/${seeded.largeSurveyId}/responses.csv`, { headers: asAdmin(seeded) });
    const body = await res.text();
    latencies.push(performance.now() - started);
    const lines = body.split('\n').filter((line) => line.length > 0).length;
    if (res.status !== 200) failures.push(`CSV export: ${res.status} ${body.slice(0, 200)}`);
    else if (lines < BENCH_LARGE.participants + 1) failures.push(`CSV export: ${lines} lines, not a header and ${BENCH_LARGE.participants} responses`);
  }
  return { latencies, failures };
}

/** A row of calls timed one after another (not autocannon): req/s is calls per second of their summed time. */
function sequentialResult(backend: BackendName, name: string, run: { latencies: number[]; failures: string[] }): Omit<CaseResult, 'peakRssBytes'> {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const seconds = run.latencies.reduce((sum, ms) => sum + ms, 0) / 1000;
  return {
    backend,
    name,
    requests: run.latencies.length,
    requestsPerSecond: seconds > 0 ? run.latencies.length / seconds : 0,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    errors: run.failures.length,
    timeouts: 0,
    unexpected: {},
    unexpectedTotal: 0,
  };
}

interface CaseResult {
  backend: BackendName;
  name: string;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  timeouts: number;
  /** Responses whose status was not the expected one, by status. */
  unexpected: Record<string, number>;
  unexpectedTotal: number;
  /** The server's VmHWM, peak over the whole backend run (start-up included); null off Linux. */
  peakRssBytes: number | null;
}

/** The peak so far, in MiB, for the console's lines (which case raised it). */
function peakMiB(pid: number | undefined): string {
  const bytes = peakRss(pid);
  return bytes === null ? '?' : String(Math.round(bytes / MIB));
}

/** Peak resident set size of a process (Linux: VmHWM in /proc/<pid>/status). */
function peakRss(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
    return match?.[1] ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** What a 512 MiB container leaves the server (issue 27 §6, decision 028). */
const FIRST_START_GOAL_MIB = 400;
const FIRST_START_CASE = 'first start on an empty `DATA_DIR` (cluster made, migrated, until healthy)';

interface FirstStart {
  readyMs: number;
  peakRssBytes: number | null;
}

/**
 * The embedded server's first start: `node src/server/main.ts` on an empty DATA_DIR (the database
 * made from the shipped cluster and migrated, the job queue installed), its VmHWM once
 * `/api/health` answers, then stopped. The bench's own servers start on a seeded folder.
 */
async function benchFirstStart(failures: string[]): Promise<FirstStart | null> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-first-'));
  const port = await freePort();
  const startedAt = performance.now();
  const server = spawnServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, port);
  try {
    await waitForHealth(server);
    const first = { readyMs: performance.now() - startedAt, peakRssBytes: peakRss(server.child.pid) };
    const mib = first.peakRssBytes === null ? null : first.peakRssBytes / MIB;
    console.log(`PGlite first start: ready in ${Math.round(first.readyMs)} ms, peak RSS ${mib === null ? '?' : mib.toFixed(0)} MiB`);
    if (mib !== null && mib >= FIRST_START_GOAL_MIB) failures.push(`PGlite first start: peak RSS ${mib.toFixed(0)} MiB, not under ${FIRST_START_GOAL_MIB}`);
    await stopServer(server);
    return first;
  } catch (error) {
    const output = server.output();
    failures.push(`PGlite first start: ${error instanceof Error ? error.message : String(error)}${output ? `\n${output}` : ''}`);
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    return null;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Load

async function runCase(
  backend: BackendName,
  url: string,
  seeded: Seeded,
  benchCase: BenchCase,
  seconds: number,
  warmUp = true,
): Promise<Omit<CaseResult, 'peakRssBytes'>> {
  const options: CannonOptions = {
    url: `${url}${benchCase.path(seeded)}`,
    method: 'GET',
    headers: benchCase.headers(seeded),
    connections: CONNECTIONS,
    duration: WARMUP_SECONDS,
  };
  if (warmUp) await cannon(options);
  const { result, latencies } = await cannon({ ...options, duration: seconds });
  latencies.sort((a, b) => a - b);
  const unexpected: Record<string, number> = {};
  let unexpectedTotal = 0;
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    const count = stats.count ?? 0;
    if (Number(status) === benchCase.expectedStatus || count === 0) continue;
    unexpected[status] = count;
    unexpectedTotal += count;
  }
  return {
    backend,
    name: benchCase.name,
    requests: latencies.length,
    requestsPerSecond: result.requests.average,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: result.errors,
    timeouts: result.timeouts,
    unexpected,
    unexpectedTotal,
  };
}

// ---------------------------------------------------------------------------------------------
// One backend

/** What one backend's run holds: released by its `finally`, or on Ctrl-C. */
interface Held {
  dataDir: string;
  fresh?: FreshDatabase;
  server?: ServerChild;
  mail?: MailBench;
  released?: boolean;
}

let held: Held | undefined;

/** Kills a server still running, drops the fresh database, deletes the temporary folder. */
async function release(resources: Held, failures: string[]): Promise<void> {
  if (resources.released) return;
  resources.released = true;
  const { server, fresh, dataDir, mail } = resources;
  await mail?.close().catch(() => {});
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  if (fresh) await fresh.drop().catch((error: unknown) => failures.push(`could not drop the benchmark database: ${String(error)}`));
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** A reference measured beside Fieldwork: the same request, answered by a server that does only that. */
interface PeerRow {
  /** The Fieldwork case it is compared with. */
  name: string;
  reference: string;
  /** Fieldwork's and the reference's rounds, taken in turns. */
  ours: PeerRounds;
  theirs: PeerRounds;
}

/** One side of a comparison: req/s and the server's CPU time per request (µs; null where unread) of each round. */
interface PeerRounds {
  requestsPerSecond: number[];
  cpuMicros: (number | null)[];
}

/** Rounds each side of a comparison runs, in turns (A B A B A B): the machine's drift then touches both alike. */
const PEER_ROUNDS = 3;

/** CPU time (user + system, µs) a process and its live children have used: nginx's workers are its children. */
function processCpuMicros(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const own = (id: string) => {
      const fields = fs.readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) * (1_000_000 / CLOCK_TICKS);
    };
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    const total = own(String(pid)) + children.reduce((sum, child) => sum + own(child), 0);
    return Number.isFinite(total) ? total : null;
  } catch {
    return null;
  }
}
/** Linux's USER_HZ, which /proc/<pid>/stat counts in (100 on every architecture Node runs on). */
const CLOCK_TICKS = 100;

/** The middle round (nearest rank, as the tables' other percentiles). */
const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/**
 * Fieldwork and a reference, `PEER_ROUNDS` rounds each, in turns, with each round's req/s and the
 * server's CPU per request: single runs on this shared machine move by ±15 % and more, and a
 * reference measured minutes after Fieldwork would carry the machine's drift into the ratio.
 */
async function comparePeers(
  seeded: Seeded,
  benchCase: BenchCase,
  seconds: number,
  ours: { url: string; pid: number | undefined },
  theirs: { url: string; pid: number | undefined; label: string },
  failures: string[],
): Promise<{ ours: PeerRounds; theirs: PeerRounds }> {
  const sides = [
    { label: 'Fieldwork', target: ours, rounds: { requestsPerSecond: [], cpuMicros: [] } as PeerRounds },
    { label: theirs.label, target: theirs, rounds: { requestsPerSecond: [], cpuMicros: [] } as PeerRounds },
  ];
  for (let round = 0; round < PEER_ROUNDS; round++) {
    for (const side of sides) {
      const before = processCpuMicros(side.target.pid);
      const result = await runCase('PostgreSQL', side.target.url, seeded, benchCase, seconds, round === 0);
      const after = processCpuMicros(side.target.pid);
      side.rounds.requestsPerSecond.push(result.requestsPerSecond);
      side.rounds.cpuMicros.push(before === null || after === null || result.requests === 0 ? null : (after - before) / result.requests);
      if (result.errors + result.unexpectedTotal)
        failures.push(`${side.label} / ${benchCase.name}: ${result.errors} errors, unexpected ${JSON.stringify(result.unexpected)}`);
    }
  }
  for (const side of sides) {
    const cpu = side.rounds.cpuMicros.filter((value) => value !== null);
    console.log(
      `  ${side.label} · ${benchCase.name}: ${Math.round(median(side.rounds.requestsPerSecond))} req/s (rounds ${side.rounds.requestsPerSecond.map(Math.round).join(', ')})` +
        (cpu.length ? `, server CPU ${Math.round(median(cpu))} µs per request` : ''),
    );
  }
  return { ours: sides[0]!.rounds, theirs: sides[1]!.rounds };
}

/** nginx serving dist/ (when installed) and the bare auth handler, each beside the PostgreSQL server (its data, `apiPort`, `apiPid`). */
async function benchPeers(
  seeded: Seeded,
  databaseUrl: string,
  api: { url: string; port: number; pid: number | undefined },
  seconds: number,
  peers: PeerRow[],
  failures: string[],
): Promise<void> {
  const staticCase = CASES.find((c) => c.name === STATIC_GZIP);
  const authCase = CASES.find((c) => c.name === AUTH_SIGNED_IN);
  if (!staticCase || !authCase) throw new Error('the peers compare cases that are missing');
  const ours = { url: api.url, pid: api.pid };
  if (NGINX) {
    const nginx = await startNginx({ root: path.join(root, 'dist'), api: [`127.0.0.1:${api.port}`], port: await freePort() });
    try {
      const label = 'nginx on the same `dist/` (`deploy:nginx`)';
      const rounds = await comparePeers(seeded, staticCase, seconds, ours, { url: nginx.url, pid: nginx.pid, label }, failures);
      peers.push({ name: STATIC_GZIP, reference: label, ...rounds });
    } finally {
      await nginx.stop();
    }
  } else {
    console.log('nginx is not installed (apt-get install nginx): the static-page reference is skipped.');
  }
  const port = await freePort();
  const bare = spawnServer({ PORT: String(port), DATABASE_URL: databaseUrl }, port, path.join(root, 'scripts', 'bench-peers', 'bare-auth.ts'));
  try {
    await waitForHealth(bare);
    const label = 'bare `node:http` + `pg`, the same lookup (`scripts/bench-peers/bare-auth.ts`)';
    const rounds = await comparePeers(seeded, authCase, seconds, ours, { url: bare.url, pid: bare.child.pid, label }, failures);
    peers.push({ name: AUTH_SIGNED_IN, reference: label, ...rounds });
  } finally {
    await stopServer(bare).catch((error: unknown) => failures.push(`bare reference: ${String(error)}`));
  }
}

/** The ratios the docs quote: Fieldwork ÷ its reference (medians of rounds in turns), and the embedded database ÷ PostgreSQL. */
function peersTable(rows: readonly CaseResult[], peers: readonly PeerRow[]): string {
  const rate = (backend: BackendName, name: string) => rows.find((r) => r.backend === backend && r.name === name)?.requestsPerSecond ?? Number.NaN;
  const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : 'n/a');
  const whole = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');
  const cpu = (rounds: PeerRounds) => {
    const read = rounds.cpuMicros.filter((value) => value !== null);
    return read.length === rounds.cpuMicros.length && read.length > 0 ? `${Math.round(median(read))} µs` : 'n/a';
  };
  const lines = [
    `References, measured in the same run on the same machine and database, ${PEER_ROUNDS} rounds each in turns with Fieldwork (medians; ratios are what to quote, absolute figures move with the machine; server CPU is the process's user and system time per request, nginx's workers included):`,
    '',
    '| case | Fieldwork req/s | server CPU | reference | reference req/s | server CPU | ratio |',
    '| --- | ---: | ---: | --- | ---: | ---: | ---: |',
    ...peers.map((peer) => {
      const ours = median(peer.ours.requestsPerSecond);
      const theirs = median(peer.theirs.requestsPerSecond);
      return `| ${peer.name} (PostgreSQL) | ${whole(ours)} | ${cpu(peer.ours)} | ${peer.reference} | ${whole(theirs)} | ${cpu(peer.theirs)} | ${ratio(ours, theirs)} |`;
    }),
    `| ${AUTH_SIGNED_IN}, embedded PGlite | ${whole(rate('PGlite', AUTH_SIGNED_IN))} | | the same server on PostgreSQL | ${whole(rate('PostgreSQL', AUTH_SIGNED_IN))} | | ${ratio(rate('PGlite', AUTH_SIGNED_IN), rate('PostgreSQL', AUTH_SIGNED_IN))} |`,
  ];
  return lines.join('\n');
}

/**
 * Runs every case against one backend; pushes its rows, failures (the run broke: the docs are not
 * rewritten) and goal misses (measured and written down, but the run still fails) as messages.
 */
async function benchBackend(
  backend: BackendName,
  seconds: number,
  rows: CaseResult[],
  failures: string[],
  goalMisses: string[],
  lighthouse: LighthouseRow[] | null,
  peers: PeerRow[] | null,
  mails: { backend: string; cases: MailBenchCase[] }[],
  signIns: { backend: string; cases: SignInBenchCase[] }[],
  rewardRuns: { backend: string; run: RewardsBenchResult }[],
  webhookRuns: { backend: string; run: WebhooksBenchRun }[],
): Promise<void> {
  const resources: Held = { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-')) };
  held = resources;
  try {
    const { dataDir } = resources;
    const fresh = backend === 'PostgreSQL' ? await createFreshDatabase() : undefined;
    resources.fresh = fresh;
    const target: DatabaseTarget = fresh ? { kind: 'postgres', connection: fresh.url, poolSize: 2 } : { kind: 'pglite', dataDir };
    const seeded = await seed(target);
    // The sign-in bench's accounts (a password, an authenticator app, a passkey), made by the app's services (scripts/bench-sign-in.ts).
    const signIn = await seedSignInBench(target);
    // The rewards bench's participants, voucher and waiting requests (scripts/bench-rewards.ts).
    const rewardsBench = await seedRewardsBench(target);
    // The webhooks bench's survey, its participants and admin (scripts/bench-webhooks.ts).
    const webhooksBench = await seedWebhooksBench(target);

    const port = await freePort();
    // Mail goes to an SMTP sink of the bench's own, which times each mail's arrival (scripts/bench-mail.ts).
    const mail = await startMailBench();
    resources.mail = mail;
    // The token API's case sends thousands of requests a minute with one token: its rate limit (600) is raised for the bench.
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      API_TOKEN_RATE_LIMIT: '1000000',
      ...mail.env,
      // Webhooks go to the bench's receiver on 127.0.0.1 (scripts/bench-webhooks.ts).
      ...WEBHOOKS_BENCH_ENV,
    };
    if (fresh) env.DATABASE_URL = fresh.url;
    const startedAt = performance.now();
    const server = spawnServer(env, port);
    resources.server = server;
    try {
      await waitForHealth(server);
    } catch (error) {
      const output = server.output();
      throw new Error(`${backend}: the server did not start: ${error instanceof Error ? error.message : String(error)}${output ? `\n${output}` : ''}`);
    }
    const startupRss = peakRss(server.child.pid);
    console.log(
      `${backend}: server pid ${server.child.pid} ready in ${Math.round(performance.now() - startedAt)} ms at ${server.url}` +
        (startupRss === null ? '' : `, peak RSS after start-up ${(startupRss / MIB).toFixed(0)} MiB`),
    );

    if (lighthouse) {
      try {
        const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
        const pages = [
          { label: '`/login` (guest)', path: '/login' },
          { label: '`/terms` (public)', path: '/terms' },
          { label: '`/` (home, signed in)', path: '/', headers: { Cookie: `fw_session=${seeded.participantToken}` } },
          { label: '`/` (home, empty: a new participant)', path: '/', headers: { Cookie: await newParticipantCookie(server.url, env) } },
          { label: '`/account` (signed in)', path: '/account', headers: { Cookie: `fw_session=${seeded.participantToken}` } },
          { label: '`/surveys/{id}` (participant)', path: `/surveys/${seeded.surveyId}`, headers: { Cookie: `fw_session=${seeded.participantToken}` } },
          // Issue 31: the sign-in page in German and Arabic, and the survey screen in Arabic (right to left).
          { label: '`/de/login` (guest, German)', path: '/de/login' },
          { label: '`/ar/login` (guest, Arabic)', path: '/ar/login' },
        ];
        const arabicSurvey = {
          label: '`/ar/surveys/{id}` (participant, Arabic)',
          path: `/ar/surveys/${seeded.surveyId}`,
          headers: { Cookie: `fw_session=${seeded.participantToken}` },
        };
        const inArabic = async () => {
          // The participant's account speaks Arabic for this page, and English again after it.
          const setLanguage = (language: string) =>
            fetch(`${server.url}/api/account/language`, {
              method: 'PUT',
              headers: { Origin: server.url, 'Content-Type': 'application/json', Cookie: `fw_session=${seeded.participantToken}` },
              body: JSON.stringify({ language }),
            });
          await setLanguage('ar');
          try {
            return await lighthousePages(server.url, [arabicSurvey], chromium);
          } finally {
            await setLanguage('en');
          }
        };
        for (const row of [...(await lighthousePages(server.url, pages, chromium)), ...(await inArabic())]) {
          lighthouse.push(row);
          console.log(
            `  Lighthouse ${row.path}: performance ${row.performance}, LCP ${Math.round(row.lcpMs)} ms, TBT ${Math.round(row.tbtMs)} ms, CLS ${row.cls.toFixed(3)}, ` +
              `JS ${(row.jsBytes / 1024).toFixed(1)} KiB, host benchmark index ${Math.round(row.benchmarkIndex)} ` +
              `(runs, score/LCP/TBT/CLS/index: ${row.runs.map((r) => `${r.performance}/${Math.round(r.lcpMs)} ms/${Math.round(r.tbtMs)} ms/${r.cls.toFixed(3)}/${Math.round(r.benchmarkIndex)}`).join(', ')})`,
          );
        }
      } catch (error) {
        failures.push(`${backend}: Lighthouse: ${error instanceof Error ? error.message : String(error)}`);
      }
    }

    if (lighthouse) console.log(`  peak RSS after the page loads: ${peakMiB(server.child.pid)} MiB`);
    const results: Omit<CaseResult, 'peakRssBytes'>[] = [];
    for (const benchCase of CASES) {
      const result = await runCase(backend, server.url, seeded, benchCase, seconds);
      results.push(result);
      const bad = result.errors + result.unexpectedTotal;
      console.log(
        `  ${benchCase.name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ` +
          `${result.requests} responses${bad ? `, ${result.errors} errors (${result.timeouts} timeouts), unexpected ${JSON.stringify(result.unexpected)}` : ''}` +
          `; peak RSS so far ${peakMiB(server.child.pid)} MiB`,
      );
      if (bad) failures.push(`${backend} / ${benchCase.name}: ${result.errors} errors, unexpected statuses ${JSON.stringify(result.unexpected)}`);
    }
    // The CSV export and bulk approve, timed one call after another (bulk approve changes state:
    // each round on entries not approved yet, scripts/bench-seed.ts).
    const sequential: [string, () => Promise<{ latencies: number[]; failures: string[] }>][] = [
      [CSV_CASE, () => benchCsvExport(server.url, seeded)],
      [BULK_APPROVE_CASE, () => benchBulkApprove(server.url, seeded)],
    ];
    for (const [name, measure] of sequential) {
      const run = await measure();
      const result = sequentialResult(backend, name, run);
      results.push(result);
      console.log(
        `  ${name}: p50 ${result.p50Ms.toFixed(2)} ms, max ${Math.max(...run.latencies).toFixed(2)} ms; peak RSS so far ${peakMiB(server.child.pid)} MiB`,
      );
      for (const failure of run.failures) failures.push(`${backend} / ${failure}`);
    }
    // Mail caused by an action, from the action's answer to the mail server: a reset link, a "changes requested".
    try {
      const cases = await mail.measure(server.url, seeded);
      mails.push({ backend, cases });
      for (const line of mailBenchLines(backend, cases)) console.log(line);
      for (const c of cases) if (c.p95Ms > MAIL_GOAL_P95_MS) goalMisses.push(`${backend} / mail ${c.name}: p95 ${Math.round(c.p95Ms)} ms, above the goal`);
    } catch (error) {
      failures.push(`${backend} / mail: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Whole sign-ins, one at a time from a fresh browser: a password alone, with a second step, a passkey alone.
    try {
      const run = await signIn.measure(server.url);
      signIns.push({ backend, cases: run.cases });
      for (const line of signInBenchLines(backend, run.cases)) console.log(line);
      for (const failure of run.failures) failures.push(`${backend} / ${failure}`);
    } catch (error) {
      failures.push(`${backend} / sign-in: ${error instanceof Error ? error.message : String(error)}`);
    }
    // A redemption request at 10 connections, then bulk approvals of 500 (scripts/bench-rewards.ts).
    try {
      const run = await rewardsBench.measure(server.url, seconds);
      rewardRuns.push({ backend, run });
      for (const line of rewardsBenchLines(backend, run)) console.log(line);
      for (const failure of run.failures) failures.push(`${backend} / rewards: ${failure}`);
      if (backend === 'PostgreSQL' && run.request.p99Ms > REDEMPTION_GOAL_P99_MS)
        goalMisses.push(`${backend} / rewards: redemption p99 ${run.request.p99Ms.toFixed(1)} ms, above the goal`);
      if (run.bulk.maxMs > BULK_GOAL_MS) goalMisses.push(`${backend} / rewards: bulk approve of 500 took ${Math.round(run.bulk.maxMs)} ms, above the goal`);
    } catch (error) {
      failures.push(`${backend} / rewards: ${error instanceof Error ? error.message : String(error)}`);
    }
    // From a survey submit to its webhook at a local receiver, one at a time and five at once (scripts/bench-webhooks.ts).
    try {
      const run = await webhooksBench.measure(server.url);
      webhookRuns.push({ backend, run });
      for (const line of webhooksBenchLines(backend, run)) console.log(line);
      for (const failure of run.failures) failures.push(`${backend} / webhooks: ${failure}`);
      for (const c of run.cases)
        if (webhooksGoalMissed(backend, c)) goalMisses.push(`${backend} / webhooks ${c.name}: p95 ${Math.round(c.p95Ms)} ms, above the goal`);
    } catch (error) {
      failures.push(`${backend} / webhooks: ${error instanceof Error ? error.message : String(error)}`);
    }
    const rss = peakRss(server.child.pid);
    for (const result of results) rows.push({ ...result, peakRssBytes: rss });

    // The references, in the same run on the same database (PostgreSQL's): nginx on the same
    // dist/, and a bare node:http + pg handler doing GET /api/auth's lookup.
    if (fresh && peers) await benchPeers(seeded, fresh.url, { url: server.url, port, pid: server.child.pid }, seconds, peers, failures);

    try {
      await stopServer(server);
    } catch (error) {
      const output = server.output();
      failures.push(`${backend}: ${error instanceof Error ? error.message : String(error)}${output ? `\n${output}` : ''}`);
    }
  } finally {
    held = undefined;
    await release(resources, failures);
  }
}

// Ctrl-C or a kill: do not leave a server, a database or a folder behind.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    const resources = held;
    held = undefined;
    void (resources ? release(resources, []) : Promise.resolve()).finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Report

function machine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() ?? 'unknown CPU';
  return `${model} × ${cpus.length} cores, ${(os.totalmem() / GIB).toFixed(1)} GiB RAM, ${os.type()} ${os.release()} (${os.arch()}), Node ${process.version}`;
}

function formatMs(value: number): string {
  return Number.isNaN(value) ? 'n/a' : value.toFixed(2);
}

function table(rows: readonly CaseResult[], seconds: number, skipped: readonly string[], firstStart: FirstStart | null): string {
  const lines = [
    `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}.`,
    `${seconds} s per case after a ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections, loopback.`,
    '',
    '| backend | case | req/s | p50 ms | p99 ms | non-expected | peak RSS MiB |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) =>
      [
        '',
        row.backend,
        row.name,
        // Below 10 (the CSV export, bulk approve) with a decimal: a whole number would read 0 or 1.
        row.requestsPerSecond < 10 ? row.requestsPerSecond.toFixed(1) : Math.round(row.requestsPerSecond).toLocaleString('en-US'),
        formatMs(row.p50Ms),
        formatMs(row.p99Ms),
        String(row.errors + row.unexpectedTotal),
        row.peakRssBytes === null ? 'n/a' : (row.peakRssBytes / MIB).toFixed(0),
        '',
      ]
        .join(' | ')
        .trim(),
    ),
    ...(firstStart
      ? [
          `| PGlite | ${FIRST_START_CASE}: ${(firstStart.readyMs / 1000).toFixed(1)} s | — | — | — | 0 | ${firstStart.peakRssBytes === null ? 'n/a' : (firstStart.peakRssBytes / MIB).toFixed(0)} |`,
        ]
      : []),
    '',
    "Peak RSS is the server process's VmHWM read once after its last case: the peak over its whole run (start-up, migrations and every case), so it is the same on each row of a backend.",
    `The first start's row is another server, started on an empty \`DATA_DIR\` and read once healthy (goal: under ${FIRST_START_GOAL_MIB} MiB, for a 512 MiB container; the bench fails above it).`,
  ];
  for (const note of skipped) lines.push('', note);
  return lines.join('\n');
}

function writeDoc(section: string): void {
  const text = fs.readFileSync(DOC_FILE, 'utf8');
  const start = text.indexOf(START_MARKER);
  const end = text.indexOf(END_MARKER);
  if (start === -1 || end === -1 || end < start) throw new Error(`${path.relative(root, DOC_FILE)} has no ${START_MARKER} … ${END_MARKER} section`);
  const updated = `${text.slice(0, start + START_MARKER.length)}\n${section}\n${text.slice(end)}`;
  fs.writeFileSync(DOC_FILE, updated);
  console.log(`Updated ${path.relative(root, DOC_FILE)}.`);
}

async function main(): Promise<void> {
  const seconds = durationSeconds();
  buildIfStale(path.join(root, 'dist'));

  const rows: CaseResult[] = [];
  const failures: string[] = [];
  const goalMisses: string[] = [];
  const skipped: string[] = [];
  const backends: BackendName[] = ['PGlite'];
  if (await postgresReachable()) backends.push('PostgreSQL');
  else {
    const note = 'PostgreSQL was not reachable (TEST_DATABASE_URL or 127.0.0.1:5432): its rows were skipped.';
    console.log(note);
    skipped.push(note);
  }

  const lighthouse: LighthouseRow[] = [];
  const peers: PeerRow[] = [];
  const mails: { backend: string; cases: MailBenchCase[] }[] = [];
  const signIns: { backend: string; cases: SignInBenchCase[] }[] = [];
  const rewardRuns: { backend: string; run: RewardsBenchResult }[] = [];
  const webhookRuns: { backend: string; run: WebhooksBenchRun }[] = [];
  const withLighthouse = process.env.BENCH_LIGHTHOUSE !== '0';
  const firstStart = await benchFirstStart(failures);
  for (const backend of backends) {
    try {
      // Page loads do not depend on the backend: Lighthouse runs once, on the default install's.
      await benchBackend(
        backend,
        seconds,
        rows,
        failures,
        goalMisses,
        withLighthouse && backend === 'PGlite' ? lighthouse : null,
        peers,
        mails,
        signIns,
        rewardRuns,
        webhookRuns,
      );
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }

  // Video processing (no server: the service itself, as the media.process job runs it).
  let videoRows: VideoBenchRow[] = [];
  if (process.env.BENCH_VIDEO !== '0') {
    try {
      videoRows = await benchVideo();
    } catch (error) {
      failures.push(`video processing: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // Uploads: tus against multipart, on a server of its own (scripts/bench-uploads.ts).
  let uploads: UploadsBenchResult | null = null;
  if (process.env.BENCH_UPLOADS !== '0') {
    try {
      uploads = await benchUploads();
    } catch (error) {
      failures.push(`uploads: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // The JavaScript each page loads at start against its budget (scripts/page-js.ts): over budget fails the run.
  const budgets = checkPageJsBudgets(path.join(root, 'dist'));
  for (const row of budgets.over) {
    console.log(`  over its JavaScript budget: ${row.pattern} ${(row.bytes / 1000).toFixed(1)} KB (budget ${(row.budget / 1000).toFixed(0)} KB)`);
  }

  let section = table(rows, seconds, skipped, firstStart);
  if (peers.length > 0) section += `\n\n${peersTable(rows, peers)}`;
  if (lighthouse.length > 0) section += `\n\n${lighthouseTable(lighthouse)}`;
  section += `\n\n${budgetTable(budgets.rows)}`;
  console.log(`\n${section}\n`);
  if (mails.length > 0) console.log(`${mailBenchTable(mails)}\n`);
  if (signIns.length > 0) console.log(`${signInBenchTable(signIns)}\n`);
  if (rewardRuns.length > 0) console.log(`${rewardsBenchTable(rewardRuns)}\n`);
  if (webhookRuns.length > 0) console.log(`${webhooksBenchTable(webhookRuns)}\n`);
  if (videoRows.length > 0) console.log(`${videoBenchTable(videoRows)}\n`);
  if (uploads) console.log(`${uploadsBenchTable(uploads)}\n`);
  if (process.env.BENCH_WRITE === '1') {
    if (failures.length > 0) console.log('Not updating docs/benchmarks.md: the run had failures.');
    else {
      writeDoc(section);
      if (mails.length > 0) writeBenchmarksSection('bench-mail', mailBenchTable(mails));
      if (signIns.length > 0) writeBenchmarksSection('bench-sign-in', signInBenchTable(signIns));
      if (rewardRuns.length > 0) writeBenchmarksSection('bench-rewards', rewardsBenchTable(rewardRuns));
      if (webhookRuns.length > 0) writeBenchmarksSection('bench-webhooks', webhooksBenchTable(webhookRuns));
      if (videoRows.length > 0) writeBenchmarksSection('bench-video', videoBenchTable(videoRows));
      if (uploads) writeBenchmarksSection('uploads', uploadsBenchTable(uploads));
    }
  }
  // Written down even when pages are over or goals missed: the tables say which; the run still fails.
  const overBudget = budgets.over.map(
    (row) => `${row.pattern}: ${(row.bytes / 1000).toFixed(1)} KB of JavaScript, budget ${(row.budget / 1000).toFixed(0)} KB`,
  );
  if (failures.length + goalMisses.length + overBudget.length > 0) {
    console.error(`Benchmark failed:\n- ${[...failures, ...goalMisses, ...overBudget].join('\n- ')}`);
    process.exitCode = 1;
  }
}

/** Every page's JavaScript at start (brotli) against its budget, worst first. */
function budgetTable(rows: readonly BudgetRow[]): string {
  const sorted = [...rows].sort((a, b) => b.bytes / b.budget - a.bytes / a.budget);
  return [
    'JavaScript each page loads at start (brotli, first visit; `npm run page-js`), against its budget:',
    '',
    '| page | KB | budget KB | |',
    '| --- | ---: | ---: | --- |',
    ...sorted.map(
      (row) => `| \`${row.pattern}\` | ${(row.bytes / 1000).toFixed(1)} | ${(row.budget / 1000).toFixed(0)} | ${row.bytes > row.budget ? 'over' : 'within'} |`,
    ),
  ].join('\n');
}

await main();
