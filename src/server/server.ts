/**
 * The server: the database (migrated, and shared on its socket for the CLI and psql on the embedded
 * one), the job queue, the API and the static site on one port, and a graceful shutdown.
 * `node src/server/main.ts` starts it (main.ts checks the environment first, before this loads).
 */
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { KNOWN_FLAGS } from '../shared/flags.ts';
import { createApp } from './app.ts';
import { reportReady } from './cluster.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/index.ts';
import { drainRefusedBodies } from './drain.ts';
import { DataDirLockedError, acquireLock, type HeldLock } from './db/lock.ts';
import { gatedSocketServer } from './db/socket-gate.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMailer } from './mail/mailer.ts';
import { createJobHandlers } from './jobs/handlers.ts';
import { JobQueue } from './jobs/queue.ts';
import { systemClock } from './services/clock.ts';
import { createUploadLocker } from './services/upload-locker.ts';
import { setFlag } from './services/flags.ts';
import { pruneRateLimits } from './services/rate-limit.ts';
import { deleteExpiredSessions } from './services/sessions.ts';
import { deleteExpiredSignInSteps } from './services/sign-in.ts';
import { authListener } from './lean.ts';
import { createStaticSite, staticListener } from './static.ts';
import { createStorage } from './storage/index.ts';

/** How long in-flight requests may take to finish after SIGTERM. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** The folder and port psql and the CLI use to reach the embedded database while the server runs. */
export const SOCKET_PORT = 5432;
/** Unix socket paths are limited to about 107 bytes (104 on macOS); past that the socket goes to a private folder of its own. */
const MAX_SOCKET_PATH = 100;
const socketIn = (dir: string): string => path.join(dir, `.s.PGSQL.${SOCKET_PORT}`);

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly database: Database;
  /** The job queue; its workers run in this process. */
  readonly jobs: JobQueue;
  /** Stops taking requests and jobs, lets in-flight ones finish (10 s at most), closes the database. */
  close(): Promise<void>;
}

/** Takes the data folder's lock, waiting a little for a CLI command that holds it briefly. */
async function lockDataDir(dataDir: string, logger: Logger): Promise<HeldLock> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return acquireLock(dataDir, 'server');
    } catch (error) {
      if (error instanceof DataDirLockedError && error.holder.kind === 'cli' && Date.now() < deadline) {
        logger.info({ pid: error.holder.pid }, 'waiting for a CLI command to release the database');
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      throw error;
    }
  }
}

/**
 * The folder of the database socket: DATA_DIR, or, when its path is too long for a Unix socket, a
 * private folder made for this run under the temporary folder (mode 0700, `mkdtemp`). The socket
 * has no password, so it is never a TCP port: any local user or a container sharing the network
 * could reach that (docs/decisions/002-…). Throws when no short enough folder can be had.
 */
export function socketFolder(dataDir: string, tmpDir: string = os.tmpdir()): { dir: string; own: boolean } {
  if (socketIn(dataDir).length <= MAX_SOCKET_PATH) return { dir: dataDir, own: false };
  for (const base of new Set([tmpDir, '/tmp'])) {
    // mkdtemp adds six characters to the prefix.
    if (socketIn(path.join(base, 'fieldwork-XXXXXX')).length > MAX_SOCKET_PATH || !fs.existsSync(base)) continue;
    const dir = fs.mkdtempSync(path.join(base, 'fieldwork-'));
    fs.chmodSync(dir, 0o700);
    return { dir, own: true };
  }
  throw new Error(
    `The embedded database's socket cannot be made: ${socketIn(dataDir)} is longer than a Unix socket path may be (${MAX_SOCKET_PATH} characters), and so is one in the temporary folder (${tmpDir}). Set DATA_DIR or TMPDIR to a shorter path.`,
  );
}

/** The database shared on its socket; stopping it also removes the private folder it made, if it made one. */
interface SharedDatabase {
  stop(): Promise<void>;
}

