/**
 * `npm run load`: the load test of issue 19 §4 (docs/benchmarks.md, "Load"). Participants take
 * surveys (load, save, save again with the revision, submit) and missions with a photo (upload a
 * real JPEG as multipart through `POST /api/media`, make an entry, save it, submit it), and
 * moderators review (the queue, open an entry, approve it), at a steady arrival rate against the
 * production server started as a child process (`node src/server/main.ts`, scripts/bench-server.ts).
 *
 * The arrivals are open-loop: request n starts at n / LOAD_RATE seconds whatever the earlier ones
 * are doing (a slow server is not given a slower rate). Each request goes to the next idle virtual
 * user, who sends the next step of their own scenario (one request at a time each, as a browser
 * tab does); every 100 arrivals, 15 are a moderator's. autocannon is not used: it resets each
 * connection's context per loop, and these scenarios carry ids and revisions from one request to
 * the next.
 *
 * Environment:
 * - LOAD_DURATION: seconds of load (600); LOAD_RATE: requests per second (200); LOAD_PARTICIPANTS (1,000);
 * - LOAD_DB: `postgres` (default: a fresh database on TEST_DATABASE_URL or 127.0.0.1:5432) or
 *   `pglite` (a temporary DATA_DIR);
 * - LOAD_FIND_MAX=1: step the rate (from LOAD_RATE, by LOAD_STEP, 25 by default) on one server,
 *   LOAD_DURATION seconds a step, until a step fails twice running (once more, for a shared machine's
 *   spells); the highest that held is the answer;
 * - LOAD_WEB_CONCURRENCY: the server's WEB_CONCURRENCY on PostgreSQL (unset: one process, as bench.ts);
 * - LOAD_WRITE=1: write the figures into docs/benchmarks.md between `<!-- load:start -->` and
 *   `<!-- load:end -->` (the PostgreSQL run and the PGlite search each rewrite their own table).
 *
 * A run passes when no request failed (a network error, a timeout or any status other than the
 * step's 2xx) and the p95 of all requests is under 200 ms; the script exits 1 otherwise.
 * The scenario functions are exported for the fault tests (tests/process/faults-*.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import pg from 'pg';
import { openDatabase, type DatabaseTarget, type Db } from '../src/server/db/index.ts';
import { formVersions, forms, missions, projectMembers, projects, sessions, surveys, users } from '../src/server/db/schema/index.ts';
import { randomToken, sha256Hex } from '../src/server/services/crypto.ts';
import type { FormDefinition } from '../src/shared/forms/definition.ts';
import { freePort, percentile, spawnServer, stopServer, waitForHealth, writeBenchmarksSection, type ServerChild } from './bench-server.ts';
import { seedProgramme } from './bench-seed.ts';

// ---------------------------------------------------------------------------------------------
// The world: who takes part, in what

const surveyForm: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Load survey',
  pages: [
    {
      id: 'page_1',
      title: 'About you',
      elements: [
        {
          id: 'often',
          type: 'single_choice',
          title: 'How often?',
          required: true,
          options: [
            { id: 'daily', label: 'Daily' },
            { id: 'weekly', label: 'Weekly' },
          ],
        },
        { id: 'why', type: 'long_text', title: 'Why?' },
      ],
    },
  ],
};

const photoForm: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Load mission',
  pages: [
    {
      id: 'page_1',
      title: '',
      elements: [
        { id: 'photos', type: 'photo', title: 'Your photo', required: true, minFiles: 1, maxFiles: 3 },
        { id: 'caption', type: 'short_text', title: 'Caption' },
      ],
    },
  ],
};

export interface LoadWorld {
  participants: { id: number; token: string }[];
  moderators: { id: number; token: string }[];
  surveyIds: number[];
  /** One photo mission per moderator: each moderator reviews only their own, so two never decide one entry. */
  missionIds: number[];
}

export interface SeedOptions {
  participants: number;
  moderators: number;
  surveys: number;
  /** Also the benchmark's busy project (scripts/bench-seed.ts: 500 members, 2,000 entries, 500 responses). */
  busyProgramme: boolean;
}

