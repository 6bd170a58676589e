import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAnalytics } from '../../src/app/analytics.ts';
import { ApiError } from '../../src/platform/api.ts';
import { createReportQueue, errorReportData } from '../../src/lib/report-queue.ts';
import { createLogger, redactLogText, serializeError } from '../../src/server/logger.ts';
import { createMailer } from '../../src/server/mail/mailer.ts';
import { confirmEmailChangeMail, contactMail, invitationMail, resetPasswordMail } from '../../src/server/mail/templates.ts';
import { REDACTED, TOKEN_PLACEHOLDER, isSecretKey, redactJson, redactSecrets, reportPagePath, tokenRoutePrefixes } from '../../src/shared/redact.ts';
import { redactReport, type Report } from '../../src/shared/client-reports.ts';
import { ROUTES, buildPath, type RouteDef, type RoutePattern } from '../../src/shared/routes.ts';

/** Link tokens as the server issues them: 32 random bytes in base64url. */
const TOKEN = 'q3Zc9_x-VbN0aLk7Tt2mWpR8sYdEfGhJ1uIoPlKjHg4';
const OTHER = 'Zx8_-kLmNoPqRsTuVwXyZ0123456789abcdefGHIJKL';

const ALL: readonly RouteDef[] = ROUTES;
const TOKEN_ROUTES = ALL.filter((route) => Object.values(route.params ?? {}).includes('token'));

/** A route's URL with every parameter filled: the token ones with TOKEN, the others with 42. */
const urlOf = (route: RouteDef) =>
  buildPath(
    route.pattern as RoutePattern,
    Object.fromEntries(Object.entries(route.params ?? {}).map(([name, kind]) => [name, kind === 'token' ? TOKEN : '42'])),
  );