/** Serves the embedded database over the Postgres wire protocol on a Unix socket, for the CLI and psql. */
async function shareDatabase(database: Database, dataDir: string, lock: HeldLock, logger: Logger): Promise<SharedDatabase | null> {
  if (!database.pglite) return null;
  const { dir, own } = socketFolder(dataDir);
  const removeFolder = () => {
    if (own) fs.rmSync(dir, { recursive: true, force: true });
  };
  const socketPath = socketIn(dir);
  fs.rmSync(socketPath, { force: true });
  // Through the gate (db/socket-gate.ts): a socket client's transaction is the one the engine runs.
  const { server: socketServer, gate } = gatedSocketServer(database.pglite, {
    path: socketPath,
    maxConnections: 16,
    onIdleClient: () => logger.warn('a database socket client held the server idle inside its transaction: rolled back and disconnected'),
  });
  try {
    await socketServer.start();
    fs.chmodSync(socketPath, 0o600);
  } catch (error) {
    await socketServer.stop().catch(() => {});
    removeFolder();
    throw error;
  }
  // The lock file (in DATA_DIR) says where the socket is: the CLI connects there.
  lock.update({ socket: { host: dir, port: SOCKET_PORT } });
  logger.info({ socket: socketPath }, `embedded database shared: psql -h ${dir} -p ${SOCKET_PORT} -U postgres postgres`);
  return {
    stop: async () => {
      try {
        await socketServer.stop();
        await gate.abandon();
      } finally {
        removeFolder();
      }
    },
  };
}

