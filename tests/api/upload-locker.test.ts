import { ERRORS, MemoryLocker, type Lock } from '@tus/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.ts';
import {
  createUploadLocker,
  PostgresUploadLocker,
  UPLOAD_LOCK_NAMESPACE,
  UPLOAD_LOCKER_APPLICATION,
  uploadLockKey,
} from '../../src/server/services/upload-locker.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';

/**
 * The resumable uploads' lock across API processes (services/upload-locker.ts): two lockers on
 * their own connections stand for two processes. A request that finds an upload locked asks the
 * holder, in the other process, to let go (NOTIFY), and has the lock once it does; an unlocked
 * lock is free at once; a dropped connection loses its locks and the next lock reconnects.
 */
const logger = createLogger('silent');
const never = new AbortController().signal;
const fast = { minRetryDelayMs: 10, maxRetryDelayMs: 40 };

it('is tus’ MemoryLocker on the embedded database (one process)', () => {
  expect(createUploadLocker({ kind: 'pglite' }, undefined, logger)).toBeInstanceOf(MemoryLocker);
  expect(createUploadLocker({ kind: 'postgres' }, 'postgres://x@127.0.0.1/x', logger)).toBeInstanceOf(PostgresUploadLocker);
});

describe.skipIf(!(await postgresReachable()))('upload locks across processes on PostgreSQL', () => {
  let fresh: FreshDatabase;
  let admin: pg.Client;
  let first: PostgresUploadLocker;
  let second: PostgresUploadLocker;
  let n = 0;
  const uploadId = () => `tus/upload-${++n}-${Date.now().toString(36)}`;

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    admin = new pg.Client({ connectionString: fresh.url });
    await admin.connect();
    first = new PostgresUploadLocker(fresh.url, logger, fast);
    second = new PostgresUploadLocker(fresh.url, logger, fast);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await admin?.end();
    await fresh?.drop();
  });

  /** How many sessions hold the upload's advisory lock (the two-key form: classid, objid, objsubid 2). */
  async function holders(id: string): Promise<number> {
    const { rows } = await admin.query<{ count: string }>(
      `select count(*) from pg_locks where locktype = 'advisory' and granted and classid = $1 and objid = $2 and objsubid = 2 and database = (select oid from pg_database where datname = current_database())`,
      [UPLOAD_LOCK_NAMESPACE, uploadLockKey(id) >>> 0],
    );
    return Number(rows[0]?.count);
  }

  it('makes a second process wait until the holder, asked to let go, unlocks; then the lock is free at once', async () => {
    const id = uploadId();
    const events: string[] = [];
    const held = first.newLock(id);
    let asked = 0;
    // Asked at every try of the waiting request, as tus' MemoryLocker does; lets go once, a little later.
    await held.lock(never, () => {
      if (asked++ > 0) return;
      events.push('holder asked to let go');
      setTimeout(() => {
        events.push('holder unlocks');
        void held.unlock();
      }, 150);
    });
    expect(await holders(id)).toBe(1);

    const started = Date.now();
    const waiting = second.newLock(id);
    await waiting.lock(never, () => void events.push('second asked'));
    events.push('second has it');
    expect(events).toEqual(['holder asked to let go', 'holder unlocks', 'second has it']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(await holders(id)).toBe(1);

    await waiting.unlock();
    expect(await holders(id)).toBe(0);
    // Free: taken again without asking anyone.
    const again = first.newLock(id);
    await again.lock(never, () => void events.push('second asked'));
    expect(events).toEqual(['holder asked to let go', 'holder unlocks', 'second has it']);
    expect(asked).toBeGreaterThan(1);
    await again.unlock();
    expect(await holders(id)).toBe(0);
  });

  it('keeps two requests of one process apart too (session locks are re-entrant), and stops waiting when tus says so', async () => {
    const id = uploadId();
    const held = first.newLock(id);
    let asked = 0;
    await held.lock(never, () => {
      asked += 1;
    });
    const stop = new AbortController();
    const waiting = first.newLock(id).lock(stop.signal, () => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked).toBeGreaterThan(0);
    stop.abort();
    await expect(waiting).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);

    const late = second.newLock(id).lock(AbortSignal.timeout(300), () => {});
    await expect(late).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await held.unlock();
    expect(await holders(id)).toBe(0);
  });

  it('loses its locks with its connection, and reconnects at the next lock', async () => {
    const id = uploadId();
    const held: Lock = first.newLock(id);
    await held.lock(never, () => {});
    expect(await holders(id)).toBe(1);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()`, [
      UPLOAD_LOCKER_APPLICATION,
    ]);
    // The other process takes it without anyone letting go: the lock went with the connection.
    const other = second.newLock(id);
    await other.lock(AbortSignal.timeout(3000), () => {});
    expect(await holders(id)).toBe(1);
    await held.unlock();
    expect(await holders(id)).toBe(1);
    await other.unlock();
    const again = first.newLock(id);
    await again.lock(AbortSignal.timeout(3000), () => {});
    expect(await holders(id)).toBe(1);
    await again.unlock();
    expect(await holders(id)).toBe(0);
  });
});
