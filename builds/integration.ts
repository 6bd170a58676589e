import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { AstroIntegration } from 'astro';
import { ROUTES, shellPath } from '../src/shared/routes.ts';
import { LANGUAGES, localizedPath, SOURCE_LANGUAGE, type Language } from '../src/shared/languages.ts';
import type { BuildMeta, LatestBuild, PagePayload, RouteRule, RouteTable, RouteTableEntry } from '../src/shared/build-manifest.ts';
import { pageCsp } from '../src/shared/csp.ts';
import { markCompileHints } from './compile-hints.ts';
import {
  CACHE_NEVER,
  CACHE_REVALIDATE,
  IMMUTABLE_FOLDERS,
  LATEST_BUILD_FILE,
  SERVICE_WORKER_FILE,
  STATIC_SECURITY_HEADERS,
  cacheControlFor,
} from '../src/shared/static-headers.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|xml|map|webmanifest)$/;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

async function walk(dir: string, base = dir): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full, base) : [path.relative(base, full).split(path.sep).join('/')];
    }),
  );
  return files.flat();
}

/** sha256 hashes of the inline scripts of a page (data blocks are not scripts to the CSP). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? '';
    if (/(?:^|\s)src\s*=/i.test(attributes)) continue;
    const type = /(?:^|\s)type\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript' && type !== 'application/javascript') continue;
    hashes.push(
      `sha256-${createHash('sha256')
        .update(match[2] ?? '')
        .digest('base64')}`,
    );
  }
  return hashes;
}

/** The HTML file answering a route pattern, relative to dist/. */
export function routeFile(pattern: string): string {
  return pattern === '/' ? 'index.html' : `${shellPath(pattern).slice(1)}/index.html`;
}

function matcherFor(rules: Record<string, RouteRule>): BuildMeta['matcher'] {
  const matcher: BuildMeta['matcher'] = { static: {}, wildcard: {}, dynamic: {} };
  for (const [pattern, rule] of Object.entries(rules)) {
    if (pattern.endsWith('/**')) matcher.wildcard[pattern.slice(0, -3) || '/'] = rule;
    else if (pattern.includes(':') || pattern.includes('*')) matcher.dynamic[pattern] = rule;
    else matcher.static[pattern] = rule;
  }
  return matcher;
}

/**
 * After `astro build`: puts V8's compile hint at the top of every script (builds/compile-hints.ts),
 * writes the build manifests (builds/latest.json, builds/meta/{id}.json),
 * a `_payload.json` beside each page, the route table for the Node server (`_routes.json`),
 * `_redirects` and `_headers` for static hosts, and brotli/gzip copies of text files.
 */
export default function buildManifests(options: ManifestOptions = {}): AstroIntegration {
  return {
    name: 'fieldwork-build-manifests',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        // One language's part of a build (scripts/build.ts): the manifests are written once, over the whole.
        if (process.env.FW_BUILD_LANGUAGE) return;
        await writeManifests(fileURLToPath(dir), options, (message) => logger.info(message));
      },
    },
  };
}

export interface ManifestOptions {
  routeRules?: Record<string, RouteRule>;
}

