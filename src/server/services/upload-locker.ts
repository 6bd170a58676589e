/**
 * The lock tus takes around every request on one upload (HEAD, PATCH, DELETE, a creation with a
 * body: `@tus/server`'s `Locker`), held across API processes. Only one request at a time works on
 * an upload; a new one asks the holder to let go (tus' `requestRelease`: the holder's request is
 * ended after `lockDrainTimeout`, 3 s), so a client that reconnects after a dropped connection does
 * not wait for its stale PATCH still running, maybe in another process.
 *
 * - **PostgreSQL** (several processes): one dedicated connection per process (never a pool's:
 *   locks live for minutes, as long as a PATCH) holding session-level advisory locks
 *   `(UPLOAD_LOCK_NAMESPACE, uploadLockKey(id))`, and `LISTEN`ing on `UPLOAD_RELEASE_CHANNEL`. A
 *   request that finds the lock taken `NOTIFY`s the upload's id there, the holder's process calls
 *   its holder's `requestRelease`, and the request tries again (25 ms doubling to 400 ms, asking
 *   each time) until it has the lock, tus stops it, or 30 s pass (tus' lock timeout, a 500 that
 *   the route answers as 503 `upload_failed`). Session locks are re-entrant within a session, so
 *   requests of one process also take a lock in memory first (the same map tells the process's
 *   holders apart when a release is asked). The connection opens with the first lock; when it
 *   drops, its locks are gone with it (tus' offset check still refuses the second of two PATCHes
 *   at one offset) and the next lock reconnects; while it cannot (1 s doubling to 30 s between
 *   tries), locks are this process's only, with a warning.
 * - **PGlite** (one process): tus' own `MemoryLocker`.
 *
 * `docs/decisions/038-field-capture.md`, "Resumable uploads".
 */
import { createHash } from 'node:crypto';
import { ERRORS, MemoryLocker, type Lock, type Locker, type RequestRelease } from '@tus/server';
import pg from 'pg';
import type { Database } from '../db/index.ts';
import type { Logger } from '../logger.ts';

/**
 * The first key of the uploads' advisory locks (the second: `uploadLockKey`). Beside the others
 * of the repository: 727274 the start-up migrations (db/index.ts), 727301 an account's upload
 * reservations (services/media.ts); external surveys and pg-boss use the one-key (bigint) form,
 * which never meets a two-key lock.
 */
export const UPLOAD_LOCK_NAMESPACE = 727_302;
/** Where a request asks the holder of an upload's lock, in any process, to let go (payload: the upload's id). */
export const UPLOAD_RELEASE_CHANNEL = 'fieldwork_upload_release';
/** How the locker's connection shows in `pg_stat_activity`. */
export const UPLOAD_LOCKER_APPLICATION = 'fieldwork upload locks';

/** The second key of an upload's advisory lock: the first 32 bits of the SHA-256 of its id (a collision only makes two uploads wait for each other). */
export function uploadLockKey(id: string): number {
  return createHash('sha256').update(id).digest().readInt32BE(0);
}

/** A Locker the server closes when it stops. */
export interface UploadLocker extends Locker {
  close(): Promise<void>;
}

export interface PostgresUploadLockerOptions {
  /** How long a request waits for a lock before tus answers 500 (the route: 503). Default 30 s, as tus' MemoryLocker. */
  acquireTimeoutMs?: number;
  /** The first wait between two tries (doubling up to `maxRetryDelayMs`). */
  minRetryDelayMs?: number;
  maxRetryDelayMs?: number;
}

const ACQUIRE_TIMEOUT_MS = 30_000;
const MIN_RETRY_DELAY_MS = 25;
const MAX_RETRY_DELAY_MS = 400;
const MIN_RECONNECT_DELAY_MS = 1000;
const MAX_RECONNECT_DELAY_MS = 30_000;

/** A request holding (or taking) an upload's lock in this process. */
interface Holder {
  requestRelease: RequestRelease;
  /** The connection holding its advisory lock; null while taking it, or when held in this process only. */
  client: pg.Client | null;
}

