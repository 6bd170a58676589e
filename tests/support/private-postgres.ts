/**
 * A PostgreSQL cluster of a test's own: `initdb` into a temporary folder, trust authentication,
 * listening on 127.0.0.1 at a free port. A fault test stops and starts it at will without touching
 * the machine's shared PostgreSQL (which other tests use). Needs the server binaries
 * (`/usr/lib/postgresql/<version>/bin`, or `PG_BIN`); when running as root, the cluster runs as
 * the `postgres` user (PostgreSQL refuses root).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes.ts';

/** The folder holding `initdb`, `pg_ctl` and `postgres`, or null when there is none. */
export function postgresBinaries(): string | null {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const base = '/usr/lib/postgresql';
  if (fs.existsSync(base)) {
    const versions = fs
      .readdirSync(base)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(base, version, 'bin')));
  }
  return candidates.find((dir) => ['initdb', 'pg_ctl', 'postgres'].every((tool) => fs.existsSync(path.join(dir, tool)))) ?? null;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Why a private cluster cannot run here, or null when it can. */
export function privatePostgresUnavailable(): string | null {
  if (postgresBinaries() === null) return 'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin or PG_BIN';
  if (isRoot() && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root and there is no postgres user to run a cluster as';
  return null;
}

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:{port}/postgres`. */
  readonly url: string;
  readonly port: number;
  /** Starts the cluster (waits until it accepts connections). */
  start(): void;
  /** Stops it: `fast` disconnects clients and shuts down cleanly; `immediate` is a crash (recovery on the next start). */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Stops it if running and removes its folder. */
  destroy(): void;
}

function run(command: string, args: string[], asPostgres: boolean): SpawnSyncReturns<string> {
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
}

function check(result: SpawnSyncReturns<string>, what: string): void {
  if (result.status !== 0) throw new Error(`${what} failed (${result.status}): ${result.stderr || result.stdout}`);
}

/** Creates (initdb) and starts a private cluster. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const reason = privatePostgresUnavailable();
  if (reason) throw new Error(reason);
  const bin = postgresBinaries() as string;
  const asPostgres = isRoot();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-private-pg-'));
  const data = path.join(folder, 'data');
  const log = path.join(folder, 'postgres.log');
  if (asPostgres) {
    fs.chmodSync(folder, 0o755);
    check(spawnSync('chown', ['postgres', folder], { encoding: 'utf8' }), 'chown');
  }
  check(run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], asPostgres), 'initdb');
  const port = await freePort();
  // Small and quick: no fsync (the test is about the connection, not the disk), a socket in its own folder.
  const options = `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${folder} -c fsync=off -c max_connections=60 -c shared_buffers=32MB`;
  let running = false;
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      check(run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start'], asPostgres), 'pg_ctl start');
      running = true;
    },
    stop(mode = 'fast') {
      check(run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'], asPostgres), 'pg_ctl stop');
      running = false;
    },
    destroy() {
      if (running) {
        try {
          cluster.stop('immediate');
        } catch {
          // Removed below either way.
        }
      }
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
