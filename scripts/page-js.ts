/**
 * `npm run page-js -- [<page>…] [--first-visit] [-v]`: the JavaScript a built page loads at start,
 * brotli (the copies the build writes beside each file, what the server sends), file by file: its
 * module scripts, the islands that hydrate at once (`client:load`; `client:consent` too on a first
 * visit, when the cookie banner shows) and their static imports. Dynamic `import()`s are listed
 * apart: they load later, on demand (a dialog when opened, a header menu on interaction or idle),
 * and so are the islands hydrated on demand (`client:consent`, `client:toast`, and `client:intent`:
 * a guest's form when the visitor reaches for it, docs/decisions/027-hydration-on-intent.md).
 *
 * With no page named it checks every page of the route table against its budget
 * (`PAGE_JS_BUDGETS`, first visit counted) and exits 1 when one is over: `npm run page-js`, and the
 * function `checkPageJsBudgets(distDir)` for `npm run bench`.
 *
 *   npm run page-js -- surveys/_/index.html -v
 *   npm run page-js
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { LANGUAGES, localizedPath } from '../src/shared/languages.ts';
import { ROUTES, shellPath, type Access } from '../src/shared/routes.ts';

/**
 * JavaScript budgets, bytes brotli at start on a first visit (docs/benchmarks.md, issue "page
 * weight"): public and guest pages 90 KB, the participant's survey screen 150 KB, a mission
 * 160 KB (its photo and video answers go through the local outbox: the files' states and their
 * words, Arabic's plural forms the largest, come at start; decision 038), every other signed-in
 * page 150 KB, the admin area (staff on desktops, charts and builders) 250 KB.
 */
export const PAGE_JS_BUDGETS = {
  guest: 90_000,
  public: 90_000,
  maintenance: 90_000,
  survey: 150_000,
  mission: 160_000,
  auth: 150_000,
  admin: 250_000,
} as const satisfies Record<Access | 'survey' | 'mission', number>;

/** The budget of a route pattern. */
export function pageJsBudget(pattern: string, access: Access): number {
  if (pattern === '/surveys/:id') return PAGE_JS_BUDGETS.survey;
  if (pattern === '/missions/:id') return PAGE_JS_BUDGETS.mission;
  return PAGE_JS_BUDGETS[access];
}

export interface PageJs {
  page: string;
  files: { url: string; bytes: number }[];
  /** Brotli bytes of every file loaded at start. */
  bytes: number;
  /** Chunks the start-up code can import later (not counted). */
  lazy: string[];
}

