/**
 * The webhooks benchmark (docs/benchmarks.md, "Webhooks"; issue 32 §4): how long after a survey is
 * submitted its `survey_response.submitted` webhook reaches the agency's receiver, through the
 * production server's job workers (the outbox's `webhooks.fan-out`, then `webhooks.deliver`) and
 * a real HTTP POST to a local receiver. The goal (issue 32): p95 ≤ 1 s on PostgreSQL.
 *
 * Two cases, `WEBHOOKS_BENCH_SAMPLES` submits each, every one by another participant of the bench's
 * project (a response is submitted once):
 * - **one at a time**: each webhook waited for before the next submit;
 * - **`WEBHOOKS_BENCH_AT_ONCE` at once**: rounds of that many submits sent together, each round's
 *   webhooks all waited for before the next round.
 * Each sample runs from the moment its submit (`POST /api/surveys/{id}/response/submit`) is sent —
 * the submit's own answer included — to the moment the receiver has the whole webhook whose
 * `data.userId` is the submitter's. Every webhook's signature is verified with the
 * `standardwebhooks` package, as receivers do; one that does not verify fails the run.
 *
 * The seed (`seedWebhooksBench`, before the server starts: PGlite allows one process) writes a
 * live project with one live native survey of one question, `participants` members with a
 * session each, and an admin with a password. When measuring, the receiver is started on
 * 127.0.0.1 (the server runs with `WEBHOOKS_ALLOW_LOOPBACK=1`, `WEBHOOKS_BENCH_ENV`), the admin
 * signs in through the API (a fresh sign-in proof: creating an endpoint asks for one) and creates
 * the endpoint (`POST /api/admin/webhooks`, that event of that project); it is deleted at the end.
 *
 * Use from `scripts/bench.ts`: `seedWebhooksBench(target)`, then `measure(url)` against the
 * running server. Standalone: `node_modules/.bin/node scripts/bench-webhooks.ts [--postgres]`.
 * `seedWebhookSurvey` is the same seed on an open database (tests/process/webhooks.test.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { openDatabase, queryRows, type DatabaseTarget, type Db } from '../src/server/db/index.ts';
import { formVersions, forms, projectMembers, projects, surveys } from '../src/server/db/schema/index.ts';
import { systemClock } from '../src/server/services/clock.ts';
import { createSession } from '../src/server/services/sessions.ts';
import { createActiveUser } from '../src/server/services/users.ts';
import type { FormDefinition } from '../src/shared/forms/definition.ts';
import type { WebhookCreated } from '../src/shared/webhooks.ts';
import { percentile, runIfMain, runStandalone } from './bench-server.ts';

/** Submits per case. */
export const WEBHOOKS_BENCH_SAMPLES = 50;
/** Submits sent together in the second case. */
export const WEBHOOKS_BENCH_AT_ONCE = 5;
/** The goal (PostgreSQL): p95 of the time from a submit to its webhook at the receiver. */
export const WEBHOOK_GOAL_P95_MS = 1000;
/** What the server must be started with: webhooks may go to the receiver on 127.0.0.1. */
export const WEBHOOKS_BENCH_ENV = { WEBHOOKS_ALLOW_LOOPBACK: '1' } as const;
/** A webhook not there after this long is a failure (the every-minute sweep would have fanned it out by then). */
const ARRIVAL_TIMEOUT_MS = 90_000;

const ADMIN_EMAIL = 'bench-webhooks-admin@fieldwork.localhost';
const ADMIN_PASSWORD = 'bench-webhooks-not-secret';

/** One question, required: the smallest survey a participant submits. */
const definition: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Webhook bench form',
  pages: [
    {
      id: 'page_1',
      title: 'One question',
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
      ],
    },
  ],
};

/** The answers every submit sends. */
export const WEBHOOK_SURVEY_ANSWERS = { often: 'daily' } as const;

