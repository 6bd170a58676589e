/**
 * `npm run cli -- deploy:nginx`: the nginx configuration that serves a built `dist/` as a static
 * host and proxies `/api/` to one or more API processes (docs/deploy.md). It is what the static-host
 * tests run nginx with, so what is tested is what an operator deploys.
 *
 * The output goes inside nginx's `http {}` block (an `include`): an upstream of the API processes
 * and one server block. Pages are the prerendered files; the redirect rules that need a session
 * (guest pages, signed-in pages, admin pages, maintenance) are decided by the browser's guard, as
 * on any static host; the build's route rules (`builds/meta/{id}.json`) become redirects here.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BuildMeta, RouteRule, RouteTable } from '../shared/build-manifest.ts';
import { pageCsp, type PageCspOptions } from '../shared/csp.ts';
import { ALCHEMER_APPEND_LIMITS } from '../shared/alchemer-export-append.ts';
import { REPORT_LIMITS } from '../shared/client-reports.ts';
import { LANGUAGES, SOURCE_LANGUAGE, type Language } from '../shared/languages.ts';
import { JSON_BODY_LIMIT_BYTES } from '../shared/limits.ts';
import { MEDIA_LIMITS, UPLOAD_LIMITS, UPLOADS_PATH, VIDEO_LIMITS } from '../shared/media.ts';
import { POINTS_BULK_LIMITS } from '../shared/points-bulk-update.ts';
import { PARAM_PATTERNS, type ParamKind } from '../shared/routes.ts';
import { INVITE_CSV_MAX_BYTES } from '../shared/users.ts';
import {
  CACHE_HOUR,
  CACHE_IMMUTABLE,
  CACHE_NEVER,
  CACHE_REVALIDATE,
  IMMUTABLE_FOLDERS,
  LATEST_BUILD_FILE,
  SERVICE_WORKER_FILE,
  STATIC_SECURITY_HEADERS,
} from '../shared/static-headers.ts';
import { HSTS } from './middleware/security-headers.ts';

const MiB = 1024 * 1024;
/** The largest body each kind of API call takes (src/shared): a file or a JSON body. */
const API_BODY_LIMITS = [
  ALCHEMER_APPEND_LIMITS.maxBytes,
  POINTS_BULK_LIMITS.maxBytes,
  MEDIA_LIMITS.maxBytes,
  INVITE_CSV_MAX_BYTES,
  REPORT_LIMITS.maxBytes,
  JSON_BODY_LIMIT_BYTES,
];
/**
 * nginx's `client_max_body_size`: the largest of them with room for a multipart body's form fields
 * and boundaries (the API allows 1 MiB beside the Alchemer file), so any body an API call would
 * take, or refuse with its own JSON 413, reaches it; nginx answers its own 413 only past that.
 */
export const NGINX_MAX_BODY = `${Math.ceil(Math.max(...API_BODY_LIMITS) / MiB) + 2}m`;

/** `client_max_body_size` of the resumable uploads: a whole video in one PATCH (tus clients send chunks). */
export const NGINX_UPLOAD_MAX_BODY = `${Math.ceil(VIDEO_LIMITS.maxBytes / MiB) + 1}m`;

export interface NginxOptions {
  /** The built site (absolute path), with `_routes.json` in it. */
  root: string;
  /** API processes, `host:port` each. */
  api: string[];
  /** Where nginx listens, `host:port` (or a port alone). */
  listen: string;
  /** Extra page CSP sources (Google Analytics, the photo store's origin). */
  csp?: PageCspOptions;
  /** Send Strict-Transport-Security on every page and file, as the API does (PUBLIC_URL is https). */
  hsts?: boolean;
}

/** A mistake in the options or the build: the message says what to do. */
export class NginxConfigError extends Error {}

const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;
/** The port ending `host:port` (or a port alone) is one nginx takes: 1 to 65535. */
const portInRange = (value: string): boolean => {
  const port = Number(/\d+$/.exec(value)?.[0]);
  return port >= 1 && port <= 65535;
};

