/**
 * Runs the fuzzer's cases against a real server (docs/fuzzing.md): `node src/server/main.ts` on
 * PGlite in a fresh data folder (or `DATABASE_URL`), a participant, a moderator and an admin
 * signed in, and one keep-alive connection that every case and its follow-up go through.
 *
 * The properties, for each case: an answer within `REQUEST_TIMEOUT_MS` (no hang), no 5xx, every
 * 4xx in the one error shape (`{ error: { code, message, fields? } }`, src/server/errors.ts), and
 * the connection still usable: unless the answer said `Connection: close`, a `GET /api/health`
 * right after goes over the same socket and is answered 200.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { seedProgramme } from '../../scripts/bench-seed.ts';
import { openDatabase } from '../../src/server/db/index.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import { runCliAsync, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { describeCase, fuzzCase, type FuzzCase, type FuzzRole } from './arbitraries.ts';
import { API_CALLS } from './calls.ts';

/** A case without its whole answer in this long hangs. */
export const REQUEST_TIMEOUT_MS = 15_000;
const PASSWORD = 'Fuzz-me-hard-1!';
const SIGNED_IN_ROLES = ['participant', 'moderator', 'admin'] as const;
type SignedInRole = (typeof SIGNED_IN_ROLES)[number];

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  socket: Socket;
}

class CaseFailure extends Error {}

export interface FuzzStats {
  cases: number;
  byStatus: Map<number, number>;
  calls: Set<string>;
  sessionRepairs: number;
  connectionsOpened: number;
}

export interface FuzzServer {
  url: string;
  /** The server's environment, for the CLI. */
  env: Record<string, string>;
  server: ServerProcess;
  stop(): Promise<void>;
}

/**
 * Starts the server the cases run against: PGlite in a fresh folder unless `databaseUrl` is given
 * (an empty PostgreSQL database). Before it starts, the data a busy project has (the bench's
 * programme: a live project with surveys, missions, a mission group, a form, responses and
 * entries; scripts/bench-seed.ts) and the three signed-in roles are written, so small ids in the
 * cases' paths reach real rows.
 */
