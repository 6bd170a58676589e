/**
 * The route helpers: everything a file in `routes/` needs besides its services, in one module
 * (routes never import each other). Who may call (`signedIn`, `staffOnly`, `adminOnly`), what
 * the path, body and query hold (`pathId`, `readJson`, `readQuery`, `readParams`), the caller's
 * address and rate limits, and the 404 of what does not exist (`notFound`).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { z } from 'zod';
import { ELEVATED_ROLES, type Role } from '../shared/roles.ts';
import type { AppEnv } from './context.ts';
import type { User } from './db/schema/index.ts';
import { ApiError, notFound } from './errors.ts';
import { requireUser } from './middleware/session.ts';
import type { RateLimitRule } from './services/rate-limit.ts';
import { hitRateLimit } from './services/rate-limit.ts';

export { notFound };

// ---------------------------------------------------------------------------------------------
// Who may call. Each guard answers 401 without a session and 403 for a role it does not allow,
// and marks the answer `Cache-Control: no-store` (what a signed-in caller gets is theirs alone).

function allow(roles?: readonly Role[]) {
  const check = requireUser(roles);
  return createMiddleware<AppEnv>(async (c, next) => {
    c.header('Cache-Control', 'no-store');
    return check(c, next);
  });
}

/** Any signed-in user. */
export const signedIn = allow();
/** Moderators and admins (the admin area). */
export const staffOnly = allow(ELEVATED_ROLES);
/** Admins only (moderators get 403). */
export const adminOnly = allow(['admin']);

/** The user behind a guard; a programming error when missing (a route without a guard). */
export function signedInUser(user: User | null): User {
  if (!user) throw new Error('a guard let an anonymous request through');
  return user;
}

// ---------------------------------------------------------------------------------------------
// The request

/**
 * A numeric id in the path (`:name`): digits only, 1 … 2^31−1; anything else is 404
 * `No such {what}`, like an unknown id.
 */
export function pathId(c: Context<AppEnv>, name: string, what: string): number {
  const raw = c.req.param(name);
  if (!raw || !/^\d{1,10}$/.test(raw)) throw notFound(what);
  const id = Number(raw);
  if (id < 1 || id > 2_147_483_647) throw notFound(what);
  return id;
}

/** Field errors from a zod error, keyed by the first path segment. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    const list = (fields[key] ??= []);
    // Unknown keys (strict objects) name the extra field; nested ones are reported on their parent.
    if (issue.code === 'unrecognized_keys') {
      if (issue.path.length > 0) list.push(`Unexpected field: ${issue.path.slice(1).concat(issue.keys.join(', ')).join('.')}`);
      else for (const extra of issue.keys) (fields[extra] ??= []).push('Unexpected field');
      continue;
    }
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  for (const [key, list] of Object.entries(fields)) if (list.length === 0) delete fields[key];
  return fields;
}

export function validationError(error: z.ZodError): ApiError {
  return new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: fieldErrors(error) });
}

/** Parses the JSON body with a shared schema; 400 with field errors otherwise. */
export async function readJson<T extends z.ZodType>(c: Context<AppEnv>, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    const text = await c.req.text();
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
  }
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** Parses the query string with a schema; 400 with field errors otherwise. */
export function readQuery<T extends z.ZodType>(c: Context<AppEnv>, schema: T): z.infer<T> {
  const result = schema.safeParse(c.req.query());
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** Parses the path parameters with a schema; 400 with field errors otherwise. */
export function readParams<T extends z.ZodType>(c: Context<AppEnv>, schema: T): z.infer<T> {
  const result = schema.safeParse(c.req.param());
  if (!result.success) throw validationError(result.error);
  return result.data;
}

// ---------------------------------------------------------------------------------------------
// The caller's address and rate limits

/** The caller's IP: X-Forwarded-For's first hop behind a trusted proxy, else the socket's peer. */
export function clientIp(c: Context<AppEnv>): string {
  if (c.var.deps.config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // app.request() in tests has no socket.
  }
}

export type RateLimitList = readonly (readonly [key: string, rule: RateLimitRule])[];

/** Counts a hit on each key; throws 429 with Retry-After when any is over its limit. */
export async function enforceRateLimits(c: Context<AppEnv>, limits: RateLimitList): Promise<void> {
  let retryAfter = 0;
  for (const [key, rule] of limits) {
    const result = await hitRateLimit(c.var.db, c.var.deps.clock, key, rule);
    if (!result.allowed) retryAfter = Math.max(retryAfter, result.retryAfterSeconds);
  }
  if (retryAfter > 0) {
    throw new ApiError(429, 'rate_limited', 'Too many attempts. Try again later.', { headers: { 'Retry-After': String(retryAfter) } });
  }
}
