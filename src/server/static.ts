import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { RequestListener } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { Hono } from 'hono';
import { pageCsp, SERVICE_WORKER_CSP } from '../shared/csp.ts';
import type { BuildMeta, RouteTable, RouteTableEntry } from '../shared/build-manifest.ts';
import { findRouteRule, ruleRedirect } from '../shared/build-route-rules.ts';
import {
  acceptLanguageTags,
  firstLanguageOf,
  isLanguage,
  languageFor,
  localizedPath,
  rememberedLanguage,
  splitLanguage,
  type Language,
} from '../shared/languages.ts';
import { decideNavigation, type AuthState } from '../shared/route-rules.ts';
import { isElevated } from '../shared/roles.ts';
import { matchRoute, paramsAreValid } from '../shared/routes.ts';
import { cacheControlFor, SERVICE_WORKER_FILE } from '../shared/static-headers.ts';
import { leanRequest, PLAIN_HOST, writeLeanAnswer, writeLeanFailure } from './lean.ts';
import { requestSession, sessionTokenOf } from './middleware/session.ts';
import { maintenanceOn } from './services/public-flags.ts';
import type { Config } from './config.ts';
import type { AppDeps, AppEnv } from './context.ts';
import type { Db } from './db/index.ts';
import type { Logger } from './logger.ts';
import { pageCspOptions } from './page-csp.ts';

/** A file of dist/, held in memory with its compressed copies. */
interface StaticFile {
  body: Uint8Array;
  br?: Uint8Array;
  gz?: Uint8Array;
  type: string;
  etag: string;
  cacheControl: string;
  /** A CSP of its own (the service worker's: it must fetch from this origin); HTML gets the page CSP, other files none here. */
  csp?: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json; charset=utf-8',
};

/** What BaseLayout writes on pages that wait for the browser's route guard before showing <main>. */
const PENDING_GUARD = ' data-guard="pending"';

/**
 * The page as served once the server has applied the redirect rules to it: without the guard's
 * pending mark, so <main> shows at first paint instead of after the JavaScript and
 * GET /api/auth (the browser's guard still runs and corrects a stale state). Made on first use and
 * kept, compressed like the build's copies. A static host, which decides nothing, serves the page
 * as built.
 */
function releasedVariant(file: StaticFile): StaticFile {
  const html = Buffer.from(file.body).toString('utf8');
  const at = html.indexOf(PENDING_GUARD);
  const end = html.indexOf('>', html.indexOf('<html'));
  if (at === -1 || at > end) return file;
  const body = Buffer.from(html.slice(0, at) + html.slice(at + PENDING_GUARD.length));
  return {
    body,
    ...(file.br ? { br: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }) } : {}),
    ...(file.gz ? { gz: zlib.gzipSync(body, { level: 9 }) } : {}),
    type: file.type,
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
    cacheControl: file.cacheControl,
  };
}

/** Files only the server and static hosts read. */
const HIDDEN = new Set(['_routes.json', '_redirects', '_headers', '.fingerprint']);
const MAX_FILE_BYTES = 20 * 1024 * 1024;

function readDist(distDir: string, logger: Logger): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        visit(full);
        continue;
      }
      const rel = path.relative(distDir, full).split(path.sep).join('/');
      if (rel.endsWith('.br') || rel.endsWith('.gz') || HIDDEN.has(rel)) continue;
      const stat = fs.statSync(full);
      if (stat.size > MAX_FILE_BYTES) {
        logger.warn({ file: rel, bytes: stat.size }, 'static file too large to serve from memory; skipped');
        continue;
      }
      const body = fs.readFileSync(full);
      const optional = (suffix: string) => (fs.existsSync(full + suffix) ? fs.readFileSync(full + suffix) : undefined);
      const br = optional('.br');
      const gz = optional('.gz');
      files.set(rel, {
        body,
        ...(br ? { br } : {}),
        ...(gz ? { gz } : {}),
        type: CONTENT_TYPES[path.extname(rel).toLowerCase()] ?? 'application/octet-stream',
        etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
        cacheControl: cacheControlFor(rel),
        ...(rel === SERVICE_WORKER_FILE ? { csp: SERVICE_WORKER_CSP } : {}),
      });
    }
  };
  visit(distDir);
  return files;
}

/** A page or file request, as both the Hono route and the Node fast path see it. */
export interface StaticRequest {
  readonly method: string;
  /** The path as sent (percent-encoded), without the query. */
  readonly path: string;
  /** The query with its `?`, or ''. */
  readonly search: string;
  /** The site's origin as this request reached it (`http://host`). */
  readonly origin: string;
  header(name: string): string | undefined;
}

