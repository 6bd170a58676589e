import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Hono, type Context } from 'hono';
import { pageCsp } from '../shared/csp.ts';
import type { BuildMeta, RouteTable, RouteTableEntry } from '../shared/build-manifest.ts';
import { findRouteRule, ruleRedirect } from '../shared/build-route-rules.ts';
import { decideNavigation, type AuthState } from '../shared/route-rules.ts';
import { matchRoute, paramsAreValid } from '../shared/routes.ts';
import { cacheControlFor } from '../shared/static-headers.ts';
import { sessionToken } from './middleware/session.ts';
import { maintenanceOn } from './services/public-flags.ts';
import { validateSession } from './services/sessions.ts';
import type { AppEnv } from './context.ts';
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
      });
    }
  };
  visit(distDir);
  return files;
}

export interface StaticSite {
  /** Hono routes answering every non-API GET/HEAD request. */
  readonly pages: Hono<AppEnv>;
  readonly buildId: string | null;
}

/**
 * Serves dist/ from memory: exact files, then page routes through the build's route table (one
 * prerendered shell per dynamic pattern), then the 404 page with status 404.
 */
export function createStaticSite(distDir: string, logger: Logger, options: { extraConnectSrc?: string[] } = {}): StaticSite {
  const pages = new Hono<AppEnv>();
  const tablePath = path.join(distDir, '_routes.json');
  if (!fs.existsSync(tablePath)) {
    logger.warn({ distDir }, 'no built site found (run `npm run build`); serving the API only');
    pages.all('*', (c) => c.text('Fieldwork has not been built yet: run `npm run build` (or `npm start`, which builds).', 503));
    return { pages, buildId: null };
  }
  const table = JSON.parse(fs.readFileSync(tablePath, 'utf8')) as RouteTable;
  const files = readDist(distDir, logger);
  const byPattern = new Map<string, RouteTableEntry>(table.routes.map((r) => [r.pattern, r]));
  /** The page CSP; Google Analytics hosts only when PUBLIC_GA_ID is configured, the photo store's origin when photos redirect there. */
  const cspByConfig = new WeakMap<object, string>();
  const cspFor = (c: Context<AppEnv>): string => {
    const config = c.var.deps.config;
    let csp = cspByConfig.get(config);
    if (csp === undefined) {
      csp = pageCsp(table.scriptHashes, options.extraConnectSrc, pageCspOptions(config));
      cspByConfig.set(config, csp);
    }
    return csp;
  };
  const notFound = files.get(table.notFound);
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

  const send = (c: Context<AppEnv>, file: StaticFile, status: 200 | 404 = 200, extraHeaders: Record<string, string> = {}) => {
    const headers: Record<string, string> = {
      'Content-Type': file.type,
      'Cache-Control': status === 404 ? 'no-cache' : file.cacheControl,
      ETag: file.etag,
      Vary: 'Accept-Encoding',
      ...extraHeaders,
    };
    if (file.type.startsWith('text/html')) headers['Content-Security-Policy'] = cspFor(c);
    if (status === 200 && c.req.header('if-none-match') === file.etag) return c.body(null, 304, headers);
    const accepts = c.req.header('accept-encoding') ?? '';
    let body = file.body;
    if (file.br && /\bbr\b/.test(accepts)) {
      body = file.br;
      headers['Content-Encoding'] = 'br';
    } else if (file.gz && /\bgzip\b/.test(accepts)) {
      body = file.gz;
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = String(body.byteLength);
    if (c.req.method === 'HEAD') return c.body(null, status, headers);
    return c.body(body as Uint8Array<ArrayBuffer>, status, headers);
  };

  /** What the server knows of the visitor: a valid session cookie or none. */
  const authOf = async (c: Context<AppEnv>): Promise<AuthState> => {
    const token = sessionToken(c);
    const found = token ? await validateSession(c.var.db, c.var.deps.clock, token) : null;
    return found ? { status: 'authenticated', role: found.user.role } : { status: 'unauthenticated' };
  };

  /** The same-site path the visitor came from (Referer), for the "from a public page" rule. */
  const referrerPath = (c: Context<AppEnv>): string | null => {
    const referer = c.req.header('referer');
    if (!referer) return null;
    try {
      const url = new URL(referer);
      return url.origin === new URL(c.req.url).origin ? url.pathname : null;
    } catch {
      return null;
    }
  };

  /**
   * Whether maintenance is on, through a cache of at most a second (services/public-flags.ts).
   * Should the database not answer, pages are served as if it were off (the API reports the outage).
   */
  const maintenanceOf = async (c: Context<AppEnv>): Promise<boolean> => {
    try {
      return await maintenanceOn(c.var.db, c.var.deps.clock);
    } catch (error) {
      (c.var.logger ?? logger).warn({ err: error }, 'could not read the maintenance flag; serving pages as usual');
      return false;
    }
  };

  const sendNotFound = (c: Context<AppEnv>) => (notFound ? send(c, notFound, 404) : c.text(`Page not found: ${c.req.path}`, 404));

  pages.on(['GET', 'HEAD'], '*', async (c) => {
    const pathname = c.req.path;
    let relative: string | null;
    try {
      relative = decodeURIComponent(pathname).slice(1);
    } catch {
      relative = null;
    }
    // Pages are reached by their routes only, so the redirect rules always apply to them.
    if (relative !== null && !HIDDEN.has(relative) && !relative.endsWith('.html')) {
      const file = files.get(relative);
      if (file) return send(c, file);
    }
    // A page request (a route or a 404): the redirect rules (docs/product.md §2) apply before any
    // JavaScript runs, maintenance first; the browser's guard agrees.
    const match = relative === null ? null : matchRoute(pathname);
    const entry = match ? byPattern.get(match.route.pattern) : undefined;
    const page = match && entry && paramsAreValid(match) ? files.get(entry.file) : undefined;
    const access = page ? match?.route.access : undefined;
    // The session only matters to guest, signed-in and admin pages; the others skip the lookup.
    const needsSession = access === 'guest' || access === 'auth' || access === 'admin';
    const search = new URL(c.req.url).search;
    const maintenance = await maintenanceOf(c);
    // A route rule's redirect comes first (docs/product.md §2: the server-provided redirect), as in the browser's guard.
    const rule = maintenance || relative === null ? null : ruleRedirect(matcher, pathname, new URL(c.req.url).origin);
    if (rule) {
      const status = findRouteRule(matcher, pathname)?.redirect?.statusCode ?? 302;
      return c.body(null, status, { Location: rule.to, 'Cache-Control': 'no-store' });
    }
    const decision = decideNavigation({
      // `/maintenance/` is `/maintenance` to the rules, as it is to the route table.
      path: pathname.replace(/\/+$/, '') || '/',
      search,
      auth: needsSession && !maintenance ? await authOf(c) : { status: 'unknown' },
      from: referrerPath(c),
      maintenance,
    });
    if (decision.action === 'redirect') return c.body(null, 302, { Location: decision.to, 'Cache-Control': 'no-store' });
    if (!match || !page) return sendNotFound(c);
    // Pages holding a link token (in the path, or as ?token= on /data-deletion) send no referrer.
    const holdsToken = Object.values(match.route.params ?? {}).includes('token') || new URLSearchParams(search).has('token');
    // The rules let this visitor stay (the session was checked where it matters): the page shows at once.
    return send(c, releasedOf(page), 200, holdsToken ? { 'Referrer-Policy': 'no-referrer' } : {});
  });
  pages.all('*', (c) => c.text('Method Not Allowed', 405, { Allow: 'GET, HEAD' }));

  logger.info({ buildId: table.buildId, files: files.size, routes: table.routes.length }, 'static site loaded');
  return { pages, buildId: table.buildId };
}