describe('redactSecrets: link tokens of the route table', () => {
  it('knows the token routes from the route table', () => {
    expect(TOKEN_ROUTES.map((route) => route.pattern).sort()).toEqual(['/onboarding/:token', '/reset-password/:token', '/update-email/:token']);
    expect(tokenRoutePrefixes().sort()).toEqual(['onboarding', 'reset-password', 'update-email']);
  });

  it('replaces the token of every token route with [token], and nothing else of the path', () => {
    for (const route of TOKEN_ROUTES) {
      const url = urlOf(route);
      expect(redactSecrets(url), url).toBe(route.pattern.replace(':token', TOKEN_PLACEHOLDER));
    }
  });

  it('leaves every other route as it is', () => {
    for (const route of ALL.filter((r) => !TOKEN_ROUTES.includes(r))) expect(redactSecrets(urlOf(route))).toBe(urlOf(route));
  });

  it('finds the token anywhere: full URLs, stack traces, quotes, HTML, query strings, encoded slashes, any case', () => {
    const cases: [string, string][] = [
      [`https://fieldwork.example/reset-password/${TOKEN}`, 'https://fieldwork.example/reset-password/[token]'],
      [`http://[::1]:4321/onboarding/${TOKEN}/`, 'http://[::1]:4321/onboarding/[token]/'],
      [`/update-email/${TOKEN}?x=1#top`, '/update-email/[token]?x=1#top'],
      [
        `TypeError: x is undefined\n    at render (http://host/reset-password/${TOKEN}:12:5)\n    at http://host/onboarding/${OTHER}:1:2`,
        'TypeError: x is undefined\n    at render (http://host/reset-password/[token]:12:5)\n    at http://host/onboarding/[token]:1:2',
      ],
      [`"/reset-password/${TOKEN}"`, '"/reset-password/[token]"'],
      [`'/reset-password/${TOKEN}'`, "'/reset-password/[token]'"],
      [`<a href="/onboarding/${TOKEN}">set up</a>`, '<a href="/onboarding/[token]">set up</a>'],
      [`{"url":"/update-email/${TOKEN}","n":1}`, '{"url":"/update-email/[token]","n":1}'],
      [`/login?r=/update-email/${TOKEN}`, '/login?r=/update-email/[token]'],
      [`/login?r=%2Fupdate-email%2F${TOKEN}&x=2`, '/login?r=%2Fupdate-email%2F[token]&x=2'],
      [`/RESET-PASSWORD/${TOKEN}`, '/RESET-PASSWORD/[token]'],
      [`/reset-password/${TOKEN}, /onboarding/${OTHER}; /update-email/${TOKEN}`, '/reset-password/[token], /onboarding/[token]; /update-email/[token]'],
      // Whatever the segment holds (an encoded or odd token) goes.
      [`/reset-password/%41${TOKEN}%3D`, '/reset-password/[token]'],
      [`/reset-password/ab[c]d`, '/reset-password/[token]'],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
  });

  it('keeps texts without a token as they are', () => {
    for (const text of [
      '',
      '/reset-password',
      '/reset-password/',
      '/forgot-password',
      'Reset your password at /reset-password/ soon',
      '/surveys/42?page=2',
      'plain text',
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });
});

describe('redactSecrets: secret query parameters', () => {
  const secretNames = [
    'token',
    'pid',
    'k',
    'key',
    'secret',
    'code',
    'password',
    'passwd',
    'pwd',
    'pass',
    'auth',
    'authorization',
    'sig',
    'signature',
    'otp',
    'sid',
    'jwt',
    'access_token',
    'refreshToken',
    'api_key',
    'apiKey',
    'client_secret',
    'webhookSecret',
    'newPassword',
    'fw_session',
    'session_id',
  ];

  it('replaces the value of each secret-like name, in any case, after ? & # or ;', () => {
    for (const name of secretNames) {
      for (const variant of [name, name.toUpperCase()]) {
        expect(redactSecrets(`/p?${variant}=S3cr3t-v4lue`), variant).toBe(`/p?${variant}=${REDACTED}`);
        expect(redactSecrets(`/p?a=1&${variant}=S3cr3t-v4lue&b=2`), variant).toBe(`/p?a=1&${variant}=${REDACTED}&b=2`);
        expect(redactSecrets(`/p#${variant}=S3cr3t-v4lue`), variant).toBe(`/p#${variant}=${REDACTED}`);
      }
    }
  });

  it('keeps the values of other parameters', () => {
    const text = '/p?kind=photo&monkey=1&page=2&r=/account&search=token&code_name=x&keys=3&pidx=4&status=complete';
    expect(redactSecrets(text)).toBe(text);
  });

  it('ends a value where the URL or its text ends', () => {
    const cases: [string, string][] = [
      [`http://host/onboarding/${TOKEN}?token=${OTHER}&pid=p-123&x=1`, 'http://host/onboarding/[token]?token=[redacted]&pid=[redacted]&x=1'],
      [`/data-deletion?token=${TOKEN}#k=abc`, '/data-deletion?token=[redacted]#k=[redacted]'],
      [`at fn (http://h/page?token=${TOKEN}) more`, 'at fn (http://h/page?token=[redacted]) more'],
      [`"see /return?status=complete&k=abc&pid=xyz"`, '"see /return?status=complete&k=[redacted]&pid=[redacted]"'],
      [`<a href="/x?code=1&amp;token=${TOKEN}">`, '<a href="/x?code=[redacted]&amp;token=[redacted]">'],
      [`Cookie: a=1; fw_session=${TOKEN}; b=2`, 'Cookie: a=1; fw_session=[redacted]; b=2'],
      // A value may hold slashes, colons and brackets; an encoded query is cleaned too.
      [`/x?password=pa[ss]:w/rd&a=1`, '/x?password=[redacted]&a=1'],
      [`/login?r=%2Fx%3Ftoken%3D${TOKEN}`, '/login?r=%2Fx%3Ftoken%3D[redacted]'],
      // A value that is itself a token link.
      [`?token=/reset-password/${TOKEN}`, '?token=[redacted]'],
      // An empty value has nothing to hide.
      ['/x?token=&pid=1', '/x?token=&pid=[redacted]'],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
  });

  it('is idempotent', () => {
    const texts = [
      `/reset-password/${TOKEN}?token=${OTHER}`,
      `/reset-password/[token]`,
      `?token=[redacted]`,
      `/login?r=%2Fupdate-email%2F${TOKEN}`,
      `/x?password=pa[ss]word`,
    ];
    for (const text of texts) {
      const once = redactSecrets(text);
      expect(redactSecrets(once), text).toBe(once);
    }
  });
});

describe('redactJson', () => {
  it('cleans every string and key, and the string or number value of secret-like keys', () => {
    const value = {
      type: 'exception',
      message: `failed at /update-email/${TOKEN}`,
      password: 'hunter2',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$abc$def',
      pid: 12345,
      code: 500,
      key: 'row-3',
      ok: true,
      nested: [{ apiKey: 'abc', url: `https://h/?k=${TOKEN}`, list: [`/onboarding/${TOKEN}`, 3, null] }],
      [`/reset-password/${TOKEN}`]: 1,
      token: { still: 'walked' },
    };
    const copy = structuredClone(value);
    expect(redactJson(value)).toEqual({
      type: 'exception',
      message: 'failed at /update-email/[token]',
      password: REDACTED,
      passwordHash: REDACTED,
      pid: REDACTED,
      code: 500,
      key: 'row-3',
      ok: true,
      nested: [{ apiKey: REDACTED, url: 'https://h/?k=[redacted]', list: ['/onboarding/[token]', 3, null] }],
      '/reset-password/[token]': 1,
      token: { still: 'walked' },
    });
    // The input is not changed.
    expect(value).toEqual(copy);
  });

  it('keeps other values, a Date, and a __proto__ key as a plain key', () => {
    expect(redactJson(null)).toBeNull();
    expect(redactJson(42)).toBe(42);
    const date = new Date(0);
    expect(redactJson({ at: date }).at).toBe(date);
    const parsed = JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const out = redactJson(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(out)).toEqual(['__proto__']);
  });

  it('knows secret-like keys', () => {
    for (const key of [
      'password',
      'currentPassword',
      'token',
      'resetToken',
      'secret',
      'webhookSecret',
      'pid',
      'k',
      'cookie',
      'authorization',
      'api_key',
      'session',
    ])
      expect(isSecretKey(key), key).toBe(true);
    for (const key of ['code', 'key', 'kind', 'name', 'message', 'url', 'type', 'data']) expect(isSecretKey(key), key).toBe(false);
  });
});

describe('reports without secrets', () => {
  it('a token page is named by its route pattern', () => {
    expect(reportPagePath(`/reset-password/${TOKEN}`)).toBe('/reset-password/[token]');
    expect(reportPagePath(`/reset-password/${TOKEN}/`)).toBe('/reset-password/[token]');
    expect(reportPagePath(`/de/reset-password/${TOKEN}`)).toBe('/de/reset-password/[token]');
    expect(reportPagePath(`/onboarding/${TOKEN}`)).toBe('/onboarding/[token]');
    expect(reportPagePath(`/update-email/${TOKEN}`)).toBe('/update-email/[token]');
    // A malformed token is still not sent.
    expect(reportPagePath('/reset-password/%E0%A4%A')).toBe('/reset-password/[token]');
    expect(reportPagePath('/surveys/42')).toBe('/surveys/42');
    expect(reportPagePath('/account/mission-history/7')).toBe('/account/mission-history/7');
  });

  it('redactReport cleans the url, the browser and every text of the data', () => {
    const report: Report = {
      url: `/login?r=/update-email/${TOKEN}`,
      userAgent: 'Agent/1',
      data: {
        type: 'manual',
        stacktrace: `Error\n    at http://host/onboarding/${TOKEN}?token=${OTHER}&pid=p1:1:1`,
        data: { kind: 'http', code: 500, body: `{"error":{"message":"/reset-password/${TOKEN}"}}`, cause: `ApiError: /onboarding/${TOKEN}` },
      },
    };
    expect(redactReport(report)).toEqual({
      url: '/login?r=/update-email/[token]',
      userAgent: 'Agent/1',
      data: {
        type: 'manual',
        // A query value may hold colons: the line and column go with it.
        stacktrace: 'Error\n    at http://host/onboarding/[token]?token=[redacted]&pid=[redacted]',
        data: { kind: 'http', code: 500, body: '{"error":{"message":"/reset-password/[token]"}}', cause: 'ApiError: /onboarding/[token]' },
      },
    });
  });
});

describe('the browser report queue sends no live token', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function queueOn(pathname: string) {
    vi.stubGlobal('location', { pathname });
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response(null, { status: 204 }));
    const queue = createReportQueue({ fetch, warn: vi.fn(), userAgent: () => 'TestAgent/1.0' });
    const sent = () => fetch.mock.calls.map(([, init]) => String(init?.body)).join('\n');
    return { queue, sent };
  }

  it('a page_load on a token page names the route pattern', async () => {
    const { queue, sent } = queueOn(`/reset-password/${TOKEN}`);
    await queue.add({ type: 'action', action: { name: 'page_load', data: null } });
    await queue.flush();
    expect(JSON.parse(sent())).toEqual({
      reports: [{ url: '/reset-password/[token]', userAgent: 'TestAgent/1.0', data: { type: 'action', action: { name: 'page_load', data: null } } }],
    });
  });

  it('error texts and data are cleaned before they are queued and hashed', async () => {
    const { queue, sent } = queueOn(`/onboarding/${TOKEN}`);
    const error = new Error(`could not load /onboarding/${TOKEN}?token=${OTHER}`);
    error.stack = `Error: could not load\n    at http://host/onboarding/${TOKEN}:3:9`;
    expect(await queue.add(errorReportData(error, { type: 'uncaught', label: 'exception' }))).toBe(true);
    const http = new ApiError(404, 'invalid_token', `No such link /reset-password/${TOKEN}`, {}, null, `{"path":"/update-email/${TOKEN}"}`);
    expect(await queue.add(errorReportData(http))).toBe(true);
    await queue.add({ type: 'action', action: { name: 'misc', data: { token: TOKEN, next: `/reset-password/${OTHER}` } } });
    // The same error again is the same (cleaned) report: not queued twice.
    expect(await queue.add(errorReportData(error, { type: 'uncaught', label: 'exception' }))).toBe(false);
    await queue.flush();
    const body = sent();
    expect(body).not.toContain(TOKEN);
    expect(body).not.toContain(OTHER);
    expect(body).toContain('/onboarding/[token]:3:9');
    expect(body).toContain('No such link /reset-password/[token]');
  });

  it('a page path given by the caller is cleaned too', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response(null, { status: 204 }));
    const queue = createReportQueue({ fetch, warn: vi.fn(), pagePath: () => `/update-email/${TOKEN}`, userAgent: () => null });
    await queue.add({ type: 'action', action: { name: 'page_load', data: null } });
    await queue.flush();
    expect(String(fetch.mock.calls[0]?.[1]?.body)).toContain('"url":"/update-email/[token]"');
  });
});

