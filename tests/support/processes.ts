import { serverNodeFlags } from '../../src/server/node-flags.ts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node src/server/main.ts` as production does, and waits until it answers (or exits). */
export async function startServerProcess(env: Record<string, string>, options: { waitHealthy?: boolean } = {}): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  // Staff sign in with a password alone here, unless a test turns the second-factor requirement on.
  const childEnv = { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', DATABASE_URL: '', REQUIRE_STAFF_SECOND_FACTOR: '0', ...env, PORT: port };
  // With the flags production runs with (`npm start` restarts itself with them: src/server/node-flags.ts).
  const child = spawn(process.execPath, [...serverNodeFlags(childEnv), path.join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    child,
    url,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.waitHealthy === false) return server;
  const deadline = Date.now() + 60_000;
  let done = false;
  void exited.then(() => (done = true));
  while (!done && Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  await server.stop('SIGKILL');
  throw new Error(`server did not become healthy:\n${output}`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run cli -- …` the way an operator does (node src/server/cli.ts). */
export function runCliProcess(args: string[], env: Record<string, string>): CliResult {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'src/server/cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The async version, for running the CLI while a test also talks to the server. */
export function runCliAsync(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'src/server/cli.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