/** Writes the world straight into the database (no argon2 for a thousand people), with a session each. */
export async function seedLoad(db: Db, options: SeedOptions): Promise<LoadWorld> {
  const [admin] = await db
    .insert(users)
    .values({ email: 'load-admin@load.localhost', firstName: 'Load', lastName: 'Admin', role: 'admin', status: 'active' })
    .returning({ id: users.id });
  if (!admin) throw new Error('no admin');
  const people = await db
    .insert(users)
    .values([
      ...Array.from({ length: options.participants }, (_, i) => ({
        email: `participant-${i}@load.localhost`,
        firstName: 'Load',
        lastName: `Participant ${i}`,
        role: 'participant' as const,
        status: 'active' as const,
      })),
      ...Array.from({ length: options.moderators }, (_, i) => ({
        email: `moderator-${i}@load.localhost`,
        firstName: 'Load',
        lastName: `Moderator ${i}`,
        role: 'moderator' as const,
        status: 'active' as const,
      })),
    ])
    .returning({ id: users.id, role: users.role });
  const now = new Date();
  const withTokens = people.map((person) => ({ ...person, token: randomToken() }));
  for (let i = 0; i < withTokens.length; i += 500) {
    await db.insert(sessions).values(
      withTokens.slice(i, i + 500).map((person) => ({
        id: sha256Hex(person.token),
        userId: person.id,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + 7 * 86_400_000),
        userAgent: 'fieldwork-load',
      })),
    );
  }
  const participants = withTokens.filter((p) => p.role === 'participant').map(({ id, token }) => ({ id, token }));
  const moderators = withTokens.filter((p) => p.role === 'moderator').map(({ id, token }) => ({ id, token }));

  const formIds: number[] = [];
  for (const definition of [surveyForm, photoForm]) {
    const [form] = await db.insert(forms).values({ title: definition.title, draft: definition, status: 'published', createdBy: admin.id }).returning();
    if (!form) throw new Error('no form');
    await db.insert(formVersions).values({ formId: form.id, version: 1, definition, publishedBy: admin.id });
    formIds.push(form.id);
  }
  const [surveyFormId, photoFormId] = formIds as [number, number];
  const [project] = await db.insert(projects).values({ name: 'Load project', client: 'Load', status: 'live', createdBy: admin.id }).returning();
  if (!project) throw new Error('no project');
  for (let i = 0; i < participants.length; i += 500) {
    await db.insert(projectMembers).values(participants.slice(i, i + 500).map((p) => ({ projectId: project.id, userId: p.id })));
  }
  const closesAt = new Date(now.getTime() + 30 * 86_400_000);
  const surveyRows = await db
    .insert(surveys)
    .values(
      Array.from({ length: options.surveys }, (_, i) => ({
        projectId: project.id,
        title: `Load survey ${i + 1}`,
        kind: 'native' as const,
        formId: surveyFormId,
        formVersion: 1,
        points: 10,
        estimatedMinutes: 2,
        closesAt,
        status: 'live' as const,
      })),
    )
    .returning({ id: surveys.id });
  const missionRows = await db
    .insert(missions)
    .values(
      Array.from({ length: Math.max(1, options.moderators) }, (_, i) => ({
        projectId: project.id,
        title: `Load mission ${i + 1}`,
        formId: photoFormId,
        formVersion: 1,
        points: 25,
        closesAt,
        entriesMin: 1,
        entriesMax: 366,
        review: 'manual' as const,
        status: 'live' as const,
      })),
    )
    .returning({ id: missions.id });
  if (options.busyProgramme && participants[0]) await seedProgramme(db, participants[0].id, admin.id);
  return { participants, moderators, surveyIds: surveyRows.map((r) => r.id), missionIds: missionRows.map((r) => r.id) };
}

/** A few small real JPEGs (400 × 300, different each): sharp decodes, orients and re-encodes them as it would a phone's photo. */
export async function makePhotos(count = 4): Promise<Buffer[]> {
  const photos: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const width = 400;
    const height = 300;
    const raw = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const o = (y * width + x) * 3;
        raw[o] = (x * 255) / width + i * 40;
        raw[o + 1] = (y * 255) / height;
        raw[o + 2] = ((x ^ y) + i * 17) & 0xff;
      }
    }
    photos.push(
      await sharp(raw, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
  }
  return photos;
}