export async function startFuzzServer(databaseUrl = ''): Promise<FuzzServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-fuzz-'));
  const database = await openDatabase(databaseUrl ? { kind: 'postgres', connection: databaseUrl } : { kind: 'pglite', dataDir });
  try {
    const ids: number[] = [];
    for (const role of SIGNED_IN_ROLES) {
      const user = await createActiveUser(database.db, { email: `fuzz-${role}@example.org`, password: PASSWORD, role, firstName: 'Fuzz', lastName: role });
      ids.push(user.id);
    }
    await seedProgramme(database.db, ids[0] ?? 1, ids[2] ?? 1);
  } finally {
    await database.close();
  }
  // TRUST_PROXY: the fuzzer sends hostile X-Forwarded-For headers, and signs back in from an address of its own.
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', TRUST_PROXY: '1', DATABASE_URL: databaseUrl };
  const server = await startServerProcess(env);
  return {
    url: server.url,
    env,
    server,
    stop: async () => {
      await server.stop('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The seeded sessions, checked and signed back in when a case may have ended or changed them (a
 * sign-out, an admin ending sessions, disabling the account or changing its role): when the
 * account itself can no longer sign in as that role, a new one is made with the CLI.
 */
class Sessions {
  private readonly cookies = new Map<SignedInRole, string>();
  private readonly emails = new Map<SignedInRole, string>(SIGNED_IN_ROLES.map((role) => [role, `fuzz-${role}@example.org`]));
  private signIns = 0;
  private accounts = 0;
  repairs = 0;
  dirty = true;
  private readonly url: string;
  private readonly env: Record<string, string>;
  constructor(url: string, env: Record<string, string>) {
    this.url = url;
    this.env = env;
  }

  cookie(role: FuzzRole): string | undefined {
    return role === 'anonymous' ? undefined : this.cookies.get(role);
  }

  /** The session cookie of a sign-in, or null when refused. */
  private async signIn(role: SignedInRole): Promise<string | null> {
    // From an address of its own each time, so the cases' failed sign-ins never rate-limit this one.
    this.signIns += 1;
    const res = await fetch(`${this.url}/api/auth/login`, {
      method: 'POST',
      headers: {
        Origin: this.url,
        'Content-Type': 'application/json',
        'X-Forwarded-For': `10.250.${Math.floor(this.signIns / 250) % 250}.${this.signIns % 250}`,
      },
      body: JSON.stringify({ email: this.emails.get(role), password: PASSWORD }),
    });
    await res.arrayBuffer();
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith('fw_session='));
    return res.status === 200 && cookie ? (cookie.split(';')[0] ?? null) : null;
  }

  private async roleOf(cookie: string | undefined): Promise<string | null> {
    if (!cookie) return null;
    const res = await fetch(`${this.url}/api/auth`, { headers: { Cookie: cookie } });
    return res.status === 200 ? (((await res.json()) as { role?: string }).role ?? null) : (await res.arrayBuffer(), null);
  }

  /** Signs in again every role whose session ended or whose role changed; a new account when that fails. */
  async ensure(): Promise<void> {
    if (!this.dirty) return;
    for (const role of SIGNED_IN_ROLES) {
      const before = this.cookies.get(role);
      if ((await this.roleOf(before)) === role) continue;
      if (before) this.repairs += 1;
      let cookie = await this.signIn(role);
      if (!cookie || (await this.roleOf(cookie)) !== role) {
        this.accounts += 1;
        const email = `fuzz-${role}-${this.accounts}@example.org`;
        const created = await runCliAsync(
          ['user:create', '--email', email, '--password', PASSWORD, '--role', role, '--first-name', 'Fuzz', '--last-name', role],
          this.env,
        );
        if (created.code !== 0) throw new Error(`could not make a new ${role}: ${created.stderr}`);
        this.emails.set(role, email);
        cookie = await this.signIn(role);
        if (!cookie) throw new Error(`the new ${role} could not sign in`);
      }
      this.cookies.set(role, cookie);
    }
    this.dirty = false;
  }
}

/** Whether the body is the one error shape: `{ error: { code, message, fields? } }`. */
export function isErrorShape(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || !('error' in parsed)) return false;
  const error = (parsed as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, fields } = error as { code?: unknown; message?: unknown; fields?: unknown };
  if (typeof code !== 'string' || code === '' || typeof message !== 'string' || message === '') return false;
  if (fields === undefined) return true;
  return (
    typeof fields === 'object' &&
    fields !== null &&
    Object.values(fields).every((messages) => Array.isArray(messages) && messages.every((one) => typeof one === 'string'))
  );
}

/** Sends one request through the keep-alive agent; rejects on a broken connection or a hang. */
function send(
  agent: http.Agent,
  url: URL,
  method: string,
  target: string,
  headers: Record<string, string>,
  body: Buffer | null,
  chunked: boolean,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing: Record<string, string | number> = { ...headers, Host: url.host };
    // Explicit framing: node:http sends a DELETE's body unframed unless told (a broken request, not a finding).
    if (body !== null) {
      if (chunked) outgoing['Transfer-Encoding'] = 'chunked';
      else outgoing['Content-Length'] = body.length;
    }
    const req = http.request({ host: url.hostname, port: url.port, method, path: target, headers: outgoing, agent });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new CaseFailure(`no answer within ${REQUEST_TIMEOUT_MS} ms (hang)`));
    }, REQUEST_TIMEOUT_MS);
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new CaseFailure(`connection broken: ${error.code ?? ''} ${error.message}`));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(new CaseFailure(`answer cut off: ${error.message}`));
      });
      res.on('end', () => {
        clearTimeout(timer);
        if (!res.complete) {
          reject(new CaseFailure('answer cut off (connection closed mid-answer)'));
          return;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), socket: req.socket as Socket });
      });
    });
    if (body !== null && body.length > 0) req.write(body);
    req.end();
  });
}

export interface FuzzOptions {
  url: string;
  /** The server's environment (the CLI makes new accounts with it). */
  env: Record<string, string>;
  runs: number;
  seed: number;
  /** Progress line every this many cases (0: none). */
  progressEvery?: number;
  log?: (line: string) => void;
  /** The server's output, for a failure report. */
  serverOutput?: () => string;
}

export interface FuzzResult {
  stats: FuzzStats;
  /** fast-check's report (seed, path, counterexample) when a property failed, else null. */
  failure: string | null;
  ms: number;
}

