/**
 * What the benchmarks (`bench.ts`, `bench-scale.ts`, `bench-tools/`) share: the production server
 * as a child process, started the way production runs it (`node src/server/main.ts`) with none of the shell's server
 * settings inherited, waited for on `/api/health`, stopped with SIGTERM; and the writing of their
 * sections of docs/benchmarks.md; and the standalone run of a bench script (`runStandalone`).
 */
import { CONFIG_VARIABLES } from '../src/server/config.ts';
import { serverNodeFlags } from '../src/server/node-flags.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import type { Options as CannonOptions, Result as CannonResult } from 'autocannon';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseTarget } from '../src/server/db/index.ts';
import { createFreshDatabase, type FreshDatabase } from '../tests/support/postgres.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START_TIMEOUT_MS = 60_000;
/** The server allows 10 s for in-flight requests after SIGTERM; give it a little more. */
const STOP_TIMEOUT_MS = 15_000;

export interface ServerChild {
  readonly child: ChildProcess;
  readonly url: string;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** The last lines it wrote, for failure reports. */
  output(): string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        probe.close();
        reject(new Error('could not read the probe port'));
        return;
      }
      const { port } = address;
      probe.close(() => resolve(port));
    });
  });
}

/** The server's settings (src/server/config.ts): none is inherited, so the shell cannot skew a run. */
const SERVER_SETTINGS = CONFIG_VARIABLES;

/** Starts `src/server/main.ts` (or another script, such as a benchmark's reference server) as production starts it. */
export function spawnServer(env: Record<string, string>, port: number, script = path.join(root, 'src', 'server', 'main.ts')): ServerChild {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVER_SETTINGS.includes(name)));
  // The benchmarks sign staff in with a password alone: the second-factor requirement is off unless `env` turns it on.
  const childEnv = { ...inherited, DIST_DIR: path.join(root, 'dist'), REQUIRE_STAFF_SECOND_FACTOR: '0', ...env };
  // The server with the flags `npm start` gives it (src/server/node-flags.ts); a reference server as it is.
  const flags = script.endsWith(path.join('src', 'server', 'main.ts')) ? serverNodeFlags(childEnv) : [];
  const child = spawn(process.execPath, [...flags, script], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return { child, url: `http://127.0.0.1:${port}`, exited, output: () => lines.join('\n') };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitForHealth(server: ServerChild): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exitedWith: number | string | undefined;
  void server.exited.then((code) => {
    exitedWith = code;
  });
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exitedWith !== undefined) throw new Error(`the server exited (${exitedWith}) before answering /api/health`);
    try {
      const response = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  throw new Error(`/api/health did not answer 200 within ${START_TIMEOUT_MS / 1000} s (last: ${last})`);
}

/** SIGTERM, then the exit code; SIGKILL and a failure when it does not stop in time. */
export async function stopServer(server: ServerChild): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) {
    throw new Error(`the server had already exited (${server.child.exitCode ?? server.child.signalCode})`);
  }
  server.child.kill('SIGTERM');
  const outcome = await Promise.race([server.exited, sleep(STOP_TIMEOUT_MS).then(() => 'timeout' as const)]);
  if (outcome === 'timeout') {
    server.child.kill('SIGKILL');
    await server.exited;
    throw new Error(`the server did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM (killed)`);
  }
  if (outcome !== 0) throw new Error(`the server exited with ${outcome} after SIGTERM, not 0`);
}

/**
 * Replaces the text between `<!-- {name}:start -->` and `<!-- {name}:end -->` in
 * docs/benchmarks.md (or another file of docs/) with `section` (the benchmarks' `BENCH_WRITE=1`).
 */
export function writeBenchmarksSection(name: string, section: string, docName = 'benchmarks.md'): void {
  const file = path.join(root, 'docs', docName);
  const startMarker = `<!-- ${name}:start -->`;
  const endMarker = `<!-- ${name}:end -->`;
  const doc = fs.readFileSync(file, 'utf8');
  const start = doc.indexOf(startMarker);
  const end = doc.indexOf(endMarker);
  if (start < 0 || end < start) throw new Error(`docs/${docName} has no ${startMarker} … ${endMarker} section`);
  fs.writeFileSync(file, `${doc.slice(0, start + startMarker.length)}\n${section}\n${doc.slice(end)}`);
}

export interface Run {
  result: CannonResult;
  /** Every response time in ms, unrounded (autocannon's histogram keeps whole milliseconds). */
  latencies: number[];
  /** `performance.now()` at the last response (autocannon's own duration is whole seconds). */
  lastResponseAt: number;
}

export function cannon(options: CannonOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let lastResponseAt = performance.now();
    const instance = autocannon(options, (error: unknown, result: CannonResult) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve({ result, latencies, lastResponseAt });
    });
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
      lastResponseAt = performance.now();
    });
  });
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/**
 * A bench script run on its own (`node_modules/.bin/node scripts/bench-….ts [--postgres]`): a
 * temporary DATA_DIR (PGlite) or a fresh PostgreSQL database, `seed` on it before the server starts
 * (PGlite allows one process), the API-only server with `env` added, then `measure` against it;
 * the server stopped and the database and folder removed whatever happens. `measure` answers
 * whether every figure met its goal (exit code 1 otherwise).
 */
export async function runStandalone<S>(
  name: string,
  seed: (target: DatabaseTarget) => Promise<S>,
  measure: (url: string, backend: 'PGlite' | 'PostgreSQL', seeded: S) => Promise<boolean>,
  env: Record<string, string> = {},
): Promise<void> {
  const postgres = process.argv.includes('--postgres');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fw-bench-${name}-`));
  let fresh: FreshDatabase | undefined;
  let server: ServerChild | undefined;
  try {
    fresh = postgres ? await createFreshDatabase() : undefined;
    const seeded = await seed(fresh ? { kind: 'postgres', connection: fresh.url, poolSize: 2 } : { kind: 'pglite', dataDir });
    const port = await freePort();
    const serverEnv: Record<string, string> = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SERVE_STATIC: '0', ...env };
    if (fresh) serverEnv.DATABASE_URL = fresh.url;
    server = spawnServer(serverEnv, port);
    await waitForHealth(server);
    if (!(await measure(server.url, fresh ? 'PostgreSQL' : 'PGlite', seeded))) process.exitCode = 1;
  } finally {
    if (server) {
      try {
        await stopServer(server);
      } catch (error) {
        console.error(error instanceof Error ? error.message : String(error));
        process.exitCode = 1;
      }
    }
    await fresh?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs `main` when the module at `moduleUrl` is the script node was started with. */
export function runIfMain(moduleUrl: string, main: () => Promise<void>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}
