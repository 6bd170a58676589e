/**
 * The route helpers: everything a file in `routes/` needs besides its services, in one module
 * (routes never import each other). Who may call (`signedIn`, `staffOnly`, `adminOnly`); what
 * the body, query and path hold (`jsonBody`, `query`, `params`: `@hono/zod-validator` with the
 * one 400 shape, and `pathId` for numeric ids); what must exist before a body is read (`check`,
 * `perRequest`); the caller's address and rate limits; the 404 of what does not exist
 * (`notFound`).
 */
import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import { zValidator } from '@hono/zod-validator';
import type { Context, HonoRequest, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { z } from 'zod';
import { acceptLanguageTags, firstLanguageOf, isLanguage, rememberedLanguage, type Language } from '../shared/languages.ts';
import { ELEVATED_ROLES, isElevated, type Role } from '../shared/roles.ts';
import type { AppEnv } from './context.ts';
import type { SessionUser, User } from './db/schema/index.ts';
import { ApiError, invalidText, jsonError, notFound } from './errors.ts';
import type { RateLimitRule } from './services/rate-limit.ts';
import { hitRateLimit } from './services/rate-limit.ts';
import { isRecent, sessionAuthenticatedAt } from './services/sessions.ts';
import { findUserById } from './services/users.ts';

export { notFound };

// ---------------------------------------------------------------------------------------------
// Who may call. Each guard answers 401 without a session and 403 for a role it does not allow,
// and marks the answer `Cache-Control: no-store` (what a signed-in caller gets is theirs alone).

/**
 * `Cache-Control: no-store` on the answer. Under Node it goes on the Node response (as the
 * security headers do, middleware/security-headers.ts): every answer, a stream or an error
 * included, carries it, and a Cache-Control of the answer's own still wins; in `app.request`
 * through the context.
 */
export function noStore(c: Context<AppEnv>): void {
  const outgoing = c.env?.outgoing;
  if (outgoing) outgoing.setHeader('Cache-Control', 'no-store');
  else c.header('Cache-Control', 'no-store');
}

/**
 * Staff without the second factor the staff area requires (issue 29 §3): a moderator's or an
 * admin's powers wait until one is set up — the staff calls, and what staff may see beyond their
 * own (another person's photos).
 */
export function missingStaffSecondFactor(c: Context<AppEnv>, user: SessionUser): boolean {
  return isElevated(user.role) && !user.secondFactor && c.get('deps').config.requireStaffSecondFactor;
}

function allow(roles?: readonly Role[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    noStore(c);
    const user = c.get('user');
    if (!user) return jsonError(c, 401, 'unauthenticated', 'Sign in to continue');
    // The staff area needs a second factor (issue 29 §3): every staff call says so to staff without
    // one (an admin-only call to a moderator too); the account's own calls stay open to set one up.
    if (roles && missingStaffSecondFactor(c, user)) {
      return jsonError(c, 403, 'second_factor_required', 'Set up a second way to sign in to use the admin area');
    }
    if (roles && !roles.includes(user.role)) return jsonError(c, 403, 'forbidden', 'You do not have access to this');
    await next();
  });
}

/** Any signed-in user. */
export const signedIn = allow();
/** Moderators and admins (the admin area), with a second factor while REQUIRE_STAFF_SECOND_FACTOR is on. */
export const staffOnly = allow(ELEVATED_ROLES);
/** Admins only (moderators get 403), with a second factor while REQUIRE_STAFF_SECOND_FACTOR is on. */
export const adminOnly = allow(['admin']);

/**
 * A sensitive call (issue 29 §4; docs/permissions.md "Re-authentication"): after a guard, it needs
 * the session's sign-in, or its last re-authentication (`POST /api/auth/reauth`), to be less than
 * `REAUTH_MAX_AGE_MS` old; else 403 `reauth_required`, and the screen asks for the password (and
 * code) or a passkey, then repeats the call. A re-authentication counts at once in every process:
 * when the request's proof is old, the session's row is read (one primary-key read, on these calls only).
 */
export const recentAuth = createMiddleware<AppEnv>(async (c, next) => {
  await requireRecentAuth(c);
  await next();
});

/** `recentAuth` for a call that is sensitive only as some requests make it (a review export, not its preview). */
export function recentAuthWhen(applies: (c: Context<AppEnv>) => boolean): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (applies(c)) await requireRecentAuth(c);
    await next();
  });
}

/** What `recentAuth` checks: 403 `reauth_required` unless the session's sign-in proof is recent. */
export async function requireRecentAuth(c: Context<AppEnv>): Promise<void> {
  const sessionId = c.get('sessionId');
  if (!c.get('user') || !sessionId) throw new ApiError(401, 'unauthenticated', 'Sign in to continue');
  const now = c.get('deps').clock.now();
  // The request's proof may come from a session cache that a re-authentication (here or in another
  // process) has not reached: it only ever moves forward, so an old one is checked against the row.
  if (isRecent(c.get('authenticatedAt'), now)) return;
  if (!isRecent(await sessionAuthenticatedAt(c.get('db'), sessionId), now)) throw new ApiError(403, 'reauth_required', "Confirm it's you to continue");
}