/** What `seedWebhookSurvey` made. */
export interface WebhookSurvey {
  projectId: number;
  surveyId: number;
  admin: { id: number; email: string; password: string; token: string };
  /** Members of the project, each with a session, none has answered. */
  participants: { id: number; token: string }[];
}

/**
 * A live project with one live native survey (one required question, 20 points), `participants`
 * members with a session each (`webhook-{n}@bench.localhost`, no password), and an admin with a
 * password and a session, on an open database.
 */
export async function seedWebhookSurvey(db: Db, participants: number): Promise<WebhookSurvey> {
  const admin = await createActiveUser(db, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, role: 'admin', firstName: 'Bench', lastName: 'Webhooks' });
  const { token: adminToken } = await createSession(db, systemClock, admin.id, { role: 'admin', userAgent: 'fieldwork-bench' });
  const [form] = await db.insert(forms).values({ title: definition.title, draft: definition, status: 'published', createdBy: admin.id }).returning();
  if (!form) throw new Error('no form');
  await db.insert(formVersions).values({ formId: form.id, version: 1, definition, publishedBy: admin.id });
  const [project] = await db.insert(projects).values({ name: 'Webhook bench', client: 'Bench', status: 'live', createdBy: admin.id }).returning();
  if (!project) throw new Error('no project');
  const [survey] = await db
    .insert(surveys)
    .values({
      projectId: project.id,
      title: 'Webhook bench survey',
      kind: 'native',
      formId: form.id,
      formVersion: 1,
      points: 20,
      estimatedMinutes: 1,
      closesAt: new Date(Date.now() + 30 * 86_400_000),
      status: 'live',
    })
    .returning({ id: surveys.id });
  if (!survey) throw new Error('no survey');
  const people = await queryRows<{ id: number }>(
    db,
    sql`insert into users (email, first_name, last_name, role, status)
        select 'webhook-' || i || '@bench.localhost', 'Webhook', 'Person' || i, 'participant', 'active'
        from generate_series(1, ${participants}) as i
        returning id`,
  );
  people.sort((a, b) => a.id - b.id);
  if (people.length > 0) await db.insert(projectMembers).values(people.map((person) => ({ projectId: project.id, userId: person.id })));
  const members: WebhookSurvey['participants'] = [];
  for (const person of people)
    members.push({ id: person.id, token: (await createSession(db, systemClock, person.id, { userAgent: 'fieldwork-bench' })).token });
  return {
    projectId: project.id,
    surveyId: survey.id,
    admin: { id: admin.id, email: ADMIN_EMAIL, password: ADMIN_PASSWORD, token: adminToken },
    participants: members,
  };
}

