/**
 * `npm run cli -- backup` and `restore` (issue 28 §16; docs/decisions/029-backups.md).
 *
 * Under load: the embedded server takes points adjustments from three clients at once (each one a
 * transaction writing the ledger, the audit log and a notification) while the CLI backs it up
 * through the server's socket. Every write is answered 2xx (the server's statements wait for the
 * backup's snapshot rather than run inside it: db/socket-gate.ts), the backup restores into a new
 * DATA_DIR, a server starts on it, and it holds one moment's state: every table's row count is the
 * manifest's, the ledger's adjustments, their sum and their audit rows agree, with at least the
 * writes answered before the backup started and at most those answered before it ended; the
 * tables nobody wrote to are equal to the source's, the photo file is there byte for byte.
 *
 * Then, cheaply: a backup made at an older migration restores and is migrated forward; restore is
 * refused into a DATA_DIR or a database that holds data; and on PostgreSQL (when it answers) a
 * backup of the embedded database restores into an empty database, and one of PostgreSQL back
 * into an embedded one, with the same rows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import tarStream from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, queryRows, type Db } from '../../src/server/db/index.ts';
import { MANIFEST_NAME, writeBackup, type BackupManifest } from '../../src/server/services/backup.ts';
import { RestoreRefusedError, migrationsUpTo, restoreBackup } from '../../src/server/services/restore.ts';
import { systemClock } from '../../src/server/services/clock.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import { createFreshDatabase, postgresReachable } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});
const tempDir = (prefix: string): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm run cli -- …` in this process (the same code as the command; no Node start to wait for). */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** Every table of the application schema and its row count. */
async function countsWith(query: (text: string) => Promise<Record<string, unknown>[]>): Promise<Record<string, number>> {
  const tables = await query(`select relname::text as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by 1`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[String(name)] = Number((await query(`select count(*)::int as n from public."${String(name)}"`))[0]?.n);
  return counts;
}

async function socketCounts(dataDir: string): Promise<Record<string, number>> {
  const client = new pg.Client({ host: dataDir, port: 5432, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    return await countsWith(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
  } finally {
    await client.end();
  }
}

const dbCounts = (db: Db) => countsWith((text) => queryRows<Record<string, unknown>>(db, sql.raw(text)));

/** The manifest of a backup file (its first entry). */
async function readManifest(file: string): Promise<BackupManifest> {
  const extract = tarStream.extract();
  fs.createReadStream(file).pipe(extract);
  for await (const entry of extract) {
    let text = '';
    for await (const chunk of entry as AsyncIterable<Buffer>) text += chunk.toString('utf8');
    extract.destroy();
    expect(entry.header.name).toBe(MANIFEST_NAME);
    return JSON.parse(text) as BackupManifest;
  }
  throw new Error('empty backup');
}

describe('backup while the embedded server takes writes, restore into a new DATA_DIR', () => {
  it('is one moment of the database, restores whole and the server starts on it', async () => {
    const dataDir = tempDir('fw-backup-src-');
    const restoredDir = tempDir('fw-backup-dst-');
    const file = path.join(tempDir('fw-backup-file-'), 'fieldwork.tar');

    const env = { DATA_DIR: dataDir, SERVE_STATIC: '0', LOG_LEVEL: 'warn' };
    const server: ServerProcess = await startServerProcess(env);
    cleanups.push(() => server.stop('SIGKILL'));

    // Through the server's socket: a participant to credit, an admin session, 30,000 older audit
    // rows (so that the snapshot lasts long enough for writes to arrive meanwhile); and a photo file.
    const socket = { host: dataDir, port: 5432, user: 'postgres', database: 'postgres' };
    const seeded = await openDatabase({ kind: 'postgres', connection: socket, poolSize: 1 }, { migrate: false });
    const admin = await createActiveUser(seeded.db, {
      email: 'admin@backup.test',
      password: 'Backup-test-1',
      role: 'admin',
      firstName: 'Ada',
      lastName: 'Admin',
    });
    const participant = await createActiveUser(seeded.db, {
      email: 'p@backup.test',
      password: 'Backup-test-1',
      role: 'participant',
      firstName: 'Pat',
      lastName: 'Part',
    });
    const { token } = await createSession(seeded.db, systemClock, admin.id);
    await seeded.db.execute(
      sql`insert into audit_log (via, action, target_type, target_id) select 'cli', 'seed', 'user', g::text from generate_series(1, 30000) g`,
    );
    await seeded.close();
    const photo = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256));
    fs.mkdirSync(path.join(dataDir, 'uploads', 'media1'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'uploads', 'media1', 'display.jpg'), photo);

    // Three clients adjusting points, one +1 each time with its own reference.
    const answered: { status: number; at: number }[] = [];
    let running = true;
    let next = 0;
    const client = async () => {
      while (running) {
        const reference = `load-${++next}`;
        const res = await fetch(`${server.url}/api/admin/users/${participant.id}/points`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: `fw_session=${token}`, Origin: server.url },
          body: JSON.stringify({ points: 1, reason: 'Backup load', reference }),
        });
        await res.arrayBuffer();
        answered.push({ status: res.status, at: performance.now() });
      }
    };
    const clients = [client(), client(), client()];
    await sleep(800);
    const backupStarted = performance.now();
    const backup = await cli(['backup', file], env);
    const backupEnded = performance.now();
    await sleep(300);
    running = false;
    await Promise.all(clients);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up \d+ tables \(\d+ rows\) and 1 photo files/);
    expect(answered.filter((answer) => answer.status !== 201)).toEqual([]);
    const before = answered.filter((answer) => answer.at < backupStarted).length;
    const by = answered.filter((answer) => answer.at <= backupEnded).length;
    expect(answered.length - by, 'writes after the backup').toBeGreaterThan(0);

    const source = await socketCounts(dataDir);
    expect(await server.stop(), server.output()).toBe(0);

    // Refused into a DATA_DIR that holds a database; nothing there is touched.
    const refused = await cli(['restore', file], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^DATA_DIR .+ already holds a database .*restore only goes into an empty one.*Set DATA_DIR to a new folder/s);

    const restore = await cli(['restore', file], { DATA_DIR: restoredDir });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain('its schema is current');

    const manifest = await readManifest(file);
    const restoredServer = await startServerProcess({ ...env, DATA_DIR: restoredDir });
    cleanups.push(() => restoredServer.stop('SIGKILL'));
    const restored = await socketCounts(restoredDir);
    const client2 = new pg.Client({ host: restoredDir, port: 5432, user: 'postgres', database: 'postgres' });
    await client2.connect();
    const [ledger] = (
      await client2.query<{ n: number; total: number; audited: number; migrations: number }>(
        `select (select count(*)::int from points_ledger where reference like 'load-%') as n,
                (select coalesce(sum(points), 0)::int from points_ledger where reference like 'load-%') as total,
                (select count(*)::int from audit_log where action = 'points.adjust') as audited,
                (select count(*)::int from drizzle.__drizzle_migrations) as migrations`,
      )
    ).rows;
    await client2.end();
    expect(await restoredServer.stop(), restoredServer.output()).toBe(0);

    expect(restored).toEqual(Object.fromEntries(manifest.tables.map((table) => [table.name, table.rows])));
    expect(Object.keys(restored).sort()).toEqual(Object.keys(source).sort());
    expect(ledger?.migrations).toBe(manifest.migrations.length);
    // One moment: each adjustment's three writes are all there or none; at least what was answered
    // before the backup began, at most what was answered by its end.
    expect(ledger?.total).toBe(ledger?.n);
    expect(ledger?.audited).toBe(ledger?.n);
    expect(ledger?.n).toBeGreaterThanOrEqual(before);
    expect(ledger?.n).toBeLessThanOrEqual(by);
    expect(source.points_ledger).toBeGreaterThan(ledger?.n ?? 0);
    const written = new Set(['points_ledger', 'audit_log', 'notifications', 'rate_limits', 'sessions']);
    for (const [table, n] of Object.entries(source)) if (!written.has(table)) expect(restored[table], table).toBe(n);
    expect(fs.readFileSync(path.join(restoredDir, 'uploads', 'media1', 'display.jpg'))).toEqual(photo);
  });
});