// ---------------------------------------------------------------------------------------------
// The scenarios

export const KINDS = [
  'survey.load',
  'survey.save',
  'survey.submit',
  'media.upload',
  'entry.create',
  'entry.save',
  'entry.submit',
  'review.queue',
  'review.open',
  'review.decide',
] as const;
export type Kind = (typeof KINDS)[number];

/** A write the server acknowledged (2xx): what must be in the database afterwards. */
export type Acknowledged =
  | { kind: 'survey.save'; surveyId: number; userId: number; revision: number }
  | { kind: 'survey.submit'; surveyId: number; userId: number }
  | { kind: 'media.upload'; mediaId: string; userId: number }
  | { kind: 'entry.create'; entryId: number; userId: number }
  | { kind: 'entry.save'; entryId: number; revision: number }
  | { kind: 'entry.submit'; entryId: number }
  | { kind: 'review.decide'; entryId: number };

interface Step {
  kind: Kind;
  method: string;
  path: string;
  body?: () => string | FormData;
  /** Reads the 2xx answer: what the next steps need, and what was acknowledged. */
  done?: (body: unknown) => Acknowledged | null;
}

type JsonObject = Record<string, unknown>;
const asObject = (value: unknown): JsonObject => (value && typeof value === 'object' ? (value as JsonObject) : {});

/** A virtual user: a cookie and the next step of their scenario. */
interface VirtualUser {
  readonly cookie: string;
  busy: boolean;
  next(): Step;
  /** The step failed: the scenario is dropped and a fresh one starts (what was acknowledged stays). */
  reset(): void;
}

function participantUser(world: LoadWorld, index: number, photos: readonly Buffer[]): VirtualUser {
  const me = world.participants[index] as { id: number; token: string };
  const missionId = world.missionIds[index % world.missionIds.length] as number;
  let surveyCursor = index % world.surveyIds.length;
  let surveysLeft = world.surveyIds.length;
  // Staggered: a quarter of the participants start with a mission, so the mix is there from the first second.
  let flow = index % 4;
  let queue: Step[] = [];

  const json = (value: unknown) => () => JSON.stringify(value);
  function surveyFlow(surveyId: number): Step[] {
    let revision = 0;
    const answers = { often: flow % 2 === 0 ? 'daily' : 'weekly', why: `Because of load ${index}-${flow}` };
    return [
      { kind: 'survey.load', method: 'GET', path: `/api/surveys/${surveyId}` },
      {
        kind: 'survey.save',
        method: 'PUT',
        path: `/api/surveys/${surveyId}/response`,
        body: () => JSON.stringify({ answers: { often: answers.often }, pageId: 'page_1', revision: 0 }),
        done: (body) => {
          revision = Number(asObject(body).revision);
          return { kind: 'survey.save', surveyId, userId: me.id, revision };
        },
      },
      {
        kind: 'survey.save',
        method: 'PUT',
        path: `/api/surveys/${surveyId}/response`,
        body: () => JSON.stringify({ answers, pageId: 'page_1', revision }),
        done: (body) => {
          revision = Number(asObject(body).revision);
          return { kind: 'survey.save', surveyId, userId: me.id, revision };
        },
      },
      {
        kind: 'survey.submit',
        method: 'POST',
        path: `/api/surveys/${surveyId}/response/submit`,
        body: () => JSON.stringify({ answers, revision }),
        done: () => ({ kind: 'survey.submit', surveyId, userId: me.id }),
      },
    ];
  }
  function missionFlow(): Step[] {
    let mediaId = '';
    let entryId = 0;
    let revision = 0;
    const photo = photos[(index + flow) % photos.length] as Buffer;
    return [
      {
        kind: 'media.upload',
        method: 'POST',
        path: '/api/media',
        body: () => {
          const form = new FormData();
          form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'shelf.jpg');
          return form;
        },
        done: (body) => {
          mediaId = String(asObject(body).id);
          return { kind: 'media.upload', mediaId, userId: me.id };
        },
      },
      {
        kind: 'entry.create',
        method: 'POST',
        path: `/api/missions/${missionId}/entries`,
        body: json({ timeZone: 'UTC' }),
        done: (body) => {
          entryId = Number(asObject(body).id);
          return { kind: 'entry.create', entryId, userId: me.id };
        },
      },
      {
        kind: 'entry.save',
        method: 'PUT',
        get path() {
          return `/api/missions/${missionId}/entries/${entryId}`;
        },
        body: () => JSON.stringify({ answers: { photos: [mediaId], caption: `Shelf ${index}-${flow}` }, revision: 0 }),
        done: (body) => {
          revision = Number(asObject(body).revision);
          return { kind: 'entry.save', entryId, revision };
        },
      },
      {
        kind: 'entry.submit',
        method: 'POST',
        get path() {
          return `/api/missions/${missionId}/entries/${entryId}/submit`;
        },
        body: () => JSON.stringify({ revision }),
        done: () => ({ kind: 'entry.submit', entryId }),
      },
    ];
  }
  function refill(): void {
    flow++;
    // Three surveys to one mission while surveys are left; missions only afterwards.
    if (flow % 4 !== 0 && surveysLeft > 0) {
      surveysLeft--;
      const surveyId = world.surveyIds[surveyCursor % world.surveyIds.length] as number;
      surveyCursor++;
      queue = surveyFlow(surveyId);
    } else queue = missionFlow();
  }
  return {
    cookie: `fw_session=${me.token}`,
    busy: false,
    next() {
      if (queue.length === 0) refill();
      return queue.shift() as Step;
    },
    reset() {
      queue = [];
    },
  };
}