const STATIC_IMPORT = /(?:from\s*|import\s*)["'](\.\/[^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g;

/** The brotli size of a built file: its `.br` copy when the build wrote one. */
function brotliBytes(file: string): number {
  const copy = `${file}.br`;
  if (fs.existsSync(copy)) return fs.statSync(copy).size;
  return zlib.brotliCompressSync(fs.readFileSync(file), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

/**
 * `firstVisit` is kept for the command line: the cookie banner (`client:consent`) now loads when a
 * visitor reaches for it, first visit or not, so it is never counted. `islands`: the `client:`
 * directives counted (default `load` and `idle-once`: the header's controls load right after the page).
 */
export function pageJs(distDir: string, page: string, options: { firstVisit?: boolean; islands?: readonly string[] } = {}): PageJs {
  return pageJsOf(distDir, page, fs.readFileSync(path.join(distDir, page), 'utf8'), options.islands ?? ['load', 'idle-once']);
}

/**
 * What the scripts at `roots` (`/_astro/…` URLs) load: every file they import statically, followed
 * to the end, with its brotli bytes, and the chunks they import on demand (`lazy`, not followed).
 */
export function scriptClosure(distDir: string, roots: Iterable<string>): { files: Map<string, number>; lazy: Set<string> } {
  const files = new Map<string, number>();
  const lazy = new Set<string>();
  const visit = (url: string): void => {
    if (files.has(url)) return;
    const file = path.join(distDir, url);
    if (!fs.existsSync(file)) return;
    files.set(url, brotliBytes(file));
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(STATIC_IMPORT)) visit(path.posix.join(path.posix.dirname(url), m[1] ?? ''));
    for (const m of text.matchAll(DYNAMIC_IMPORT)) lazy.add(path.posix.join(path.posix.dirname(url), m[1] ?? ''));
  };
  for (const root of roots) visit(root);
  return { files, lazy };
}

function pageJsOf(distDir: string, page: string, html: string, eager: readonly string[]): PageJs {
  const roots = new Set<string>([...html.matchAll(/<script[^>]*\ssrc="(\/_astro\/[^"]+\.js)"/g)].map((m) => m[1] ?? ''));
  for (const island of html.matchAll(/<astro-island\b[^>]*>/g)) {
    const tag = island[0];
    const client = /\sclient="([^"]+)"/.exec(tag)?.[1] ?? '';
    if (!eager.includes(client)) continue;
    for (const attr of ['component-url', 'renderer-url']) {
      const url = new RegExp(`\\s${attr}="([^"]+)"`).exec(tag)?.[1];
      if (url) roots.add(url);
    }
  }
  const { files: seen, lazy } = scriptClosure(distDir, roots);
  const files = [...seen].map(([url, bytes]) => ({ url, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { page, files, bytes: files.reduce((sum, f) => sum + f.bytes, 0), lazy: [...lazy].filter((url) => !seen.has(url)) };
}

export interface BudgetRow {
  pattern: string;
  page: string;
  bytes: number;
  budget: number;
}

/**
 * Every page of the route table on a first visit, in every language (issue 31: each language's
 * pages load that language's scripts), with its budget; the ones over budget fail `npm run page-js`.
 */
export function checkPageJsBudgets(distDir: string): { rows: BudgetRow[]; over: BudgetRow[] } {
  const rows: BudgetRow[] = [];
  for (const language of LANGUAGES) {
    for (const route of ROUTES) {
      const page = path.posix.join(shellPath(localizedPath(route.pattern, language)).replace(/^\//, ''), 'index.html');
      if (!fs.existsSync(path.join(distDir, page))) continue; // a route rule's redirect, no page of its own
      rows.push({
        pattern: localizedPath(route.pattern, language),
        page,
        bytes: pageJs(distDir, page, { firstVisit: true }).bytes,
        budget: pageJsBudget(route.pattern, route.access),
      });
    }
  }
  return { rows, over: rows.filter((row) => row.bytes > row.budget) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const firstVisit = args.includes('--first-visit');
  const verbose = args.includes('-v');
  const dist = path.resolve(process.env.DIST_DIR ?? 'dist');
  const pages = args.filter((a) => !a.startsWith('-'));
  for (const page of pages) {
    const result = pageJs(dist, page, { firstVisit });
    if (verbose) for (const f of result.files) console.log(String(f.bytes).padStart(8), f.url);
    console.log(
      `${page}${firstVisit ? ' (first visit)' : ''}: ${result.files.length} scripts at start, ${(result.bytes / 1000).toFixed(1)} KB brotli (${result.bytes} bytes); ${result.lazy.length} chunks load on demand`,
    );
  }
  if (pages.length === 0) {
    const { rows, over } = checkPageJsBudgets(dist);
    for (const row of rows)
      console.log(
        `${row.bytes > row.budget ? 'OVER' : 'ok  '} ${row.pattern.padEnd(44)} ${(row.bytes / 1000).toFixed(1).padStart(6)} KB of ${(row.budget / 1000).toFixed(0)} KB brotli (first visit)`,
      );
    if (over.length > 0) {
      console.error(`${over.length} page(s) over their JavaScript budget: ${over.map((row) => row.pattern).join(', ')}`);
      process.exitCode = 1;
    }
  }
}
