/**
 * `npm run cli -- deploy:nginx` (src/server/deploy-nginx.ts, docs/deploy.md): the nginx
 * configuration written from a small built site made here (`_routes.json`, `builds/meta/{id}.json`).
 * When nginx is installed, `nginx -t` checks that what it prints is valid.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeFile } from '../../builds/integration.ts';
import type { BuildMeta, RouteTable, RouteTableEntry } from '../../src/shared/build-manifest.ts';
import type { ParamKind } from '../../src/shared/routes.ts';
import { runCli } from '../../src/server/cli.ts';
import { NGINX_MAX_BODY, NginxConfigError, nginxConfig, parseApiList, type NginxOptions } from '../../src/server/deploy-nginx.ts';
import { HSTS } from '../../src/server/middleware/security-headers.ts';
import { ALCHEMER_APPEND_LIMITS } from '../../src/shared/alchemer-export-append.ts';
import { MEDIA_LIMITS, UPLOAD_LIMITS, VIDEO_LIMITS } from '../../src/shared/media.ts';
import { POINTS_BULK_LIMITS } from '../../src/shared/points-bulk-update.ts';
import { NGINX, nginxMainConfig, startNginx } from '../support/nginx.ts';
import { freePort } from '../support/processes.ts';

const BUILD_ID = 'abc123def4567890';
const SCRIPT_HASHES = ['sha256-AAAAinlineScriptOne=', 'sha256-BBBBinlineScriptTwo='];
const BUCKET_ORIGIN = 'https://bucket.s3.eu-west-1.amazonaws.com';

const route = (pattern: string, params: Record<string, ParamKind> = {}): RouteTableEntry => ({
  pattern,
  file: routeFile(pattern),
  access: pattern.startsWith('/admin') ? 'admin' : 'auth',
  params,
});

const ROUTE_TABLE: RouteTable = {
  buildId: BUILD_ID,
  routes: [
    route('/'),
    { ...route('/login'), access: 'guest' },
    route('/account'),
    route('/account/mission-history'),
    route('/surveys/:id', { id: 'id' }),
    { ...route('/onboarding/:token', { token: 'token' }), access: 'guest' },
    // The less specific route first, as in a table the build could write: the output must reorder them.
    route('/admin/projects/:projectId/surveys/:surveyId', { projectId: 'id', surveyId: 'id' }),
    route('/admin/projects/:projectId/surveys/new', { projectId: 'id' }),
  ],
  notFound: '404.html',
  scriptHashes: SCRIPT_HASHES,
};

const META: BuildMeta = {
  id: BUILD_ID,
  timestamp: 1_700_000_000_000,
  matcher: {
    static: { '/account/mission-history': { redirect: { to: '/account#mission-history', statusCode: 302 } } },
    wildcard: { '/old-blog': { redirect: { to: 'https://blog.example.org/', statusCode: 301 } } },
    dynamic: { '/legacy/:id': { redirect: { to: '/surveys', statusCode: 308 } } },
  },
  prerendered: ['/', '/login'],
};

let tmp: string;
/** The built site: the route table, the build's meta, the pages and a few assets. */
let dist: string;

/** Writes a built site into `dir` (the meta file only when `meta` is given). */
function writeSite(dir: string, table: RouteTable = ROUTE_TABLE, meta: BuildMeta | null = META): void {
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  };
  write('_routes.json', JSON.stringify(table));
  if (meta) write(`builds/meta/${meta.id}.json`, JSON.stringify(meta));
  write('builds/latest.json', JSON.stringify({ id: table.buildId, timestamp: 1 }));
  write(table.notFound, '<!doctype html><title>Not found</title>');
  for (const entry of table.routes) write(entry.file, `<!doctype html><title>${entry.pattern}</title>`);
  write('_astro/app.abc123.js', 'console.log(1)');
}

const options = (extra: Partial<NginxOptions> = {}): NginxOptions => ({
  root: dist,
  api: ['127.0.0.1:4001', '127.0.0.1:4002'],
  listen: '127.0.0.1:8080',
  ...extra,
});

/** The body of the first `location` block whose opening line contains `match`. */
function locationBlock(config: string, match: string): string {
  const lines = config.split('\n');
  const start = lines.findIndex((line) => line.trimStart().startsWith('location') && line.includes(match));
  if (start < 0) throw new Error(`no location with ${match} in:\n${config}`);
  const end = lines.findIndex((line, index) => index > start && line === '    }');
  return lines.slice(start, end + 1).join('\n');
}