function moderatorUser(world: LoadWorld, index: number): VirtualUser {
  const me = world.moderators[index] as { id: number; token: string };
  const missionId = world.missionIds[index % world.missionIds.length] as number;
  let queue: Step[] = [];
  function flow(): Step[] {
    let entryId = 0;
    const open: Step = {
      kind: 'review.open',
      method: 'GET',
      get path() {
        return `/api/admin/submissions/${entryId}`;
      },
    };
    const decide: Step = {
      kind: 'review.decide',
      method: 'POST',
      get path() {
        return `/api/admin/submissions/${entryId}/review`;
      },
      body: () => JSON.stringify({ decision: 'approve', expectedStatus: 'submitted' }),
      done: () => ({ kind: 'review.decide', entryId }),
    };
    return [
      {
        kind: 'review.queue',
        method: 'GET',
        path: `/api/admin/submissions?status=submitted&missionId=${missionId}&limit=20`,
        done: (body) => {
          const first = asObject((asObject(body).items as unknown[] | undefined)?.[0]);
          // An empty queue: look again next time.
          if (typeof first.id === 'number') {
            entryId = first.id;
            queue.push(open, decide);
          }
          return null;
        },
      },
    ];
  }
  return {
    cookie: `fw_session=${me.token}`,
    busy: false,
    next() {
      if (queue.length === 0) queue = flow();
      return queue.shift() as Step;
    },
    reset() {
      queue = [];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The driver

export interface KindStats {
  count: number;
  /** Network errors and timeouts (no answer). */
  errors: number;
  /** Answers that were not 2xx, by status. */
  statuses: Record<string, number>;
  latencies: number[];
}

export interface LoadResult {
  rate: number;
  seconds: number;
  sent: number;
  /** Arrivals with no idle virtual user to send them (every one was still waiting for an answer). */
  skipped: number;
  byKind: Record<Kind, KindStats>;
  acknowledged: Acknowledged[];
  /** The second (from the start) of each 2xx answer. */
  answeredAt: number[];
  /** Each request's start (s from the start) and latency (ms), for the timeline. */
  timeline: [at: number, ms: number][];
  /** Each failed request's second (from the start) it was sent and it ended, kind and status (0: no answer). */
  failures: { at: number; endedAt: number; kind: Kind; status: number; code?: string; retryAfter?: string | null }[];
}

export interface RunningLoad {
  /** Stops sending and resolves once every request in flight has its answer. */
  stop(): Promise<LoadResult>;
  readonly result: LoadResult;
  /** `performance.now()` when it started: `at` and `answeredAt` count from here. */
  readonly startedAt: number;
}

const MODERATOR_SHARE = 15;
const crowds = new WeakMap<LoadWorld, { participants: VirtualUser[]; moderators: VirtualUser[] }>();

/** Starts the open-loop load against `url` (a server whose PUBLIC_URL or own origin is `url`). */
export function startLoad(url: string, world: LoadWorld, photos: readonly Buffer[], options: { rate: number; timeoutMs?: number }): RunningLoad {
  // The same people from one run to the next (LOAD_FIND_MAX's steps): each goes on where they were.
  let crowd = crowds.get(world);
  if (!crowd) {
    crowd = {
      participants: world.participants.map((_, i) => participantUser(world, i, photos)),
      moderators: world.moderators.map((_, i) => moderatorUser(world, i)),
    };
    crowds.set(world, crowd);
  }
  const { participants, moderators } = crowd;
  const byKind = Object.fromEntries(KINDS.map((kind) => [kind, { count: 0, errors: 0, statuses: {}, latencies: [] }])) as unknown as Record<Kind, KindStats>;
  const result: LoadResult = { rate: options.rate, seconds: 0, sent: 0, skipped: 0, byKind, acknowledged: [], answeredAt: [], timeline: [], failures: [] };
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let stopped = false;

  /** An idle user of the pool, chosen at random (the first idle one after a random place). */
  const pick = (pool: VirtualUser[]): VirtualUser | undefined => {
    const from = Math.floor(Math.random() * pool.length);
    for (let tried = 0; tried < pool.length; tried++) {
      const user = pool[(from + tried) % pool.length] as VirtualUser;
      if (!user.busy) return user;
    }
    return undefined;
  };

  async function send(user: VirtualUser): Promise<void> {
    user.busy = true;
    const step = user.next();
    const stats = byKind[step.kind];
    stats.count++;
    const body = step.body?.();
    const headers: Record<string, string> = { Cookie: user.cookie, Origin: url };
    if (typeof body === 'string') headers['Content-Type'] = 'application/json';
    const t0 = performance.now();
    try {
      const response = await fetch(`${url}${step.path}`, { method: step.method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
      const text = await response.text();
      stats.latencies.push(performance.now() - t0);
      result.timeline.push([(t0 - started) / 1000, performance.now() - t0]);
      if (response.status >= 200 && response.status < 300) {
        result.answeredAt.push((performance.now() - started) / 1000);
        const ack = step.done?.(text ? JSON.parse(text) : null);
        if (ack) result.acknowledged.push(ack);
      } else {
        stats.statuses[response.status] = (stats.statuses[response.status] ?? 0) + 1;
        let code: string | undefined;
        try {
          code = String(asObject(asObject(JSON.parse(text)).error).code);
        } catch {
          code = undefined;
        }
        result.failures.push({
          at: (t0 - started) / 1000,
          endedAt: (performance.now() - started) / 1000,
          kind: step.kind,
          status: response.status,
          code,
          retryAfter: response.headers.get('retry-after'),
        });
        user.reset();
      }
    } catch {
      stats.latencies.push(performance.now() - t0);
      result.timeline.push([(t0 - started) / 1000, performance.now() - t0]);
      stats.errors++;
      result.failures.push({ at: (t0 - started) / 1000, endedAt: (performance.now() - started) / 1000, kind: step.kind, status: 0 });
      user.reset();
    } finally {
      user.busy = false;
    }
  }

  const timer = setInterval(() => {
    if (stopped) return;
    const due = Math.floor(((performance.now() - started) / 1000) * options.rate);
    while (result.sent + result.skipped < due) {
      const n = result.sent + result.skipped;
      const moderator = moderators.length > 0 && n % 100 < MODERATOR_SHARE;
      const user = pick(moderator ? moderators : participants);
      if (!user) {
        result.skipped++;
        continue;
      }
      result.sent++;
      const promise = send(user).finally(() => inFlight.delete(promise));
      inFlight.add(promise);
    }
  }, 2);

  return {
    result,
    startedAt: started,
    async stop() {
      stopped = true;
      clearInterval(timer);
      result.seconds = (performance.now() - started) / 1000;
      await Promise.all([...inFlight]);
      return result;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Checking what was acknowledged (the fault tests)

/** The acknowledged writes missing from the database (`query` runs SQL on it): empty when nothing was lost. */
export async function missingAcknowledged(
  acknowledged: readonly Acknowledged[],
  query: <T>(text: string, values: unknown[]) => Promise<T[]>,
): Promise<string[]> {
  const missing: string[] = [];
  const responses = new Map<string, { revision: number; status: string }>();
  for (const row of await query<{ survey_id: number; user_id: number; revision: number; status: string }>(
    'select survey_id, user_id, revision, status from survey_responses',
    [],
  ))
    responses.set(`${row.survey_id}/${row.user_id}`, row);
  const entries = new Map<number, { revision: number; status: string; user_id: number }>();
  for (const row of await query<{ id: number; revision: number; status: string; user_id: number }>(
    'select id, revision, status, user_id from mission_entries',
    [],
  ))
    entries.set(row.id, row);
  const media = new Set((await query<{ id: string }>('select id from media', [])).map((row) => row.id));
  for (const ack of acknowledged) {
    const label = JSON.stringify(ack);
    if (ack.kind === 'survey.save' || ack.kind === 'survey.submit') {
      const row = responses.get(`${ack.surveyId}/${ack.userId}`);
      if (!row) missing.push(`${label}: no response`);
      else if (ack.kind === 'survey.save' && row.revision < ack.revision) missing.push(`${label}: revision ${row.revision}`);
      else if (ack.kind === 'survey.submit' && row.status !== 'submitted') missing.push(`${label}: ${row.status}`);
    } else if (ack.kind === 'media.upload') {
      if (!media.has(ack.mediaId)) missing.push(`${label}: no media row`);
    } else {
      const row = entries.get(ack.entryId);
      if (!row) missing.push(`${label}: no entry`);
      else if (ack.kind === 'entry.save' && row.revision < ack.revision) missing.push(`${label}: revision ${row.revision}`);
      else if (ack.kind === 'entry.submit' && !['submitted', 'approved'].includes(row.status)) missing.push(`${label}: ${row.status}`);
      else if (ack.kind === 'review.decide' && row.status !== 'approved') missing.push(`${label}: ${row.status}`);
    }
  }
  return missing;
}

// ---------------------------------------------------------------------------------------------
// Reporting

const round = (ms: number) => (Number.isFinite(ms) ? (ms < 10 ? ms.toFixed(1) : String(Math.round(ms))) : '–');

export interface Summary {
  rows: { kind: string; count: number; errors: number; non2xx: number; p50: number; p95: number; p99: number }[];
  total: { count: number; errors: number; non2xx: number; p50: number; p95: number; p99: number };
  achievedRate: number;
  passed: boolean;
}

export function summarize(result: LoadResult): Summary {
  const rows = KINDS.map((kind) => {
    const stats = result.byKind[kind];
    const sorted = [...stats.latencies].sort((a, b) => a - b);
    const non2xx = Object.values(stats.statuses).reduce((a, b) => a + b, 0);
    return { kind, count: stats.count, errors: stats.errors, non2xx, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
  });
  const all = KINDS.flatMap((kind) => result.byKind[kind].latencies).sort((a, b) => a - b);
  const total = {
    count: rows.reduce((a, r) => a + r.count, 0),
    errors: rows.reduce((a, r) => a + r.errors, 0) + result.skipped,
    non2xx: rows.reduce((a, r) => a + r.non2xx, 0),
    p50: percentile(all, 50),
    p95: percentile(all, 95),
    p99: percentile(all, 99),
  };
  const passed = total.errors === 0 && total.non2xx === 0 && total.p95 < 200;
  return { rows, total, achievedRate: total.count / Math.max(1, result.seconds), passed };
}

function table(summary: Summary): string {
  const lines = ['| request | count | errors | non-2xx | p50 ms | p95 ms | p99 ms |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |'];
  for (const r of summary.rows) lines.push(`| ${r.kind} | ${r.count} | ${r.errors} | ${r.non2xx} | ${round(r.p50)} | ${round(r.p95)} | ${round(r.p99)} |`);
  const t = summary.total;
  lines.push(`| **all** | **${t.count}** | **${t.errors}** | **${t.non2xx}** | **${round(t.p50)}** | **${round(t.p95)}** | **${round(t.p99)}** |`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The run

const SEED: SeedOptions = { participants: numberSetting('LOAD_PARTICIPANTS', 1000), moderators: 30, surveys: 60, busyProgramme: true };

function numberSetting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${JSON.stringify(raw)}`);
  return value;
}

async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `fieldwork_load_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** The p95 of each window of `seconds`, in order (rounded ms). */
function windowP95s(result: LoadResult, seconds: number): string[] {
  const windows = new Map<number, number[]>();
  for (const [at, ms] of result.timeline) {
    const key = Math.floor(at / seconds);
    const list = windows.get(key) ?? [];
    list.push(ms);
    windows.set(key, list);
  }
  return [...windows]
    .sort(([a], [b]) => a - b)
    .map(([, list]) =>
      round(
        percentile(
          list.sort((x, y) => x - y),
          95,
        ),
      ),
    );
}

/** p50 / p95 / max per window of `seconds`: shows whether slow answers are spread out or come in spells. */
function timeline(result: LoadResult, seconds: number): string {
  const windows = new Map<number, number[]>();
  for (const [at, ms] of result.timeline) {
    const key = Math.floor(at / seconds);
    const list = windows.get(key) ?? [];
    list.push(ms);
    windows.set(key, list);
  }
  return [...windows]
    .sort(([a], [b]) => a - b)
    .map(([key, list]) => {
      const sorted = list.sort((a, b) => a - b);
      return `${key * seconds}s: n=${sorted.length} p50=${round(percentile(sorted, 50))} p95=${round(percentile(sorted, 95))} max=${round(sorted[sorted.length - 1] ?? Number.NaN)}`;
    })
    .join('\n');
}

function describeFailures(result: LoadResult): string {
  const counts = new Map<string, number>();
  for (const f of result.failures) {
    const key = `${f.kind} ${f.status}${f.code ? ` ${f.code}` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key} ×${n}`).join(', ');
}

async function main(): Promise<void> {
  const backend = process.env.LOAD_DB === 'pglite' ? 'pglite' : 'postgres';
  const duration = numberSetting('LOAD_DURATION', 600);
  const findMax = process.env.LOAD_FIND_MAX === '1';
  const firstRate = numberSetting('LOAD_RATE', findMax ? 25 : 200);
  const step = numberSetting('LOAD_STEP', 25);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-load-'));
  let fresh: { url: string; drop: () => Promise<void> } | undefined;
  let server: ServerChild | undefined;
  try {
    if (backend === 'postgres') fresh = await freshPostgres();
    const target: DatabaseTarget = fresh ? { kind: 'postgres', connection: fresh.url } : { kind: 'pglite', dataDir };
    const database = await openDatabase(target);
    const t0 = performance.now();
    const world = await seedLoad(database.db, SEED);
    await database.close();
    console.log(`seeded ${SEED.participants} participants, ${SEED.moderators} moderators, ${SEED.surveys} surveys in ${Math.round(performance.now() - t0)} ms`);
    const photos = await makePhotos();

    const port = await freePort();
    const env: Record<string, string> = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_URL: `http://127.0.0.1:${port}` };
    if (fresh) env.DATABASE_URL = fresh.url;
    if (fresh && process.env.LOAD_WEB_CONCURRENCY) env.WEB_CONCURRENCY = process.env.LOAD_WEB_CONCURRENCY;
    server = spawnServer(env, port);
    await waitForHealth(server);

    const runs: { rate: number; summary: Summary; result: LoadResult }[] = [];
    for (let rate = firstRate, again = false; ; rate += again ? 0 : step) {
      console.log(`${backend}: ${rate} req/s for ${duration} s …`);
      const load = startLoad(server.url, world, photos, { rate });
      await new Promise((resolve) => setTimeout(resolve, duration * 1000));
      const result = await load.stop();
      const summary = summarize(result);
      runs.push({ rate, summary, result });
      console.log(table(summary));
      console.log(timeline(result, Math.max(5, Math.round(duration / 20))));
      console.log(
        `achieved ${summary.achievedRate.toFixed(1)} req/s; skipped ${result.skipped}; ${summary.passed ? 'PASS' : 'FAIL'}${result.failures.length ? `; failures: ${describeFailures(result)}` : ''}`,
      );
      if (!findMax) break;
      // On a shared machine a spell of someone else's work can sink one step: a failed step runs once more.
      if (!summary.passed && again) break;
      again = !summary.passed;
    }

    // The highest rate with a step that held, below the rate that failed twice.
    const failedTwice = runs
      .filter((run) => !run.summary.passed && runs.filter((other) => other.rate === run.rate && !other.summary.passed).length > 1)
      .map((run) => run.rate);
    const held = runs.filter((run) => run.summary.passed && !failedTwice.some((rate) => run.rate >= rate));
    const best = held[held.length - 1];
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`;
    let section: string;
    if (findMax) {
      const steps = runs.map(
        (run) =>
          `| ${run.rate} | ${round(run.summary.achievedRate)} | ${run.summary.total.errors + run.summary.total.non2xx} | ${round(run.summary.total.p50)} | ${round(run.summary.total.p95)} | ${round(run.summary.total.p99)} | ${run.summary.passed ? 'holds' : 'fails'} |`,
      );
      section = [
        `PGlite, ${when} UTC, ${duration} s a step (${machine}): the highest rate that holds is **${best ? `${best.rate} req/s` : `below ${firstRate} req/s`}**.`,
        '',
        '| rate req/s | achieved | errors + non-2xx | p50 ms | p95 ms | p99 ms | |',
        '| ---: | ---: | ---: | ---: | ---: | ---: | --- |',
        ...steps,
        ...(best ? ['', `At ${best.rate} req/s, per request:`, '', table(best.summary)] : []),
      ].join('\n');
    } else {
      const only = runs[0] as (typeof runs)[number];
      const windowSeconds = Math.max(5, Math.round(duration / 20));
      section = [
        `PostgreSQL, ${when} UTC, ${only.rate} req/s for ${duration} s (${machine}${env.WEB_CONCURRENCY ? `, WEB_CONCURRENCY=${env.WEB_CONCURRENCY}` : ', one server process'}): ${only.summary.passed ? 'holds' : '**fails**'}, ${round(only.summary.achievedRate)} req/s achieved.`,
        '',
        table(only.summary),
        ...(only.result.skipped > 0
          ? [
              '',
              `The errors of the **all** row include ${only.result.skipped} arrivals that found every virtual user of their kind still waiting for an answer (not sent).`,
            ]
          : []),
        ...(only.result.failures.length > 0 ? ['', `Non-2xx: ${describeFailures(only.result)}.`] : []),
        '',
        `p95 ms per ${windowSeconds} s window, in order: ${windowP95s(only.result, windowSeconds).join(', ')}.`,
      ].join('\n');
    }
    if (process.env.LOAD_WRITE === '1') {
      const marker = backend === 'pglite' ? 'load-pglite' : 'load-postgres';
      writeBenchmarksSection(marker, section);
      console.log(`docs/benchmarks.md: ${marker} rewritten`);
    }
    await stopServer(server);
    server = undefined;
    process.exitCode = findMax ? (best ? 0 : 1) : runs[0]?.summary.passed ? 0 : 1;
  } finally {
    if (server && server.child.exitCode === null) {
      console.error(server.output());
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await fresh?.drop().catch((error: unknown) => console.error('could not drop the load database:', error));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