describe('analytics sends no live token', () => {
  it('page location, path and referrer are cleaned', () => {
    const win: Record<string, unknown> = {};
    const doc = {
      cookie: '',
      title: 'Choose a new password',
      referrer: `https://app.example.org/login?r=/update-email/${OTHER}`,
      createElement: () => ({}),
      head: { appendChild: () => undefined },
    };
    const loc = { href: `https://app.example.org/reset-password/${TOKEN}`, pathname: `/reset-password/${TOKEN}`, hostname: 'app.example.org' };
    type Deps = Parameters<typeof createAnalytics>[0];
    const analytics = createAnalytics({ id: 'G-TEST1234', win: win as Deps['win'], doc: doc as unknown as Deps['doc'], loc });
    analytics.setEnabled(true);
    analytics.pageView();
    const calls = ((win.dataLayer as IArguments[] | undefined) ?? []).map((args) => [...args]);
    const text = JSON.stringify(calls);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(OTHER);
    expect(calls).toContainEqual([
      'event',
      'page_view',
      expect.objectContaining({ page_location: 'https://app.example.org/reset-password/[token]', page_path: '/reset-password/[token]' }),
    ]);
    // Set before the configuration, so gtag never reads the location itself.
    const firstSet = calls.findIndex((c) => c[0] === 'set');
    expect(firstSet).toBeGreaterThanOrEqual(0);
    expect(firstSet).toBeLessThan(calls.findIndex((c) => c[0] === 'config'));
    expect(calls[firstSet]?.[1]).toMatchObject({ page_referrer: 'https://app.example.org/login?r=/update-email/[token]' });
  });
});

