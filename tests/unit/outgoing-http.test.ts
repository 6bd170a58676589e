/**
 * Requests to addresses an admin typed (services/outgoing-http.ts, issue 32 §1 and §4): which
 * addresses are refused, what a webhook address may be when saved, and a real delivery to a local
 * server — refused before connecting when a name points inside (also when it changes between the
 * check and the delivery), no redirect followed, the answer capped, a silent server timed out.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { checkWebhookUrl, postSafely, refusedAddress, type Resolver } from '../../src/server/services/outgoing-http.ts';
import { newWebhookSecret, webhookHeaders, webhookMessageId } from '../../src/server/services/webhook-signature.ts';
import { WEBHOOK_URL_MESSAGES as MESSAGES } from '../../src/shared/webhook-url.ts';

const LOOPBACK = 'loopback address';
const PRIVATE = 'private address';
const LINK_LOCAL = 'link-local address';
const RESERVED = 'reserved address';
const DOCUMENTATION = 'documentation address';

describe('refusedAddress', () => {
  // [address, reason without allowLoopback (null: accepted), reason with it]
  const cases: [string, string | null, string | null][] = [
    ['127.0.0.1', LOOPBACK, null],
    ['127.255.255.254', LOOPBACK, null],
    ['::1', LOOPBACK, null],
    ['0:0:0:0:0:0:0:1', LOOPBACK, null],
    ['::ffff:127.0.0.1', LOOPBACK, null],
    ['::ffff:7f00:1', LOOPBACK, null],
    ['::127.0.0.1', LOOPBACK, null],
    ['64:ff9b::7f00:1', LOOPBACK, null],
    ['64:ff9b::127.0.0.1', LOOPBACK, null],
    ['2002:7f00:1::1', LOOPBACK, null],
    ['0.0.0.0', 'unspecified address', 'unspecified address'],
    ['0.1.2.3', 'unspecified address', 'unspecified address'],
    ['::', 'unspecified address', 'unspecified address'],
    ['10.0.0.1', PRIVATE, PRIVATE],
    ['10.255.255.255', PRIVATE, PRIVATE],
    ['172.16.0.1', PRIVATE, PRIVATE],
    ['172.31.255.255', PRIVATE, PRIVATE],
    ['192.168.1.1', PRIVATE, PRIVATE],
    ['fc00::1', PRIVATE, PRIVATE],
    ['fd12:3456:789a::1', PRIVATE, PRIVATE],
    ['::ffff:10.0.0.1', PRIVATE, PRIVATE],
    ['::ffff:c0a8:101', PRIVATE, PRIVATE],
    ['2002:c0a8:101::1', PRIVATE, PRIVATE],
    ['100.64.0.1', 'carrier-grade NAT address', 'carrier-grade NAT address'],
    ['100.127.255.255', 'carrier-grade NAT address', 'carrier-grade NAT address'],
    ['169.254.169.254', LINK_LOCAL, LINK_LOCAL],
    ['::ffff:169.254.169.254', LINK_LOCAL, LINK_LOCAL],
    ['64:ff9b::a9fe:a9fe', LINK_LOCAL, LINK_LOCAL],
    ['fe80::1', LINK_LOCAL, LINK_LOCAL],
    ['febf::1', LINK_LOCAL, LINK_LOCAL],
    ['fe80::1%eth0', 'scoped address', 'scoped address'],
    ['224.0.0.1', 'multicast address', 'multicast address'],
    ['239.255.255.250', 'multicast address', 'multicast address'],
    ['ff02::1', 'multicast address', 'multicast address'],
    ['255.255.255.255', 'broadcast address', 'broadcast address'],
    ['240.0.0.1', RESERVED, RESERVED],
    ['192.0.0.8', RESERVED, RESERVED],
    ['192.88.99.1', RESERVED, RESERVED],
    ['100::1', RESERVED, RESERVED],
    ['64:ff9b:1::1', RESERVED, RESERVED],
    ['2001::1', RESERVED, RESERVED], // Teredo
    ['fec0::1', RESERVED, RESERVED],
    ['5f00::1', RESERVED, RESERVED], // outside global unicast
    ['192.0.2.1', DOCUMENTATION, DOCUMENTATION],
    ['198.51.100.7', DOCUMENTATION, DOCUMENTATION],
    ['203.0.113.9', DOCUMENTATION, DOCUMENTATION],
    ['2001:db8::1', DOCUMENTATION, DOCUMENTATION],
    ['3fff::1', DOCUMENTATION, DOCUMENTATION],
    ['198.18.0.1', 'benchmarking address', 'benchmarking address'],
    ['198.19.255.255', 'benchmarking address', 'benchmarking address'],
    ['2001:2::1', 'benchmarking address', 'benchmarking address'],
    ['example.com', 'not an IP address', 'not an IP address'],
    ['0177.0.0.1', 'not an IP address', 'not an IP address'],
    ['', 'not an IP address', 'not an IP address'],
    // the internet
    ['8.8.8.8', null, null],
    ['93.184.216.34', null, null],
    ['172.32.0.1', null, null],
    ['172.15.255.255', null, null],
    ['100.128.0.1', null, null],
    ['169.255.0.1', null, null],
    ['198.20.0.1', null, null],
    ['223.255.255.255', null, null],
    ['2606:4700:4700::1111', null, null],
    ['2001:4860:4860::8888', null, null],
    ['2A00:1450:4001::1', null, null],
    ['::ffff:8.8.8.8', null, null],
    ['64:ff9b::808:808', null, null],
    ['2002:808:808::1', null, null],
  ];

  it.each(cases)('%s', (ip, refused, refusedWithLoopback) => {
    expect(refusedAddress(ip, { allowLoopback: false })).toBe(refused);
    expect(refusedAddress(ip, { allowLoopback: true })).toBe(refusedWithLoopback);
  });
});

/** A resolver from a table; a name not in it is not found. `calls` records what it was asked. */
function tableResolver(table: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolve, { calls });
}