/**
 * nginx strings in double quotes: backslashes and quotes escaped; no newlines, and no `$` but in a
 * location's regular expression (where it is the end anchor, not a variable).
 */
function quoted(value: string, { regex = false }: { regex?: boolean } = {}): string {
  if (/[\r\n]/.test(value)) throw new NginxConfigError(`A value cannot hold a line break: ${JSON.stringify(value)}`);
  // nginx reads `$name` as a variable even inside quotes: a literal dollar cannot be written there.
  if (!regex && value.includes('$')) throw new NginxConfigError(`A value cannot hold a "$" (nginx reads it as a variable): ${JSON.stringify(value)}`);
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Regular-expression text of a literal path piece. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, (ch) => (ch === '/' ? '/' : `\\${ch}`));

/** The regular expression of a route pattern: each `:param` as its kind's pattern, an optional trailing slash. */
function patternRegex(pattern: string, kinds: Readonly<Record<string, ParamKind>>): string {
  const body = pattern
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return literal(part);
      const kind = kinds[part.slice(1)];
      return kind ? PARAM_PATTERNS[kind].source.replace(/^\^/, '').replace(/\$$/, '') : '[^/]+';
    })
    .join('/');
  return `^${body}/?$`;
}

/** Routes with more fixed segments first, as the Node server matches them (src/shared/routes.ts). */
const specificity = (pattern: string): number => pattern.split('/').reduce((score, part) => score * 2 + (part.startsWith(':') ? 0 : 1), 1);

function headerLines(headers: Record<string, string>, indent: string): string[] {
  return Object.entries(headers).map(([name, value]) => `${indent}add_header ${name} ${quoted(value)} always;`);
}

function ruleLocations(matcher: BuildMeta['matcher'] | undefined): string[] {
  if (!matcher) return [];
  const redirect = (regex: string, rule: RouteRule): string[] =>
    rule.redirect
      ? [`    location ~ ${quoted(regex, { regex: true })} {`, `        return ${rule.redirect.statusCode} ${quoted(rule.redirect.to)};`, '    }']
      : [];
  return [
    ...Object.entries(matcher.static).flatMap(([at, rule]) => redirect(`^${literal(at.replace(/\/+$/, ''))}/?$`, rule)),
    ...Object.entries(matcher.dynamic).flatMap(([at, rule]) => redirect(patternRegex(at, {}), rule)),
    ...Object.entries(matcher.wildcard).flatMap(([at, rule]) => redirect(`^${literal(at.replace(/\/+$/, ''))}(/.*)?$`, rule)),
  ];
}

/**
 * A location proxied to the API processes: bodies streamed both ways (never buffered to disk here
 * first), up to `maxBody`, `timeout` for each read and write of the answer (`bodyTimeout` between
 * two reads of the client's body where nginx's 60 s default is too short).
 */
function proxyLocation(at: string, upstream: string, { maxBody, bodyTimeout, timeout }: { maxBody: string; bodyTimeout?: string; timeout: string }): string[] {
  return [
    `    location ${at} {`,
    `        proxy_pass http://${upstream};`,
    '        proxy_http_version 1.1;',
    '        proxy_set_header Connection "";',
    '        proxy_set_header Host $http_host;',
    '        proxy_set_header X-Forwarded-For $remote_addr;',
    '        proxy_set_header X-Forwarded-Proto $scheme;',
    '        proxy_request_buffering off;',
    '        proxy_buffering off;',
    `        client_max_body_size ${maxBody};`,
    ...(bodyTimeout ? [`        client_body_timeout ${bodyTimeout};`] : []),
    `        proxy_read_timeout ${timeout};`,
    `        proxy_send_timeout ${timeout};`,
    // Another process is tried when one cannot be reached (refused, restarting), and for what nginx
    // counts as idempotent (GET, HEAD, OPTIONS, PUT, DELETE) also after an error, a timeout, a 502
    // or a 503; never a POST or PATCH that reached a process (no non_idempotent; docs/deploy.md).
    '        proxy_next_upstream error timeout http_502 http_503;',
    '        proxy_next_upstream_tries 2;',
    '        proxy_intercept_errors off;',
    '    }',
  ];
}

