/**
 * The rewards benchmark (docs/benchmarks.md, "Rewards"; issue 30 §6): what a redemption costs
 * through the production server's HTTP API.
 *
 * - **A redemption request at 10 connections** (`POST /api/redemptions`, autocannon): each call a
 *   new `Idempotency-Key`, from the next of `PARTICIPANTS` participants in turn (so the per-person
 *   rate limit, 30 a minute, is never what answers), for a 5 EUR voucher delivered by hand: the
 *   participant's points lock, the checks (country, minimum, open requests, tax form, balance), the
 *   redemption row, the hold in the ledger and the notification, in one transaction. Every answer
 *   must be 201. The goal (issue 30): p99 ≤ 30 ms on PostgreSQL.
 * - **The floor**: the same harness on the cheapest signed-in call (`GET /api/redemptions?pageSize=1`,
 *   two short reads): what a p99 at 10 connections can be on this machine at all, where the load,
 *   the server and the database share two cores. The request's figure is read against it.
 * - **Bulk approve of 500** (`POST /api/admin/redemptions/approve`, one call at a time, `ROUNDS`
 *   rounds, each on 500 requests not approved yet): the locks of every participant concerned
 *   (ascending id), the rows, an audit row and a notification each, one transaction. The goal: ≤ 2 s.
 *
 * The seed (before the server starts: PGlite allows one process) writes straight into the tables:
 * the rewards settings, one voucher, `PARTICIPANTS` participants with a session and 1,000,000
 * points each, and `ROUNDS` × 500 requests already waiting (with their holds). The admin signs in
 * through the API when measuring, so its sign-in proof is fresh for the approvals however long the
 * bench ran before.
 *
 * Use from `scripts/bench.ts`: `seedRewardsBench(target)`, then `measure(url)` against the running
 * server. Standalone: `node_modules/.bin/node scripts/bench-rewards.ts [--postgres]`.
 */
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type DatabaseTarget } from '../src/server/db/index.ts';
import { rewardSettings, rewards } from '../src/server/db/schema/index.ts';
import { systemClock } from '../src/server/services/clock.ts';
import { createSession } from '../src/server/services/sessions.ts';
import { createActiveUser } from '../src/server/services/users.ts';
import { DEFAULT_REWARD_SETTINGS } from '../src/shared/rewards.ts';
import { cannon, percentile, runIfMain, runStandalone } from './bench-server.ts';

/** Participants taking turns in the request run. */
const PARTICIPANTS = 400;
/** Requests approved per bulk call, and calls. */
export const BULK_SIZE = 500;
const ROUNDS = 3;
const CONNECTIONS = 10;
const WARMUP_SECONDS = 3;
const ADMIN_EMAIL = 'bench-rewards-admin@fieldwork.localhost';
const ADMIN_PASSWORD = 'bench-rewards-not-secret';

export const REDEMPTION_GOAL_P99_MS = 30;
export const BULK_GOAL_MS = 2_000;