describe('restore from an older migration, refusals, PostgreSQL', () => {
  it('migrates an older backup forward, refuses a database that holds data, and goes both ways with PostgreSQL', async () => {
    // An embedded database one migration behind, with a user, backed up.
    const olderDir = tempDir('fw-backup-old-');
    const older = await openDatabase({ kind: 'pglite', dataDir: olderDir }, { migrate: false });
    const journal = JSON.parse(fs.readFileSync('src/server/db/migrations/meta/_journal.json', 'utf8')) as { entries: { tag: string }[] };
    const level = journal.entries.length - 1;
    const migrations = migrationsUpTo(level);
    cleanups.push(() => fs.rmSync(migrations, { recursive: true, force: true }));
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const { drizzle } = await import('drizzle-orm/pglite');
    if (!older.pglite) throw new Error('not PGlite');
    await migrate(drizzle({ client: older.pglite }), { migrationsFolder: migrations });
    await older.db.execute(
      sql`insert into users (email, first_name, last_name, role, status) values ('old@backup.test', 'Old', 'Timer', 'participant', 'active')`,
    );
    const file = path.join(tempDir('fw-backup-old-file-'), 'older.tar');
    await writeBackup({ db: older.db, source: 'embedded', mediaDir: null, file });
    await older.close();

    const newDir = tempDir('fw-backup-new-');
    const result = await restoreBackup(loadConfig({ DATA_DIR: newDir }), file);
    expect(result.newerMigrations).toEqual([journal.entries[level]?.tag]);
    expect(result.rows).toBe(1);

    if (!(await postgresReachable())) return;
    // The embedded backup into an empty PostgreSQL database (and migrated forward there too), then
    // refused there a second time.
    const fresh = await createFreshDatabase();
    cleanups.push(() => fresh.drop());
    const pgConfig = loadConfig({ DATA_DIR: tempDir('fw-backup-pg-'), DATABASE_URL: fresh.url });
    expect((await restoreBackup(pgConfig, file)).newerMigrations).toHaveLength(1);
    await expect(restoreBackup(pgConfig, file)).rejects.toThrow(RestoreRefusedError);
    await expect(restoreBackup(pgConfig, file)).rejects.toThrow(/The database of DATABASE_URL is not empty .*createdb/);

    // PostgreSQL's own backup (its REPEATABLE READ snapshot) into another empty database: the same rows.
    const onPg = await openDatabase({ kind: 'postgres', connection: fresh.url, poolSize: 1 }, { migrate: false });
    const pgCounts = await dbCounts(onPg.db);
    const pgFile = path.join(tempDir('fw-backup-pg-file-'), 'postgres.tar');
    await writeBackup({ db: onPg.db, source: 'postgresql', mediaDir: null, file: pgFile });
    await onPg.close();
    const second = await createFreshDatabase();
    cleanups.push(() => second.drop());
    await restoreBackup(loadConfig({ DATA_DIR: tempDir('fw-backup-pg2-'), DATABASE_URL: second.url }), pgFile);
    const back = await openDatabase({ kind: 'postgres', connection: second.url, poolSize: 1 }, { migrate: false });
    expect(await dbCounts(back.db)).toEqual(pgCounts);
    await back.close();
    expect(pgCounts.users).toBe(1);
  });
});
