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
  constructor(
    status: ContentfulStatusCode,
    code: string,
    message: string,
    extra: { fields?: Record<string, string[]>; headers?: Record<string, string>; details?: ErrorDetails } = {},
  ) {
    super(message);
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
