/**
 * API tokens on the wire (issue 32 §2; decision 037): `Authorization: Bearer fw_…` authenticates
 * the token API (`/api/v1/`) and nothing else. Every other call is a session call (the account,
 * sign-in, the admin area): a bearer token there is refused (401 `token_not_accepted`), never
 * ignored, so an integration learns at once that it called the wrong thing. On `/api/v1/` the
 * token is the only credential: no session is read, and a request that carries a session cookie
 * as well is refused (400 `token_and_session`). A token is not a cookie, so the Origin check of
 * middleware/csrf.ts does not apply there (a browser cannot send one cross-site without CORS, which
 * we never answer).
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { isWellFormedApiToken, type ApiTokenScope } from '../../shared/api-tokens.ts';
import type { AppEnv, ApiTokenPrincipal } from '../context.ts';
import { ApiError, errorBody } from '../errors.ts';
import { clientIp, enforceRateLimits, noStore } from '../http.ts';
import { lookUpApiToken, noteApiTokenUse } from '../services/api-tokens.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { sessionToken } from './session.ts';

/** The token API's prefix: the only calls a token works on. */
export const TOKEN_API_PREFIX = '/api/v1';

/** Whether a path is a call of the token API (`/api/v1/…`). */
export function isTokenApiPath(path: string): boolean {
  return path === TOKEN_API_PREFIX || path.startsWith(`${TOKEN_API_PREFIX}/`);
}

/**
 * Calls that read no credential at all, so a bearer token sent to them is let be: the public
 * OpenAPI description (a client generator may send its token along).
 */
const CREDENTIAL_FREE = new Set(['/api/openapi.json']);

/** The token of an `Authorization: Bearer …` header ('' when the scheme has nothing after it), or null for no header or another scheme. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer(?:[ \t]+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? '').trim() : null;
}

/** The `WWW-Authenticate` challenge of a refused token (RFC 6750 §3). */
const challenge = (error?: string, extra = ''): Record<string, string> => ({
  'WWW-Authenticate': `Bearer realm="Fieldwork API"${error ? `, error="${error}"` : ''}${extra}`,
});

const refusals = {
  required: () =>
    new ApiError(401, 'token_required', 'Send an API token: Authorization: Bearer fw_… (the /api/v1/ calls take no session)', { headers: challenge() }),
  malformed: () =>
    new ApiError(401, 'invalid_token', 'This is not a Fieldwork API token: check that it was copied whole', { headers: challenge('invalid_token') }),
  unknown: () => new ApiError(401, 'invalid_token', 'This API token is not known', { headers: challenge('invalid_token') }),
  expired: () => new ApiError(401, 'token_expired', 'This API token has expired: ask an admin for a new one', { headers: challenge('invalid_token') }),
  revoked: () => new ApiError(401, 'token_revoked', 'This API token was revoked', { headers: challenge('invalid_token') }),
  both: () => new ApiError(400, 'token_and_session', 'Send an API token or a session cookie, not both', { headers: challenge('invalid_request') }),
};

/**
 * A bearer token on a call outside the token API: the refusal to answer (401
 * `token_not_accepted`), or null when there is none (or the call reads no credential).
 */
export function bearerRefusal(c: Context<AppEnv>): Response | null {
  if (bearerToken(c.req.header('authorization')) === null || CREDENTIAL_FREE.has(c.req.path)) return null;
  noStore(c);
  for (const [name, value] of Object.entries(challenge('invalid_request'))) c.header(name, value);
  return c.json(errorBody('token_not_accepted', 'API tokens work only on the /api/v1/ calls: this call takes a session'), 401);
}

/**
 * Authenticates a `/api/v1/` request by its bearer token, or throws the refusal: 400 with a
 * session cookie besides; 401 without a token (`token_required`), for one that is not one of ours
 * or whose checksum fails (`invalid_token`, refused before any lookup), unknown (`invalid_token`),
 * expired (`token_expired`) or revoked (`token_revoked`); 429 past the token's rate limit (with
 * `Retry-After`). Sets `apiToken` (and no user: these calls never act as a person), and notes the
 * use (at most once a minute).
 */
export async function authenticateApiToken(c: Context<AppEnv>): Promise<ApiTokenPrincipal> {
  noStore(c);
  c.set('user', null);
  c.set('sessionId', null);
  c.set('authenticatedAt', null);
  const token = bearerToken(c.req.header('authorization'));
  if (token === null || token === '') throw refusals.required();
  if (sessionToken(c) !== undefined) throw refusals.both();
  if (!isWellFormedApiToken(token)) throw refusals.malformed();
  const { db, deps } = c.var;
  const found = await lookUpApiToken(db, deps.clock, token);
  if (found.kind !== 'ok') throw refusals[found.kind]();
  const row = found.token;
  await enforceRateLimits(c, [[`api-token:${row.id}`, { ...RATE_LIMITS.apiTokenRequests, limit: deps.config.apiTokenRateLimit }]]);
  await noteApiTokenUse(db, deps.clock, row, clientIp(c));
  const principal: ApiTokenPrincipal = { id: row.id, scopes: row.scopes, projectId: row.projectId };
  c.set('apiToken', principal);
  return principal;
}

/** The token of a `/api/v1/` call; a programming error when missing (a route mounted outside the gate). */
export function apiTokenOf(c: Context<AppEnv>): ApiTokenPrincipal {
  const token = c.get('apiToken');
  if (!token) throw new Error('a /api/v1/ route ran without an API token');
  return token;
}

/** The guard of a `/api/v1/` call: 403 `insufficient_scope` (naming the scope, in the body and the challenge) unless the token has it. */
export function requireScope(scope: ApiTokenScope) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!apiTokenOf(c).scopes.includes(scope)) {
      throw new ApiError(403, 'insufficient_scope', `This API token does not have the ${scope} scope`, {
        details: { scope },
        headers: challenge('insufficient_scope', `, scope="${scope}"`),
      });
    }
    await next();
  });
}
