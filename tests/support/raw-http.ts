/**
 * One HTTP/1.1 connection written by hand, for process tests that decide when each byte goes and
 * what happens to the connection afterwards: responses are read off it in order, and the moment
 * the server ended (FIN) or closed the connection is recorded.
 */
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  private buffer = Buffer.alloc(0);
  private wakers: (() => void)[] = [];
  /** When the server sent its FIN (ms since open), or null. */
  endedAt: number | null = null;
  /** When the connection closed (ms since open), or null. */
  closedAt: number | null = null;
  /** The socket error seen, if any (EPIPE / ECONNRESET after the server closed). */
  error: string | null = null;
  /** Bytes written by `write` that the socket accepted. */
  sent = 0;
  readonly opened = Date.now();
  readonly socket: net.Socket;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('end', () => {
      this.endedAt = Date.now() - this.opened;
      this.wake();
    });
    socket.on('close', () => {
      this.closedAt = Date.now() - this.opened;
      this.wake();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.error = error.code ?? error.message;
    });
  }

  /** Half-open allowed: the server's FIN does not end our side, so the test sees what the server does next. */
  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get ended(): boolean {
    return this.endedAt !== null || this.closedAt !== null;
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  /** Writes when the socket still takes data; resolves once flushed to the kernel (false when it could not be). */
  write(data: string | Buffer): Promise<boolean> {
    if (this.socket.destroyed || this.socket.writableEnded) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.socket.write(data, (error) => {
        if (!error) this.sent += Buffer.byteLength(data);
        resolve(!error);
      });
    });
  }

  /** Resolves when `done()` holds or `timeoutMs` has passed; re-checked on every event of the connection. */
  private async until(done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.wakers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next whole response, or null when none is complete within `timeoutMs` (or the connection ended first). */
  async response(timeoutMs: number): Promise<RawResponse | null> {
    let parsed: RawResponse | null = null;
    await this.until(() => (parsed = this.take()) !== null || this.ended, timeoutMs);
    return parsed ?? this.take();
  }

  /** Waits until the server has closed its side (FIN or close); returns when it did (ms since open), or null. */
  async serverClosed(timeoutMs: number): Promise<number | null> {
    await this.until(() => this.ended, timeoutMs);
    return this.endedAt ?? this.closedAt;
  }

  /** Waits until the socket is closed for good (the server destroyed it, or we did); ms since open, or null. */
  async closed(timeoutMs: number): Promise<number | null> {
    await this.until(() => this.closedAt !== null, timeoutMs);
    return this.closedAt;
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
