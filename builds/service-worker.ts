/**
 * After the build (scripts/build.ts, once `writeManifests` has run over the whole of dist/):
 * writes `dist/sw.js`, the service worker of issue 33 §2 (src/sw/worker.ts, bundled by esbuild),
 * with what it precaches for each language: that language's participant pages (the route table's
 * `auth` pages of the default layout) and every hashed file they load, at once or later (their
 * scripts, styles, islands and the chunks those import, dynamic imports included, so a dialog opens
 * offline too), and the current build's meta. Staff pages, and files only they load, are not in it.
 * `docs/decisions/038-field-capture.md` "Missions offline".
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { build } from 'esbuild';
import type { RouteTable } from '../src/shared/build-manifest.ts';
import { LANGUAGES, localizedPath, type Language } from '../src/shared/languages.ts';
import { ROUTES, shellPath } from '../src/shared/routes.ts';
import { SERVICE_WORKER_PATH } from '../src/shared/offline.ts';
import { isParticipantRoute, OFFLINE_MESSAGE_KEYS, precachePageUrl, type OfflineTexts } from '../src/shared/service-worker.ts';
import type { WorkerConfig } from '../src/sw/worker.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A reference to a built file inside a page or a built file: `/_astro/x.js`, `"_astro/x.js"` (Vite's preload lists), `./x.js`. */
const REFERENCE = /(?:\.\/|_astro\/)([\w.~-]+\.(?:js|mjs|css|woff2?|svg|png|webp|avif|jpe?g|gif))/g;

/** The hashed files `html` loads, followed through every import (static and dynamic) and stylesheet. */
async function filesOf(distDir: string, html: string, seen: Set<string>): Promise<void> {
  const queue = [...html.matchAll(REFERENCE)].map((m) => m[1] ?? '');
  while (queue.length > 0) {
    const name = queue.pop() as string;
    const url = `/_astro/${name}`;
    if (seen.has(url)) continue;
    let text: string;
    try {
      text = await fs.readFile(path.join(distDir, '_astro', name), 'utf8');
    } catch {
      continue; // Not a file of the build (a name in a string that looks like one).
    }
    seen.add(url);
    if (/\.(js|mjs|css)$/.test(name)) for (const m of text.matchAll(REFERENCE)) queue.push(m[1] ?? '');
  }
}

/** Each language's precache list: its participant pages (fetched at a sample address, kept under their shell's) and their files. */
export async function precacheLists(distDir: string): Promise<WorkerConfig['precache']> {
  const table = JSON.parse(await fs.readFile(path.join(distDir, '_routes.json'), 'utf8')) as RouteTable;
  const lists = {} as WorkerConfig['precache'];
  for (const language of LANGUAGES) {
    const assets = new Set<string>();
    const pages: { url: string; key: string }[] = [];
    for (const route of ROUTES) {
      if (!isParticipantRoute(route)) continue;
      const pattern = localizedPath(route.pattern, language);
      const entry = table.routes.find((r) => r.pattern === pattern);
      if (!entry) continue;
      const html = await fs.readFile(path.join(distDir, entry.file), 'utf8').catch(() => null);
      if (html === null) continue; // A route rule's redirect: no page of its own.
      pages.push({ url: precachePageUrl(route.pattern, language), key: localizedPath(shellPath(route.pattern), language) });
      await filesOf(distDir, html, assets);
    }
    lists[language] = { assets: [...assets, `/builds/meta/${table.buildId}.json`].sort(), pages };
  }
  return lists;
}

/** The offline page's words, from the messages (messages/shell/{language}.json). */
async function offlineTexts(): Promise<Record<Language, OfflineTexts>> {
  const texts = {} as Record<Language, OfflineTexts>;
  for (const language of LANGUAGES) {
    const messages = JSON.parse(await fs.readFile(path.join(root, 'messages', 'shell', `${language}.json`), 'utf8')) as Record<string, string>;
    const word = (key: string): string => {
      const value = messages[key];
      if (typeof value !== 'string' || value === '') throw new Error(`messages/shell/${language}.json has no ${key}`);
      return value;
    };
    texts[language] = { title: word(OFFLINE_MESSAGE_KEYS.title), text: word(OFFLINE_MESSAGE_KEYS.text), retry: word(OFFLINE_MESSAGE_KEYS.retry) };
  }
  return texts;
}

/** Writes dist/sw.js (and its compressed copies); returns how many files each language precaches. */
export async function writeServiceWorker(distDir: string, log: (message: string) => void = () => {}): Promise<Record<Language, number>> {
  const table = JSON.parse(await fs.readFile(path.join(distDir, '_routes.json'), 'utf8')) as RouteTable;
  const config: WorkerConfig = { buildId: table.buildId, precache: await precacheLists(distDir), offline: await offlineTexts() };
  const result = await build({
    entryPoints: [path.join(root, 'src', 'sw', 'worker.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: true,
    write: false,
    legalComments: 'none',
    banner: { js: `const __FIELDWORK_SW__=${JSON.stringify(config)};` },
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error('esbuild wrote no service worker');
  const file = path.join(distDir, SERVICE_WORKER_PATH.slice(1));
  await fs.writeFile(file, code);
  await fs.writeFile(`${file}.br`, zlib.brotliCompressSync(code, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  await fs.writeFile(`${file}.gz`, zlib.gzipSync(code, { level: 9 }));
  const counts = Object.fromEntries(LANGUAGES.map((language) => [language, config.precache[language].assets.length])) as Record<Language, number>;
  log(`service worker: ${code.byteLength} bytes; precached files per language ${JSON.stringify(counts)}`);
  return counts;
}
