/**
 * `npm run build`: the site in every language, one language at a time (issue 31; decision 034).
 * Each language's build compiles the messages for it alone (`scripts/messages.ts --only=xx`), so
 * its pages' scripts carry its texts and no other language's, and prerenders its pages (English at
 * today's paths, the others under their prefix: builds/languages.ts). The parts are then put
 * together in dist/ (the hashed scripts of every part side by side) and the manifests written over
 * the whole (builds/integration.ts `writeManifests`). The messages are compiled for every language
 * again at the end (what the server, the tests and `astro dev` use).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeManifests } from '../builds/integration.ts';
import { writeServiceWorker } from '../builds/service-worker.ts';
import { ROUTE_RULES } from '../builds/route-rules.ts';
import { LANGUAGES, SOURCE_LANGUAGE } from '../src/shared/languages.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const astroBin = path.join(path.dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'bin', 'astro.mjs');

function run(args: string[], env: Record<string, string> = {}): void {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${args.map((arg) => path.basename(arg)).join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** Copies `from` into `to`, keeping what is there (a hashed file of the same name is the same file). */
function merge(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, force: false, errorOnExist: false });
}

export async function buildSite(distDir: string, options: { silent?: boolean } = {}): Promise<void> {
  const started = Date.now();
  const parts = path.join(root, '.astro', 'language-builds');
  fs.rmSync(parts, { recursive: true, force: true });
  try {
    for (const language of LANGUAGES) {
      const part = path.join(parts, language);
      run([path.join(root, 'scripts', 'messages.ts'), `--only=${language}`]);
      run([astroBin, 'build', ...(options.silent ? ['--silent'] : [])], { DIST_DIR: part, FW_BUILD_LANGUAGE: language });
    }
    fs.rmSync(distDir, { recursive: true, force: true });
    // English: the whole of its part (its pages at today's paths, the public files).
    fs.cpSync(path.join(parts, SOURCE_LANGUAGE), distDir, { recursive: true });
    for (const language of LANGUAGES) {
      if (language === SOURCE_LANGUAGE) continue;
      const part = path.join(parts, language);
      // Its pages (under its prefix) and the scripts they load; the English-path pages it also built are not its.
      fs.cpSync(path.join(part, language), path.join(distDir, language), { recursive: true });
      merge(path.join(part, '_astro'), path.join(distDir, '_astro'));
    }
  } finally {
    run([path.join(root, 'scripts', 'messages.ts')]);
    fs.rmSync(parts, { recursive: true, force: true });
  }
  await writeManifests(distDir, { routeRules: ROUTE_RULES }, (message) => console.log(message));
  // The participants' service worker, over the whole (its precache lists read the route table).
  await writeServiceWorker(distDir, (message) => console.log(message));
  console.log(`Built ${LANGUAGES.length} languages in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await buildSite(path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist')), { silent: process.argv.includes('--silent') });
}