/** Starts Fieldwork: database (migrated), API, static site, on config.host:config.port. */
export async function startServer(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const lock = config.databaseUrl ? null : await lockDataDir(config.dataDir, logger);
  let database: Database | undefined;
  let socketServer: SharedDatabase | null = null;
  let jobs: JobQueue | undefined;
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
  try {
    database = config.databaseUrl
      ? await openDatabase({ kind: 'postgres', connection: config.databaseUrl })
      : await openDatabase({ kind: 'pglite', dataDir: config.dataDir }, { warn: (message) => logger.warn(message) });
    logger.info({ database: database.kind }, 'database ready (migrations applied)');
    if (lock) socketServer = await shareDatabase(database, config.dataDir, lock, logger);
    if (config.maintenanceAtStart) {
      await setFlag(database.db, KNOWN_FLAGS.maintenance, true);
      logger.warn('MAINTENANCE=1: maintenance mode is on');
    }
    // After the migrations: pg-boss installs its own schema and the schedules (workers start once listening).
    jobs = new JobQueue({ database, connection: config.databaseUrl, logger, mode: 'worker' });
    jobs.setHandlers(createJobHandlers({ db: database.db, mailer, clock: systemClock, config, logger, jobs }));
    await jobs.start();
  } catch (error) {
    await jobs?.stop().catch(() => {});
    await socketServer?.stop().catch(() => {});
    await database?.close().catch(() => {});
    mailer.close();
    lock?.release();
    throw error;
  }
  const db = database;
  const queue = jobs;
  // The resumable uploads' locks: on PostgreSQL a connection of its own, opened with the first lock (services/upload-locker.ts).
  const uploadLocker = createUploadLocker(db, config.databaseUrl, logger);
  /** Stops what has started (jobs, the upload locks, the socket server, mail, the database, the lock) after a failed start, and rethrows. */
  const abandonStart = async (error: unknown): Promise<never> => {
    await queue.stop().catch(() => {});
    await uploadLocker.close().catch(() => {});
    await socketServer?.stop().catch(() => {});
    mailer.close();
    await db.close().catch(() => {});
    lock?.release();
    throw error;
  };

  // SERVE_STATIC=0: the API only; a static host or CDN serves the pages (docs/deploy.md).
  const site = config.serveStatic ? createStaticSite(config.distDir, logger) : null;
  if (!site) logger.info('SERVE_STATIC=0: serving the API only; pages come from a static host');
  const storage = createStorage(config);
  const deps = { database: db, mailer, config, logger, clock: systemClock, jobs: queue, storage, uploadLocker };
  const app = createApp(deps, site?.pages);

  // Refused requests' unread bodies are drained by drain.ts (docs/decisions/021-draining-refused-bodies.md), not the adapter.
  // The signed-in check every page load makes, pages and files take lean paths in front of the
  // application (lean.ts, `authListener`; static.ts, `staticListener`).
  const apiListener = authListener(deps, getRequestListener(app.fetch, { hostname: config.host, autoCleanupIncoming: false }));
  const server = createServer(site ? staticListener(site, deps, apiListener) : apiListener);
  drainRefusedBodies(server);
  // Idle keep-alive connections stay open longer than the clients and proxies in front of us keep
  // theirs (load balancers: 60 s): a server that closes first races a client reusing the socket,
  // and a POST sent into a closing socket fails with ECONNRESET (not retried by the client).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 10_000;
  // Long enough for a 20 MB photo from a phone on a slow uplink (about 0.6 Mbit/s); headers must still come within 10 s.
  server.requestTimeout = 300_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(abandonStart);
  const port = (server.address() as AddressInfo).port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  // Without PUBLIC_URL, links point where this process really listens (PORT=0 picks a port).
  if (!config.publicUrlExplicit) config.publicUrl = url;
  lock?.update({ publicUrl: config.publicUrl });
  // Now that links can point here, jobs run (those queued before a restart first).
  await queue.startWorkers().catch((error: unknown) => {
    server.close();
    return abandonStart(error);
  });
  // Provider orders a stopped process left `ordering` are asked about now, not at the next 10-minute poll (services/reward-provider-fulfilment.ts).
  if (config.rewardsProvider) await queue.send('rewards.poll', {}).catch((error: unknown) => logger.warn({ err: error }, 'rewards.poll not queued at start'));
  logger.info({ url, database: db.kind, dataDir: config.dataDir, buildId: site?.buildId ?? null }, `Fieldwork listening on ${url}`);
  reportReady(url);

  // Housekeeping: forget expired sessions, sign-in steps (pending sign-ins, challenges, trusted browsers) and rate-limit windows.
  const housekeeping = setInterval(
    () => {
      Promise.all([deleteExpiredSessions(db.db, systemClock), deleteExpiredSignInSteps(db.db, systemClock), pruneRateLimits(db.db, systemClock)]).catch(
        (error: unknown) => logger.warn({ err: error }, 'housekeeping failed'),
      );
    },
    60 * 60 * 1000,
  );
  housekeeping.unref();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(housekeeping);
      const deadline = Date.now() + SHUTDOWN_GRACE_MS;
      logger.info('shutting down: finishing in-flight requests and running jobs');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const forced = setTimeout(() => {
        logger.warn(`requests still running after ${SHUTDOWN_GRACE_MS / 1000} s; closing their connections`);
        server.closeAllConnections();
      }, SHUTDOWN_GRACE_MS);
      await closed;
      clearTimeout(forced);
      // No request runs now: the upload locks' connection ends (services/upload-locker.ts).
      await uploadLocker.close().catch((error: unknown) => logger.warn({ err: error }, 'upload locker close failed'));
      // Running jobs get what is left of the grace period (at least a second); those still running
      // then are released for a retry after the restart or by another process.
      await queue.stop({ timeoutMs: Math.max(1000, deadline - Date.now()) });
      await socketServer?.stop().catch((error: unknown) => logger.warn({ err: error }, 'socket server stop failed'));
      mailer.close();
      await db.close();
      lock?.release();
      logger.info('stopped');
    })();
    return closing;
  };

  return { url, port, database: db, jobs: queue, close };
}