/** Runs `runs` cases with `seed`; never throws for a failed property: the report says what failed. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const url = new URL(options.url);
  const log = options.log ?? (() => {});
  const sessions = new Sessions(options.url, options.env);
  // One socket: every case and its follow-up go over the same connection while it stays open.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, keepAliveMsecs: 60_000 });
  const stats: FuzzStats = { cases: 0, byStatus: new Map(), calls: new Set(), sessionRepairs: 0, connectionsOpened: 0 };
  agent.on('free', () => {});
  const seen = new WeakSet<Socket>();
  const started = Date.now();
  const property = fc.asyncProperty(fuzzCase(options.url, API_CALLS), async (fuzz: FuzzCase) => {
    await sessions.ensure();
    const headers = { ...fuzz.headers };
    const cookie = sessions.cookie(fuzz.role);
    if (cookie) headers.Cookie = cookie;
    const answer = await send(agent, url, fuzz.method, fuzz.target, headers, fuzz.body, fuzz.chunked);
    if (!seen.has(answer.socket)) {
      seen.add(answer.socket);
      stats.connectionsOpened += 1;
    }
    stats.cases += 1;
    stats.byStatus.set(answer.status, (stats.byStatus.get(answer.status) ?? 0) + 1);
    stats.calls.add(`${fuzz.call.method} ${fuzz.call.template}`);
    if (options.progressEvery && stats.cases % options.progressEvery === 0) log(`  ${stats.cases} cases, ${Math.round((Date.now() - started) / 1000)} s`);
    // A case may end or change a seeded session (sign-out, an admin ending sessions or changing a role).
    if (fuzz.role !== 'anonymous' && (answer.status === 401 || answer.status === 403 || fuzz.method !== 'GET')) sessions.dirty = true;

    if (answer.status >= 500) throw new CaseFailure(`${answer.status} answered: ${answer.body.slice(0, 500)}`);
    const html = fuzz.call.navigation && String(answer.headers['content-type'] ?? '').startsWith('text/html');
    if (answer.status >= 400 && !html && !isErrorShape(answer.body))
      throw new CaseFailure(`${answer.status} not in the error shape: ${JSON.stringify(answer.body.slice(0, 500))}`);
    const closing = /\bclose\b/i.test(String(answer.headers.connection ?? ''));
    const next = await send(agent, url, 'GET', '/api/health', {}, null, false).catch((error: unknown) => {
      throw new CaseFailure(`the next request on the connection failed after a ${answer.status}: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (next.status !== 200) throw new CaseFailure(`the next request got ${next.status} after a ${answer.status}: ${next.body.slice(0, 300)}`);
    if (!closing && next.socket !== answer.socket) throw new CaseFailure(`the connection was closed after a ${answer.status} without Connection: close`);
    if (!seen.has(next.socket)) {
      seen.add(next.socket);
      stats.connectionsOpened += 1;
    }
  });
  const details = await fc.check(property, { numRuns: options.runs, seed: options.seed, endOnFailure: false, verbose: 0 });
  agent.destroy();
  stats.sessionRepairs = sessions.repairs;
  let failure: string | null = null;
  if (details.failed) {
    const example = details.counterexample?.[0];
    const error = details.errorInstance;
    failure = [
      `Property failed after ${details.numRuns} cases (seed ${details.seed}, path "${details.counterexamplePath ?? ''}", shrunk ${details.numShrinks} times)`,
      `Failure: ${error instanceof Error ? error.message : String(error)}`,
      '',
      example ? `The request:\n${describeCase(example)}` : '',
      options.serverOutput ? `\nServer output (last 3,000 characters):\n${options.serverOutput().slice(-3_000)}` : '',
      `\nReplay: FUZZ_SEED=${options.seed} FUZZ_RUNS=${options.runs} npm run fuzz`,
    ].join('\n');
  }
  return { stats, failure, ms: Date.now() - started };
}

/** The statistics as lines: cases, statuses, calls reached. */
export function summary(result: FuzzResult): string {
  const statuses = [...result.stats.byStatus.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
  return [
    `${result.stats.cases} cases in ${(result.ms / 1000).toFixed(1)} s (${Math.round((result.stats.cases * 1000) / Math.max(1, result.ms))} cases/s)`,
    `statuses: ${statuses.join(' ')}`,
    `calls reached: ${result.stats.calls.size} of ${API_CALLS.length}; connections opened: ${result.stats.connectionsOpened}; sessions signed back in: ${result.stats.sessionRepairs}`,
  ].join('\n');
}