interface CannonFigures {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface RewardsBenchResult {
  request: CannonFigures;
  /** The floor of this machine and harness: the cheapest signed-in call (a page of one) at the same 10 connections. */
  floor: CannonFigures;
  bulk: { samples: number[]; p50Ms: number; maxMs: number };
  failures: string[];
}

export interface RewardsBench {
  measure(url: string, seconds: number): Promise<RewardsBenchResult>;
}

/** The seed: settings, a voucher, participants with points and sessions, requests waiting for the bulk rounds. */
export async function seedRewardsBench(target: DatabaseTarget): Promise<RewardsBench> {
  const database = await openDatabase(target);
  let tokens: string[];
  let rewardId: number;
  let waiting: number[];
  try {
    const { db } = database;
    await createActiveUser(db, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, role: 'admin', firstName: 'Bench', lastName: 'Rewards' });
    await db
      .insert(rewardSettings)
      .values({ id: 1, settings: { ...DEFAULT_REWARD_SETTINGS, minimumPoints: 0, oneOpenRequest: false } })
      .onConflictDoNothing();
    const [voucher] = await db
      .insert(rewards)
      .values({ title: 'Bench voucher', kind: 'gift_card', fulfilment: 'manual', currency: 'EUR', denominations: [5] })
      .returning({ id: rewards.id });
    if (!voucher) throw new Error('no reward');
    rewardId = voucher.id;
    const people = await queryRows<{ id: number }>(
      db,
      sql`insert into users (email, first_name, last_name, role, status, address)
          select 'rewards-' || i || '@bench.localhost', 'Reward', 'Person' || i, 'participant', 'active',
            '{"line1": "1 Bench Street", "city": "Berlin", "postalCode": "10115", "country": "DE"}'::jsonb
          from generate_series(1, ${PARTICIPANTS}) as i
          returning id`,
    );
    await db.execute(sql`
      insert into points_ledger (user_id, points, state, reason, source, reference)
      select id, 1000000, 'available', 'Bench', 'adjustment', 'bench-rewards:' || id
      from users where email like 'rewards-%@bench.localhost'`);
    tokens = [];
    for (const person of people) tokens.push((await createSession(db, systemClock, person.id, { userAgent: 'fieldwork-bench' })).token);
    // The bulk rounds' requests: waiting for approval, their points held.
    waiting = (
      await queryRows<{ id: number }>(
        db,
        sql`insert into redemptions (user_id, reward_id, value_minor, currency, points, status, needs_review, idempotency_key)
            select u.id, ${rewardId}, 500, 'EUR', 500, 'requested', true, 'bench-waiting-' || g
            from generate_series(1, ${BULK_SIZE * ROUNDS}) as g
            join (select id, row_number() over (order by id) - 1 as n from users where email like 'rewards-%@bench.localhost') u
              on u.n = g % ${PARTICIPANTS}
            returning id`,
      )
    )
      .map((row) => row.id)
      .sort((a, b) => a - b);
    await db.execute(sql`
      insert into points_ledger (user_id, points, state, reason, source, reference)
      select user_id, -points, 'held', 'Bench voucher (5 EUR)', 'redemption', 'redemption:' || id
      from redemptions where idempotency_key like 'bench-waiting-%'`);
  } finally {
    await database.close();
  }
  return { measure: (url, seconds) => measureRewards(url, seconds, { tokens, rewardId, waiting }) };
}