/** The user behind a guard; a programming error when missing (a route without a guard). */
export function signedInUser(user: SessionUser | null): SessionUser {
  if (!user) throw new Error('a guard let an anonymous request through');
  return user;
}

/**
 * The caller's whole account row, read now (the session carries only `SessionUser`): for the
 * calls that need the password hash, the address or the dates (the account screens, a signed-in
 * data deletion request). 401 when the account is no longer there or no longer active.
 */
export async function signedInAccount(c: Context<AppEnv>): Promise<User> {
  const account = await findUserById(c.get('db'), signedInUser(c.get('user')).id);
  if (!account || account.status !== 'active') throw new ApiError(401, 'unauthenticated', 'Sign in to continue');
  return account;
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

/**
 * Field errors from a zod error, keyed by the first path segment. Collected in a Map: a client's
 * key may be `__proto__` or `constructor` (a plain object's inherited members).
 */
export function fieldErrors(error: { issues: readonly z.core.$ZodIssue[] }): Record<string, string[]> {
  const fields = new Map<string, string[]>();
  const listOf = (key: string) => {
    let list = fields.get(key);
    if (!list) fields.set(key, (list = []));
    return list;
  };
  for (const issue of error.issues) {
    const list = listOf(issue.path.length > 0 ? String(issue.path[0]) : '_');
    // Unknown keys (strict objects) name the extra field; nested ones are reported on their parent.
    if (issue.code === 'unrecognized_keys') {
      if (issue.path.length > 0) list.push(`Unexpected field: ${issue.path.slice(1).concat(issue.keys.join(', ')).join('.')}`);
      else for (const extra of issue.keys) listOf(extra).push('Unexpected field');
      continue;
    }
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return Object.fromEntries([...fields].filter(([, list]) => list.length > 0));
}

/** The one 400 of a body, query or path that fails its schema (docs/api.md): `validation_failed` with `fields`. */
export function validationError(error: { issues: readonly z.core.$ZodIssue[] }): ApiError {
  return new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: fieldErrors(error) });
}

/** The validators' hook, written once: a failure is thrown as `validationError`, which `app.onError` answers. */
function failAs400(result: { success: true } | { success: false; error: z.core.$ZodError }): void {
  if (!result.success) throw validationError(result.error);
}

/**
 * The body as JSON, read before the validator sees it: an empty body is `{}` (calls without a
 * body send none), anything that does not parse is 400 `invalid_json`, and a body that is not
 * JSON (a multipart one on a JSON call) is 415.
 */
async function readJsonBody(c: { req: Pick<HonoRequest, 'header' | 'text' | 'bodyCache'> }): Promise<void> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json') throw new ApiError(415, 'unsupported_media_type', 'Send JSON (Content-Type: application/json)');
  const text = await c.req.text();
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
  }
  if (holdsNul(body)) throw invalidText();
  c.req.bodyCache.json = Promise.resolve(body);
}

/** Whether a parsed JSON value has a NUL character in a key or a string (PostgreSQL cannot store one); no recursion: nesting may be deep. */
function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true;
    } else if (Array.isArray(current)) {
      for (const item of current as unknown[]) stack.push(item);
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/**
 * Reads the JSON body as `jsonBody` does (415 for another type, 400 `invalid_json`, NUL refused),
 * for a validator that comes after it and reads the parsed body (the token API's routes, whose
 * validators `@hono/zod-openapi` adds from the route's description).
 */
export const jsonRequestBody = createMiddleware<AppEnv>(async (c, next) => {
  await readJsonBody(c);
  await next();
});

/** Validates the JSON body with a shared schema (`c.req.valid('json')` in the handler); 400 with field errors otherwise. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  const validate = zValidator('json', schema, failAs400);
  return (async (c, next) => {
    await readJsonBody(c);
    return validate(c, next);
  }) as typeof validate;
}

/**
 * Validates the JSON body with one of two schemas: `signedIn`'s for a caller with a session,
 * `visitor`'s otherwise (a call whose fields differ by who calls it).
 */
export function jsonBodyBySession<A extends z.ZodType, B extends z.ZodType>(signedIn: A, visitor: B) {
  const forUser = jsonBody(signedIn) as unknown as MiddlewareHandler<AppEnv>;
  const forVisitor = jsonBody(visitor) as unknown as MiddlewareHandler<AppEnv>;
  return createMiddleware<AppEnv>((c, next) => (c.get('user') ? forUser(c, next) : forVisitor(c, next))) as MiddlewareHandler<
    AppEnv,
    string,
    { in: { json: z.input<A> | z.input<B> }; out: { json: z.output<A> | z.output<B> } }
  >;
}

/**
 * Validates the query string (`c.req.valid('query')`); 400 with field errors otherwise.
 * `exists`: what the path names, checked (404) before a 400 is answered, for a call that checks
 * it only when its own query finds nothing (the review queue: an entry proves its mission exists).
 */
export function query<T extends z.ZodType>(schema: T, exists?: (c: Context<AppEnv>) => Promise<unknown>) {
  const validate = zValidator('query', schema, failAs400);
  if (!exists) return validate;
  return (async (c: Parameters<typeof validate>[0], next: () => Promise<void>) => {
    let valid = false;
    try {
      return await validate(c, async () => {
        valid = true;
        await next();
      });
    } catch (error) {
      if (!valid) await exists(c as unknown as Context<AppEnv>);
      throw error;
    }
  }) as unknown as typeof validate;
}

/** Validates the path parameters (`c.req.valid('param')`); 400 with field errors otherwise. Numeric ids use `pathId` (404). */
export function params<T extends z.ZodType>(schema: T) {
  return zValidator('param', schema, failAs400);
}

/**
 * Runs `fn` before the validators that follow it: what the path names must exist (404) before
 * the body is read (400). Pair it with `perRequest` so the handler gets the same row.
 */
export function check(fn: (c: Context<AppEnv>) => Promise<unknown>): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    await fn(c);
    await next();
  });
}