describe('checkWebhookUrl', () => {
  const resolve = tableResolver({
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'evil.example': ['127.0.0.1'],
    'six.example': ['::1'],
    'lan.example': ['10.0.0.5'],
    'metadata.example': ['169.254.169.254'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'mixed.example': ['93.184.216.34', '10.0.0.1'],
    'empty.example': [],
  });
  const strict = { allowLoopback: false, resolve };
  const relaxed = { allowLoopback: true, resolve };

  it('accepts an https address whose every address is on the internet', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/fieldwork?x=1', strict)).toBeNull();
    expect(await checkWebhookUrl('https://hooks.example.com:8443/', strict)).toBeNull();
    expect(await checkWebhookUrl('https://8.8.8.8/hook', strict)).toBeNull();
    expect(await checkWebhookUrl('https://[2606:4700:4700::1111]/hook', strict)).toBeNull();
  });

  it('refuses a name resolving to loopback, private or link-local addresses, or to any one among public ones', async () => {
    for (const host of ['evil.example', 'six.example', 'lan.example', 'metadata.example', 'mapped.example', 'mixed.example'])
      expect(await checkWebhookUrl(`https://${host}/hook`, strict), host).toBe(MESSAGES.notPublic);
  });

  it('judges IP literals as written, however odd, without resolving them', async () => {
    resolve.calls.length = 0;
    for (const url of [
      'https://127.0.0.1/',
      'https://127.0.0.1./',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://0x7f.1/',
      'https://0x7f000001/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/',
      'https://[64:ff9b::7f00:1]/',
      'https://10.1.2.3/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fe80::1]/',
      'https://0/',
    ])
      expect(await checkWebhookUrl(url, strict), url).toBe(MESSAGES.notPublic);
    expect(resolve.calls).toEqual([]);
  });

  it('refuses http unless loopback is allowed, and then still refuses every private range but loopback', async () => {
    expect(await checkWebhookUrl('http://hooks.example.com/', strict)).toBe(MESSAGES.https);
    expect(await checkWebhookUrl('http://hooks.example.com/', relaxed)).toBeNull();
    expect(await checkWebhookUrl('http://127.0.0.1:8080/hook', relaxed)).toBeNull();
    expect(await checkWebhookUrl('http://evil.example/', relaxed)).toBeNull();
    expect(await checkWebhookUrl('http://[::1]:9000/', relaxed)).toBeNull();
    for (const url of ['http://lan.example/', 'http://metadata.example/', 'http://10.0.0.1/', 'https://192.168.0.1/', 'http://mixed.example/'])
      expect(await checkWebhookUrl(url, relaxed), url).toBe(MESSAGES.notPublic);
    for (const url of ['ftp://hooks.example.com/', 'javascript:alert(1)', 'file:///etc/passwd', 'ws://hooks.example.com/'])
      expect(await checkWebhookUrl(url, relaxed), url).toBe(MESSAGES.https);
  });

  it('refuses credentials, what is not a URL, over 2,000 characters and a name that does not resolve', async () => {
    expect(await checkWebhookUrl('https://user:secret@hooks.example.com/', strict)).toBe(MESSAGES.credentials);
    expect(await checkWebhookUrl('https://user@hooks.example.com/', strict)).toBe(MESSAGES.credentials);
    for (const url of ['hooks.example.com/hook', 'not a url', '', 'https://']) expect(await checkWebhookUrl(url, strict), url).toBe(MESSAGES.invalid);
    const base = 'https://hooks.example.com/';
    expect(await checkWebhookUrl(base + 'a'.repeat(2000 - base.length), strict)).toBeNull();
    expect(await checkWebhookUrl(base + 'a'.repeat(2001 - base.length), strict)).toBe(MESSAGES.tooLong);
    expect(await checkWebhookUrl('https://nowhere.example/', strict)).toBe(MESSAGES.notFound);
    expect(await checkWebhookUrl('https://empty.example/', strict)).toBe(MESSAGES.notFound);
  });

  it('resolves with the system by default: localhost is refused', async () => {
    expect(await checkWebhookUrl('https://localhost/hook', { allowLoopback: false })).toBe(MESSAGES.notPublic);
  });
});