/** The regular expression of a `location ~ "…"` line, as nginx reads the quoted string (`\\x` → `x`). */
const locationRegex = (block: string): RegExp => new RegExp((/"(.*)"/.exec(block.split('\n')[0] ?? '')?.[1] ?? '(?!)').replace(/\\(.)/g, '$1'));

/** The line index of the first `location` line containing `match`. */
const locationIndex = (config: string, match: string): number =>
  config.split('\n').findIndex((line) => line.trimStart().startsWith('location') && line.includes(match));

function nginxConfigError(extra: Partial<NginxOptions>): NginxConfigError {
  try {
    nginxConfig(options(extra));
  } catch (error) {
    if (error instanceof NginxConfigError) return error;
    throw error;
  }
  throw new Error('nginxConfig accepted the options');
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-deploy-nginx-'));
  dist = path.join(tmp, 'dist');
  writeSite(dist);
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('nginxConfig', () => {
  it('names the build and proxies /api/ to every API process', () => {
    const config = nginxConfig(options());
    expect(config.startsWith(`# Fieldwork: written by \`npm run cli -- deploy:nginx\` for build ${BUILD_ID}.`)).toBe(true);
    const upstream = /upstream (\S+) \{\n([\s\S]*?)\n\}/.exec(config);
    const servers = upstream?.[2] ?? '';
    expect(upstream?.[1]).toBe('fieldwork_api_127_0_0_1_8080');
    expect(servers).toContain('    server 127.0.0.1:4001 max_fails=1 fail_timeout=5s;');
    expect(servers).toContain('    server 127.0.0.1:4002 max_fails=1 fail_timeout=5s;');
    expect(servers.match(/^ {4}server /gm)).toHaveLength(2);
    expect(config).toContain('    listen 127.0.0.1:8080;');
    expect(config).toContain(`    root "${dist}";`);
    expect(config).toContain('    error_page 404 /404.html;');

    const api = locationBlock(config, '/api/');
    expect(api).toContain('proxy_pass http://fieldwork_api_127_0_0_1_8080;');
    expect(api).toContain(`client_max_body_size ${NGINX_MAX_BODY};`);
    expect(api).toContain('proxy_request_buffering off;');
    expect(api).toContain('proxy_buffering off;');
  });

  it('lets every body an API call takes through, so the API answers its own JSON 413 (the Alchemer export: 512 MB and its form fields)', () => {
    const size = /client_max_body_size (\d+)m;/.exec(locationBlock(nginxConfig(options()), '/api/'))?.[1];
    const nginxBytes = Number(size) * 1024 * 1024;
    // The Alchemer append takes a declared body up to its file limit and 1 MiB of form fields.
    for (const limit of [ALCHEMER_APPEND_LIMITS.maxBytes + 1024 * 1024, POINTS_BULK_LIMITS.maxBytes + 64 * 1024, MEDIA_LIMITS.maxBytes + 64 * 1024])
      expect(nginxBytes).toBeGreaterThanOrEqual(limit);
  });

  it('never lets nginx re-send a POST or PATCH that reached a process (no non_idempotent), and tries two processes at most', () => {
    const api = locationBlock(nginxConfig(options()), '/api/');
    const retry = /proxy_next_upstream ([^;]*);/.exec(api)?.[1] ?? '';
    expect(retry).not.toContain('non_idempotent');
    expect(api).toContain('proxy_request_buffering off;');
    expect(api).toContain('proxy_next_upstream_tries 2;');
  });

  it('streams resumable uploads to the API unbuffered, a chunk (and a whole video) within the body limit, with long timeouts', () => {
    const uploads = locationBlock(nginxConfig(options()), 'location /api/uploads');
    expect(uploads).toContain('proxy_request_buffering off;');
    const size = Number(/client_max_body_size (\d+)m;/.exec(uploads)?.[1]) * 1024 * 1024;
    expect(size).toBeGreaterThanOrEqual(UPLOAD_LIMITS.chunkBytes);
    expect(size).toBeGreaterThanOrEqual(VIDEO_LIMITS.maxBytes);
    expect(uploads).toContain('proxy_read_timeout 3600s;');
    expect(uploads).not.toContain('non_idempotent');
  });

  it('sends Strict-Transport-Security on every page and file when the site is public over HTTPS, with the API’s value', () => {
    expect(nginxConfig(options())).not.toContain('Strict-Transport-Security');
    const config = nginxConfig(options({ hsts: true }));
    const headerLines = config.split('\n').filter((line) => line.includes('add_header Content-Security-Policy'));
    const hstsLines = config.split('\n').filter((line) => line.includes('add_header Strict-Transport-Security'));
    expect(hstsLines).toHaveLength(headerLines.length);
    for (const line of hstsLines) expect(line).toBe(`        add_header Strict-Transport-Security "${HSTS}" always;`);
  });

  it('replaces X-Forwarded-For with the client address (never appends a client-chosen one)', () => {
    const api = locationBlock(nginxConfig(options()), '/api/');
    expect(api).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(api).not.toContain('$proxy_add_x_forwarded_for');
    expect(api).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
    expect(api).toContain('proxy_set_header Host $http_host;');
  });

  it('serves a dynamic route from its shell, only for parameters of the right kind', () => {
    const config = nginxConfig(options());
    const surveys = locationBlock(config, '"^/surveys/');
    expect(surveys.split('\n')[0]).toBe('    location ~ "^/surveys/[1-9][0-9]{0,14}/?$" {');
    expect(surveys).toContain('try_files /surveys/_/index.html =404;');
    expect(surveys).toContain('add_header Cache-Control "no-cache" always;');
    expect(surveys).toContain('add_header Referrer-Policy "strict-origin-when-cross-origin" always;');

    const regex = locationRegex(surveys);
    expect(regex.test('/surveys/12')).toBe(true);
    expect(regex.test('/surveys/12/')).toBe(true);
    expect(regex.test('/surveys/012')).toBe(false);
    expect(regex.test('/surveys/abc')).toBe(false);
    expect(regex.test('/surveys/12/x')).toBe(false);
  });

  it('puts the more specific route first (surveys/new before surveys/:surveyId)', () => {
    const config = nginxConfig(options());
    const fixed = locationIndex(config, '/surveys/new/?$');
    const dynamic = locationIndex(config, '/surveys/[1-9][0-9]{0,14}/?$"');
    const adminDynamic = config.split('\n').findIndex((line) => line.startsWith('    location ~ "^/admin/projects/') && line.includes('/surveys/[1-9]'));
    expect(fixed).toBeGreaterThan(0);
    expect(adminDynamic).toBeGreaterThan(fixed);
    expect(dynamic).toBeGreaterThan(0);
    expect(locationBlock(config, '/surveys/new/?$')).toContain('try_files /admin/projects/_/surveys/new/index.html =404;');
    expect(config.split('\n')[adminDynamic]).toBe('    location ~ "^/admin/projects/[1-9][0-9]{0,14}/surveys/[1-9][0-9]{0,14}/?$" {');
  });

  it('sends no referrer from pages whose URL holds a token', () => {
    const config = nginxConfig(options());
    const onboarding = locationBlock(config, '^/onboarding/');
    expect(onboarding.split('\n')[0]).toBe('    location ~ "^/onboarding/[A-Za-z0-9_-]{16,256}/?$" {');
    expect(onboarding).toContain('add_header Referrer-Policy "no-referrer" always;');
    expect(onboarding).not.toContain('strict-origin-when-cross-origin');
    expect(onboarding).toContain('try_files /onboarding/_/index.html =404;');
    expect(locationBlock(config, '^/surveys/')).not.toContain('no-referrer');
  });

  it('sends the page CSP with the build’s script hashes, and the photo store’s origin when given', () => {
    const plain = nginxConfig(options());
    const csp = /add_header Content-Security-Policy "([^"]*)" always;/.exec(locationBlock(plain, 'location / {'))?.[1] ?? '';
    for (const hash of SCRIPT_HASHES) expect(csp).toContain(`'${hash}'`);
    expect(csp).toContain("img-src 'self' data: blob:;");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(plain).not.toContain(BUCKET_ORIGIN);

    const withBucket = nginxConfig(options({ csp: { imgSrc: [BUCKET_ORIGIN] } }));
    const cspLines = withBucket.split('\n').filter((line) => line.includes('add_header Content-Security-Policy'));
    expect(cspLines.length).toBeGreaterThan(3);
    for (const line of cspLines) expect(line).toContain(`img-src 'self' data: blob: ${BUCKET_ORIGIN};`);
  });

  it('caches hashed files for a year, never the build pointer, and pages by their type', () => {
    const config = nginxConfig(options());
    expect(locationBlock(config, 'location /_astro/ {')).toContain('add_header Cache-Control "public, max-age=31536000, immutable" always;');
    expect(locationBlock(config, 'location /builds/meta/ {')).toContain('add_header Cache-Control "public, max-age=31536000, immutable" always;');
    const latest = locationBlock(config, 'location = /builds/latest.json {');
    expect(latest).toContain('add_header Cache-Control "no-store" always;');
    expect(latest).toContain('try_files $uri =404;');
    const worker = locationBlock(config, 'location = /sw.js {');
    expect(worker).toContain('add_header Cache-Control "no-cache" always;');
    expect(worker).toContain('try_files $uri =404;');
    const pages = locationBlock(config, 'location / {');
    expect(pages).toContain('add_header Cache-Control $fieldwork_cache_127_0_0_1_8080 always;');
    expect(pages).toContain('try_files $uri $uri/index.html =404;');
    expect(config).toContain('map $uri $fieldwork_cache_127_0_0_1_8080 {');
    expect(config).toContain('    ~\\.html$ "no-cache";');
    expect(config).toContain('    default "public, max-age=3600";');
  });

  it('hides server-only files, dot files and compressed copies', () => {
    const hidden = locationBlock(nginxConfig(options()), '_routes');
    expect(hidden.split('\n')[0]).toBe('    location ~ "^/(_routes\\\\.json|_redirects|_headers)$|/\\\\.(?!well-known/)|\\\\.(br|gz)$" {');
    expect(hidden).toContain('return 404;');
    const regex = locationRegex(hidden);
    for (const hiddenPath of [
      '/_routes.json',
      '/_redirects',
      '/_headers',
      '/.env',
      '/admin/.git/config',
      '/index.html.gz',
      '/_astro/app.js.br',
      '/.well-known/.git',
    ])
      expect(regex.test(hiddenPath), hiddenPath).toBe(true);
    for (const shown of [
      '/index.html',
      '/_astro/app.abc123.js',
      '/builds/latest.json',
      '/surveys/12',
      '/.well-known/acme-challenge/x1',
      '/.well-known/security.txt',
    ])
      expect(regex.test(shown), shown).toBe(false);
  });

  it('turns the build’s route rules into redirects, before the dynamic routes', () => {
    const config = nginxConfig(options());
    const rule = locationBlock(config, '^/account/mission-history/?$');
    expect(rule).toBe(['    location ~ "^/account/mission-history/?$" {', '        return 302 "/account#mission-history";', '    }'].join('\n'));
    expect(locationBlock(config, '^/old-blog(/.*)?$')).toContain('return 301 "https://blog.example.org/";');
    expect(locationBlock(config, '^/legacy/[^/]+/?$')).toContain('return 308 "/surveys";');
    expect(locationIndex(config, '^/account/mission-history/?$')).toBeLessThan(locationIndex(config, '^/surveys/'));
    expect(config).toContain('absolute_redirect off;');
  });

  it('writes no rules when the build has no meta file', () => {
    const bare = path.join(tmp, 'bare');
    writeSite(bare, ROUTE_TABLE, null);
    const config = nginxConfig(options({ root: bare }));
    expect(config).not.toContain('return 302');
    expect(config).toContain('try_files /surveys/_/index.html =404;');
  });

  it('names upstreams after the listen address, so two configurations can sit side by side', () => {
    expect(nginxConfig(options({ listen: '8081' }))).toContain('upstream fieldwork_api_8081 {');
    expect(nginxConfig(options({ listen: '[::1]:8082' }))).toContain('upstream fieldwork_api____1__8082 {');
    expect(nginxConfig(options({ listen: ' 8083 ' }))).toContain('    listen 8083;');
  });

  it('escapes quotes and backslashes in the values it writes', () => {
    const odd = path.join(tmp, 'odd "quoted" \\dir');
    writeSite(odd, ROUTE_TABLE, {
      ...META,
      matcher: { static: { '/quoted': { redirect: { to: '/a"b', statusCode: 302 } } }, wildcard: {}, dynamic: {} },
    });
    const config = nginxConfig(options({ root: odd }));
    expect(config).toContain(`    root "${odd.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}";`);
    expect(config).toContain('return 302 "/a\\"b";');
  });
});