function ask(holder: Holder): void {
  void Promise.resolve()
    .then(() => holder.requestRelease())
    .catch(() => {});
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The PostgreSQL locker: advisory locks on one connection of its own, releases asked by LISTEN/NOTIFY. */
export class PostgresUploadLocker implements UploadLocker {
  /** This process's holders, by upload id. */
  readonly holders = new Map<string, Holder>();
  readonly acquireTimeoutMs: number;
  readonly minRetryDelayMs: number;
  readonly maxRetryDelayMs: number;
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client | null> | null = null;
  private reconnectAt = 0;
  private reconnectDelay = MIN_RECONNECT_DELAY_MS;
  private closed = false;
  private readonly connection: string | pg.ClientConfig;
  private readonly logger: Logger;

  constructor(connection: string | pg.ClientConfig, logger: Logger, options: PostgresUploadLockerOptions = {}) {
    this.connection = connection;
    this.logger = logger;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? ACQUIRE_TIMEOUT_MS;
    this.minRetryDelayMs = options.minRetryDelayMs ?? MIN_RETRY_DELAY_MS;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? MAX_RETRY_DELAY_MS;
  }

  newLock(id: string): Lock {
    return new PostgresUploadLock(this, id);
  }

  /** The live connection, opened (and listening) if need be; null when it cannot be had now. */
  connectionNow(): Promise<pg.Client | null> {
    if (this.closed) return Promise.resolve(null);
    if (this.client) return Promise.resolve(this.client);
    if (this.connecting) return this.connecting;
    if (Date.now() < this.reconnectAt) return Promise.resolve(null);
    this.connecting = this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client | null> {
    const config = typeof this.connection === 'string' ? { connectionString: this.connection } : this.connection;
    const client = new pg.Client({ connectionTimeoutMillis: 5000, keepAlive: true, application_name: UPLOAD_LOCKER_APPLICATION, ...config });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel !== UPLOAD_RELEASE_CHANNEL || !message.payload) return;
      const holder = this.holders.get(message.payload);
      if (holder) ask(holder);
    });
    try {
      await client.connect();
      await client.query(`listen ${UPLOAD_RELEASE_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      this.reconnectAt = Date.now() + this.reconnectDelay;
      this.logger.warn(
        { err: error, retryInMs: this.reconnectDelay },
        'the upload locks cannot reach PostgreSQL: uploads are locked in this process only until they can',
      );
      this.reconnectDelay = Math.min(this.reconnectDelay * 2, MAX_RECONNECT_DELAY_MS);
      return null;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return null;
    }
    this.reconnectDelay = MIN_RECONNECT_DELAY_MS;
    this.client = client;
    return client;
  }

  /** The connection dropped (or failed): its locks are gone; the next lock opens another. */
  lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    client.removeAllListeners('end');
    void client.end().catch(() => {});
    if (!this.closed)
      this.logger.warn(
        { err: error },
        "the upload locks' PostgreSQL connection dropped: its locks are gone (tus' offset check still guards); reconnecting at the next lock",
      );
  }

  /** Stops: the connection ends (and its locks with it); locks still asked for fail. */
  async close(): Promise<void> {
    this.closed = true;
    await this.connecting?.catch(() => null);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }

  /** Whether `client` is the live connection (a lock taken on a connection since lost went with it). */
  isCurrent(client: pg.Client): boolean {
    return this.client === client;
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

class PostgresUploadLock implements Lock {
  private holder: Holder | null = null;
  private readonly key: number;
  private readonly locker: PostgresUploadLocker;
  private readonly id: string;

  constructor(locker: PostgresUploadLocker, id: string) {
    this.locker = locker;
    this.id = id;
    this.key = uploadLockKey(id);
  }

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { locker, id } = this;
    const deadline = Date.now() + locker.acquireTimeoutMs;
    let delay = locker.minRetryDelayMs;
    for (;;) {
      if (stopSignal.aborted || locker.isClosed) throw ERRORS.ERR_LOCK_TIMEOUT;
      const local = locker.holders.get(id);
      if (local) {
        // A request of this process has it (or is taking it): ask it to let go, as MemoryLocker does.
        ask(local);
      } else {
        const holder: Holder = { requestRelease, client: null };
        locker.holders.set(id, holder);
        const client = await locker.connectionNow();
        if (!client) {
          // No connection now (the warning is logged): this process's lock only.
          this.holder = holder;
          return;
        }
        let locked = false;
        try {
          const result = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1::int, $2::int) as locked', [UPLOAD_LOCK_NAMESPACE, this.key]);
          locked = result.rows[0]?.locked === true;
        } catch (error) {
          locker.lost(client, error);
        }
        if (locked) {
          holder.client = client;
          this.holder = holder;
          return;
        }
        if (locker.holders.get(id) === holder) locker.holders.delete(id);
        // Another process holds it: ask it to let go.
        if (!locker.isClosed) await client.query('select pg_notify($1, $2)', [UPLOAD_RELEASE_CHANNEL, id]).catch(() => {});
      }
      if (Date.now() + delay > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await pause(delay, stopSignal);
      delay = Math.min(delay * 2, locker.maxRetryDelayMs);
    }
  }

  async unlock(): Promise<void> {
    const holder = this.holder;
    if (!holder) return;
    this.holder = null;
    if (this.locker.holders.get(this.id) === holder) this.locker.holders.delete(this.id);
    const client = holder.client;
    // On a connection since lost (or replaced), the lock went with it.
    if (client && this.locker.isCurrent(client))
      await client.query('select pg_advisory_unlock($1::int, $2::int)', [UPLOAD_LOCK_NAMESPACE, this.key]).catch(() => {});
  }
}

/** tus' MemoryLocker with nothing to close. */
class MemoryUploadLocker extends MemoryLocker implements UploadLocker {
  async close(): Promise<void> {}
}

/**
 * The upload locker for this database: on PostgreSQL (`connection`, the `DATABASE_URL`) advisory
 * locks on a connection of its own; on PGlite, one process, tus' MemoryLocker.
 */
export function createUploadLocker(database: Pick<Database, 'kind'>, connection: string | undefined, logger: Logger): UploadLocker {
  if (database.kind === 'postgres' && connection) return new PostgresUploadLocker(connection, logger);
  return new MemoryUploadLocker();
}