describe('postSafely, against a local server', () => {
  let server: http.Server;
  let port = 0;
  let connections = 0;
  let requests: { url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const BIG = 200 * 1024;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        requests.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.url === '/ok') res.writeHead(200, { 'Content-Type': 'text/plain' }).end('x'.repeat(BIG));
        else if (req.url === '/redirect') res.writeHead(302, { Location: `http://127.0.0.1:${port}/ok` }).end('moved');
        else if (req.url === '/fail') res.writeHead(500).end('nope');
        // '/hang': never answers
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    connections = 0;
    requests = [];
  });

  it('delivers to loopback when allowed: signed, verified by standardwebhooks, the answer capped at 64 KB', async () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'survey_response.submitted', timestamp: new Date().toISOString(), data: { surveyId: 1, responseId: 2 } });
    const headers = webhookHeaders([secret], webhookMessageId(), Math.floor(Date.now() / 1000), body);
    const result = await postSafely({ url: `http://127.0.0.1:${port}/ok`, headers, body, allowLoopback: true });
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(result.responseExcerpt.length).toBe(65_536);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(requests).toHaveLength(1);
    const received = requests[0]!;
    expect(received.headers['user-agent']).toBe('Fieldwork-Webhooks/1');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.body).toBe(body);
    expect(new Webhook(secret).verify(received.body, received.headers as Record<string, string>)).toEqual(JSON.parse(body));
  });

  it('connects through the given resolver (a made-up name reaches the local server), and reports a 500 as a failure', async () => {
    const resolve = tableResolver({ 'receiver.test': ['127.0.0.1'] });
    const result = await postSafely({ url: `http://receiver.test:${port}/fail`, headers: {}, body: '{}', allowLoopback: true, resolve });
    expect(result).toMatchObject({ ok: false, status: 500, responseExcerpt: 'nope', error: null });
    expect(resolve.calls).toEqual(['receiver.test']);
  });

  it('never follows a redirect', async () => {
    const result = await postSafely({ url: `http://127.0.0.1:${port}/redirect`, headers: {}, body: '{}', allowLoopback: true });
    expect(result).toMatchObject({ ok: false, status: 302, error: 'redirect not followed' });
    expect(requests.map((request) => request.url)).toEqual(['/redirect']);
  });

  it('gives up on a server that never answers after timeoutMs', async () => {
    const result = await postSafely({ url: `http://127.0.0.1:${port}/hang`, headers: {}, body: '{}', allowLoopback: true, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, status: null, error: 'timed out' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
    expect(result.latencyMs).toBeLessThan(3000);
  });

  it('refuses a name resolving to loopback, and a loopback literal, before connecting', async () => {
    const resolve = tableResolver({ 'evil.example': ['127.0.0.1'] });
    const byName = await postSafely({ url: `https://evil.example:${port}/ok`, headers: {}, body: '{}', allowLoopback: false, resolve });
    expect(byName).toMatchObject({ ok: false, status: null, error: 'refused: loopback address' });
    const byLiteral = await postSafely({ url: `https://127.0.0.1:${port}/ok`, headers: {}, body: '{}', allowLoopback: false, resolve });
    expect(byLiteral).toMatchObject({ ok: false, status: null, error: 'refused: loopback address' });
    const byHttp = await postSafely({ url: `http://evil.example:${port}/ok`, headers: {}, body: '{}', allowLoopback: false, resolve });
    expect(byHttp).toMatchObject({ ok: false, status: null });
    expect(resolve.calls).toEqual(['evil.example']);
    expect(connections).toBe(0);
  });

  it('refuses at delivery a name that resolved to the internet when saved and now points inside (DNS rebinding)', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1'], ['93.184.216.34', '169.254.169.254']];
    const rebinding: Resolver = async () => (answers.shift() ?? []).map((address) => ({ address, family: 4 as const }));
    const url = `https://rebind.example:${port}/ok`;
    expect(await checkWebhookUrl(url, { allowLoopback: false, resolve: rebinding })).toBeNull();
    const first = await postSafely({ url, headers: {}, body: '{}', allowLoopback: false, resolve: rebinding, timeoutMs: 2000 });
    expect(first).toMatchObject({ ok: false, status: null, error: 'refused: loopback address' });
    const second = await postSafely({ url, headers: {}, body: '{}', allowLoopback: false, resolve: rebinding, timeoutMs: 2000 });
    expect(second).toMatchObject({ ok: false, status: null, error: 'refused: link-local address' });
    expect(connections).toBe(0);
  });

  it('reports a refused connection and a name that does not resolve, without throwing', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await postSafely({ url: `http://127.0.0.1:${closedPort}/`, headers: {}, body: '{}', allowLoopback: true })).toMatchObject({
      ok: false,
      status: null,
      error: 'connection refused',
    });
    const resolve = tableResolver({});
    expect(await postSafely({ url: 'https://nowhere.example/', headers: {}, body: '{}', allowLoopback: false, resolve })).toMatchObject({
      ok: false,
      status: null,
      error: 'host not found',
    });
    const badHeader = await postSafely({ url: `http://127.0.0.1:${port}/ok`, headers: { 'x-note': 'a\nb' }, body: '{}', allowLoopback: true });
    expect(badHeader).toMatchObject({ ok: false, status: null, error: 'ERR_INVALID_CHAR' });
    expect(connections).toBe(0);
  });
});

describe('WEBHOOKS_ALLOW_LOOPBACK', () => {
  it('is off unless set to 1 or true', () => {
    expect(loadConfig({}).webhooksAllowLoopback).toBe(false);
    expect(loadConfig({ WEBHOOKS_ALLOW_LOOPBACK: '0' }).webhooksAllowLoopback).toBe(false);
    expect(loadConfig({ WEBHOOKS_ALLOW_LOOPBACK: '1' }).webhooksAllowLoopback).toBe(true);
    expect(loadConfig({ WEBHOOKS_ALLOW_LOOPBACK: 'true' }).webhooksAllowLoopback).toBe(true);
    expect(() => loadConfig({ WEBHOOKS_ALLOW_LOOPBACK: 'yes' })).toThrow(ConfigError);
  });
});