describe('nginxConfig refuses', () => {
  it('a folder without a built site, and says to build', () => {
    const error = nginxConfigError({ root: path.join(tmp, 'missing') });
    expect(error.message).toContain('_routes.json');
    expect(error.message).toContain('npm run build');
  });

  it.each([
    [['nonsense']],
    [['127.0.0.1']],
    [[':4001']],
    [['127.0.0.1:4001', 'http://127.0.0.1:4002']],
    [['127.0.0.1:4001;evil']],
    [['127.0.0.1:0']],
    [['127.0.0.1:65536']],
  ])('--api %j', (api) => {
    expect(nginxConfigError({ api }).message).toMatch(/^--api: ".*" is not HOST:PORT$/);
  });

  it('an empty list of API processes', () => {
    expect(nginxConfigError({ api: [] }).message).toContain('at least one API process');
    expect(nginxConfigError({ api: parseApiList(' , ,') }).message).toContain('at least one API process');
  });

  it.each([
    '',
    'nowhere',
    'localhost',
    '127.0.0.1:80; include /etc/passwd',
    '80 default_server',
    '127.0.0.1:8080\nserver_tokens on',
    '0',
    '70000',
    '127.0.0.1:99999',
  ])('--listen %j', (listen) => {
    expect(nginxConfigError({ listen }).message).toContain('--listen:');
  });

  it('a value with a line break', () => {
    const broken = path.join(tmp, 'broken\nroot');
    writeSite(broken);
    expect(nginxConfigError({ root: broken }).message).toContain('line break');
    const brokenRule = path.join(tmp, 'broken-rule');
    writeSite(brokenRule, ROUTE_TABLE, {
      ...META,
      matcher: { static: { '/x': { redirect: { to: '/y\n        return 200 "owned"', statusCode: 302 } } }, wildcard: {}, dynamic: {} },
    });
    expect(nginxConfigError({ root: brokenRule }).message).toContain('line break');
  });

  it('a value with a dollar sign (nginx would read a variable there)', () => {
    const dollarRoot = path.join(tmp, 'site$root');
    writeSite(dollarRoot);
    expect(nginxConfigError({ root: dollarRoot }).message).toContain('"$"');
    const dollarRule = path.join(tmp, 'dollar-rule');
    writeSite(dollarRule, ROUTE_TABLE, { ...META, matcher: { static: { '/x': { redirect: { to: '/a$b', statusCode: 302 } } }, wildcard: {}, dynamic: {} } });
    expect(nginxConfigError({ root: dollarRule }).message).toContain('"$"');
  });
});