/** What the static site answers: ready to write, headers and all (the security headers come from the caller). */
export interface StaticAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
}

/** What answering needs of the server: the database (maintenance, sessions), the clock and the configuration. */
export type StaticDeps = Pick<AppDeps, 'config' | 'clock'> & { readonly db: Db };

export interface StaticSite {
  /** Hono routes answering every non-API GET/HEAD request (API tests, and requests the fast path leaves). */
  readonly pages: Hono<AppEnv>;
  readonly buildId: string | null;
  /**
   * Answers a GET or HEAD request outside /api without the framework: the same decisions as
   * `pages`, for the Node server's lean path (fast-static.ts).
   */
  readonly answer: ((request: StaticRequest, deps: StaticDeps, logger: Logger) => Promise<StaticAnswer>) | null;
}

/**
 * Serves dist/ from memory: exact files, then page routes through the build's route table (one
 * prerendered shell per dynamic pattern), then the 404 page with status 404. Every file's answer
 * headers are prepared once, per encoding; a request only picks them.
 */
export function createStaticSite(distDir: string, logger: Logger, options: { extraConnectSrc?: string[] } = {}): StaticSite {
  const pages = new Hono<AppEnv>();
  const tablePath = path.join(distDir, '_routes.json');
  if (!fs.existsSync(tablePath)) {
    logger.warn({ distDir }, 'no built site found (run `npm run build`); serving the API only');
    pages.all('*', (c) => c.text('Fieldwork has not been built yet: run `npm run build` (or `npm start`, which builds).', 503));
    return { pages, buildId: null, answer: null };
  }
  const table = JSON.parse(fs.readFileSync(tablePath, 'utf8')) as RouteTable;
  const files = readDist(distDir, logger);
  const byPattern = new Map<string, RouteTableEntry>(table.routes.map((r) => [r.pattern, r]));
  /** The page CSP; Google Analytics hosts only when PUBLIC_GA_ID is configured, the photo store's origin when photos redirect there. */
  const cspByConfig = new WeakMap<object, string>();
  const cspFor = (config: Config): string => {
    let csp = cspByConfig.get(config);
    if (csp === undefined) {
      csp = pageCsp(table.scriptHashes, options.extraConnectSrc, pageCspOptions(config));
      cspByConfig.set(config, csp);
    }
    return csp;
  };
  const notFound = files.get(table.notFound);
  /** Each language's not-found page (issue 31), the source language's where one is missing. */
  const notFoundIn = (language: Language) => files.get(table.notFoundByLanguage?.[language] ?? table.notFound) ?? notFound;
  /** The build's route rules (builds/meta/{id}.json): redirects the server applies before the page. */
  const metaFile = files.get(`builds/meta/${table.buildId}.json`);
  const matcher = metaFile ? (JSON.parse(Buffer.from(metaFile.body).toString('utf8')) as BuildMeta).matcher : null;
  const released = new Map<StaticFile, StaticFile>();
  const releasedOf = (file: StaticFile): StaticFile => {
    let variant = released.get(file);
    if (!variant) {
      variant = releasedVariant(file);
      released.set(file, variant);
    }
    return variant;
  };

  /** A file's headers for one status and encoding, made once per configuration (the page CSP depends on it). */
  const prepared = new WeakMap<Config, Map<StaticFile, Map<string, Readonly<Record<string, string>>>>>();
  const headersOf = (file: StaticFile, status: number, encoding: 'br' | 'gzip' | '', length: number, config: Config) => {
    let byFile = prepared.get(config);
    if (!byFile) {
      byFile = new Map();
      prepared.set(config, byFile);
    }
    let byKind = byFile.get(file);
    if (!byKind) {
      byKind = new Map();
      byFile.set(file, byKind);
    }
    const key = status === 304 ? '304' : `${status}${encoding}`;
    let headers = byKind.get(key);
    if (!headers) {
      const csp = file.type.startsWith('text/html') ? cspFor(config) : (file.csp ?? '');
      headers = {
        'Content-Type': file.type,
        'Cache-Control': status === 404 ? 'no-cache' : file.cacheControl,
        ETag: file.etag,
        Vary: 'Accept-Encoding',
        ...(csp ? { 'Content-Security-Policy': csp } : {}),
        ...(encoding ? { 'Content-Encoding': encoding } : {}),
        ...(status === 304 ? {} : { 'Content-Length': String(length) }),
      };
      byKind.set(key, headers);
    }
    return headers;
  };

  const send = (request: StaticRequest, config: Config, file: StaticFile, status: 200 | 404 = 200, extraHeaders?: Record<string, string>): StaticAnswer => {
    if (status === 200 && request.header('if-none-match') === file.etag) {
      const headers = headersOf(file, 304, '', 0, config);
      return { status: 304, headers: extraHeaders ? { ...headers, ...extraHeaders } : headers, body: null };
    }
    const accepts = request.header('accept-encoding') ?? '';
    let body = file.body;
    let encoding: 'br' | 'gzip' | '' = '';
    if (file.br && accepts.includes('br') && /\bbr\b/.test(accepts)) {
      body = file.br;
      encoding = 'br';
    } else if (file.gz && accepts.includes('gzip') && /\bgzip\b/.test(accepts)) {
      body = file.gz;
      encoding = 'gzip';
    }
    const headers = headersOf(file, status, encoding, body.byteLength, config);
    return { status, headers: extraHeaders ? { ...headers, ...extraHeaders } : headers, body: request.method === 'HEAD' ? null : body };
  };
  const redirect = (status: number, to: string, extraHeaders?: Record<string, string>): StaticAnswer => ({
    status,
    headers: { ...extraHeaders, Location: to, 'Cache-Control': 'no-store' },
    body: null,
  });

  /**
   * What the server knows of the visitor (a valid session cookie or none) and the headers every
   * answer to it then carries: the renewed session cookie when this page load renewed the session
   * (sliding expiry), kept out of shared caches (`private`).
   */
  const authOf = async (
    request: StaticRequest,
    deps: StaticDeps,
  ): Promise<{ auth: AuthState; language: Language | null; headers: Record<string, string> | undefined }> => {
    const { publicUrl } = deps.config;
    const found = await requestSession(deps.db, deps.clock, deps.config, sessionTokenOf(request.header('cookie'), publicUrl));
    const preferred = found?.user.preferences?.language;
    return {
      language: isLanguage(preferred) ? preferred : null,
      auth: found
        ? {
            status: 'authenticated',
            role: found.user.role,
            // Staff without a second factor are sent to set one up before any admin page (issue 29 §3).
            secondFactorMissing: deps.config.requireStaffSecondFactor && isElevated(found.user.role) && !found.user.secondFactor,
          }
        : { status: 'unauthenticated' },
      headers: found?.setCookie ? { 'Set-Cookie': found.setCookie, 'Cache-Control': 'private, no-cache' } : undefined,
    };
  };

  /** The same-site path the visitor came from (Referer), for the "from a public page" rule. */
  const referrerPath = (request: StaticRequest): string | null => {
    const referer = request.header('referer');
    if (!referer) return null;
    try {
      const url = new URL(referer);
      return url.origin === request.origin ? url.pathname : null;
    } catch {
      return null;
    }
  };

  /**
   * Whether maintenance is on, through a cache of at most a second (services/public-flags.ts).
   * Should the database not answer, pages are served as if it were off (the API reports the outage).
   */
  const maintenanceOf = async (deps: StaticDeps, log: Logger): Promise<boolean> => {
    try {
      return await maintenanceOn(deps.db, deps.clock);
    } catch (error) {
      log.warn({ err: error }, 'could not read the maintenance flag; serving pages as usual');
      return false;
    }
  };

  const answer = async (request: StaticRequest, deps: StaticDeps, log: Logger): Promise<StaticAnswer> => {
    const pathname = request.path;
    let relative: string | null;
    try {
      relative = decodeURIComponent(pathname).slice(1);
    } catch {
      relative = null;
    }
    // Pages are reached by their routes only, so the redirect rules always apply to them.
    if (relative !== null && !HIDDEN.has(relative) && !relative.endsWith('.html')) {
      const file = files.get(relative);
      if (file) return send(request, deps.config, file);
    }
    // A page request (a route or a 404): the redirect rules (docs/product.md §2) apply before any
    // JavaScript runs, maintenance first; the browser's guard agrees. A path in another language
    // (`/de/account`) is its route under that language's prefix (issue 31).
    const { language: pathLanguage, path: routePath } = splitLanguage(pathname);
    const match = relative === null ? null : matchRoute(routePath);
    const entry = match ? byPattern.get(localizedPath(match.route.pattern, pathLanguage)) : undefined;
    const page = match && entry && paramsAreValid(match) ? files.get(entry.file) : undefined;
    const access = page ? match?.route.access : undefined;
    // The session only matters to guest, signed-in and admin pages; the others skip the lookup.
    const needsSession = access === 'guest' || access === 'auth' || access === 'admin';
    const search = request.search;
    const maintenance = await maintenanceOf(deps, log);
    // A route rule's redirect comes first (docs/product.md §2: the server-provided redirect), as in the browser's guard.
    const rule = maintenance || relative === null ? null : ruleRedirect(matcher, pathname, request.origin);
    if (rule) return redirect(findRouteRule(matcher, routePath)?.redirect?.statusCode ?? 302, rule.to);
    const visitor = needsSession && !maintenance ? await authOf(request, deps) : null;
    const language = languageFor({
      path: pathLanguage,
      preference: visitor?.language,
      remembered: rememberedLanguage(request.header('cookie')),
      browser: firstLanguageOf(acceptLanguageTags(request.header('accept-language'))),
    });
    const decision = decideNavigation({
      // `/maintenance/` is `/maintenance` to the rules, as it is to the route table.
      path: pathname.replace(/\/+$/, '') || '/',
      search,
      auth: visitor?.auth ?? { status: 'unknown' },
      from: referrerPath(request),
      maintenance,
      // A page that is not one (a 404) is answered in the path's language: nothing to move.
      language: page ? language : pathLanguage,
    });
    if (decision.action === 'redirect') return redirect(302, decision.to, { ...visitor?.headers, Vary: 'Cookie, Accept-Language' });
    if (!match || !page) {
      const missing = notFoundIn(pathLanguage);
      return missing
        ? send(request, deps.config, missing, 404)
        : { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: Buffer.from(`Page not found: ${pathname}`) };
    }
    // Pages holding a link token (in the path, or as ?token= on /data-deletion) send no referrer.
    const holdsToken = Object.values(match.route.params ?? {}).includes('token') || new URLSearchParams(search).has('token');
    // The rules let this visitor stay (the session was checked where it matters): the page shows at once.
    const extraHeaders = holdsToken ? { ...visitor?.headers, 'Referrer-Policy': 'no-referrer' } : visitor?.headers;
    return send(request, deps.config, releasedOf(page), 200, extraHeaders);
  };

  pages.on(['GET', 'HEAD'], '*', async (c) => {
    const url = new URL(c.req.url);
    const request: StaticRequest = { method: c.req.method, path: c.req.path, search: url.search, origin: url.origin, header: (name) => c.req.header(name) };
    const answered = await answer(request, { db: c.get('db'), clock: c.get('deps').clock, config: c.get('deps').config }, c.get('logger') ?? logger);
    const status = answered.status as 200;
    return answered.body ? c.body(answered.body as Uint8Array<ArrayBuffer>, status, answered.headers) : c.body(null, status, answered.headers);
  });
  pages.all('*', (c) => c.text('Method Not Allowed', 405, { Allow: 'GET, HEAD' }));

  logger.info({ buildId: table.buildId, files: files.size, routes: table.routes.length }, 'static site loaded');
  return { pages, buildId: table.buildId, answer };
}

