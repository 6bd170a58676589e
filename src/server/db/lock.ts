import fs from 'node:fs';
import path from 'node:path';

/**
 * One process at a time opens the embedded database of a DATA_DIR. The holder writes
 * `fieldwork.lock` (created exclusively) with its pid and, for the server, where it serves the
 * database over the Postgres wire protocol so the CLI and psql can reach it meanwhile.
 * A lock whose pid no longer runs is stale (the holder crashed) and is taken over.
 */
export interface LockInfo {
  pid: number;
  kind: 'server' | 'cli' | 'test';
  startedAt: string;
  /** Where the holder serves the database: a socket folder (host) and port, when it does. */
  socket?: { host: string; port: number };
  /** The server's public URL, so CLI mail links point where the server answers. */
  publicUrl?: string;
}

export class DataDirLockedError extends Error {
  readonly holder: LockInfo;
  constructor(dataDir: string, holder: LockInfo) {
    super(
      `The database in ${dataDir} is in use by another Fieldwork ${holder.kind} process (pid ${holder.pid}, since ${holder.startedAt}). ` +
        'Stop that process first, or set DATA_DIR to another folder.',
    );
    this.name = 'DataDirLockedError';
    this.holder = holder;
  }
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'fieldwork.lock');
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the lock, or null when nobody (alive) holds it. */
export function readLock(dataDir: string): LockInfo | null {
  let raw: string;
  try {
    raw = fs.readFileSync(lockPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const info = JSON.parse(raw) as LockInfo;
    return typeof info.pid === 'number' && isRunning(info.pid) ? info : null;
  } catch {
    // Empty or unreadable: a holder may be writing it this instant. Give it a few seconds;
    // older than that, its writer died between creating and writing it.
    try {
      const age = Date.now() - fs.statSync(lockPath(dataDir)).mtimeMs;
      return age < 5_000 ? { pid: -1, kind: 'server', startedAt: 'just now' } : null;
    } catch {
      return null;
    }
  }
}

export interface HeldLock {
  readonly info: LockInfo;
  /** Adds to the lock what others need: where the database is served, the public URL. */
  update(extra: Pick<LockInfo, 'socket' | 'publicUrl'>): void;
  release(): void;
}

/** Takes the lock or throws DataDirLockedError naming the holder. */
export function acquireLock(dataDir: string, kind: LockInfo['kind']): HeldLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = lockPath(dataDir);
  const info: LockInfo = { pid: process.pid, kind, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, JSON.stringify(info));
      fs.closeSync(fd);
      let released = false;
      return {
        info,
        update(extra) {
          Object.assign(info, extra);
          const tmp = `${file}.${process.pid}.tmp`;
          fs.writeFileSync(tmp, JSON.stringify(info), { mode: 0o600 });
          fs.renameSync(tmp, file);
        },
        release() {
          if (released) return;
          released = true;
          try {
            const current = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
            if (current.pid === process.pid) fs.unlinkSync(file);
          } catch {
            // Already gone.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let staleContent: string;
      try {
        staleContent = fs.readFileSync(file, 'utf8');
      } catch {
        continue; // Released meanwhile: try again.
      }
      const holder = readLock(dataDir);
      if (holder) throw new DataDirLockedError(dataDir, holder);
      // Stale: the holder died without cleaning up. Remove it, unless another process took it
      // over meanwhile (its content would have changed), and try again.
      try {
        if (fs.readFileSync(file, 'utf8') === staleContent) fs.unlinkSync(file);
      } catch {
        // Someone else removed it first.
      }
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