export interface WebhooksBenchCase {
  name: string;
  /** Milliseconds from each submit's request to its webhook's arrival, in the order measured. */
  samples: number[];
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface WebhooksBenchRun {
  cases: WebhooksBenchCase[];
  failures: string[];
}

export interface WebhooksBench {
  /** Both cases against the server at `url` (started with `WEBHOOKS_BENCH_ENV`). */
  measure(url: string, options?: { samples?: number; atOnce?: number }): Promise<WebhooksBenchRun>;
}

/** The seed: the survey, `2 × WEBHOOKS_BENCH_SAMPLES` participants (one submit each), the admin. */
export async function seedWebhooksBench(target: DatabaseTarget, options: { samples?: number } = {}): Promise<WebhooksBench> {
  const samples = options.samples ?? WEBHOOKS_BENCH_SAMPLES;
  const database = await openDatabase(target);
  let seeded: WebhookSurvey;
  try {
    seeded = await seedWebhookSurvey(database.db, 2 * samples);
  } finally {
    await database.close();
  }
  return { measure: (url, measureOptions = {}) => measureWebhooks(url, seeded, { samples, ...measureOptions }) };
}

/** One webhook as the receiver had it. */
interface Arrival {
  id: string;
  userId: number | undefined;
  /** `performance.now()` once the whole body was read. */
  at: number;
  verified: boolean;
}

/** A receiver on 127.0.0.1 that answers 204 at once and keeps what it got (verified with `secret`, set once known). */
async function startReceiver(): Promise<{
  url: string;
  setSecret(secret: string): void;
  arrival(userId: number): Promise<Arrival>;
  close(): Promise<void>;
}> {
  const arrivals = new Map<number, Arrival>();
  const waiters = new Map<number, (arrival: Arrival) => void>();
  let verifier: Webhook | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(204).end();
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
      let verified = false;
      let userId: number | undefined;
      try {
        verifier?.verify(body, headers);
        verified = verifier !== null;
        userId = (JSON.parse(body) as { data?: { userId?: number } }).data?.userId;
      } catch {
        // Counted as not verified.
      }
      const arrival = { id: headers['webhook-id'] ?? '', userId, at, verified };
      if (userId === undefined || arrivals.has(userId)) return; // a second delivery of one (at least once): the first counts
      arrivals.set(userId, arrival);
      waiters.get(userId)?.(arrival);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bench`,
    setSecret: (secret) => {
      verifier = new Webhook(secret);
    },
    arrival: (userId) =>
      new Promise((resolve, reject) => {
        const already = arrivals.get(userId);
        if (already) return resolve(already);
        const timer = setTimeout(() => {
          waiters.delete(userId);
          reject(new Error(`no webhook for participant ${userId} within ${ARRIVAL_TIMEOUT_MS / 1000} s`));
        }, ARRIVAL_TIMEOUT_MS);
        waiters.set(userId, (arrival) => {
          clearTimeout(timer);
          waiters.delete(userId);
          resolve(arrival);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function summary(name: string, samples: number[]): WebhooksBenchCase {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, samples, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? Number.NaN };
}

async function signInAdmin(url: string, admin: WebhookSurvey['admin']): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  const cookie = res.headers.getSetCookie().find((each) => each.startsWith('fw_session='));
  if (res.status !== 200 || !cookie) throw new Error(`the bench admin could not sign in: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return cookie.split(';')[0] ?? '';
}

async function measureWebhooks(url: string, seeded: WebhookSurvey, options: { samples: number; atOnce?: number }): Promise<WebhooksBenchRun> {
  const { samples } = options;
  const atOnce = options.atOnce ?? WEBHOOKS_BENCH_AT_ONCE;
  if (seeded.participants.length < 2 * samples) throw new Error(`${2 * samples} participants needed, ${seeded.participants.length} seeded`);
  const failures: string[] = [];
  const receiver = await startReceiver();
  const cookie = await signInAdmin(url, seeded.admin);
  const admin = (method: string, pathname: string, body?: unknown) =>
    fetch(`${url}${pathname}`, {
      method,
      headers: { origin: url, cookie, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const created = await admin('POST', '/api/admin/webhooks', {
    url: receiver.url,
    events: ['survey_response.submitted'],
    projectId: seeded.projectId,
    description: 'npm run bench',
  });
  if (created.status !== 201) {
    await receiver.close();
    throw new Error(`the bench's webhook endpoint could not be made: ${created.status} ${(await created.text()).slice(0, 300)}`);
  }
  const endpoint = (await created.json()) as WebhookCreated;
  receiver.setSecret(endpoint.secret);

  /** One participant's submit, and its webhook: the time between, or null (and a failure) when either went wrong. */
  const submitAndWait = async (participant: WebhookSurvey['participants'][number]): Promise<number | null> => {
    const arrived = receiver.arrival(participant.id);
    const sent = performance.now();
    const res = await fetch(`${url}/api/surveys/${seeded.surveyId}/response/submit`, {
      method: 'POST',
      headers: { origin: url, cookie: `fw_session=${participant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ answers: WEBHOOK_SURVEY_ANSWERS }),
    });
    const text = await res.text();
    if (res.status !== 200) {
      failures.push(`submit by participant ${participant.id}: ${res.status} ${text.slice(0, 200)}`);
      arrived.catch(() => {});
      return null;
    }
    try {
      const arrival = await arrived;
      if (!arrival.verified) failures.push(`the webhook of participant ${participant.id} (${arrival.id}) did not verify`);
      return arrival.at - sent;
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
      return null;
    }
  };

  const cases: WebhooksBenchCase[] = [];
  try {
    const one: number[] = [];
    for (const participant of seeded.participants.slice(0, samples)) {
      const ms = await submitAndWait(participant);
      if (ms !== null) one.push(ms);
    }
    cases.push(summary('one submit at a time', one));
    const together: number[] = [];
    const rest = seeded.participants.slice(samples, 2 * samples);
    for (let at = 0; at < rest.length; at += atOnce) {
      const round = await Promise.all(rest.slice(at, at + atOnce).map(submitAndWait));
      for (const ms of round) if (ms !== null) together.push(ms);
    }
    cases.push(summary(`${atOnce} submits at once`, together));
  } finally {
    const deleted = await admin('DELETE', `/api/admin/webhooks/${endpoint.id}`);
    if (deleted.status !== 204) failures.push(`the bench's webhook endpoint could not be deleted: ${deleted.status}`);
    await receiver.close();
  }
  return { cases, failures };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Whether a backend's case misses the goal (it holds for PostgreSQL; PGlite's figures are shown against it). */
export function webhooksGoalMissed(backend: string, c: WebhooksBenchCase): boolean {
  return backend === 'PostgreSQL' && !(c.p95Ms <= WEBHOOK_GOAL_P95_MS);
}

/** One line per case, for the console. */
export function webhooksBenchLines(backend: string, run: WebhooksBenchRun): string[] {
  return run.cases.map(
    (c) =>
      `  ${backend} webhooks, ${c.name}: p50 ${seconds(c.p50Ms)}, p95 ${seconds(c.p95Ms)}, max ${seconds(c.maxMs)} over ${c.samples.length}` +
      (c.p95Ms > WEBHOOK_GOAL_P95_MS ? ` — above the ${seconds(WEBHOOK_GOAL_P95_MS)} goal${backend === 'PostgreSQL' ? '' : ' (a PostgreSQL goal)'}` : ''),
  );
}

/** The Markdown table of docs/benchmarks.md: one row per backend and case. */
export function webhooksBenchTable(rows: readonly { backend: string; run: WebhooksBenchRun }[]): string {
  return [
    `| backend | submits | samples | p50 | p95 | max | goal p95 ≤ ${seconds(WEBHOOK_GOAL_P95_MS)} (PostgreSQL) |`,
    '|---|---|---|---|---|---|---|',
    ...rows.flatMap(({ backend, run }) =>
      run.cases.map(
        (c) =>
          `| ${backend} | ${c.name} | ${c.samples.length} | ${seconds(c.p50Ms)} | ${seconds(c.p95Ms)} | ${seconds(c.maxMs)} | ${
            c.p95Ms <= WEBHOOK_GOAL_P95_MS ? 'met' : backend === 'PostgreSQL' ? 'missed' : 'above (PGlite)'
          } |`,
      ),
    ),
  ].join('\n');
}

/** Standalone: the seed, the API-only server with loopback webhooks, both cases, the figures. */
runIfMain(import.meta.url, async () => {
  await runStandalone(
    'webhooks',
    (target) => seedWebhooksBench(target),
    async (url, backend, bench) => {
      const run = await bench.measure(url);
      for (const line of webhooksBenchLines(backend, run)) console.log(line);
      console.log(`\n${webhooksBenchTable([{ backend, run }])}`);
      for (const c of run.cases) console.log(`${c.name} samples (ms): ${c.samples.map((ms) => Math.round(ms)).join(', ')}`);
      for (const failure of run.failures) console.error(`failure: ${failure}`);
      return run.failures.length === 0 && !run.cases.some((c) => webhooksGoalMissed(backend, c));
    },
    WEBHOOKS_BENCH_ENV,
  );
});
