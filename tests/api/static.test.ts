import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTable } from '../../src/shared/build-manifest.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import type { Role } from '../../src/shared/roles.ts';
import { getRequestListener } from '@hono/node-server';
import { createStaticSite, staticListener } from '../../src/server/static.ts';
import { createTestContext, type TestContext } from './harness.ts';

/** A miniature dist/ as the build writes it. */
function writeFixtureDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dist-'));
  const write = (file: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    fs.writeFileSync(path.join(dist, file), content);
  };
  const table: RouteTable = {
    buildId: 'abc123',
    notFound: '404.html',
    scriptHashes: ['sha256-AAAA'],
    routes: [
      { pattern: '/', file: 'index.html', access: 'auth', params: {} },
      { pattern: '/login', file: 'login/index.html', access: 'guest', params: {} },
      { pattern: '/surveys/:id', file: 'surveys/_/index.html', access: 'auth', params: { id: 'id' } },
      { pattern: '/reset-password/:token', file: 'reset-password/_/index.html', access: 'guest', params: { token: 'token' } },
      { pattern: '/admin', file: 'admin/index.html', access: 'admin', params: {} },
      { pattern: '/terms', file: 'terms/index.html', access: 'public', params: {} },
      { pattern: '/maintenance', file: 'maintenance/index.html', access: 'maintenance', params: {} },
      // The same pages in German (issue 31; builds/languages.ts writes every language's).
      { pattern: '/de', language: 'de', file: 'de/index.html', access: 'auth', params: {} },
      { pattern: '/de/login', language: 'de', file: 'de/login/index.html', access: 'guest', params: {} },
      { pattern: '/de/surveys/:id', language: 'de', file: 'de/surveys/_/index.html', access: 'auth', params: { id: 'id' } },
      { pattern: '/de/terms', language: 'de', file: 'de/terms/index.html', access: 'public', params: {} },
    ],
    notFoundByLanguage: { en: '404.html', de: 'de/404/index.html' },
  };
  write('_routes.json', JSON.stringify(table));
  write('_redirects', '/surveys/:id  /surveys/_/  200\n');
  // Pages that are not public wait for the browser's guard unless the server decided them.
  const guarded = (body: string) =>
    `<!doctype html><html lang="en" data-guard="pending"><head></head><body><main>${body}${' '.repeat(2000)}</main></body></html>`;
  write('index.html', guarded('<h1>Home</h1>'));
  write('index.html.br', zlib.brotliCompressSync(guarded('<h1>Home</h1>')));
  write('index.html.gz', zlib.gzipSync(guarded('<h1>Home</h1>')));
  write('login/index.html', guarded('<h1>Sign in</h1>'));
  write('surveys/_/index.html', '<h1>Survey shell</h1>');
  write('reset-password/_/index.html', '<h1>Reset</h1>');
  write('404.html', '<h1>Page Not Found</h1>');
  write('admin/index.html', '<h1>Dashboard</h1>');
  write('terms/index.html', '<h1>Terms</h1>');
  write('maintenance/index.html', '<h1>Maintenance</h1>');
  write('de/index.html', guarded('<h1>Startseite</h1>'));
  write('de/login/index.html', guarded('<h1>Anmelden</h1>'));
  write('de/surveys/_/index.html', '<h1>Umfrage</h1>');
  write('de/terms/index.html', '<h1>Nutzungsbedingungen</h1>');
  write('de/404/index.html', '<h1>Seite nicht gefunden</h1>');
  const script = 'console.log("hello");'.repeat(100);
  write('_astro/app.3f9a1c.js', script);
  write('_astro/app.3f9a1c.js.br', zlib.brotliCompressSync(script));
  write('builds/latest.json', '{"id":"abc123","timestamp":1}');
  write(
    'builds/meta/abc123.json',
    JSON.stringify({
      id: 'abc123',
      matcher: { static: { '/old-terms': { redirect: { to: '/terms#old', statusCode: 301 } } }, wildcard: {}, dynamic: {} },
      prerendered: [],
    }),
  );
  write('favicon-light.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}

describe('serving the built site', () => {
  let dist: string;
  let ctx: TestContext;
  let close: () => Promise<void>;
  beforeAll(async () => {
    dist = writeFixtureDist();
    const site = createStaticSite(dist, createLogger('silent'));
    ({ context: ctx, close } = await createTestContext('pglite', { pages: site.pages }));
  });
  afterAll(async () => {
    await close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  /** A signed-in visitor's cookie header. */
  async function signedIn(role: Role): Promise<{ Cookie: string }> {
    const user = await createActiveUser(ctx.database.db, {
      email: `${role}-${Math.random().toString(36).slice(2)}@example.org`,
      password: 'Str0ng-password',
      role,
      firstName: 'Sam',
      lastName: 'Lee',
    });
    const { token } = await createSession(ctx.database.db, ctx.clock, user.id);
    return { Cookie: `fw_session=${token}` };
  }

  describe('applies the redirect rules before any JavaScript runs', () => {
    it('sends a visitor without a session to /login, with r unless they asked for /', async () => {
      const res = await ctx.request('/surveys/12?tab=2');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login?r=/surveys/12%3Ftab%3D2');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect((await ctx.request('/')).headers.get('location')).toBe('/login');
    });

    it('sends plain /login when the visitor came from a public page', async () => {
      const res = await ctx.request('/surveys/12', { headers: { Referer: 'http://localhost/terms' } });
      expect(res.headers.get('location')).toBe('/login');
      const foreign = await ctx.request('/surveys/12', { headers: { Referer: 'https://elsewhere.example/terms' } });
      expect(foreign.headers.get('location')).toBe('/login?r=/surveys/12');
    });

    it('sends a signed-in visitor away from guest pages', async () => {
      const headers = await signedIn('participant');
      const res = await ctx.request('/login', { headers });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/');
      expect((await ctx.request('/surveys/12', { headers })).status).toBe(200);
    });

    it('keeps the admin area for moderators and admins', async () => {
      const participant = await ctx.request('/admin', { headers: await signedIn('participant') });
      expect(participant.status).toBe(302);
      expect(participant.headers.get('location')).toBe('/');
      expect((await ctx.request('/admin', { headers: await signedIn('moderator') })).status).toBe(200);
      expect((await ctx.request('/admin', { headers: await signedIn('admin') })).status).toBe(200);
    });

    it('leaves public pages and the 404 page alone', async () => {
      expect((await ctx.request('/terms')).status).toBe(200);
      expect((await ctx.request('/no/such/page')).status).toBe(404);
    });

    it('sends /maintenance home while maintenance is off', async () => {
      const res = await ctx.request('/maintenance');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/');
    });
  });

  describe('in every language (issue 31)', () => {
    it('serves a language’s page under its prefix, its shells and its own not-found page', async () => {
      const login = await ctx.request('/de/login');
      expect(login.status).toBe(200);
      expect(await login.text()).toContain('Anmelden');
      expect(await (await ctx.request('/de/surveys/12', { headers: await signedIn('participant') })).text()).toContain('Umfrage');
      const missing = await ctx.request('/de/no/such/page');
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('Seite nicht gefunden');
    });

    it('keeps the prefix through the redirect rules: r is the page as opened', async () => {
      const res = await ctx.request('/de/surveys/12?tab=2');
      expect(res.headers.get('location')).toBe('/de/login?r=/de/surveys/12%3Ftab%3D2');
      expect((await ctx.request('/de')).headers.get('location')).toBe('/de/login');
      const signedInVisitor = await ctx.request('/de/login', { headers: await signedIn('participant') });
      expect(signedInVisitor.headers.get('location')).toBe('/de');
    });

    it('opens a page without a prefix in the remembered choice, else the browser’s language; a prefix is a choice', async () => {
      const remembered = await ctx.request('/terms', { headers: { Cookie: 'fw_lang=de', 'Accept-Language': 'es' } });
      expect(remembered.status).toBe(302);
      expect(remembered.headers.get('location')).toBe('/de/terms');
      expect((await ctx.request('/login', { headers: { 'Accept-Language': 'fr-CH, de;q=0.8' } })).headers.get('location')).toBe('/de/login');
      expect((await ctx.request('/login', { headers: { 'Accept-Language': 'fr-CH, ja' } })).status).toBe(200);
      expect((await ctx.request('/de/terms', { headers: { Cookie: 'fw_lang=en' } })).status).toBe(200);
    });

    it('opens a signed-in person’s pages in their account’s language, whatever the path says', async () => {
      const headers = await signedIn('participant');
      expect((await ctx.json('PUT', '/api/account/language', { language: 'de' }, headers)).status).toBe(200);
      const res = await ctx.request('/surveys/12?tab=2', { headers: { ...headers, 'Accept-Language': 'es' } });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/de/surveys/12?tab=2');
    });
  });

  it('serves a page at its route with no-cache and the page CSP', async () => {
    const res = await ctx.request('/login');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<h1>Sign in</h1>');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'sha256-AAAA'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect((await ctx.request('/login/')).status).toBe(200);
  });

  it('serves a page it has decided with <main> showing at once (no pending guard mark), compressed copies too', async () => {
    const login = await ctx.request('/login');
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain('<h1>Sign in</h1>');
    expect(html).toContain('<html lang="en">');
    expect(html).not.toContain('data-guard');

    const cookie = await signedIn('participant');
    const home = await ctx.request('/', { headers: { ...cookie, 'Accept-Encoding': 'br' } });
    expect(home.headers.get('content-encoding')).toBe('br');
    const decoded = zlib.brotliDecompressSync(Buffer.from(await home.arrayBuffer())).toString('utf8');
    expect(decoded).toContain('<h1>Home</h1>');
    expect(decoded).not.toContain('data-guard');
    const gz = await ctx.request('/', { headers: { ...cookie, 'Accept-Encoding': 'gzip' } });
    expect(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString('utf8')).not.toContain('data-guard');
    // The variant has its own ETag, and revalidates.
    const etag = home.headers.get('etag') ?? '';
    expect((await ctx.request('/', { headers: { ...cookie, 'If-None-Match': etag } })).status).toBe(304);
  });

  it('applies the route rules of the build before the page: a redirect with its status', async () => {
    const res = await ctx.request('/old-terms', { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/terms#old');
    // Paths without a rule are untouched.
    expect((await ctx.request('/terms')).status).toBe(200);
  });

  it('serves the shell of a dynamic route for any valid id', async () => {
    const headers = await signedIn('participant');
    for (const url of ['/surveys/1', '/surveys/123456']) {
      const res = await ctx.request(url, { headers });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('<h1>Survey shell</h1>');
    }
  });

  it('answers unknown pages and malformed parameters with the 404 page and status 404', async () => {
    const headers = await signedIn('participant');
    for (const url of ['/nope', '/surveys/abc', '/surveys/0', '/surveys/1/extra', '/%E0%A4%A']) {
      const res = await ctx.request(url, { headers });
      expect(res.status, url).toBe(404);
      expect(await res.text()).toBe('<h1>Page Not Found</h1>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and serves brotli when accepted', async () => {
    const plain = await ctx.request('/_astro/app.3f9a1c.js');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const br = await ctx.request('/_astro/app.3f9a1c.js', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(Number(br.headers.get('content-length'))).toBeLessThan(Number(plain.headers.get('content-length')));
    expect((await ctx.request('/builds/meta/abc123.json')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await ctx.request('/builds/latest.json')).headers.get('cache-control')).toBe('no-store');
    expect((await ctx.request('/favicon-light.svg')).headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('answers a matching ETag with 304', async () => {
    const first = await ctx.request('/login');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await ctx.request('/login', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it('sends no referrer from pages that hold a link token', async () => {
    const res = await ctx.request('/reset-password/abcdefghijklmnopqrstuvwxyz012345');
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect((await ctx.request('/login')).headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('keeps the server files private and refuses other methods', async () => {
    expect((await ctx.request('/_routes.json')).status).toBe(404);
    expect((await ctx.request('/_redirects')).status).toBe(404);
    // HTML files are reached through their routes only, where the redirect rules apply.
    expect((await ctx.request('/surveys/_/index.html')).status).toBe(404);
    expect((await ctx.request('/login/index.html')).status).toBe(404);
    const post = await ctx.request('/login', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers HEAD without a body', async () => {
    const res = await ctx.request('/login', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('without a build', () => {
  it('serves the API and says how to build', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-nodist-'));
    const site = createStaticSite(empty, createLogger('silent'));
    const { context, close } = await createTestContext('pglite', { pages: site.pages });
    const page = await context.request('/');
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build');
    expect((await context.request('/api/health')).status).toBe(200);
    await close();
    fs.rmSync(empty, { recursive: true, force: true });
  });
});

describe('the lean path for pages and files (staticListener)', () => {
  let dist: string;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let server: http.Server;
  let base: string;
  let cookie: string;
  beforeAll(async () => {
    dist = writeFixtureDist();
    const site = createStaticSite(dist, createLogger('silent'));
    ({ context: ctx, close } = await createTestContext('pglite', { pages: site.pages }));
    const deps = {
      database: ctx.database,
      mailer: ctx.mailer,
      config: ctx.config,
      logger: createLogger('silent'),
      clock: ctx.clock,
      jobs: ctx.jobs,
      storage: ctx.storage,
    };
    server = http.createServer(staticListener(site, deps, getRequestListener(ctx.app.fetch)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const user = await createActiveUser(ctx.database.db, {
      email: 'lean@example.org',
      password: 'Str0ng-password',
      role: 'participant',
      firstName: 'Lee',
      lastName: 'An',
    });
    cookie = `fw_session=${(await createSession(ctx.database.db, ctx.clock, user.id)).token}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  /** Status, the headers that are not per-request, and the body. */
  async function seen(res: Response) {
    const headers = Object.fromEntries(
      [...res.headers].filter(([name]) => !['date', 'x-request-id', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)),
    );
    return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
  }

  const cases: [string, string, Record<string, string>][] = [
    ['a hashed file, brotli', '/_astro/app.3f9a1c.js', { 'Accept-Encoding': 'gzip, br' }],
    ['a hashed file, plain', '/_astro/app.3f9a1c.js', {}],
    ['the build pointer', '/builds/latest.json', {}],
    ['a guest page', '/login', { 'Accept-Encoding': 'gzip' }],
    ['a guest page, signed in', '/login', { Cookie: 'SESSION' }],
    ['a signed-in page without a session', '/surveys/12?tab=2', {}],
    ['a signed-in page with a session, brotli', '/', { Cookie: 'SESSION', 'Accept-Encoding': 'br' }],
    ['a token page', '/reset-password/abcdefghijklmnopqrstuvwxyz012345', {}],
    ['a route rule', '/old-terms', {}],
    ['the 404 page', '/no/such/page', {}],
    ['a hidden file', '/_routes.json', {}],
    ['a page by its file name', '/terms/index.html', {}],
    ['a dot segment', '/_astro/../terms', {}],
    ['an escaped path', '/t%65rms', {}],
  ];

  /** A GET as it arrives, compressed bodies left compressed (fetch would decode them). */
  function rawGet(target: string, headers: Record<string, string>): Promise<Response> {
    return new Promise((resolve, reject) => {
      http
        .get(`${base}${target}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const head = Object.entries(res.headers).flatMap(([name, value]): [string, string][] => (value === undefined ? [] : [[name, String(value)]]));
            const empty = res.statusCode === 304 || res.statusCode === 302 || res.statusCode === 301;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: head }));
          });
        })
        .on('error', reject);
    });
  }

  it.each(cases)('answers %s as the application does', async (_name, target, given) => {
    const headers = Object.fromEntries(Object.entries(given).map(([name, value]) => [name, value === 'SESSION' ? cookie : value]));
    const lean = await seen(await rawGet(target, headers));
    const framework = await seen(await ctx.request(target, { headers }));
    expect(lean).toEqual(framework);
    expect(lean.headers['x-frame-options']).toBe('DENY');
  });

  it('answers HEAD and a matching ETag without a body', async () => {
    const first = await fetch(`${base}/terms`);
    const etag = first.headers.get('etag') ?? '';
    const again = await fetch(`${base}/terms`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await seen(again)).toEqual(await seen(await ctx.request('/terms', { headers: { 'If-None-Match': etag } })));
    const head = await fetch(`${base}/terms`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(first.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  it('leaves the API and other methods to the application, and gives every answer a request id', async () => {
    const api = await fetch(`${base}/api/health`);
    expect(api.status).toBe(200);
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
    const post = await fetch(`${base}/login`, { method: 'POST', headers: { Origin: base, 'Content-Type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(405);
    const page = await fetch(`${base}/terms`, { headers: { 'X-Request-Id': 'trace-me' } });
    expect(page.headers.get('x-request-id')).toBe('trace-me');
    expect((await fetch(`${base}/terms`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