/** A request target the lean path answers as it stands: a plain path, no dot segment, no escape, no fragment. */
const PLAIN_TARGET = /^\/(?!api(?:[/?]|$))[\w\-./~!$&'()*+,;=:@]*(?:\?[^#\s]*)?$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;

/**
 * The Node server's lean path for pages and files (docs/decisions/024-lean-request-paths.md): a GET or
 * HEAD outside /api with a plain target is answered straight from memory — the site's own
 * decisions (`answer`), the headers every answer carries (security headers, request id) and
 * the one log line — without building Fetch requests and responses. Everything else (the API,
 * other methods, targets that need the URL parser) goes to `fallback`, the Hono application,
 * which answers the same requests the same way.
 */
export function staticListener(site: StaticSite, deps: AppDeps, fallback: RequestListener): RequestListener {
  const { answer } = site;
  if (!answer) return fallback;
  const staticDeps: StaticDeps = { db: deps.database.db, clock: deps.clock, config: deps.config };
  const { logger, config } = deps;
  return (incoming, outgoing) => {
    const method = incoming.method;
    const target = incoming.url ?? '';
    const host = incoming.headers.host;
    if ((method !== 'GET' && method !== 'HEAD') || !host || !PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target) || !PLAIN_HOST.test(host)) {
      return fallback(incoming, outgoing);
    }
    const query = target.indexOf('?');
    const path = query === -1 ? target : target.slice(0, query);
    const lean = leanRequest(incoming, config, host, method, path);
    const request: StaticRequest = {
      method,
      path,
      search: query === -1 || query === target.length - 1 ? '' : target.slice(query),
      origin: lean.origin,
      header: (name) => {
        const value = incoming.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
    };
    answer(request, staticDeps, logger).then(
      (answered) => writeLeanAnswer(outgoing, lean, logger, answered.status, answered.headers, answered.body),
      (error: unknown) => writeLeanFailure(outgoing, lean, logger, error),
    );
  };
}
