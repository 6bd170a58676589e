/**
 * The mail benchmark (docs/benchmarks.md, "Mail"): how long after an action's answer its mail
 * reaches the mail server, through the production server's job workers and a real SMTP exchange.
 * The goal (issue 19): a mail caused by an action is handed to SMTP within 5 s at p95.
 *
 * Two cases, `MAIL_BENCH_SAMPLES` each, one after the other (each mail waited for before the next
 * action, so every sample is one action's own latency):
 * - **reset link**: `POST /api/auth/password/forgot` for an active account (the `auth.forgot-password`
 *   job issues the link and sends the mail);
 * - **changes requested**: a moderator's `POST /api/admin/submissions/{id}/review` with
 *   `request_changes` (the notification's `notifications.mail-one` job, queued in the review's
 *   transaction, then its `mail.send`).
 * The clock starts when the answer has been read and stops when the SMTP sink has the whole
 * message (end of DATA).
 *
 * Use from another bench (`scripts/bench.ts` wires it in): `startMailBench()` starts the sink
 * before the server and gives the `env` to start the server with (`SMTP_URL`); once the server
 * is healthy, `measure(url, seeded)`; then `close()`. It reviews entries of the busy project's
 * mission and resets the passwords of its members (scripts/bench-seed.ts), so run it after the
 * throughput cases.
 *
 * Standalone: `node_modules/.bin/node scripts/bench-mail.ts [--postgres]` seeds a small bench
 * database (PGlite in a temporary folder, or a fresh PostgreSQL database), starts the API-only
 * server on it and prints the figures.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { seedBench, type Seeded } from './bench-seed.ts';
import { percentile, runIfMain, runStandalone } from './bench-server.ts';

/** Actions measured per case. */
export const MAIL_BENCH_SAMPLES = 20;
/** The goal: p95 of the time from an action's answer to its mail at the mail server. */
export const MAIL_GOAL_P95_MS = 5000;
/** A mail not there after this long is a failure (the every-minute sweep would have sent it by then). */
const ARRIVAL_TIMEOUT_MS = 90_000;

/** One message as the sink received it. */
interface Arrival {
  to: string[];
  /** The message with quoted-printable soft line breaks undone (tokens are searchable). */
  text: string;
  /** `performance.now()` at the end of DATA. */
  at: number;
}

export interface MailBenchCase {
  name: string;
  /** Milliseconds from each action's answer to its mail's arrival, in the order measured. */
  samples: number[];
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface MailBench {
  /** What the server must be started with: `SMTP_URL` pointing at this bench's sink. */
  readonly env: { SMTP_URL: string };
  /** Runs both cases against the server at `url` (started with `env`). */
  measure(url: string, seeded: Pick<Seeded, 'adminToken' | 'missionId'>, options?: { samples?: number }): Promise<MailBenchCase[]>;
  /** Stops the sink. */
  close(): Promise<void>;
}

/** The members of the busy project, as scripts/bench-seed.ts names them (active, with the mission's entries). */
const memberEmail = (i: number) => `member-${i}@bench.localhost`;

function summary(name: string, samples: number[]): MailBenchCase {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, samples, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? Number.NaN };
}

