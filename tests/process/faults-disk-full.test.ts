/**
 * The disk full while photos are uploaded (issue 19 §4; docs/deploy.md, "What happens when…"):
 * DATA_DIR (hence the photos, `DATA_DIR/uploads`) is a small tmpfs, filled to a few kilobytes of
 * free space before each upload. An upload that does not fit answers 507 `storage_full` in the one
 * error shape with Retry-After (never a 500), leaves no file (temporary or not) and no row behind,
 * and the server keeps serving: health, the photos already stored, and uploads again once there is
 * room.
 *
 * The database is PostgreSQL (a fresh database on the tests' server), so that only the photos
 * share the tmpfs. Mounting needs root (CI runs as root); elsewhere the test is skipped.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePhotos, seedLoad } from '../../scripts/load.ts';
import { openDatabase } from '../../src/server/db/index.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';

const SIZE = '2m';

function mount(dir: string): boolean {
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE},mode=0700`, 'tmpfs', dir], { encoding: 'utf8' }).status === 0;
}
function unmount(dir: string): void {
  spawnSync('umount', [dir]);
}

/** Why the test cannot run here, or null: it mounts a tmpfs (root) and needs PostgreSQL. */
async function whyNot(): Promise<string | null> {
  if (process.platform !== 'linux') return 'tmpfs is Linux only';
  if (!(await postgresReachable())) return 'PostgreSQL is not reachable (TEST_DATABASE_URL or 127.0.0.1:5432)';
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-tmpfs-probe-'));
  try {
    if (!mount(probe)) return 'mounting a tmpfs is not permitted here (needs root)';
    unmount(probe);
    return null;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}
const reason = await whyNot();

interface Answer {
  status: number;
  body: { error?: { code?: string; message?: string } } & Record<string, unknown>;
  headers: Headers;
}

/** Every file under a folder, relative. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => fs.statSync(path.join(dir, name)).isFile());
}

describe.skipIf(reason !== null)(`the disk full while uploading${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let dataDir: string;
  let mounted = false;
  let fresh: FreshDatabase;
  let client: pg.Client;
  let server: ServerProcess;
  let cookie: string;
  let photo: Buffer;
  const filler = () => path.join(dataDir, 'filler');

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-faults-disk-'));
    mounted = mount(dataDir);
    if (!mounted) throw new Error('mount failed');
    fresh = await createFreshDatabase();
    const database = await openDatabase({ kind: 'postgres', connection: fresh.url });
    const world = await seedLoad(database.db, { participants: 1, moderators: 0, surveys: 1, busyProgramme: false });
    await database.close();
    cookie = `fw_session=${world.participants[0]?.token}`;
    [photo] = (await makePhotos(1)) as [Buffer];
    client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    server = await startServerProcess({ DATABASE_URL: fresh.url, DATA_DIR: dataDir, SERVE_STATIC: '0', LOG_LEVEL: 'warn' });
  }, 120_000);

  afterAll(async () => {
    if (server) await server.stop('SIGKILL');
    await client?.end();
    await fresh?.drop();
    if (mounted) unmount(dataDir);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function upload(): Promise<Answer> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'shelf.jpg');
    const res = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { Cookie: cookie, Origin: server.url }, body: form });
    return { status: res.status, body: (await res.json()) as Answer['body'], headers: res.headers };
  }

  /** Fills the tmpfs so that about `free` bytes are left (tmpfs counts whole pages). */
  function leaveFree(free: number): void {
    fs.rmSync(filler(), { force: true });
    const { bavail, bsize } = fs.statfsSync(dataDir);
    fs.writeFileSync(filler(), Buffer.alloc(Math.max(0, bavail * bsize - free)));
  }

  it('refuses with 507 and keeps nothing of the photo, then uploads again once there is room', async () => {
    const stored: string[] = [];
    const first = await upload();
    expect(first.status).toBe(201);
    stored.push(String(first.body.id));
    const fileBytes = filesUnder(path.join(dataDir, 'uploads')).reduce((sum, name) => sum + fs.statSync(path.join(dataDir, 'uploads', name)).size, 0);

    let refused = 0;
    // From no room at all to about the room one photo takes: the display image or the thumbnail fails.
    for (const free of [0, 4096, Math.floor(fileBytes / 2), fileBytes - 4096, fileBytes, fileBytes + 8192]) {
      leaveFree(Math.max(0, free));
      const answer = await upload();
      expect([201, 507], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 201) stored.push(String(answer.body.id));
      else {
        refused++;
        expect(answer.body).toEqual({ error: { code: 'storage_full', message: expect.stringMatching(/no room/i) } });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // Nothing half-written: exactly the stored photos' two files each, no temporary file, and their rows only.
      const files = filesUnder(path.join(dataDir, 'uploads')).sort();
      expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
      expect(new Set(files.map((name) => name.split(path.sep)[0]))).toEqual(new Set(stored));
      expect(files).toHaveLength(stored.length * 2);
      const rows = await client.query<{ id: string }>('select id from media');
      expect(new Set(rows.rows.map((row) => row.id))).toEqual(new Set(stored));
      const reservations = await client.query<{ n: number }>('select count(*)::int as n from media_upload_reservations');
      expect(reservations.rows[0]?.n).toBe(0);
      // The server keeps serving.
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    }
    expect(refused).toBeGreaterThan(0);

    // Room again: uploads work, and the photos stored before are served whole.
    fs.rmSync(filler(), { force: true });
    const again = await upload();
    expect(again.status).toBe(201);
    for (const id of [...stored, String(again.body.id)]) {
      const res = await fetch(`${server.url}/api/media/${id}`, { headers: { Cookie: cookie } });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    expect(server.child.exitCode, server.output()).toBeNull();
  }, 120_000);
});