/** Reads the build and writes the configuration (text to `include` in `http {}`). */
export function nginxConfig(options: NginxOptions): string {
  const root = path.resolve(options.root);
  const tablePath = path.join(root, '_routes.json');
  if (!fs.existsSync(tablePath))
    throw new NginxConfigError(`No built site in ${root} (no _routes.json): run \`npm run build\` first, or give --root the dist folder.`);
  const table = JSON.parse(fs.readFileSync(tablePath, 'utf8')) as RouteTable;
  const metaPath = path.join(root, 'builds', 'meta', `${table.buildId}.json`);
  const meta = fs.existsSync(metaPath) ? (JSON.parse(fs.readFileSync(metaPath, 'utf8')) as BuildMeta) : undefined;
  if (options.api.length === 0) throw new NginxConfigError('Give at least one API process: --api HOST:PORT[,HOST:PORT…]');
  for (const api of options.api) if (!HOST_PORT.test(api) || !portInRange(api)) throw new NginxConfigError(`--api: "${api}" is not HOST:PORT`);
  const listen = options.listen.trim();
  if ((!/^\d{1,5}$/.test(listen) && !HOST_PORT.test(listen)) || !portInRange(listen))
    throw new NginxConfigError(`--listen: "${options.listen}" is not HOST:PORT or a port`);
  // Names of their own, so two configurations can be included side by side.
  const name = listen.replace(/[^A-Za-z0-9]/g, '_');
  const upstream = `fieldwork_api_${name}`;
  const cacheVariable = `$fieldwork_cache_${name}`;

  const pageHeaders = {
    ...STATIC_SECURITY_HEADERS,
    'Content-Security-Policy': pageCsp(table.scriptHashes, [], options.csp ?? {}),
    ...(options.hsts ? { 'Strict-Transport-Security': HSTS } : {}),
  };
  const headers = (cacheControl: string, extra: Record<string, string> = {}, indent = '        ') =>
    headerLines({ ...pageHeaders, ...extra, 'Cache-Control': cacheControl }, indent);

  /** A language's not-found page (issue 31: each under its prefix), the source language's where the build has none. */
  const notFoundOf = (language: Language | undefined) => table.notFoundByLanguage?.[language ?? SOURCE_LANGUAGE] ?? table.notFound;
  // Dynamic routes: their prerendered shell (`/surveys/_/index.html`), tokens sent with no referrer.
  const dynamic = table.routes
    .filter((route) => Object.keys(route.params).length > 0)
    .sort((a, b) => specificity(b.pattern) - specificity(a.pattern))
    .flatMap((route) => {
      const holdsToken = Object.values(route.params).includes('token');
      const language = route.language ?? SOURCE_LANGUAGE;
      return [
        `    location ~ ${quoted(patternRegex(route.pattern, route.params), { regex: true })} {`,
        ...headers(CACHE_REVALIDATE, holdsToken ? { 'Referrer-Policy': 'no-referrer' } : {}),
        ...(language === SOURCE_LANGUAGE ? [] : [`        error_page 404 /${notFoundOf(language)};`]),
        `        try_files /${route.file} =404;`,
        '    }',
      ];
    });
  // Each other language's pages: its own not-found page (issue 31).
  const languagePrefixes = LANGUAGES.filter((language) => language !== SOURCE_LANGUAGE && table.notFoundByLanguage?.[language]).flatMap((language) => [
    `    location /${language}/ {`,
    ...headerLines(pageHeaders, '        '),
    `        add_header Cache-Control ${cacheVariable} always;`,
    `        error_page 404 /${notFoundOf(language)};`,
    '        try_files $uri $uri/index.html =404;',
    '    }',
  ]);

  const lines = [
    `# Fieldwork: written by \`npm run cli -- deploy:nginx\` for build ${table.buildId}. Include it inside http {}.`,
    `map $uri ${cacheVariable} {`,
    `    ~\\.html$ ${quoted(CACHE_REVALIDATE)};`,
    `    ~/_payload\\.json$ ${quoted(CACHE_REVALIDATE)};`,
    `    default ${quoted(CACHE_HOUR)};`,
    '}',
    `upstream ${upstream} {`,
    ...options.api.map((api) => `    server ${api} max_fails=1 fail_timeout=5s;`),
    '    keepalive 32;',
    '}',
    '',
    'server {',
    `    listen ${listen};`,
    `    root ${quoted(root)};`,
    '    server_tokens off;',
    // Redirects keep the visitor's own host and port (nginx behind a load balancer knows neither).
    '    absolute_redirect off;',
    '    index index.html;',
    // nginx closes a client's keep-alive connection after 1,000 requests by default; a busy API
    // client (an integration, a load balancer's pool) then races the close with its next request.
    '    keepalive_requests 10000;',
    '    charset utf-8;',
    // The build writes .gz copies of text files; nginx serves them to clients that take gzip.
    '    gzip_static on;',
    '    gzip on;',
    '    gzip_types text/css application/javascript text/javascript application/json image/svg+xml text/plain application/xml;',
    `    error_page 404 /${table.notFound};`,
    '',
    "    # The API processes: the client's address forwarded (set TRUST_PROXY=1 on them), bodies",
    '    # streamed both ways (uploads, progress streams, ZIP and CSV downloads). X-Forwarded-For is',
    '    # replaced with the address nginx sees, which TRUST_PROXY=1 takes (the last entry). Behind a',
    '    # load balancer or CDN, let nginx learn the client from it first (set_real_ip_from /',
    '    # real_ip_header; docs/deploy.md), or append and count it in TRUST_PROXY.',
    ...proxyLocation('/api/', upstream, { maxBody: NGINX_MAX_BODY, timeout: '300s' }),
    '',
    '    # Resumable uploads (tus, issue 33 §3): each PATCH streamed to the API as it arrives (never',
    '    # buffered to disk here first), a body as large as the largest video (clients send chunks of',
    `    # ${UPLOAD_LIMITS.chunkBytes / MiB} MiB), and the time a slow connection needs for one.`,
    ...proxyLocation(UPLOADS_PATH, upstream, { maxBody: NGINX_UPLOAD_MAX_BODY, bodyTimeout: '120s', timeout: '3600s' }),
    '',
    '    # Files only servers read, dot files (but /.well-known/: ACME challenges, security.txt) and the',
    '    # compressed copies (served through gzip_static).',
    `    location ~ ${quoted('^/(_routes\\.json|_redirects|_headers)$|/\\.(?!well-known/)|\\.(br|gz)$', { regex: true })} {`,
    '        return 404;',
    '    }',
    '',
    ...IMMUTABLE_FOLDERS.flatMap((folder) => [`    location /${folder} {`, ...headers(CACHE_IMMUTABLE), '        try_files $uri =404;', '    }']),
    `    location = /${LATEST_BUILD_FILE} {`,
    ...headers(CACHE_NEVER),
    '        try_files $uri =404;',
    '    }',
    '    # The service worker: asked again at every update check (a new build brings a new one).',
    `    location = /${SERVICE_WORKER_FILE} {`,
    ...headers(CACHE_REVALIDATE),
    '        try_files $uri =404;',
    '    }',
    '',
    '    # Route rules of the build (builds/meta/{id}.json).',
    ...ruleLocations(meta?.matcher),
    '',
    '    # Dynamic routes: their prerendered shell.',
    ...dynamic,
    '',
    "    # The other languages' pages, each with its not-found page.",
    ...languagePrefixes,
    '',
    '    # Pages (a folder with index.html each, revalidated) and the other public files (an hour).',
    '    location / {',
    ...headerLines(pageHeaders, '        '),
    `        add_header Cache-Control ${cacheVariable} always;`,
    '        try_files $uri $uri/index.html =404;',
    '    }',
    '}',
    '',
  ];
  return lines.join('\n');
}

/** `--api 127.0.0.1:4001,127.0.0.1:4002` → the list. */
export function parseApiList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}
