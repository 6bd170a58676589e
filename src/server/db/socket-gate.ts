import { Mutex, protocol, type PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { concat } from './pglite-statements.ts';

/**
 * The embedded database's one connection, shared on the server's socket with the CLI and psql
 * (docs/decisions/002-embedded-database-sharing.md), without either side running inside the
 * other's transaction.
 *
 * pglite-socket runs each message from a client under PGlite's query lock only. PGlite has one
 * backend, so on its own a socket statement could run in the middle of one of the server's
 * transactions (and become part of it), and the server's statements ran inside a transaction a
 * socket client had opened over several messages (BEGIN … COMMIT): in a READ ONLY one, as
 * `npm run cli -- backup` opens, the server's writes failed; in another, they committed or rolled
 * back with the client's.
 *
 * The gate is what the socket server is given as its database. Each socket message also takes
 * PGlite's transaction lock, as the server's own statements do, so it waits for a server
 * transaction to finish; and while the client's transaction is open (or an extended-protocol
 * exchange is half done: Parse, Bind… before its Sync) the gate keeps that lock, so the server's
 * statements wait until the client commits or rolls back: a socket transaction is the one
 * transaction the engine runs, as it is for the server's own. A client that keeps the lock
 * without sending anything for `SOCKET_HOLD_IDLE_MS` (a psql session left in BEGIN) is rolled
 * back and disconnected, so it cannot stop the server for longer.
 *
 * The session is one too: what a client SETs is the server's setting while it is connected (use
 * SET LOCAL in a transaction), and every setting is reset (`RESET ALL`) when a client leaves. Before,
 * a `pg_dump` through the socket (which empties `search_path` first thing, even to give up on a
 * version mismatch) left the server unable to find any of its tables until it restarted.
 */

/** How long a socket client may hold the server's database idle (in a transaction, or halfway through an exchange). */
export const SOCKET_HOLD_IDLE_MS = 10_000;

/** What is used of PGlite beyond its typed interface (db/pglite-statements.ts uses the same). */
interface PgliteInternals {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
}

/** What pglite-socket keeps of its clients: to close the one the gate gave up on, and to hear of one leaving. */
interface SocketServerInternals {
  handlers: Set<{ handlerId: number; detach(close?: boolean): Promise<unknown> }>;
  queryQueue: { lastHandlerId: number | null; clearTransactionIfNeeded(handlerId: number): Promise<void> };
}

/** Extended-protocol messages after which the client's exchange goes on until its Sync (and COPY data). */
const MID_EXCHANGE = new Set([...'PBDECHd'].map((letter) => letter.charCodeAt(0)));

/** The database the socket server sees: PGlite, with the transaction lock kept as described above. */
export class SocketGate {
  private readonly pg: PGlite;
  private readonly engine: PgliteInternals;
  /** One socket message at a time through the gate (pglite-socket's queue sends one; a leaving client's ROLLBACK may come beside it). */
  private readonly turn = new Mutex();
  /** Releases PGlite's transaction lock while the gate holds it. */
  private release: (() => void) | null = null;
  private midExchange = false;
  private idleTimer: NodeJS.Timeout | undefined;
  /** A client left: its settings are reset once no transaction is open. */
  private resetPending = false;
  /** Told when a client that held the lock idle was rolled back (its connection is to be closed). */
  onAbandoned: () => void = () => {};

  private readonly holdIdleMs: number;

  constructor(pg: PGlite, holdIdleMs = SOCKET_HOLD_IDLE_MS) {
    this.pg = pg;
    this.engine = pg as unknown as PgliteInternals;
    this.holdIdleMs = holdIdleMs;
  }

  get waitReady(): Promise<void> {
    return this.pg.waitReady;
  }

  isInTransaction(): boolean {
    return this.pg.isInTransaction();
  }

  /** Whether a socket client holds the server's statements off now. */
  get holding(): boolean {
    return this.release !== null;
  }

  /** pglite-socket runs each client message through this. */
  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.turn.runExclusive(async () => {
      clearTimeout(this.idleTimer);
      this.release ??= await this.takeTransactionLock();
      try {
        return await this.engine._runExclusiveQuery(fn);
      } finally {
        if (this.resetPending && !this.pg.isInTransaction() && !this.midExchange) await this.resetSession();
        this.settle();
      }
    });
  }

  /** pglite-socket let a client go (after rolling back its transaction): its settings go too. */
  clientLeft(): void {
    this.resetPending = true;
    if (!this.release) this.runExclusive(() => Promise.resolve()).catch(() => {});
  }

  private async resetSession(): Promise<void> {
    this.resetPending = false;
    if (!this.pg.closed) await this.engine._runExclusiveQuery(() => this.pg.execProtocolRaw(protocol.serialize.query('RESET ALL')));
  }

  execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void; syncToFs?: boolean }): Promise<void> {
    this.midExchange = MID_EXCHANGE.has(message[0] ?? 0);
    return this.pg.execProtocolRawStream(message, options);
  }

  /** pglite-socket's ROLLBACK for a client that leaves in the middle of its transaction. */
  async exec(query: string): Promise<void> {
    await this.runExclusive(() => this.execProtocolRawStream(protocol.serialize.query(query), { onRawData: () => {} }));
  }

  /** Gives the lock back (rolling back what the client left open): on stop, and for a client idle too long. */
  async abandon(): Promise<boolean> {
    clearTimeout(this.idleTimer);
    return this.turn.runExclusive(async () => {
      if (!this.release) return false;
      try {
        if (!this.pg.closed) {
          const parts = this.midExchange ? [protocol.serialize.sync()] : [];
          if (this.pg.isInTransaction() || this.midExchange) parts.push(protocol.serialize.query('ROLLBACK'));
          await this.engine._runExclusiveQuery(() => this.pg.execProtocolRaw(concat(parts)));
          this.midExchange = false;
          if (this.resetPending) await this.resetSession();
        }
      } finally {
        this.midExchange = false;
        this.release();
        this.release = null;
      }
      return true;
    });
  }

  /** After a message: keep the lock while the client's transaction or exchange goes on, else give it back. */
  private settle(): void {
    if (!this.pg.isInTransaction() && !this.midExchange) {
      this.release?.();
      this.release = null;
      return;
    }
    this.idleTimer = setTimeout(() => {
      void this.abandon().then(
        (abandoned) => abandoned && this.onAbandoned(),
        () => {},
      );
    }, this.holdIdleMs);
    this.idleTimer.unref();
  }

  private takeTransactionLock(): Promise<() => void> {
    return new Promise((resolve, reject) => {
      this.engine._runExclusiveTransaction(() => new Promise<void>((release) => resolve(release))).catch(reject);
    });
  }
}

/**
 * The socket server of the embedded database, through the gate. `onIdleClient` is told when a
 * client that held the server's statements off was rolled back and disconnected.
 */
export function gatedSocketServer(
  pg: PGlite,
  options: { path: string; maxConnections: number; onIdleClient?: () => void; holdIdleMs?: number },
): { server: PGLiteSocketServer; gate: SocketGate } {
  const gate = new SocketGate(pg, options.holdIdleMs);
  const server = new PGLiteSocketServer({ db: gate as unknown as PGlite, path: options.path, maxConnections: options.maxConnections });
  const internals = server as unknown as SocketServerInternals;
  // pglite-socket calls this for every client that leaves (rolling back its open transaction, if any).
  const queue = internals.queryQueue;
  const clearTransaction = queue.clearTransactionIfNeeded.bind(queue);
  queue.clearTransactionIfNeeded = async (handlerId) => {
    try {
      await clearTransaction(handlerId);
    } finally {
      gate.clientLeft();
    }
  };
  gate.onAbandoned = () => {
    const holder = internals.queryQueue.lastHandlerId;
    for (const handler of internals.handlers) if (handler.handlerId === holder) void handler.detach(true);
    options.onIdleClient?.();
  };
  return { server, gate };
}
