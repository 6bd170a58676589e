import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The one error shape clients get: `{ error: { code, message, fields?, …details } }`, never a
 * stack. Details are what a caller needs to resolve the error, e.g. a conflict's `current` state.
 */
export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string[]>; [detail: string]: unknown };
}

/** What an error may add to its body beside code, message and fields. */
export type ErrorDetails = Record<string, unknown>;

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly fields: Record<string, string[]> | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly details: ErrorDetails | undefined;
  /**
   * `extra.cause`: what went wrong underneath (a library's error, with its own words and maybe a
   * temporary path): never sent to the client, logged with the refusal (app.ts).
   */
  constructor(
    status: ContentfulStatusCode,
    code: string,
    message: string,
    extra: { fields?: Record<string, string[]>; headers?: Record<string, string>; details?: ErrorDetails; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = extra.fields;
    this.headers = extra.headers;
    this.details = extra.details;
  }
}

/** The row that was looked up, or 404 `not_found` with this message when there is none. */
export function foundOr404<T>(row: T | null | undefined, message: string): T {
  if (row === null || row === undefined) throw new ApiError(404, 'not_found', message);
  return row;
}

/** The 404 of what does not exist, or what the caller may not see (never 403): `No such {what}`. */
export function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', `No such ${what}`);
}

export function errorBody(code: string, message: string, fields?: Record<string, string[]>, details?: ErrorDetails): ApiErrorBody {
  return { error: { ...details, code, message, ...(fields ? { fields } : {}) } };
}

export function jsonError(c: Context, status: ContentfulStatusCode, code: string, message: string, fields?: Record<string, string[]>) {
  return c.json(errorBody(code, message, fields), status);
}

/** SQLSTATEs of a database that is going away or not back yet: admin shutdown, crash shutdown, cannot connect now, too many connections. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** The network failing under the driver. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** node-postgres's own messages for a lost or unobtainable connection (they carry no code). */
const UNAVAILABLE_MESSAGES = [/connection terminated/i, /timeout exceeded when trying to connect/i, /is not queryable/i];

/**
 * Whether an error is the database being unreachable (PostgreSQL restarting, stopped, the network
 * to it down), looked for along the error's causes (Drizzle wraps the driver's error): not the
 * caller's fault and not a bug, so the API answers 503 `database_unavailable` with Retry-After
 * (`databaseUnavailable`), and the request can be sent again once it is back (docs/deploy.md,
 * "What happens when…"). SQLSTATE class 08 (connection exception) counts too.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!(current instanceof Error) || seen.has(current) || seen.size > 8) continue;
    seen.add(current);
    const code = 'code' in current && typeof current.code === 'string' ? current.code : '';
    if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code)) return true;
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(current.message))) return true;
    queue.push(current.cause);
    if (current instanceof AggregateError) queue.push(...(current.errors as unknown[]));
  }
  return false;
}

/** Seconds a client is asked to wait before sending again while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** SQLSTATEs of text the database cannot hold: a NUL character in text (22021) or in jsonb (22P05). */
const INVALID_TEXT_SQLSTATES = new Set(['22021', '22P05']);

/**
 * Whether the database refused a value a client sent because of its characters (a NUL, `\u0000`,
 * which PostgreSQL cannot store), looked for along the error's causes: answered 400
 * `invalid_text` (`invalidText`), never a 500. JSON bodies are checked before (http.ts); this
 * covers queries, paths and files.
 */
export function isInvalidText(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if ('code' in current && typeof current.code === 'string' && INVALID_TEXT_SQLSTATES.has(current.code)) return true;
    current = current.cause;
  }
  return false;
}

export function invalidText(): ApiError {
  return new ApiError(400, 'invalid_text', 'Text must not contain the NUL character (\\u0000)');
}

export function databaseUnavailable(): ApiError {
  return new ApiError(503, 'database_unavailable', 'Fieldwork cannot reach its database right now: try again in a few seconds', {
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' },
  });
}