describe('logs keep no secrets', () => {
  function capture() {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    return { logger, lines, text: () => lines.join('') };
  }

  it('redacts cookies, authorization, passwords, tokens and secrets at the logged paths', () => {
    const { logger, text } = capture();
    logger.info({ req: { headers: { cookie: `fw_session=${TOKEN}`, authorization: `Bearer ${TOKEN}` } } }, 'request');
    logger.info({ headers: { 'set-cookie': `fw_session=${TOKEN}` }, password: 'hunter2', token: TOKEN, secret: OTHER }, 'x');
    logger.info({ user: { password: 'hunter2', passwordHash: '$argon2id$v=19$abc', webhookSecret: OTHER, returnKey: OTHER } }, 'y');
    // pg-boss's "slow query" warning carries the query's parameters (job data, mails included).
    logger.warn(
      { warning: 'slow query', data: { elapsed: 2, sql: 'insert …', values: [`{"message":{"text":"https://h/onboarding/${TOKEN}"}}`] } },
      'job queue warning',
    );
    logger.info({ message: { to: 'a@example.org', text: `https://h/onboarding/${TOKEN}`, html: `<a href="https://h/onboarding/${TOKEN}">` } }, 'z');
    const out = text();
    for (const secret of [TOKEN, OTHER, 'hunter2', '$argon2id$']) expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it('errors lose link tokens, secret query values, failed-query parameters and password hashes', () => {
    const failed = Object.assign(
      new Error('Failed query: update "users" set "password_hash" = $1 where "id" = $2\nparams: $argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA,7'),
      {
        query: 'update "users" set "password_hash" = $1 where "id" = $2',
        params: ['$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', 7],
      },
    );
    const serialized = JSON.stringify(serializeError(failed));
    expect(serialized).not.toContain('$argon2id$');
    expect(serialized).toContain('params: [redacted]');
    expect(serialized).toContain('Failed query: update');

    const { logger, text } = capture();
    logger.error({ err: new Error(`could not render http://host/reset-password/${TOKEN}?token=${OTHER}`), path: '/x' }, 'unhandled error');
    expect(text()).not.toContain(TOKEN);
    expect(text()).not.toContain(OTHER);
    expect(text()).toContain('/reset-password/[token]?token=[redacted]');
    expect(redactLogText('hash $argon2i$v=19$m=1$x$y here')).toBe('hash [redacted] here');
  });
});

describe('the development outbox logs a link token only for its owner', () => {
  it('logs the links of a mail to the link owner in full, any other mail without tokens', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldwork-redact-'));
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const mailer = createMailer({ from: 'Fieldwork <no-reply@fieldwork.localhost>', dataDir, logger });
    try {
      const now = new Date('2026-01-01T00:00:00Z');
      const expiresAt = new Date(now.getTime() + 3_600_000);
      const own = [
        invitationMail({
          to: 'a@example.org',
          language: 'en',
          firstName: 'A',
          role: 'participant',
          url: `https://fw.example/onboarding/${TOKEN}`,
          expiresAt,
          now,
        }),
        resetPasswordMail({ to: 'a@example.org', language: 'en', firstName: 'A', url: `https://fw.example/reset-password/${TOKEN}`, expiresAt, now }),
        confirmEmailChangeMail({ to: 'a@example.org', language: 'en', firstName: 'A', url: `https://fw.example/update-email/${TOKEN}`, expiresAt, now }),
      ];
      for (const mail of own) expect(mail.recipientOwnsLinks).toBe(true);
      for (const mail of own) await mailer.send(mail);
      expect(lines.join('')).toContain(TOKEN);

      lines.length = 0;
      // Someone pastes their link into the contact form (the route cleans the message first; this
      // checks the outbox's own guard).
      const support = contactMail({
        to: 'support@example.org',
        name: 'Sam',
        email: 'sam@example.org',
        message: `My link https://fw.example/reset-password/${OTHER} fails`,
        userId: null,
        messageId: 1,
        receivedAt: now,
      });
      expect(support.recipientOwnsLinks).toBeUndefined();
      await mailer.send(support);
      const out = lines.join('');
      expect(out).toContain('mail link: https://fw.example/reset-password/[token]');
      expect(out).not.toContain(OTHER);
      // nodemailer is not given our flag: it is not in the written message.
      const [file] = fs
        .readdirSync(path.join(dataDir, 'outbox'))
        .filter((f) => f.endsWith('.eml'))
        .sort();
      expect(fs.readFileSync(path.join(dataDir, 'outbox', file ?? ''), 'utf8')).not.toContain('recipientOwnsLinks');
    } finally {
      mailer.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
