import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../src/server/services/rate-limit.ts';
import { readOutbox } from '../support/outbox.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';
import { runCliAsync, runCliProcess, startServerProcess, type ServerProcess } from '../support/processes.ts';

const tempDirs: string[] = [];
function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-proc-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The outbox once it holds `count` mails (or what it holds after 20 s). */
async function outboxWith(dataDir: string, count: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = await readOutbox(dataDir);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const ADMIN = ['--email', 'Ops@Example.org', '--password', 'Op3rator!pass', '--role', 'admin', '--first-name', 'Olive', '--last-name', 'Park'];

describe('the embedded database (PGlite in DATA_DIR)', () => {
  const dataDir = tempDataDir();
  // TRUST_PROXY=1: the tests stand in for the proxy in front (the sign-in limit test below).
  const env = { DATA_DIR: dataDir, TRUST_PROXY: '1' };
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('the CLI works with no server running and leaves the folder unlocked', () => {
    const created = runCliProcess(['user:create', ...ADMIN], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Created admin Olive Park <ops@example.org>');
    expect(fs.existsSync(path.join(dataDir, 'fieldwork.lock'))).toBe(false);
  });

  it('the server starts on it and the CLI reaches it while it runs', async () => {
    server = await startServerProcess(env);
    const flag = await runCliAsync(['flag:set', 'banner', '"Welcome to the spring study"'], env);
    expect(flag.code).toBe(0);
    expect(flag.stdout).toContain('banner = "Welcome to the spring study"');

    const duplicate = await runCliAsync(['user:create', ...ADMIN], env);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('already exists');

    const invite = await runCliAsync(['user:invite', '--email', 'newcomer@example.org', '--role', 'moderator'], env);
    expect(invite.code).toBe(0);
    const printed = /https?:\/\/\S+\/onboarding\/[A-Za-z0-9_-]{43}/.exec(invite.stdout)?.[0];
    expect(printed, invite.stdout).toBeDefined();
    // Links point where the running server answers.
    expect(printed?.startsWith(`${server.url}/onboarding/`)).toBe(true);
    // The CLI queues the mail; the server's job workers send it shortly after.
    const mails = await outboxWith(dataDir, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe('newcomer@example.org');
    expect(mails[0]?.subject).toBe('You are invited to Fieldwork as a moderator');
    expect(mails[0]?.links).toContain(printed);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('a second process on the same DATA_DIR is refused with a clear message', async () => {
    const second = await startServerProcess(env, { waitHealthy: false });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`The database in ${dataDir} is in use by another Fieldwork server process`);
    expect(second.output()).toContain('set DATA_DIR to another folder');
    expect((await fetch(`${server?.url}/api/health`)).status).toBe(200);
  });

  it('TRUST_PROXY=1: a forged left-most X-Forwarded-For entry does not dodge the sign-in limit', async () => {
    if (!server) throw new Error('no server');
    const { url } = server;
    // As a proxy that appends (AWS ALB, Cloudflare…) sends it: the client's own header, then the address the proxy saw.
    let n = 0;
    const signIn = (seen: string) =>
      fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { Origin: url, 'Content-Type': 'application/json', 'X-Forwarded-For': `10.${n % 250}.${++n % 250}.1, ${seen}` },
        // A new email each time: only the address's limit counts.
        body: JSON.stringify({ email: `guess-${n}@example.org`, password: 'Wr0ng-password!' }),
      });
    const { limit } = RATE_LIMITS.signInFailuresPerIp;
    for (let sent = 0; sent < limit; sent += 10) {
      const batch = await Promise.all(Array.from({ length: Math.min(10, limit - sent) }, () => signIn('203.0.113.9')));
      expect(batch.map((res) => res.status)).toEqual(batch.map(() => 401));
    }
    const limited = await signIn('203.0.113.9');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another address the proxy saw is another client.
    expect((await signIn('203.0.113.10')).status).toBe(401);
  });

  it('SIGTERM lets an in-flight request finish, closes the database and exits 0', async () => {
    if (!server) throw new Error('no server');
    const { port } = new URL(server.url);
    // A request whose body is still arriving when the signal comes.
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    const body = JSON.stringify({ hello: 'world' });
    socket.write(
      `POST /api/unknown HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.url}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.write(body.slice(5));
    const code = await server.exited;
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 404/);
    expect(answer).toContain('No such API endpoint');
    expect(code).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dataDir, 'fieldwork.lock'))).toBe(false);
    server = undefined;
  });

  it('everything is still there after a restart', async () => {
    server = await startServerProcess(env);
    const flags = await runCliAsync(['flag:list'], env);
    expect(flags.stdout).toContain('banner = "Welcome to the spring study"');
    const duplicate = await runCliAsync(['user:create', ...ADMIN], env);
    expect(duplicate.code).toBe(1);
    expect(await server.stop()).toBe(0);
    server = undefined;
  });

  it('MAINTENANCE=1 at start switches maintenance on', async () => {
    server = await startServerProcess({ ...env, MAINTENANCE: '1' });
    expect(await server.stop()).toBe(0);
    server = undefined;
    const flags = runCliProcess(['flag:list'], env);
    expect(flags.stdout).toContain('maintenance = true');
    const off = runCliProcess(['maintenance', 'off'], env);
    expect(off.stdout).toContain('Maintenance mode is off.');
  });
});

/** The peak resident memory of a process and its descendants (VmHWM, summed: Linux), in MiB. */
function peakRssMiB(pid: number): number {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const task of fs.readdirSync(`/proc/${tree[i]}/task`)) {
      const children = fs.readFileSync(`/proc/${tree[i]}/task/${task}/children`, 'utf8').trim();
      if (children) tree.push(...children.split(/\s+/).map(Number));
    }
  }
  const kib = tree.map((p) => Number(/^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1]));
  return kib.reduce((sum, value) => sum + value, 0) / 1024;
}

/** The TCP ports a process listens on (Linux: its sockets' inodes among the LISTEN rows of /proc/net/tcp and tcp6). */
function listeningTcpPorts(pid: number): number[] {
  const inodes = new Set(
    fs.readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]].filter((inode) => inode !== undefined);
      } catch {
        return []; // Closed meanwhile.
      }
    }),
  );
  const rows = ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => fs.readFileSync(file, 'utf8').trim().split('\n').slice(1));
  const ports = rows
    .map((row) => row.trim().split(/\s+/))
    .filter((cols) => cols[3] === '0A' && inodes.has(cols[9] ?? ''))
    .map((cols) => parseInt(cols[1]?.split(':')[1] ?? '', 16));
  return [...new Set(ports)].sort((a, b) => a - b);
}

describe('a first start on a new DATA_DIR whose path is too long for a Unix socket', () => {
  // `DATA_DIR/.s.PGSQL.5432` would be past the ~107 bytes a socket's path may have.
  const dataDir = path.join(tempDataDir(), 'a-data-folder-whose-path-is-longer-than-the-path-of-a-unix-socket-may-be');
  const env = { DATA_DIR: dataDir };
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await startServerProcess(env);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('peaks under 400 MiB: the database is made from the shipped cluster, not by initdb', () => {
    if (!server?.child.pid) throw new Error('no server');
    // 609 MiB before (PGlite's initdb), with the V8 flags of decision 028; a 512 MiB container was killed.
    expect(peakRssMiB(server.child.pid)).toBeLessThan(400);
  });

  it('shares the database on a socket in a private folder, which the CLI uses, and listens on no TCP port but its own', async () => {
    if (!server?.child.pid) throw new Error('no server');
    expect(listeningTcpPorts(server.child.pid)).toEqual([Number(new URL(server.url).port)]);
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, 'fieldwork.lock'), 'utf8')) as { socket: { host: string; port: number } };
    expect(path.isAbsolute(lock.socket.host)).toBe(true);
    expect(fs.statSync(lock.socket.host).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(lock.socket.host, `.s.PGSQL.${lock.socket.port}`)).isSocket()).toBe(true);
    const flag = await runCliAsync(['flag:set', 'banner', '"Through the private socket"'], env);
    expect(flag.stderr).toBe('');
    expect(flag.code).toBe(0);
    expect((await runCliAsync(['flag:list'], env)).stdout).toContain('banner = "Through the private socket"');
    expect(await server.stop()).toBe(0);
    server = undefined;
    expect(fs.existsSync(lock.socket.host)).toBe(false);
  });
});

describe('bad configuration', () => {
  it('stops at once with the variable named', async () => {
    const server = await startServerProcess({ DATA_DIR: tempDataDir(), PORT: 'not-a-port' }, { waitHealthy: false });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PORT');
  });
});

const withPostgres = await postgresReachable();

describe.skipIf(!withPostgres)('PostgreSQL (DATABASE_URL)', () => {
  let fresh: FreshDatabase;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    fresh = await createFreshDatabase();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await fresh.drop();
  });

  it('runs the same app; several API processes share one database', async () => {
    const env = { DATABASE_URL: fresh.url, DATA_DIR: tempDataDir() };
    // Two processes migrating at once: one waits for the other.
    const [a, b] = await Promise.all([startServerProcess(env), startServerProcess({ ...env, DATA_DIR: tempDataDir() })]);
    servers.push(a, b);
    const created = await runCliAsync(['user:create', ...ADMIN], env);
    expect(created.code).toBe(0);
    expect(await (await fetch(`${a.url}/api/health`)).json()).toEqual({ status: 'ok', db: 'ok' });
    expect((await fetch(`${b.url}/api/health`)).status).toBe(200);
    const again = await runCliAsync(['user:create', ...ADMIN], env);
    expect(again.code).toBe(1);
  });

  it('health answers 503 when the database is gone', async () => {
    const [a] = servers;
    if (!a) throw new Error('no server');
    await fresh.drop();
    const res = await fetch(`${a.url}/api/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'error', db: 'error' });
  });
});
