import { Mutex, protocol, type PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { concat } from './pglite-statements.ts';

/**
 * The embedded database's one connection, shared on the server's socket with the CLI and psql
 * (docs/decisions/002-embedded-database-sharing.md), without one side running inside the other's
 * transaction or exchange.
 *
 * PGlite has one backend. pglite-socket queues each client's messages one at a time under PGlite's
 * query lock only, so on its own a socket statement could run in the middle of one of the server's
 * transactions (and become part of it), the server's statements ran inside a transaction a socket
 * client had opened over several messages (in a READ ONLY one, as `npm run cli -- backup` opens,
 * they failed), and two clients' extended-protocol exchanges interleaved message by message: one
 * client's Parse replaced another's unnamed statement between its Parse and its Execute (an
 * INSERT … RETURNING then answered another statement's rows, or none).
 *
 * The gate is the socket server's queue. The client whose message runs holds the engine: the gate
 * takes PGlite's transaction lock, as the server's own statements do (so it first waits for a
 * server transaction to finish), and keeps it, with the client, while that client's transaction is
 * open or its exchange is half done (Parse, Bind… before its Sync). Meanwhile only that client's
 * messages run: the server's statements and the other clients' wait until it commits, rolls back
 * or syncs. A socket transaction is then the one transaction the engine runs, as the server's own
 * are. A client that holds the engine without sending anything for `SOCKET_HOLD_IDLE_MS` (a psql
 * session left in BEGIN) is rolled back and disconnected, so it cannot stop the server longer.
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

/** What pglite-socket keeps of its server: its queue (replaced by the gate before it starts) and its clients. */
interface SocketServerInternals {
  queryQueue: unknown;
  handlers: Set<{ handlerId: number; detach(close?: boolean): Promise<unknown> }>;
}

const code = (letter: string) => letter.charCodeAt(0);
/** Extended-protocol messages: the client's exchange goes on until its Sync. */
const EXTENDED = new Set([...'PBDECH'].map(code));
/** A client's message waiting its turn (pglite-socket's handler awaits each before sending the next). */
interface Queued {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

/** The socket server's queue: one client holds the engine at a time, as described above. */
export class SocketGate {
  private readonly pg: PGlite;
  private readonly engine: PgliteInternals;
  private readonly holdIdleMs: number;
  private queue: Queued[] = [];
  private processing = false;
  /** One step on the engine at a time: a client's message, a leaving client's rollback, an idle client's. */
  private readonly turn = new Mutex();
  /** The client holding the engine, and what gives PGlite's transaction lock back. */
  private holder: number | null = null;
  private release: (() => void) | null = null;
  /** The holder's extended-protocol exchange is half done (no Sync yet). */
  private extended = false;
  private idleTimer: NodeJS.Timeout | undefined;
  /** A client left: the session's settings are reset once nobody holds the engine. */
  private resetPending = false;
  /** Told of the client that held the engine idle and was rolled back (its connection is to be closed). */
  onAbandoned: (handlerId: number) => void = () => {};

  constructor(pg: PGlite, holdIdleMs = SOCKET_HOLD_IDLE_MS) {
    this.pg = pg;
    this.engine = pg as unknown as PgliteInternals;
    this.holdIdleMs = holdIdleMs;
  }

  /** Whether a socket client holds the server's statements off now. */
  get holding(): boolean {
    return this.release !== null;
  }

  /** The client holding the engine (pglite-socket's name). */
  get lastHandlerId(): number | null {
    return this.holder;
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  /** pglite-socket's handler runs each of its client's messages through this, one after another. */
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.processQueue();
    });
  }

  /** A client left: what it had queued goes. */
  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A client left: if it held the engine, what it left open is rolled back; its settings are reset. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    this.resetPending = true;
    await this.turn.runExclusive(async () => {
      if (this.holder === handlerId) await this.giveBack();
      else if (!this.release) {
        // Between transactions, as any statement: never inside one the server has open.
        const release = await this.takeTransactionLock();
        try {
          await this.resetIfPending();
        } finally {
          release();
        }
      }
    });
    void this.processQueue();
  }

  /** Gives the engine back (rolling back what its holder left open): on stop. */
  async abandon(): Promise<number | null> {
    clearTimeout(this.idleTimer);
    return this.turn.runExclusive(async () => {
      const holder = this.holder;
      if (this.release) await this.giveBack();
      return holder;
    });
  }

  private async processQueue(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (;;) {
        // While a client holds the engine, only its messages run; its next one may not be queued yet.
        const index = this.holder === null ? 0 : this.queue.findIndex((item) => item.handlerId === this.holder);
        const item = index === -1 ? undefined : this.queue.splice(index, 1)[0];
        if (!item) break;
        await this.turn.runExclusive(() => this.run(item));
      }
    } finally {
      this.processing = false;
    }
  }

  private async run(item: Queued): Promise<void> {
    clearTimeout(this.idleTimer);
    let bytes = 0;
    try {
      this.release ??= await this.takeTransactionLock();
      this.holder = item.handlerId;
      const type = item.message[0] ?? 0;
      if (EXTENDED.has(type)) this.extended = true;
      else if (type === code('S')) this.extended = false;
      // PGlite keeps the callback given here as its output's destination until a call that sets its
      // own (`query`, `exec` and `execProtocolStream` do; `execProtocolRaw` does not): once this
      // message is answered, whatever else would reach it is not this client's and is dropped.
      let deliver: ((data: Uint8Array) => void) | null = item.onData;
      try {
        await this.engine._runExclusiveQuery(() =>
          this.pg.execProtocolRawStream(item.message, {
            onRawData: (data) => {
              bytes += data.length;
              deliver?.(data);
            },
          }),
        );
      } finally {
        deliver = null;
      }
      item.resolve(bytes);
    } catch (error) {
      item.reject(error);
    }
    await this.settle();
  }

  /** After a message: keep the engine while the client's transaction or exchange goes on, else give it back. */
  private async settle(): Promise<void> {
    if (!this.release) return;
    if (this.pg.closed || (!this.pg.isInTransaction() && !this.extended)) {
      await this.resetIfPending();
      this.letGo();
      return;
    }
    const holder = this.holder;
    this.idleTimer = setTimeout(() => {
      void this.turn
        .runExclusive(async () => {
          if (this.holder !== holder || !this.release) return false;
          await this.giveBack();
          return true;
        })
        .then(
          (abandoned) => abandoned && holder !== null && this.onAbandoned(holder),
          () => {},
        );
    }, this.holdIdleMs);
    this.idleTimer.unref();
  }

  /** Ends the holder's exchange and transaction, resets a leaver's settings, and lets the engine go. */
  private async giveBack(): Promise<void> {
    try {
      if (!this.pg.closed) {
        const parts = this.extended ? [protocol.serialize.sync()] : [];
        parts.push(protocol.serialize.query('ROLLBACK'));
        await this.engine._runExclusiveQuery(() => this.ownStatement(concat(parts)));
        await this.resetIfPending();
      }
    } finally {
      this.letGo();
      void this.processQueue();
    }
  }

  private async resetIfPending(): Promise<void> {
    if (!this.resetPending || this.pg.closed) return;
    this.resetPending = false;
    await this.engine._runExclusiveQuery(() => this.ownStatement(protocol.serialize.query('RESET ALL')));
  }

  /**
   * The gate's own statement (ROLLBACK, RESET ALL): its answer is read here, never sent to the
   * client whose message ran last (`execProtocolRaw` would send it there, and that client would
   * take it for the answer to its next query).
   */
  private async ownStatement(message: Uint8Array): Promise<void> {
    await this.pg.execProtocolStream(message, { syncToFs: false, throwOnError: false });
  }

  private letGo(): void {
    clearTimeout(this.idleTimer);
    this.extended = false;
    this.holder = null;
    this.release?.();
    this.release = null;
  }

  private takeTransactionLock(): Promise<() => void> {
    return new Promise((resolve, reject) => {
      this.engine._runExclusiveTransaction(() => new Promise<void>((release) => resolve(release))).catch(reject);
    });
  }
}

/**
 * The socket server of the embedded database, with the gate as its queue. `onIdleClient` is told
 * when a client that held the server's statements off was rolled back and disconnected.
 */
export function gatedSocketServer(
  pg: PGlite,
  options: { path: string; maxConnections: number; onIdleClient?: () => void; holdIdleMs?: number },
): { server: PGLiteSocketServer; gate: SocketGate } {
  const gate = new SocketGate(pg, options.holdIdleMs);
  const server = new PGLiteSocketServer({ db: pg, path: options.path, maxConnections: options.maxConnections });
  const internals = server as unknown as SocketServerInternals;
  // Each client's handler is given the server's queue when it connects: the gate, from the start.
  internals.queryQueue = gate;
  gate.onAbandoned = (handlerId) => {
    for (const handler of internals.handlers) if (handler.handlerId === handlerId) void handler.detach(true);
    options.onIdleClient?.();
  };
  return { server, gate };
}
