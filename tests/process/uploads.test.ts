/**
 * Uploads against the real server (node:http through @hono/node-server), over raw sockets so the
 * test decides when each byte goes: one account's slow uploads (a byte every two seconds) hold
 * only its own 2 places, and another participant's upload still goes through at once; the third
 * slow upload is refused with 429 before its body is sent, and the same keep-alive connection
 * then serves the next request; a body that stops is cut off with 408 and its place freed.
 * The stall time is shortened for the test through FIELDWORK_TEST_UPLOAD_STALL_MS.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '../../src/shared/media.ts';
import { runCliAsync, startServerProcess, type ServerProcess } from '../support/processes.ts';

const STALL_MS = 5_000;
/** Slow uploads send a byte this often: well within the stall time. */
const TRICKLE_MS = 2_000;
const PASSWORD = 'Upl0ad-slowly!';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 connection written by hand; responses are read off it in order. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  ended = false;
  readonly socket: net.Socket;
  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake?.();
    });
    socket.on('error', () => {});
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  /** The next whole response, or null when none is complete within `timeoutMs` (or the connection closed first). */
  async response(timeoutMs: number): Promise<RawResponse | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.ended || Date.now() >= deadline) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** Removes one complete response from the buffer (Content-Length or chunked bodies). */
  private take(): RawResponse | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine = '', ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    let at = end + 4;
    let body = Buffer.alloc(0);
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const lineEnd = this.buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return null;
        const size = parseInt(this.buffer.subarray(at, lineEnd).toString('latin1'), 16);
        if (this.buffer.length < lineEnd + 2 + size + 2) return null;
        body = Buffer.concat([body, this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size)]);
        at = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (this.buffer.length < at + length) return null;
      body = this.buffer.subarray(at, at + length);
      at += length;
    }
    this.buffer = this.buffer.subarray(at);
    return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') };
  }

  close(): void {
    this.socket.destroy();
  }
}

const errorCode = (response: RawResponse | null) => (response ? (JSON.parse(response.body) as { error: { code: string; message: string } }).error : null);

describe('uploads on the real server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-proc-uploads-'));
  const env = { DATA_DIR: dataDir, FIELDWORK_TEST_UPLOAD_STALL_MS: String(STALL_MS) };
  let server: ServerProcess;
  let port: number;
  const connections: RawConnection[] = [];
  const timers: NodeJS.Timeout[] = [];
  const cookies: Record<string, string> = {};
  let photo: Buffer;

  /** Signs in through the API and keeps the session cookie. */
  async function signIn(email: string): Promise<string> {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { Origin: server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith('fw_session='));
    if (!cookie) throw new Error('no session cookie');
    return cookie.split(';')[0] ?? '';
  }

  /** The request line and headers of an upload of `length` bytes (the body follows separately). */
  const uploadHead = (cookie: string, length: number) =>
    `POST /api/media HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.url}\r\nCookie: ${cookie}\r\n` +
    `Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: ${length}\r\nConnection: keep-alive\r\n\r\n`;

  async function uploadWithFetch(cookie: string): Promise<{ status: number; ms: number }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'shelf.png');
    const started = Date.now();
    const res = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { Origin: server.url, Cookie: cookie }, body: form });
    await res.text();
    return { status: res.status, ms: Date.now() - started };
  }

  beforeAll(async () => {
    photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    server = await startServerProcess(env);
    port = Number(new URL(server.url).port);
    for (const name of ['slowpoke', 'other', 'staller']) {
      const created = await runCliAsync(
        ['user:create', '--email', `${name}@example.org`, '--password', PASSWORD, '--role', 'participant', '--first-name', name, '--last-name', 'Tester'],
        env,
      );
      expect(created.code, created.stderr).toBe(0);
      cookies[name] = await signIn(`${name}@example.org`);
    }
  });

  afterAll(async () => {
    for (const timer of timers) clearInterval(timer);
    for (const connection of connections) connection.close();
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(`one account's 8 slow uploads hold only its ${MEDIA_LIMITS.uploadsAtOnce} places: the rest get 429 at once, another participant's upload is not held up`, async () => {
    const slowCookie = cookies.slowpoke ?? '';
    const answers: Promise<RawResponse | null>[] = [];
    for (let i = 0; i < 8; i++) {
      const connection = await RawConnection.open(port);
      connections.push(connection);
      connection.write(uploadHead(slowCookie, 1000));
      // A byte every two seconds: never stalled, never done.
      timers.push(setInterval(() => connection.write('-'), TRICKLE_MS));
      answers.push(connection.response(3_000));
    }
    const settled = await Promise.all(answers);
    const refused = settled.filter((answer) => answer !== null);
    expect(refused).toHaveLength(8 - MEDIA_LIMITS.uploadsAtOnce);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(errorCode(answer)).toEqual({ code: 'too_many_uploads', message: MEDIA_MESSAGES.tooManyUploads });
    }

    // Meanwhile another participant uploads a photo in well under the few seconds asked.
    const theirs = await uploadWithFetch(cookies.other ?? '');
    expect(theirs.status).toBe(201);
    expect(theirs.ms).toBeLessThan(5_000);
    // The slow ones that got a place are still going: no answer, connection open.
    const going = connections.slice(0, 8).filter((connection, i) => settled[i] === null && !connection.ended);
    expect(going).toHaveLength(MEDIA_LIMITS.uploadsAtOnce);
  });

  it('the third upload gets 429 before its body is sent, and the same keep-alive connection then serves the next request', async () => {
    const connection = await RawConnection.open(port);
    connections.push(connection);
    const started = Date.now();
    connection.write(uploadHead(cookies.slowpoke ?? '', 1000));
    const refused = await connection.response(3_000);
    expect(refused?.status).toBe(429);
    expect(errorCode(refused)?.code).toBe('too_many_uploads');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(refused?.headers.connection).not.toBe('close');
    // The body it had announced goes out now, then a second request on the same connection.
    connection.write(Buffer.alloc(1000, 0x2d));
    connection.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const next = await connection.response(5_000);
    expect(next?.status).toBe(200);
    expect(JSON.parse(next?.body ?? '{}')).toMatchObject({ status: 'ok' });
    expect(connection.ended).toBe(false);
  });

  it(`a body that stops is cut off with 408 after the stall time (${STALL_MS} ms here) and its place is free at once`, async () => {
    const cookie = cookies.staller ?? '';
    const stalled = await Promise.all([RawConnection.open(port), RawConnection.open(port)]);
    connections.push(...stalled);
    const started = Date.now();
    for (const connection of stalled) connection.write(`${uploadHead(cookie, 1000)}--xyz\r\n`);
    // Both places are taken: a third is refused.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await uploadWithFetch(cookie)).status).toBe(429);
    for (const connection of stalled) {
      const answer = await connection.response(STALL_MS + 10_000);
      expect(answer?.status).toBe(408);
      expect(errorCode(answer)).toEqual({ code: 'upload_stalled', message: MEDIA_MESSAGES.stalled });
      expect(answer?.headers.connection).toBe('close');
    }
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(STALL_MS - 100);
    expect(waited).toBeLessThan(STALL_MS + 10_000);
    // The places are back: the next upload of the same account is stored.
    expect((await uploadWithFetch(cookie)).status).toBe(201);
  });
});
