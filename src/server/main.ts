/**
 * `node src/server/main.ts` (and `npm start`): checks the environment, restarts itself with the
 * server's V8 flags (node-flags.ts), and only then loads and starts the server (server.ts), so a
 * refused environment answers at once and the restart does not load the application twice.
 * With WEB_CONCURRENCY=N this process starts and watches N workers (cluster.ts).
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPrimary } from './cluster.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger } from './logger.ts';
import { runWithServerNodeFlags } from './node-flags.ts';
import type { RunningServer } from './server.ts';

/** Start, and stop cleanly on SIGTERM / SIGINT (exit code 0). */
export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  // WEB_CONCURRENCY=N (PostgreSQL only, checked by loadConfig): this process only starts and watches N workers.
  if (config.webConcurrency > 1 && cluster.isPrimary) return runPrimary(config, logger);
  let running: RunningServer;
  try {
    const { startServer } = await import('./server.ts');
    running = await startServer(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'could not start');
    logger.flush();
    process.stderr.write(`Fieldwork could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const stop = (signal: string) => {
    logger.info({ signal }, 'signal received');
    running
      .close()
      .then(() => {
        logger.flush();
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        logger.flush();
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // Before anything heavy loads: the restart (process.execve) would load it again.
  runWithServerNodeFlags();
  await main();
}
