import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, acquireLock, lockPath, readLock } from '../../src/server/db/lock.ts';
import type { HeldLock, LockInfo } from '../../src/server/db/lock.ts';

let dataDir: string;
const held: HeldLock[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldwork-lock-'));
});

afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function take(dir = dataDir, kind: LockInfo['kind'] = 'test'): HeldLock {
  const lock = acquireLock(dir, kind);
  held.push(lock);
  return lock;
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  if (typeof child.pid !== 'number') throw new Error('could not spawn node');
  return child.pid;
}

function writeLockFile(info: LockInfo): void {
  fs.writeFileSync(lockPath(dataDir), JSON.stringify(info));
}

/** The error acquireLock throws (fails the test when it does not throw). */
function lockedError(): DataDirLockedError {
  try {
    take();
  } catch (error) {
    if (error instanceof DataDirLockedError) return error;
    throw error;
  }
  throw new Error('acquireLock succeeded');
}

describe('acquireLock', () => {
  it('takes a free data folder and records this process', () => {
    const before = Date.now();
    const lock = take(dataDir, 'cli');
    expect(lock.info.pid).toBe(process.pid);
    expect(lock.info.kind).toBe('cli');
    const holder = readLock(dataDir);
    expect(holder).toEqual({ pid: process.pid, kind: 'cli', startedAt: lock.info.startedAt });
    expect(Date.parse(holder?.startedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(fs.existsSync(lockPath(dataDir))).toBe(true);
  });

  it('creates a data folder that does not exist yet', () => {
    const nested = path.join(dataDir, 'a', 'b');
    take(nested);
    expect(readLock(nested)?.pid).toBe(process.pid);
  });

  it('refuses a second taker with a DataDirLockedError naming the holder and the fix', () => {
    take(dataDir, 'server');
    const error = lockedError();
    expect(error.name).toBe('DataDirLockedError');
    expect(error.holder.pid).toBe(process.pid);
    expect(error.holder.kind).toBe('server');
    expect(error.message).toContain(`pid ${process.pid}`);
    expect(error.message).toContain(dataDir);
    expect(error.message).toContain('Stop that process first');
    expect(error.message).toContain('DATA_DIR');
  });

  it('refuses while another live process holds the lock, and leaves its lock alone', () => {
    const other: LockInfo = { pid: process.ppid, kind: 'server', startedAt: '2024-01-01T00:00:00.000Z' };
    writeLockFile(other);
    const error = lockedError();
    expect(error.holder).toEqual(other);
    expect(error.message).toContain(`pid ${process.ppid}`);
    expect(JSON.parse(fs.readFileSync(lockPath(dataDir), 'utf8'))).toEqual(other);
  });

  it('takes over a stale lock whose process has exited', () => {
    writeLockFile({ pid: deadPid(), kind: 'server', startedAt: '2024-01-01T00:00:00.000Z' });
    const lock = take();
    expect(lock.info.pid).toBe(process.pid);
    expect(readLock(dataDir)?.pid).toBe(process.pid);
  });

  it('takes over a stale lock naming a pid that cannot exist', () => {
    writeLockFile({ pid: 2147483646, kind: 'cli', startedAt: '2024-01-01T00:00:00.000Z' });
    take();
    expect(readLock(dataDir)?.pid).toBe(process.pid);
  });
});

describe('release', () => {
  it('removes the lock file, so the folder can be taken again', () => {
    const lock = take();
    lock.release();
    expect(fs.existsSync(lockPath(dataDir))).toBe(false);
    expect(readLock(dataDir)).toBeNull();
    const again = take();
    expect(readLock(dataDir)?.startedAt).toBe(again.info.startedAt);
  });

  it('is harmless when called twice', () => {
    const lock = take();
    lock.release();
    const next = take();
    lock.release();
    expect(readLock(dataDir)?.startedAt).toBe(next.info.startedAt);
  });

  it('does not remove a lock another process has taken since', () => {
    const lock = take();
    const other: LockInfo = { pid: process.ppid, kind: 'server', startedAt: '2024-01-01T00:00:00.000Z' };
    writeLockFile(other);
    lock.release();
    expect(readLock(dataDir)).toEqual(other);
  });
});

describe('readLock', () => {
  it('is null when the folder is free', () => {
    expect(readLock(dataDir)).toBeNull();
    expect(readLock(path.join(dataDir, 'does-not-exist'))).toBeNull();
  });

  it('is the holder while held', () => {
    const lock = take(dataDir, 'server');
    expect(readLock(dataDir)).toEqual(lock.info);
  });

  it('treats an empty lock file as held while fresh and as stale once old', () => {
    fs.writeFileSync(lockPath(dataDir), '');
    expect(readLock(dataDir)?.pid).toBe(-1);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockPath(dataDir), old, old);
    expect(readLock(dataDir)).toBeNull();
    expect(take().info.pid).toBe(process.pid);
  });

  it('is null for a lock whose process has exited', () => {
    writeLockFile({ pid: deadPid(), kind: 'server', startedAt: '2024-01-01T00:00:00.000Z' });
    expect(readLock(dataDir)).toBeNull();
  });
});

describe('update', () => {
  it('adds the socket and public URL, visible to readers', () => {
    const lock = take(dataDir, 'server');
    lock.update({ socket: { host: '/tmp/fieldwork-sock', port: 54321 }, publicUrl: 'http://127.0.0.1:4321' });
    const holder = readLock(dataDir);
    expect(holder).toMatchObject({
      pid: process.pid,
      kind: 'server',
      startedAt: lock.info.startedAt,
      socket: { host: '/tmp/fieldwork-sock', port: 54321 },
      publicUrl: 'http://127.0.0.1:4321',
    });
    expect(lock.info.socket).toEqual({ host: '/tmp/fieldwork-sock', port: 54321 });
  });

  it('leaves only the lock file behind (no temporary files)', () => {
    const lock = take();
    lock.update({ publicUrl: 'https://example.org' });
    expect(fs.readdirSync(dataDir)).toEqual(['fieldwork.lock']);
  });

  it('keeps the lock held: a second taker is still refused, and release still removes it', () => {
    const lock = take();
    lock.update({ publicUrl: 'https://example.org' });
    expect(lockedError().holder.publicUrl).toBe('https://example.org');
    lock.release();
    expect(fs.existsSync(lockPath(dataDir))).toBe(false);
  });
});