describe('parseApiList', () => {
  it('splits on commas and drops blanks', () => {
    expect(parseApiList('127.0.0.1:4001, 127.0.0.1:4002,,')).toEqual(['127.0.0.1:4001', '127.0.0.1:4002']);
    expect(parseApiList('')).toEqual([]);
  });
});

describe.skipIf(NGINX === null)('nginx -t', () => {
  /** Wraps a configuration in the full nginx.conf the tests run nginx with and asks nginx to check it. */
  function nginxTest(config: string): { status: number | null; output: string } {
    const prefix = fs.mkdtempSync(path.join(tmp, 'prefix-'));
    const temp = (name: string) => path.join(prefix, name);
    fs.writeFileSync(temp('fieldwork.conf'), config);
    fs.writeFileSync(temp('nginx.conf'), nginxMainConfig(prefix));
    const result = spawnSync(NGINX ?? 'nginx', ['-t', '-q', '-p', prefix, '-e', temp('error.log'), '-c', temp('nginx.conf')], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  }

  it('accepts what deploy:nginx prints (two API processes, the photo store in the CSP)', () => {
    const result = nginxTest(nginxConfig(options({ csp: { imgSrc: [BUCKET_ORIGIN], analyticsId: 'G-ABCDEF1234' }, hsts: true })));
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it('re-sends to the other process what it treats as idempotent (GET, a PUT save) after a 503, never a POST that reached a process', async () => {
    // Two API processes in each of three configurations side by side: the first answers 503, the second 200.
    const seen = { first: [] as string[], second: [] as string[] };
    const servers = await Promise.all(
      (['first', 'second'] as const).map(
        (name) =>
          new Promise<http.Server>((resolve) => {
            const server = http.createServer((req, res) => {
              seen[name].push(req.method ?? '');
              req.resume();
              req.on('end', () => res.writeHead(name === 'first' ? 503 : 200, { 'Content-Type': 'application/json' }).end('{}'));
            });
            server.listen(0, '127.0.0.1', () => resolve(server));
          }),
      ),
    );
    const api = servers.map((server) => `127.0.0.1:${(server.address() as AddressInfo).port}`);
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    const config = ports.map((port) => nginxConfig(options({ api, listen: `127.0.0.1:${port}` }))).join('\n');
    const nginx = await startNginx({ root: dist, api, port: ports[0] ?? 0, config });
    try {
      const call = async (port: number | undefined, method: string) =>
        (await fetch(`http://127.0.0.1:${port}/api/calls`, { method, ...(method === 'GET' ? {} : { body: '{"revision":1}' }) })).status;
      expect(await call(ports[0], 'GET')).toBe(200);
      expect(await call(ports[1], 'PUT')).toBe(200);
      expect(await call(ports[2], 'POST')).toBe(503);
      expect(seen).toEqual({ first: ['GET', 'PUT', 'POST'], second: ['GET', 'PUT'] });
    } finally {
      await nginx.stop();
      for (const server of servers) server.close();
    }
  });

  it('accepts two configurations side by side, and an IPv6 API process', () => {
    const both = [nginxConfig(options({ listen: '127.0.0.1:8080' })), nginxConfig(options({ listen: '8081', api: ['[::1]:4001'] }))].join('\n');
    const result = nginxTest(both);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('deploy:nginx through the CLI', () => {
  async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['deploy:nginx', ...args],
      { DATA_DIR: '/nonexistent/fieldwork-cli-test', ...env },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('needs --api and --listen (exit 2, saying how to call it)', async () => {
    const noApi = await run(['--listen', '8080', '--root', dist]);
    expect(noApi.code).toBe(2);
    expect(noApi.out).toBe('');
    expect(noApi.err).toContain('deploy:nginx --api HOST:PORT');
    expect((await run(['--api', '127.0.0.1:4001', '--root', dist])).code).toBe(2);
  });

  it('refuses a folder without a built site (exit 2, saying to build)', async () => {
    const result = await run(['--api', '127.0.0.1:4001', '--listen', '8080', '--root', path.join(tmp, 'nothing-here')]);
    expect(result.code).toBe(2);
    expect(result.err).toContain('npm run build');
    // Without --root: DIST_DIR.
    const fromEnv = await run(['--api', '127.0.0.1:4001', '--listen', '8080'], { DIST_DIR: path.join(tmp, 'nothing-here') });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.err).toContain(path.join(tmp, 'nothing-here'));
  });

  it('refuses a bad --api or --listen and unknown options (exit 2)', async () => {
    expect(await run(['--api', 'nonsense', '--listen', '8080', '--root', dist])).toEqual({ code: 2, out: '', err: '--api: "nonsense" is not HOST:PORT' });
    expect((await run(['--api', '127.0.0.1:4001', '--listen', 'nowhere', '--root', dist])).err).toContain('--listen:');
    expect((await run(['--api', '127.0.0.1:4001', '--listen', '8080', '--root', dist, '--ssl'])).code).toBe(2);
  });

  it('prints the configuration (exit 0), with the photo store of the environment in the CSP', async () => {
    const result = await run(['--api', '127.0.0.1:4001,127.0.0.1:4002', '--listen', '127.0.0.1:8080', '--root', dist]);
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    expect(result.out.startsWith('# Fieldwork')).toBe(true);
    expect(result.out).toBe(nginxConfig(options()));

    const s3 = await run(['--api', '127.0.0.1:4001', '--listen', '8080'], { DIST_DIR: dist, MEDIA_STORE: 's3', S3_BUCKET: 'bucket', S3_REGION: 'eu-west-1' });
    expect(s3.code).toBe(0);
    expect(s3.out).toContain(`img-src 'self' data: blob: ${BUCKET_ORIGIN};`);
    expect(s3.out).toContain(`media-src 'self' blob: ${BUCKET_ORIGIN};`);

    // PUBLIC_URL on https: nginx's pages carry the API's HSTS.
    const https = await run(['--api', '127.0.0.1:4001', '--listen', '8080', '--root', dist], { PUBLIC_URL: 'https://fieldwork.example.org' });
    expect(https.out).toContain(`add_header Strict-Transport-Security "${HSTS}" always;`);
    expect(result.out).not.toContain('Strict-Transport-Security');
  });
});
