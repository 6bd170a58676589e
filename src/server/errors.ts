import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The one error shape clients get: `{ error: { code, message, fields? } }`, never a stack. */
export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string[]> };
}

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly fields: Record<string, string[]> | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(status: ContentfulStatusCode, code: string, message: string, extra: { fields?: Record<string, string[]>; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = extra.fields;
    this.headers = extra.headers;
  }
}

export function errorBody(code: string, message: string, fields?: Record<string, string[]>): ApiErrorBody {
  return { error: fields ? { code, message, fields } : { code, message } };
}

export function jsonError(c: Context, status: ContentfulStatusCode, code: string, message: string, fields?: Record<string, string[]>) {
  return c.json(errorBody(code, message, fields), status);
}