/** The scripts' compile hints, then the manifests, payloads, route table, static-host files and compressed copies of a built dist/ (every language in it). */
export async function writeManifests(distDir: string, options: ManifestOptions, log: (message: string) => void): Promise<void> {
  // First: the digest, the compressed copies and the service worker's precache read the scripts as served.
  const hinted = await markCompileHints(distDir);
  const files = (await walk(distDir)).filter((f) => !/\.(br|gz)$/.test(f));
  const htmlFiles = files.filter((f) => f.endsWith('.html'));

  // Every route of the table must have its page, in every language (builds/languages.ts).
  const routes: RouteTableEntry[] = [];
  for (const language of LANGUAGES) {
    for (const route of ROUTES) {
      const pattern = localizedPath(route.pattern, language);
      const file = routeFile(pattern);
      if (!htmlFiles.includes(file)) throw new Error(`Route ${pattern} has no page (expected dist/${file})`);
      routes.push({ pattern, language, file, access: route.access, params: 'params' in route ? { ...route.params } : {} });
    }
  }
  const notFound = htmlFiles.includes('404.html') ? '404.html' : '404/index.html';
  if (!htmlFiles.includes(notFound)) throw new Error('The 404 page is missing (src/pages/404.astro)');
  const notFoundByLanguage = Object.fromEntries(
    LANGUAGES.map((language) => [language, language === SOURCE_LANGUAGE ? notFound : `${language}/404/index.html`]),
  ) as Record<Language, string>;
  for (const file of Object.values(notFoundByLanguage)) if (!htmlFiles.includes(file)) throw new Error(`The 404 page dist/${file} is missing`);

  // Build id: a digest of the output, so an unchanged site keeps its id.
  const digest = createHash('sha256');
  const scriptHashes = new Set<string>();
  for (const file of files.sort()) {
    const content = await fs.readFile(path.join(distDir, file));
    digest.update(file).update(content);
    if (file.endsWith('.html')) for (const hash of inlineScriptHashes(content.toString('utf8'))) scriptHashes.add(hash);
  }
  const id = digest.digest('hex').slice(0, 16);
  const timestamp = Date.now();

  // Payloads beside each page, then the manifests.
  const prerendered: string[] = [];
  for (const language of LANGUAGES) {
    for (const route of ROUTES) {
      const pattern = localizedPath(route.pattern, language);
      const pageDir = path.dirname(path.join(distDir, routeFile(pattern)));
      const payload: PagePayload = {
        data: { pattern: route.pattern, title: route.title, access: route.access },
        prerenderedAt: timestamp,
      };
      await fs.writeFile(path.join(pageDir, '_payload.json'), JSON.stringify(payload));
      prerendered.push(shellPath(pattern));
    }
  }
  await fs.mkdir(path.join(distDir, 'builds', 'meta'), { recursive: true });
  const latest: LatestBuild = { id, timestamp };
  const meta: BuildMeta = { id, timestamp, matcher: matcherFor(options.routeRules ?? {}), prerendered };
  await fs.writeFile(path.join(distDir, 'builds', 'latest.json'), JSON.stringify(latest));
  await fs.writeFile(path.join(distDir, 'builds', 'meta', `${id}.json`), JSON.stringify(meta));

  const table: RouteTable = { buildId: id, routes, notFound, notFoundByLanguage, scriptHashes: [...scriptHashes].sort() };
  await fs.writeFile(path.join(distDir, '_routes.json'), JSON.stringify(table, null, 2));

  // Static hosts (Netlify, Cloudflare Pages and the like): rewrites and headers.
  const redirects = [
    '# Written by builds/integration.ts: dynamic routes are served by their prerendered shell.',
    ...Object.entries(options.routeRules ?? {}).flatMap(([from, rule]) =>
      rule.redirect ? [`${from.replace(/\/\*\*$/, '/*')}  ${rule.redirect.to}  ${rule.redirect.statusCode}`] : [],
    ),
    ...routes.filter((r) => Object.keys(r.params).length > 0).map((r) => `${r.pattern}  /${path.posix.dirname(r.file)}/  200`),
    // With API_ORIGIN set at build time, the static host proxies /api to the API processes.
    ...(process.env.API_ORIGIN ? [`/api/*  ${process.env.API_ORIGIN.replace(/\/+$/, '')}/api/:splat  200`] : []),
    // Each language's not-found page under its prefix, then the source language's everywhere else.
    ...LANGUAGES.filter((language) => language !== SOURCE_LANGUAGE).map((language) => `/${language}/*  /${notFoundByLanguage[language]}  404`),
    `/*  /${notFound}  404`,
  ];
  await fs.writeFile(path.join(distDir, '_redirects'), `${redirects.join('\n')}\n`);
  // Security headers on everything; Cache-Control per kind of file, never twice for one path
  // (hosts join the values of every rule that matches: src/shared/static-headers.ts).
  const cacheRules = [
    ...IMMUTABLE_FOLDERS.map((folder) => [`/${folder}*`, cacheControlFor(folder)] as const),
    [`/${LATEST_BUILD_FILE}`, CACHE_NEVER] as const,
    // The service worker (written by builds/service-worker.ts after this): revalidated at every update check.
    [`/${SERVICE_WORKER_FILE}`, CACHE_REVALIDATE] as const,
    ...routes.flatMap((r) => {
      const at = r.pattern === '/' ? '' : r.pattern;
      return [[at || '/', CACHE_REVALIDATE] as const, [`${at}/_payload.json`, CACHE_REVALIDATE] as const];
    }),
  ];
  const headers = [
    '/*',
    ...Object.entries(STATIC_SECURITY_HEADERS).map(([name, value]) => `  ${name}: ${value}`),
    // Google Analytics hosts only when PUBLIC_GA_ID is set at build time (as the Node server does at run time).
    `  Content-Security-Policy: ${pageCsp([...scriptHashes], [], { analyticsId: process.env.PUBLIC_GA_ID?.trim() || undefined })}`,
    ...cacheRules.flatMap(([at, value]) => [at, `  Cache-Control: ${value}`]),
    // Joined with the rule above as "strict-origin-when-cross-origin, no-referrer": browsers take the last.
    ...routes.filter((r) => Object.values(r.params).includes('token')).flatMap((r) => [r.pattern, '  Referrer-Policy: no-referrer']),
  ];
  await fs.writeFile(path.join(distDir, '_headers'), `${headers.join('\n')}\n`);

  // Precompressed copies for the Node server (and any host that serves them).
  const all = await walk(distDir);
  await Promise.all(
    all
      .filter((f) => COMPRESSIBLE.test(f) && !f.startsWith('_routes'))
      .map(async (file) => {
        const full = path.join(distDir, file);
        const content = await fs.readFile(full);
        if (content.length < 1024) return;
        const [br, gz] = await Promise.all([brotli(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }), gzip(content, { level: 9 })]);
        if (br.length < content.length) await fs.writeFile(`${full}.br`, br);
        if (gz.length < content.length) await fs.writeFile(`${full}.gz`, gz);
      }),
  );
  log(`build ${id}: ${routes.length} routes, ${scriptHashes.size} inline script hashes, ${hinted} scripts given the compile hint, manifests written`);
}
