/**
 * Keep-alive after a refused request (docs/decisions/021-draining-refused-bodies.md).
 *
 * Many calls answer before reading the body they were sent: 401 without a session, 403 from the
 * origin check, 413 from a declared `Content-Length`, 415, 429. On HTTP/1.1 the next request on
 * the connection only starts after that body, so the unread rest must be read and thrown away
 * ("drained"), or the connection is lost. @hono/node-server's own clean-up cannot do it here: the
 * body stream the app touched (hono/body-limit reads `c.req.raw.body`) keeps pausing the request
 * while the clean-up resumes it, so its flat 500 ms timer closes the socket, with no
 * `Connection: close` to tell the client. This module replaces it (`autoCleanupIncoming: false`):
 *
 * - a refused body of at most `DRAIN_MAX_BYTES` (declared) is drained after the answer, and the
 *   connection stays open; reading gives up only when the body stops making progress for
 *   `DRAIN_STALL_MS` (as an upload that stalls), never on a flat timer;
 * - a larger one, or one of unknown length (chunked) still arriving, is answered with
 *   `Connection: close`, then closed gracefully: the answer and a FIN go out, what the client still
 *   sends is read and discarded for up to `LINGER_MS` (so it reads the answer instead of getting a
 *   reset mid-answer), and only then is the socket destroyed.
 */
import { STATUS_CODES, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { MEDIA_LIMITS } from '../shared/media.ts';
import { errorBody } from './errors.ts';

export interface DrainLimits {
  /** The largest declared body still drained after a refusal; larger ones close the connection. */
  maxBytes: number;
  /** A drained body that sends no byte for this long is cut off (the connection closed). */
  stallMs: number;
  /** After `Connection: close`, how long what the client still sends is read before the socket goes. */
  lingerMs: number;
}

/**
 * Twice the largest photo: the biggest body a page of ours sends is a photo (`POST /api/media`,
 * 20 MB); phones take 20–40 MB ones, and a browser that picked one keeps its connection after the
 * 413. Every JSON call's refused body (1 MiB limit) fits many times over. Bigger refused bodies
 * (an admin's wrong 200 MB export, a hostile client) cost more to read than a new connection.
 */
export const DRAIN_MAX_BYTES = 2 * MEDIA_LIMITS.maxBytes;
/** The upload stall time (`MEDIA_LIMITS.stallSeconds`): a drained body is held to the same progress. */
export const DRAIN_STALL_MS = MEDIA_LIMITS.stallSeconds * 1000;
/** nginx's `lingering_timeout` default: time enough for the client to read the answer and stop sending. */
export const LINGER_MS = 5_000;

export const DEFAULT_DRAIN_LIMITS: DrainLimits = { maxBytes: DRAIN_MAX_BYTES, stallMs: DRAIN_STALL_MS, lingerMs: LINGER_MS };

/** The declared body length, null for a chunked body, 0 for none. */
function declaredLength(req: IncomingMessage): number | null {
  if (req.headers['transfer-encoding'] !== undefined) return null;
  const length = req.headers['content-length'];
  if (length === undefined) return 0;
  const bytes = Number(length);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : null;
}

/** Whether a header value (or a list of them) says `close`. */
function saysClose(value: OutgoingHttpHeader | undefined): boolean {
  if (value === undefined) return false;
  const values = Array.isArray(value) ? value : [String(value)];
  return values.some((one) => /(^|,)\s*close\s*(,|$)/i.test(one));
}

/** The `Connection` header among `writeHead`'s arguments (object or flat [name, value, …] list). */
function connectionIn(headers: unknown): OutgoingHttpHeader | undefined {
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === 'connection') return headers[i + 1] as OutgoingHttpHeader;
    }
    return undefined;
  }
  if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
      if (name.toLowerCase() === 'connection') return value;
    }
  }
  return undefined;
}

/**
 * Reads and discards the rest of a refused body. Nobody reads the request any more (it has been
 * answered): the body stream's listeners go, as in Node's own dump of an unread body.
 * `onStall` runs when no byte came for `stallMs`.
 */