async function signInAdmin(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const cookie = res.headers.getSetCookie().find((each) => each.startsWith('fw_session='));
  if (res.status !== 200 || !cookie) throw new Error(`the bench admin could not sign in: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return cookie.split(';')[0] ?? '';
}

async function measureRewards(url: string, seconds: number, seed: { tokens: string[]; rewardId: number; waiting: number[] }): Promise<RewardsBenchResult> {
  const failures: string[] = [];
  let turn = 0;
  let key = 0;
  /** `method` on `path` at 10 connections, each call signed in as the next participant: warm-up, then `seconds` measured. */
  const measureCalls = async (label: string, method: 'GET' | 'POST', path: string, expected: number, body?: string): Promise<CannonFigures> => {
    const run = (duration: number) =>
      cannon({
        url: `${url}${path}`,
        method,
        connections: CONNECTIONS,
        duration,
        headers: { origin: url, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body }),
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              headers: {
                ...request.headers,
                cookie: `fw_session=${seed.tokens[turn++ % seed.tokens.length]}`,
                'idempotency-key': `bench-${process.pid}-${++key}`,
              },
            }),
          },
        ],
      });
    await run(WARMUP_SECONDS);
    const { result, latencies } = await run(seconds);
    latencies.sort((a, b) => a - b);
    for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
      if (Number(status) !== expected && (stats.count ?? 0) > 0) failures.push(`${label}: ${stats.count} answers ${status}`);
    }
    if (result.errors > 0) failures.push(`${label}: ${result.errors} errors (${result.timeouts} timeouts)`);
    return { requests: latencies.length, requestsPerSecond: result.requests.average, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
  };
  const request = await measureCalls('redemption request', 'POST', '/api/redemptions', 201, JSON.stringify({ rewardId: seed.rewardId, value: 5 }));
  const floor = await measureCalls('floor', 'GET', '/api/redemptions?pageSize=1', 200);

  const admin = await signInAdmin(url);
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const ids = seed.waiting.slice(round * BULK_SIZE, (round + 1) * BULK_SIZE);
    const started = performance.now();
    const res = await fetch(`${url}/api/admin/redemptions/approve`, {
      method: 'POST',
      headers: { cookie: admin, origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ ids, expectedStatus: 'requested' }),
    });
    const text = await res.text();
    samples.push(performance.now() - started);
    if (res.status !== 200) failures.push(`bulk approve: ${res.status} ${text.slice(0, 200)}`);
    else if ((JSON.parse(text) as { approved?: unknown[] }).approved?.length !== ids.length) failures.push(`bulk approve: ${text.slice(0, 200)}`);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    request,
    floor,
    bulk: { samples, p50Ms: percentile(sorted, 50), maxMs: sorted.at(-1) ?? Number.NaN },
    failures,
  };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The console's lines for one backend. */
export function rewardsBenchLines(backend: string, run: RewardsBenchResult): string[] {
  return [
    `  ${backend} redemption request at ${CONNECTIONS} connections: ${Math.round(run.request.requestsPerSecond)} req/s, p50 ${ms(run.request.p50Ms)}, p99 ${ms(run.request.p99Ms)} over ${run.request.requests}`,
    `  ${backend} floor (GET /api/redemptions?pageSize=1) at ${CONNECTIONS} connections: ${Math.round(run.floor.requestsPerSecond)} req/s, p50 ${ms(run.floor.p50Ms)}, p99 ${ms(run.floor.p99Ms)} over ${run.floor.requests}`,
    `  ${backend} bulk approve of ${BULK_SIZE}: p50 ${ms(run.bulk.p50Ms)}, max ${ms(run.bulk.maxMs)} (${run.bulk.samples.map((value) => value.toFixed(0)).join(', ')} ms)`,
  ];
}

/** The Markdown table of docs/benchmarks.md: one row per backend and case, with the goal. */
export function rewardsBenchTable(rows: readonly { backend: string; run: RewardsBenchResult }[]): string {
  return [
    `Taken ${new Date().toISOString().slice(0, 10)} on 2 cores; loopback.`,
    '',
    '| backend | case | samples | req/s | p50 | p99 / max | goal |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ...rows.flatMap(({ backend, run }) => [
      `| ${backend} | \`POST /api/redemptions\`, ${CONNECTIONS} connections | ${run.request.requests} | ${Math.round(run.request.requestsPerSecond)} | ${ms(run.request.p50Ms)} | ${ms(run.request.p99Ms)} | p99 ≤ ${REDEMPTION_GOAL_P99_MS} ms (PostgreSQL) |`,
      `| ${backend} | floor: \`GET /api/redemptions?pageSize=1\`, ${CONNECTIONS} connections | ${run.floor.requests} | ${Math.round(run.floor.requestsPerSecond)} | ${ms(run.floor.p50Ms)} | ${ms(run.floor.p99Ms)} | — (this machine's floor) |`,
      `| ${backend} | \`POST /api/admin/redemptions/approve\`, ${BULK_SIZE} requests | ${run.bulk.samples.length} | — | ${ms(run.bulk.p50Ms)} | ${ms(run.bulk.maxMs)} | ≤ ${BULK_GOAL_MS / 1000} s |`,
    ]),
  ].join('\n');
}

/** Standalone: this seed alone, the API-only server on it, both cases, the figures. */
runIfMain(import.meta.url, () =>
  runStandalone('rewards', seedRewardsBench, async (url, backend, bench) => {
    const run = await bench.measure(url, Number(process.env.BENCH_SECONDS ?? 10));
    for (const line of rewardsBenchLines(backend, run)) console.log(line);
    console.log(`\n${rewardsBenchTable([{ backend, run }])}`);
    if (run.failures.length > 0) console.error(`Failures:\n- ${run.failures.join('\n- ')}`);
    return run.failures.length === 0;
  }),
);
