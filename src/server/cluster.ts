/**
 * WEB_CONCURRENCY=N: N API processes on this machine sharing one port through node:cluster (the
 * primary hands each new connection to a worker in turn). PostgreSQL only: sessions, rate-limit
 * counters, the job queue and photos (MEDIA_DIR, or the bucket) are shared by every process, and
 * nothing is kept in one process's memory that another would need (docs/deploy.md).
 *
 * The primary serves nothing itself. A worker that dies after it was ready is started again; one
 * that cannot start (a bad DATABASE_URL, a taken port) stops them all, so a broken setup fails
 * loudly instead of restarting forever. SIGTERM / SIGINT are passed on, and the primary exits once
 * every worker has finished its in-flight requests and jobs.
 */
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

/** What a worker tells the primary once it listens. */
export const READY_MESSAGE = 'fieldwork:ready';
/** How long after a crash a worker is started again (crash loops stay slow). */
const RESTART_DELAY_MS = 1000;

export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  cluster.setupPrimary({ exec: path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts') });
  const ready = new Set<number>();
  let stopping = false;
  /** A worker could not start: the primary exits 1 once every worker has stopped. */
  let startFailed = false;
  let url: string | undefined;

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (typeof message !== 'object' || message === null || (message as { type?: unknown }).type !== READY_MESSAGE) return;
      ready.add(worker.id);
      const workerUrl = (message as { url?: unknown }).url;
      if (!url && typeof workerUrl === 'string') {
        url = workerUrl;
      }
      if (ready.size === config.webConcurrency)
        logger.info({ url, processes: config.webConcurrency }, `Fieldwork listening on ${url} with ${config.webConcurrency} processes`);
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const wasReady = ready.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info('every process stopped');
        logger.flush();
        process.exit(startFailed ? 1 : 0);
      }
      return;
    }
    if (!wasReady) {
      logger.fatal({ pid: worker.process.pid, code, signal }, 'an API process could not start; stopping the others');
      stopping = true;
      startFailed = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      logger.flush();
      process.exitCode = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      setTimeout(() => process.exit(1), 15_000).unref();
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'an API process stopped unexpectedly; starting another');
    setTimeout(() => {
      if (!stopping) fork();
    }, RESTART_DELAY_MS);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'signal received: stopping every process');
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  logger.info({ processes: config.webConcurrency }, `starting ${config.webConcurrency} API processes`);
  for (let i = 0; i < config.webConcurrency; i++) fork();
}

/** In a worker: tell the primary this process listens. */
export function reportReady(url: string): void {
  if (cluster.isWorker && process.send) process.send({ type: READY_MESSAGE, url });
}
