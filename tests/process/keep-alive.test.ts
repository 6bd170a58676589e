/**
 * Keep-alive after a refused request, on the real server (node:http through @hono/node-server),
 * over raw sockets: a request refused before its body is read (413, 415, 403, 429, 401, an
 * over-size photo) is sent with its whole body, then `GET /api/health` on the same connection is
 * answered. A body too large to drain gets `Connection: close`, then the answer, a FIN, and the
 * socket goes after the linger time: never a reset before the answer
 * (src/server/drain.ts, docs/decisions/021-draining-refused-bodies.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_MAX_BYTES, LINGER_MS } from '../../src/server/drain.ts';
import { JSON_BODY_LIMIT_BYTES } from '../../src/shared/limits.ts';
import { MEDIA_LIMITS } from '../../src/shared/media.ts';
import { RawConnection, type RawResponse } from '../support/raw-http.ts';
import { runCliAsync, startServerProcess, type ServerProcess } from '../support/processes.ts';

const PASSWORD = 'Keep-al1ve-please';

describe('keep-alive after a refused request', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-proc-keepalive-'));
  const env = { DATA_DIR: dataDir };
  let server: ServerProcess;
  let port: number;
  let participantCookie = '';
  const connections: RawConnection[] = [];

  beforeAll(async () => {
    server = await startServerProcess(env);
    port = Number(new URL(server.url).port);
    const created = await runCliAsync(
      ['user:create', '--email', 'keeper@example.org', '--password', PASSWORD, '--role', 'participant', '--first-name', 'Kee', '--last-name', 'Per'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { Origin: server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'keeper@example.org', password: PASSWORD }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    participantCookie = (res.headers.getSetCookie().find((line) => line.startsWith('fw_session=')) ?? '').split(';')[0] ?? '';
    expect(participantCookie).not.toBe('');
  });

  afterAll(async () => {
    for (const connection of connections) connection.close();
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function open(): Promise<RawConnection> {
    const connection = await RawConnection.open(port);
    connections.push(connection);
    return connection;
  }

  /** A request's line and headers; `headers` are added as given (an Origin only when passed). */
  const head = (method: string, target: string, headers: Record<string, string | number>) =>
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;

  const health = () => head('GET', '/api/health', {});

  /** Sends the request with its whole body, then a health check on the same connection; both answers. */
  async function refusedThenHealth(
    headers: Record<string, string | number>,
    target: string,
    body: Buffer,
  ): Promise<[RawResponse | null, RawResponse | null, RawConnection]> {
    const connection = await open();
    void connection.write(head('POST', target, { ...headers, 'Content-Length': body.length }));
    void connection.write(body);
    void connection.write(health());
    const refused = await connection.response(20_000);
    const next = await connection.response(20_000);
    return [refused, next, connection];
  }

  function expectAnsweredAndOpen(refused: RawResponse | null, next: RawResponse | null, connection: RawConnection, status: number, code: string) {
    expect(refused?.status).toBe(status);
    expect((JSON.parse(refused?.body ?? '{}') as { error?: { code?: string } }).error?.code).toBe(code);
    expect(refused?.headers.connection).not.toBe('close');
    expect(next?.status).toBe(200);
    expect(JSON.parse(next?.body ?? '{}')).toMatchObject({ status: 'ok' });
    expect(connection.ended).toBe(false);
  }

  const json = (size: number) => Buffer.from(JSON.stringify({ email: 'a@example.org', password: 'x'.repeat(Math.max(0, size - 40)) }));

  it(`413: a JSON body over ${JSON_BODY_LIMIT_BYTES} bytes (2,000,000 sent)`, async () => {
    const [refused, next, connection] = await refusedThenHealth(
      { Origin: server.url, 'Content-Type': 'application/json' },
      '/api/auth/login',
      Buffer.alloc(2_000_000, 0x78),
    );
    expectAnsweredAndOpen(refused, next, connection, 413, 'payload_too_large');
  });

  it('415: a body that is not JSON (100 KB of text)', async () => {
    const [refused, next, connection] = await refusedThenHealth(
      { Origin: server.url, 'Content-Type': 'text/plain' },
      '/api/auth/login',
      Buffer.alloc(100_000, 0x79),
    );
    expect(refused?.status).toBe(415);
    expectAnsweredAndOpen(refused, next, connection, 415, refused ? (JSON.parse(refused.body) as { error: { code: string } }).error.code : '');
  });

  it('403: another site as Origin', async () => {
    const [refused, next, connection] = await refusedThenHealth(
      { Origin: 'http://evil.example', 'Content-Type': 'application/json' },
      '/api/auth/login',
      json(500_000),
    );
    expect(refused?.status).toBe(403);
    expectAnsweredAndOpen(refused, next, connection, 403, refused ? (JSON.parse(refused.body) as { error: { code: string } }).error.code : '');
  });

  it('429: the 11th failed sign-in for one account', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { Origin: server.url, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'keeper@example.org', password: 'wrong-password' }),
      });
      expect(res.status).toBe(401);
    }
    const [refused, next, connection] = await refusedThenHealth(
      { Origin: server.url, 'Content-Type': 'application/json' },
      '/api/auth/login',
      Buffer.from(JSON.stringify({ email: 'keeper@example.org', password: 'wrong-password' })),
    );
    expectAnsweredAndOpen(refused, next, connection, 429, 'rate_limited');
  });

  it('401: a 5 MB upload without a session', async () => {
    const [refused, next, connection] = await refusedThenHealth(
      { Origin: server.url, 'Content-Type': 'multipart/form-data; boundary=xyz' },
      '/api/media',
      Buffer.alloc(5 * 1024 * 1024, 0x2d),
    );
    expectAnsweredAndOpen(refused, next, connection, 401, 'unauthenticated');
  });

  it(`413: a photo upload over ${MEDIA_LIMITS.maxBytes / 1024 / 1024} MB (21 MiB declared and sent), signed in`, async () => {
    const size = 21 * 1024 * 1024;
    expect(size).toBeLessThanOrEqual(DRAIN_MAX_BYTES);
    const [refused, next, connection] = await refusedThenHealth(
      { Origin: server.url, Cookie: participantCookie, 'Content-Type': 'multipart/form-data; boundary=xyz' },
      '/api/media',
      Buffer.alloc(size, 0x2d),
    );
    expectAnsweredAndOpen(refused, next, connection, 413, 'file_too_large');
  });

  it('a refused body that trickles in over 3 s is still drained (progress, not a flat timer)', async () => {
    const connection = await open();
    const body = Buffer.alloc(2_000_000, 0x78);
    void connection.write(head('POST', '/api/auth/login', { Origin: server.url, 'Content-Type': 'application/json', 'Content-Length': body.length }));
    const refused = await connection.response(5_000);
    expect(refused?.status).toBe(413);
    const pieces = 10;
    const piece = body.length / pieces;
    for (let i = 0; i < pieces; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await connection.write(body.subarray(i * piece, (i + 1) * piece))).toBe(true);
    }
    void connection.write(health());
    const next = await connection.response(5_000);
    expect(next?.status).toBe(200);
    expect(connection.ended).toBe(false);
  });

  it(`a huge declared body sent slowly: answered with Connection: close, then closed within the ${LINGER_MS} ms linger, reading bounded`, async () => {
    const connection = await open();
    const declared = 1024 * 1024 * 1024;
    void connection.write(head('POST', '/api/auth/login', { Origin: server.url, 'Content-Type': 'application/json', 'Content-Length': declared }));
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    const sending = setInterval(() => void connection.write(chunk), 50);
    try {
      const started = Date.now();
      const refused = await connection.response(5_000);
      expect(refused?.status).toBe(413);
      expect(refused?.headers.connection).toBe('close');
      expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({ error: { code: 'payload_too_large' } });
      // The answer is followed by the server's FIN at once …
      const finAt = await connection.serverClosed(2_000);
      expect(finAt).not.toBeNull();
      // … and the socket goes after the linger time, though the client is still sending.
      const closedAt = await connection.closed(LINGER_MS + 5_000);
      expect(closedAt).not.toBeNull();
      expect(Date.now() - started).toBeLessThan(LINGER_MS + 5_000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(LINGER_MS - 1_000);
      // At ~1.3 MB/s for the linger time: a small part of what was declared.
      expect(connection.sent).toBeLessThan(declared / 20);
    } finally {
      clearInterval(sending);
    }
  });

  it(`a refused body declared over ${DRAIN_MAX_BYTES} bytes is answered with Connection: close (401 upload of 300 MB)`, async () => {
    const connection = await open();
    void connection.write(
      head('POST', '/api/media', { Origin: server.url, 'Content-Type': 'multipart/form-data; boundary=xyz', 'Content-Length': 300_000_000 }),
    );
    void connection.write(Buffer.alloc(1_000_000, 0x2d));
    const refused = await connection.response(5_000);
    expect(refused?.status).toBe(401);
    expect(refused?.headers.connection).toBe('close');
    expect(await connection.serverClosed(2_000)).not.toBeNull();
  });
});
