/**
 * `npm run page-js -- <page> [--first-visit]`: the JavaScript a built page loads at start, gzip,
 * file by file (what the browser fetches before anyone interacts): its module scripts, the islands
 * that hydrate at once (`client:load`; `client:consent` too on a first visit, when the cookie
 * banner shows) and their static imports. Dynamic `import()`s are listed apart: they load later,
 * on demand. Used to check the JS budget of a page (a survey screen: ≤ 150 KB gzip).
 *
 *   npm run page-js -- surveys/_/index.html
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface PageJs {
  page: string;
  files: { url: string; gzip: number }[];
  gzipBytes: number;
  /** Chunks the start-up code can import later (not counted). */
  lazy: string[];
}

const STATIC_IMPORT = /(?:from\s*|import\s*)["'](\.\/[^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g;

export function pageJs(distDir: string, page: string, options: { firstVisit?: boolean } = {}): PageJs {
  const html = fs.readFileSync(path.join(distDir, page), 'utf8');
  const roots = new Set<string>([...html.matchAll(/<script[^>]*\ssrc="(\/_astro\/[^"]+\.js)"/g)].map((m) => m[1] ?? ''));
  const eager = options.firstVisit ? ['load', 'consent'] : ['load'];
  for (const island of html.matchAll(/<astro-island\b[^>]*>/g)) {
    const tag = island[0];
    const client = /\sclient="([^"]+)"/.exec(tag)?.[1] ?? '';
    if (!eager.includes(client)) continue;
    for (const attr of ['component-url', 'renderer-url']) {
      const url = new RegExp(`\\s${attr}="([^"]+)"`).exec(tag)?.[1];
      if (url) roots.add(url);
    }
  }
  const seen = new Map<string, number>();
  const lazy = new Set<string>();
  const visit = (url: string): void => {
    if (seen.has(url)) return;
    const file = path.join(distDir, url);
    if (!fs.existsSync(file)) return;
    const code = fs.readFileSync(file);
    seen.set(url, zlib.gzipSync(code, { level: 9 }).length);
    const text = code.toString('utf8');
    for (const m of text.matchAll(STATIC_IMPORT)) visit(path.posix.join(path.posix.dirname(url), m[1] ?? ''));
    for (const m of text.matchAll(DYNAMIC_IMPORT)) lazy.add(path.posix.join(path.posix.dirname(url), m[1] ?? ''));
  };
  for (const root of roots) visit(root);
  const files = [...seen].map(([url, gzip]) => ({ url, gzip })).sort((a, b) => b.gzip - a.gzip);
  return { page, files, gzipBytes: files.reduce((sum, f) => sum + f.gzip, 0), lazy: [...lazy].filter((url) => !seen.has(url)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const firstVisit = args.includes('--first-visit');
  const verbose = args.includes('-v');
  const dist = path.resolve(process.env.DIST_DIR ?? 'dist');
  for (const page of args.filter((a) => !a.startsWith('-'))) {
    const result = pageJs(dist, page, { firstVisit });
    if (verbose) for (const f of result.files) console.log(String(f.gzip).padStart(8), f.url);
    console.log(
      `${page}${firstVisit ? ' (first visit)' : ''}: ${result.files.length} scripts at start, ${(result.gzipBytes / 1024).toFixed(1)} KiB gzip (${result.gzipBytes} bytes); ${result.lazy.length} chunks load on demand`,
    );
  }
}