/** Starts the SMTP sink; the server is started afterwards with `env`. */
export async function startMailBench(): Promise<MailBench> {
  const arrivals: Arrival[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const at = performance.now();
        const raw = Buffer.concat(chunks).toString('utf8');
        arrivals.push({ to: session.envelope.rcptTo.map((r) => r.address), text: raw.replace(/=\r?\n/g, ''), at });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;

  /** The first mail from index `from` on that matches, once it has arrived. */
  const arrival = (from: number, matches: (mail: Arrival) => boolean, what: string): Promise<Arrival> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = arrivals.slice(from).find(matches);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no mail for ${what} within ${ARRIVAL_TIMEOUT_MS / 1000} s`));
      }, ARRIVAL_TIMEOUT_MS);
      waiters.add(check);
      check();
    });

  const measure: MailBench['measure'] = async (url, seeded, options = {}) => {
    const samples = options.samples ?? MAIL_BENCH_SAMPLES;
    const nonce = Math.random().toString(36).slice(2, 8);
    const call = async (method: string, pathname: string, body?: unknown, cookie?: string): Promise<{ status: number; body: unknown; answeredAt: number }> => {
      const response = await fetch(`${url}${pathname}`, {
        method,
        headers: { Origin: url, 'Content-Type': 'application/json', ...(cookie ? { Cookie: `fw_session=${cookie}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const answeredAt = performance.now();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null, answeredAt };
    };

    // (a) Reset links, each to another member (the per-address rate limit allows 5 an hour).
    const resets: number[] = [];
    for (let i = 0; i < samples; i++) {
      const email = memberEmail(i);
      const from = arrivals.length;
      const res = await call('POST', '/api/auth/password/forgot', { email });
      if (res.status !== 202) throw new Error(`forgot password for ${email}: ${res.status} ${JSON.stringify(res.body)}`);
      const mail = await arrival(from, (m) => m.to.includes(email) && m.text.includes('/reset-password/'), `the reset link to ${email}`);
      resets.push(mail.at - res.answeredAt);
    }

    // (b) Changes requested on entries waiting in the busy mission, each with its own reason.
    const queue = await call('GET', `/api/admin/missions/${seeded.missionId}/submissions?status=submitted&pageSize=${samples}`, undefined, seeded.adminToken);
    const items = (queue.body as { items?: { id: number }[] } | null)?.items ?? [];
    if (queue.status !== 200 || items.length < samples)
      throw new Error(`the review queue gave ${items.length} submitted entries (status ${queue.status}), ${samples} needed`);
    const changes: number[] = [];
    for (const [i, item] of items.slice(0, samples).entries()) {
      const token = `bench-mail-${nonce}-${i}`;
      const from = arrivals.length;
      const res = await call(
        'POST',
        `/api/admin/submissions/${item.id}/review`,
        { decision: 'request_changes', reason: `Please retake it (${token})` },
        seeded.adminToken,
      );
      if (res.status !== 200) throw new Error(`request changes on entry ${item.id}: ${res.status} ${JSON.stringify(res.body)}`);
      const mail = await arrival(from, (m) => m.text.includes(token), `the changes asked on entry ${item.id}`);
      changes.push(mail.at - res.answeredAt);
    }
    return [
      summary('reset link (`POST /api/auth/password/forgot`)', resets),
      summary('“changes requested” (`POST /api/admin/submissions/{id}/review`)', changes),
    ];
  };

  return {
    env: { SMTP_URL: `smtp://127.0.0.1:${port}` },
    measure,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** One line per case, for the console. */
export function mailBenchLines(backend: string, cases: readonly MailBenchCase[]): string[] {
  return cases.map(
    (c) =>
      `  ${backend} mail, ${c.name}: p50 ${seconds(c.p50Ms)}, p95 ${seconds(c.p95Ms)}, max ${seconds(c.maxMs)} over ${c.samples.length}` +
      (c.p95Ms > MAIL_GOAL_P95_MS ? ` — above the ${seconds(MAIL_GOAL_P95_MS)} goal` : ''),
  );
}

/** The Markdown table of docs/benchmarks.md: one row per backend and case. */
export function mailBenchTable(rows: readonly { backend: string; cases: readonly MailBenchCase[] }[]): string {
  return [
    `| backend | mail | samples | p50 | p95 | max | goal p95 ≤ ${seconds(MAIL_GOAL_P95_MS)} |`,
    '|---|---|---|---|---|---|---|',
    ...rows.flatMap(({ backend, cases }) =>
      cases.map(
        (c) =>
          `| ${backend} | ${c.name} | ${c.samples.length} | ${seconds(c.p50Ms)} | ${seconds(c.p95Ms)} | ${seconds(c.maxMs)} | ${c.p95Ms <= MAIL_GOAL_P95_MS ? 'met' : 'missed'} |`,
      ),
    ),
  ].join('\n');
}

/** Standalone: a small seed, the API-only server with the sink, both cases, the figures. */
runIfMain(import.meta.url, async () => {
  const bench = await startMailBench();
  try {
    await runStandalone(
      'mail',
      (target) => seedBench(target, { large: { participants: 1_000, entries: 1_000 } }),
      async (url, backend, seeded) => {
        const cases = await bench.measure(url, seeded);
        for (const line of mailBenchLines(backend, cases)) console.log(line);
        console.log(`\n${mailBenchTable([{ backend, cases }])}`);
        for (const c of cases) console.log(`${c.name} samples (ms): ${c.samples.map((ms) => Math.round(ms)).join(', ')}`);
        return cases.every((c) => c.p95Ms <= MAIL_GOAL_P95_MS);
      },
      bench.env,
    );
  } finally {
    await bench.close();
  }
});