function discardRest(req: IncomingMessage, stallMs: number, onStall: () => void): void {
  const timer = setTimeout(onStall, stallMs);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.removeAllListeners('data');
  req.on('data', () => timer.refresh());
  req.once('end', done);
  req.once('close', done);
  req.once('error', done);
  req.resume();
}

/**
 * Sends the answer's FIN, discards what still arrives, and destroys the socket once the answer is
 * flushed and the body has ended, or after `lingerMs` at most.
 */
function lingeringClose(req: IncomingMessage, socket: Socket, lingerMs: number): void {
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  let flushed = false;
  const destroyWhenDone = () => {
    if (flushed && req.complete) socket.destroy();
  };
  socket.once('finish', () => {
    flushed = true;
    destroyWhenDone();
  });
  socket.end();
  if (!req.complete) {
    req.once('end', destroyWhenDone);
    discardRest(req, lingerMs, () => socket.destroy());
  }
}

/** Watches one request: decides before the answer's head whether its unread body keeps the connection. */
function watchRequest(req: IncomingMessage, res: ServerResponse, limits: DrainLimits): void {
  const declared = declaredLength(req);
  if (declared === 0) return;
  let closing = false;
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadOnce(this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    res.writeHead = writeHead;
    if (!req.complete && (declared === null || declared > limits.maxBytes)) res.setHeader('Connection', 'close');
    closing =
      !res.shouldKeepAlive || saysClose(req.headers.connection) || saysClose(res.getHeader('connection')) || args.some((arg) => saysClose(connectionIn(arg)));
    return writeHead.apply(this, args);
  } as typeof writeHead;

  // Ahead of Node's own listener, which closes a `Connection: close` socket at once (destroySoon:
  // a reset when the client is still sending) and otherwise waits for the body before the next request.
  res.prependOnceListener('finish', () => {
    if (req.complete || req.destroyed) return;
    const socket = req.socket;
    if (closing) {
      // Node calls destroySoon right after this listener: the socket goes after the linger instead.
      socket.destroySoon = () => lingeringClose(req, socket, limits.lingerMs);
      return;
    }
    discardRest(req, limits.stallMs, () => socket.destroy());
  });
}

/**
 * Makes every request answered before its body was read leave the connection usable (or closed
 * with `Connection: close`). Call before the server listens; the adapter must not drain as well.
 */
export function drainRefusedBodies(server: Server, limits: DrainLimits = DEFAULT_DRAIN_LIMITS): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => watchRequest(req, res, limits));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerMalformed(error, socket, limits.lingerMs));
}

/** What Node's HTTP parser refuses, as the API's error: status, code, message. */
function malformedAnswer(error: NodeJS.ErrnoException): [number, string, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'headers_too_large', 'The request line or headers are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request_timeout', 'The request took too long to arrive'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'payload_too_large', 'The request body is too large'];
    default:
      return [400, 'bad_request', 'The request could not be read'];
  }
}

const answeredMalformed = new WeakSet<Socket>();

/**
 * A request Node's parser cannot read (a request line over 16 KB, broken framing) gets the one
 * error shape (docs/api.md) instead of Node's bare status line, with `Connection: close`, and the
 * same graceful close as a body too large to drain: what still arrives is discarded for the linger
 * time, so the client reads the answer instead of a reset.
 */
function answerMalformed(error: NodeJS.ErrnoException, socket: Socket, lingerMs: number): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (answeredMalformed.has(socket) || !socket.writable || inFlight?.headersSent || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  answeredMalformed.add(socket);
  const [status, code, message] = malformedAnswer(error);
  const body = JSON.stringify(errorBody(code, message));
  // The parser is done with this connection: what still arrives is read and dropped.
  socket.removeAllListeners('data');
  socket.on('data', () => {});
  // The client's FIN closes the socket (both sides ended); one that keeps sending is cut after the linger time.
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.resume();
}
