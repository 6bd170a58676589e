/**
 * The static host of the static-host tests (playwright.static-host.config.ts): builds the site when
 * stale, copies dist/ to a folder of its own (E2E_STATIC_ROOT, so a test can publish a "new build"
 * into it without touching dist/), and runs nginx there with the configuration
 * `npm run cli -- deploy:nginx` prints, proxying /api/ to E2E_API_PORTS. Runs until SIGTERM.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildIfStale } from '../../scripts/start.ts';
import { startNginx } from '../support/nginx.ts';
import { ROOT } from '../support/processes.ts';

const dist = path.resolve(process.env.DIST_DIR ?? path.join(ROOT, 'dist'));
const root = process.env.E2E_STATIC_ROOT;
const port = Number(process.env.E2E_NGINX_PORT);
const api = (process.env.E2E_API_PORTS ?? '')
  .split(',')
  .filter(Boolean)
  .map((p) => `127.0.0.1:${p}`);
if (!root || !port || api.length === 0) throw new Error('E2E_STATIC_ROOT, E2E_NGINX_PORT and E2E_API_PORTS are needed');

buildIfStale(dist);
fs.rmSync(root, { recursive: true, force: true });
fs.cpSync(dist, root, { recursive: true });
const nginx = await startNginx({ root, api, port });
console.log(`static host on ${nginx.url}, API at ${api.join(', ')}`);
const stop = () => {
  void nginx.stop().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
