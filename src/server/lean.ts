/**
 * The Node server's lean paths (docs/decisions/024-lean-request-paths.md): the most frequent
 * requests are answered in front of the Hono application, without building its Fetch request,
 * context and response — pages and files (static.ts, `staticListener`) and the signed-in check
 * every page load makes (`GET /api/auth`, `authListener` here). A lean answer carries what every
 * answer of the application carries (the security headers, the request id, the one log line, the
 * same error answers) and is the application's answer to the same request, header for header
 * (tests/api/lean-auth.test.ts). Everything else goes to the application.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { redactSecrets } from '../shared/redact.ts';
import type { AppDeps } from './context.ts';
import { databaseUnavailable, errorBody, isDatabaseUnavailable } from './errors.ts';
import type { Logger } from './logger.ts';
import { requestIdOf } from './middleware/request-log.ts';
import { securityHeaderValues, wantsHsts } from './middleware/security-headers.ts';
import { requestSession, sessionTokenOf } from './middleware/session.ts';
import { publicUser } from './services/users.ts';
import type { Config } from './config.ts';

/** What a lean answer needs of its request: when it started, its id, its origin and the headers every answer carries. */
export interface LeanRequest {
  readonly method: string;
  readonly path: string;
  readonly origin: string;
  readonly requestId: string;
  readonly started: number;
  readonly security: Readonly<Record<string, string>>;
}

/** The lean view of a request (its `Host` already checked by the caller). */
export function leanRequest(incoming: IncomingMessage, config: Config, host: string, method: string, path: string): LeanRequest {
  const encrypted = (incoming.socket as { encrypted?: boolean }).encrypted === true;
  const origin = `${encrypted ? 'https' : 'http'}://${host}`;
  const forwardedProto = config.trustProxy ? (incoming.headers['x-forwarded-proto'] as string | undefined) : undefined;
  return {
    method,
    path,
    origin,
    requestId: requestIdOf(incoming.headers['x-request-id'] as string | undefined),
    started: performance.now(),
    security: securityHeaderValues(wantsHsts(config, origin, forwardedProto)),
  };
}

/** Writes a lean answer with the headers every answer carries (an answer's own win), and its log line as request-log.ts writes it. */
export function writeLeanAnswer(
  outgoing: ServerResponse,
  request: LeanRequest,
  logger: Logger,
  status: number,
  headers: Readonly<Record<string, string | string[]>>,
  body: Uint8Array | string | null,
): void {
  // With its length, an answer goes out in one write; without, Node would send it chunked (more writes, more bytes).
  const length = body === null || 'Content-Length' in headers ? null : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  outgoing.writeHead(status, {
    ...request.security,
    'X-Request-Id': request.requestId,
    ...headers,
    ...(length === null ? {} : { 'Content-Length': String(length) }),
  });
  outgoing.end(body ?? undefined);
  if (status >= 500 || logger.isLevelEnabled('info')) {
    const entry = {
      reqId: request.requestId,
      method: request.method,
      path: redactSecrets(request.path),
      status,
      ms: Math.round((performance.now() - request.started) * 10) / 10,
    };
    if (status >= 500) logger.error(entry, 'request');
    else logger.info(entry, 'request');
  }
}

/** A lean answer that failed: as the application's error handler answers (app.ts), a database out of reach is a 503, anything else a bare 500. */
export function writeLeanFailure(outgoing: ServerResponse, request: LeanRequest, logger: Logger, error: unknown): void {
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, reqId: request.requestId, path: redactSecrets(request.path) }, 'database unavailable');
    const unavailable = databaseUnavailable();
    const body = JSON.stringify(errorBody(unavailable.code, unavailable.message));
    writeLeanAnswer(outgoing, request, logger, unavailable.status, { ...unavailable.headers, 'Content-Type': JSON_TYPE }, body);
    return;
  }
  logger.error({ err: error, reqId: request.requestId, path: redactSecrets(request.path) }, 'unhandled error');
  writeLeanAnswer(outgoing, request, logger, 500, { 'Content-Type': JSON_TYPE }, JSON.stringify(errorBody('internal_error', 'Internal Server Error')));
}

/** The Content-Type of the application's JSON answers (Hono's `c.json`). */
const JSON_TYPE = 'application/json';
const UNAUTHENTICATED = JSON.stringify(errorBody('unauthenticated', 'Sign in to continue'));

/**
 * `GET /api/auth` (routes/auth.ts: the `signedIn` guard, then the public user) on the lean path:
 * the signed-in user, or 401; `Cache-Control: no-store`, and the renewed session's cookie when
 * this request renewed it (`requestSession`, the one session lookup of pages and API calls). A
 * request with a body, a query, an `Authorization` header or anything but a plain `Host` goes to
 * the application.
 */
export function authListener(deps: AppDeps, fallback: RequestListener): RequestListener {
  const { logger, config, clock } = deps;
  const { db } = deps.database;
  return (incoming, outgoing) => {
    const host = incoming.headers.host;
    if (
      incoming.url !== '/api/auth' ||
      incoming.method !== 'GET' ||
      !host ||
      !PLAIN_HOST.test(host) ||
      incoming.headers['content-length'] !== undefined ||
      incoming.headers['transfer-encoding'] !== undefined ||
      // A bearer token is refused on session calls (middleware/api-token.ts): the application says so.
      incoming.headers.authorization !== undefined
    ) {
      return fallback(incoming, outgoing);
    }
    const request = leanRequest(incoming, config, host, 'GET', '/api/auth');
    requestSession(db, clock, config, sessionTokenOf(incoming.headers.cookie, config.publicUrl)).then(
      (found) => {
        if (!found) {
          writeLeanAnswer(outgoing, request, logger, 401, { 'Cache-Control': 'no-store', 'Content-Type': JSON_TYPE }, UNAUTHENTICATED);
          return;
        }
        const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'Content-Type': JSON_TYPE };
        if (found.setCookie) headers['Set-Cookie'] = found.setCookie;
        writeLeanAnswer(outgoing, request, logger, 200, headers, JSON.stringify(publicUser(found.user, config)));
      },
      (error: unknown) => writeLeanFailure(outgoing, request, logger, error),
    );
  };
}

/** A `Host` the lean paths take as it stands: a name or an address, and a port. */
export const PLAIN_HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