/** `load`, run at most once per request: a `check` and the handler share its answer. */
export function perRequest<T>(load: (c: Context<AppEnv>) => Promise<T>): (c: Context<AppEnv>) => Promise<T> {
  const loaded = new WeakMap<Context<AppEnv>, Promise<T>>();
  return (c) => {
    let answer = loaded.get(c);
    if (!answer) {
      answer = load(c);
      loaded.set(c, answer);
    }
    return answer;
  };
}

// ---------------------------------------------------------------------------------------------
// The caller's address and rate limits

/** An address as a proxy writes it in X-Forwarded-For (IPv4 or IPv6, perhaps with a port: `1.2.3.4:5678`, `[::1]:5678`), bare; null when it is not one. */
function forwardedAddress(entry: string): string | null {
  const withPort = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry) ?? /^([\d.]+):(\d{1,5})$/.exec(entry);
  const [address, port] = withPort ? [withPort[1], withPort[2]] : [entry, undefined];
  if (port !== undefined && Number(port) > 65535) return null;
  return address && isIP(address) !== 0 ? address : null;
}

/**
 * The client's address in an X-Forwarded-For header behind `trustedProxies` proxies: the entry the
 * nearest of them appended, counted from the right (`1`: the last entry). Entries further left were
 * written by the client or by proxies we do not know, so a client could choose them. Null when the
 * header holds fewer entries than that, or the entry is not an address: the caller then uses the
 * socket's peer.
 */
export function forwardedClient(header: string | undefined, trustedProxies: number): string | null {
  if (!header || trustedProxies < 1) return null;
  const entries = header.split(',').map((entry) => entry.trim());
  const entry = entries[entries.length - trustedProxies];
  return entry === undefined ? null : forwardedAddress(entry);
}

/** The caller's IP: what the nearest trusted proxy saw (TRUST_PROXY, `forwardedClient`), else the socket's peer. */
export function clientIp(c: Context<AppEnv>): string {
  const forwarded = forwardedClient(c.req.header('x-forwarded-for'), c.get('deps').config.trustProxy);
  if (forwarded) return forwarded;
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // app.request() in tests has no socket.
  }
}

/**
 * The language of the page a request came from (issue 31), for a mail that may go to an address
 * with no account of its own language (registration, forgot password, an invitation): the caller's
 * account's language when signed in, else the choice remembered on the device (LANGUAGE_COOKIE),
 * else the browser's first language of ours (`Accept-Language`); null when none says.
 */
export function requestLanguage(c: Context<AppEnv>): Language | null {
  const preferred = c.get('user')?.preferences.language;
  if (isLanguage(preferred)) return preferred;
  return rememberedLanguage(c.req.header('cookie')) ?? firstLanguageOf(acceptLanguageTags(c.req.header('accept-language')));
}

export type RateLimitList = readonly (readonly [key: string, rule: RateLimitRule])[];

/** Counts a hit on each key; throws 429 with Retry-After when any is over its limit. */
export async function enforceRateLimits(c: Context<AppEnv>, limits: RateLimitList): Promise<void> {
  let retryAfter = 0;
  for (const [key, rule] of limits) {
    const result = await hitRateLimit(c.get('db'), c.get('deps').clock, key, rule);
    if (!result.allowed) retryAfter = Math.max(retryAfter, result.retryAfterSeconds);
  }
  if (retryAfter > 0) {
    throw new ApiError(429, 'rate_limited', 'Too many attempts. Try again later.', { headers: { 'Retry-After': String(retryAfter) } });
  }
}
