/**
 * `npm start`: builds the site when it is missing or stale, then starts the server (which runs
 * the migrations). Staleness is a digest of everything the build reads, kept in dist/.fingerprint.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithServerNodeFlags } from '../src/server/node-flags.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What `astro build` reads; src/server is the API's alone and does not need a rebuild. */
const INPUTS = ['astro.config.mjs', 'package-lock.json', 'tsconfig.json', 'builds', 'public', 'src', 'messages', 'project.inlang'];
/** The API's own code, and the messages compiled from messages/ (scripts/messages.ts). */
const IGNORED = new Set([path.join(root, 'src', 'server'), path.join(root, 'src', 'paraglide')]);

function listFiles(entry: string): string[] {
  if (IGNORED.has(entry) || !fs.existsSync(entry)) return [];
  if (!fs.statSync(entry).isDirectory()) return [entry];
  return fs
    .readdirSync(entry)
    .sort()
    .flatMap((name) => listFiles(path.join(entry, name)));
}

/** A digest of the build's inputs (names and contents) and of the environment it depends on. */
export function fingerprint(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => listFiles(path.join(root, input)))) {
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  for (const [name, value] of Object.entries(process.env).sort()) if (name.startsWith('PUBLIC_') || name === 'API_ORIGIN') hash.update(`${name}=${value}\0`);
  return hash.digest('hex');
}

export function buildIfStale(distDir: string): void {
  const stampFile = path.join(distDir, '.fingerprint');
  const wanted = fingerprint();
  const current = fs.existsSync(path.join(distDir, '_routes.json')) && fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8') : '';
  if (current === wanted) return;
  console.log(current ? 'Sources changed since the last build: building the site…' : 'No build found: building the site…');
  // Every language, one at a time, then the manifests over the whole (scripts/build.ts).
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.ts'), '--silent'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DIST_DIR: distDir },
  });
  if (result.status !== 0) {
    console.error('The build failed; see above.');
    process.exit(result.status ?? 1);
  }
  fs.writeFileSync(stampFile, wanted);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // The server's V8 flags, before anything heavy loads (src/server/node-flags.ts).
  runWithServerNodeFlags();
  // SERVE_STATIC=0: the API only, which needs no build (a static host serves dist/).
  const apiOnly = ['0', 'false'].includes(process.env.SERVE_STATIC?.trim() ?? '');
  if (!apiOnly) buildIfStale(path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist')));
  const { main } = await import('../src/server/main.ts');
  await main();
}
