import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  const env = { DATA_DIR: dataDir };
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
    expect(mails[0]?.subject).toBe('You are invited to Fieldwork');
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
