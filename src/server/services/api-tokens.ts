/**
 * API tokens (issue 32 §2; decision 037): made, listed and revoked by admins, and looked up for
 * every `/api/v1/` request (`middleware/api-token.ts`). A token is shown once, at creation; only
 * its SHA-256 is kept (with its first 10 characters, to tell it apart). Nothing here caches a
 * token: every request reads its row by the hash's unique index, so a revocation or an expiry
 * holds at once in every process.
 */
import { randomInt } from 'node:crypto';
import { and, eq, ilike, isNotNull, isNull, lte, gt, or, sql, type SQL } from 'drizzle-orm';
import {
  API_TOKEN_DISPLAY_PREFIX_LENGTH,
  API_TOKEN_PREFIX,
  API_TOKEN_RANDOM_LENGTH,
  apiTokenChecksum,
  BASE62_ALPHABET,
  type ApiTokenListItem,
  type ApiTokenStatus,
  type CreatedApiToken,
} from '../../shared/api-tokens.ts';
import type { ListPage } from '../../shared/list.ts';
import type { ApiTokenListQuery } from '../../shared/schemas/api-tokens.ts';
import type { z } from 'zod';
import type { apiTokenCreateSchema } from '../../shared/schemas/api-tokens.ts';
import type { Db } from '../db/index.ts';
import { apiTokens, projects, users, type ApiToken } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { sha256Hex } from './crypto.ts';
import { listOrder, pageWithUser, type ListUser } from './list.ts';
import { personName } from './points.ts';
import { containsPattern } from './search.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** `last_used_at` and `last_used_ip` are written at most this often per token (no write per request). */
export const LAST_USED_EVERY_MS = 60_000;

export type ApiTokenCreate = z.output<typeof apiTokenCreateSchema>;

/** A new token: `fw_`, 30 random base62 characters (uniform: `randomInt`), and the checksum of those 33. */
export function newApiToken(): string {
  let random = '';
  for (let i = 0; i < API_TOKEN_RANDOM_LENGTH; i++) random += BASE62_ALPHABET.charAt(randomInt(BASE62_ALPHABET.length));
  const body = API_TOKEN_PREFIX + random;
  return body + apiTokenChecksum(body);
}

/** A token's status at `now`: revoked wins over expired. */
export function apiTokenStatus(row: Pick<ApiToken, 'revokedAt' | 'expiresAt'>, now: Date): ApiTokenStatus {
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

function listItem(row: ApiToken, creator: ListUser | null, now: Date): ApiTokenListItem {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    projectId: row.projectId,
    createdBy: creator ? { id: creator.id, name: personName(creator) } : null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    status: apiTokenStatus(row, now),
  };
}

/** What an audit row keeps of a token (never the token or its hash). */
const auditSummary = (row: ApiToken) => ({
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes,
  projectId: row.projectId,
  expiresAt: row.expiresAt.toISOString(),
});

/**
 * `POST /api/admin/tokens`: a new token, its row and its audit row (`api_token.create`) in one
 * transaction; the token itself is in this answer only. 400 on `projectId` for a project that
 * does not exist.
 */
export async function createApiToken(db: Db, clock: Clock, input: ApiTokenCreate, actor: { id: number; ip: string }): Promise<CreatedApiToken> {
  const projectId = input.projectId ?? null;
  if (projectId !== null) {
    const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).limit(1);
    if (!project) throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { projectId: ['No such project'] } });
  }
  const token = newApiToken();
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({
        name: input.name,
        tokenHash: sha256Hex(token),
        prefix: token.slice(0, API_TOKEN_DISPLAY_PREFIX_LENGTH),
        scopes: [...input.scopes],
        projectId,
        createdBy: actor.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
      })
      .returning();
    if (!row) throw new Error('api_tokens: the insert returned no row');
    await audit(tx, {
      actorId: actor.id,
      via: 'api',
      action: 'api_token.create',
      targetType: 'api_token',
      targetId: row.id,
      after: auditSummary(row),
      ip: actor.ip,
    });
    return {
      id: row.id,
      name: row.name,
      scopes: row.scopes,
      projectId: row.projectId,
      expiresAt: row.expiresAt.toISOString(),
      token,
      prefix: row.prefix,
    };
  });
}

/** The WHERE of a status: `active` (neither revoked nor expired), `expired` (not revoked), `revoked`. */
function statusWhere(status: ApiTokenStatus, now: Date): SQL | undefined {
  switch (status) {
    case 'active':
      return and(isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, now));
    case 'expired':
      return and(isNull(apiTokens.revokedAt), lte(apiTokens.expiresAt, now));
    case 'revoked':
      return isNotNull(apiTokens.revokedAt);
  }
}

/**
 * `GET /api/admin/tokens`: the list contract; `q` in the name and the prefix, `status`; sorted by
 * `created` (newest first), `name` (A to Z), `lastUsed` (most recent first, never used last) or
 * `expires` (soonest first).
 */
export function listApiTokens(db: Db, clock: Clock, query: ApiTokenListQuery): Promise<ListPage<ApiTokenListItem>> {
  const now = clock.now();
  const pattern = query.q ? containsPattern(query.q) : null;
  const where = and(
    pattern ? or(ilike(apiTokens.name, pattern), ilike(apiTokens.prefix, pattern)) : undefined,
    query.status ? statusWhere(query.status, now) : undefined,
  );
  const order = listOrder(
    query,
    {
      created: { by: apiTokens.createdAt, dir: 'desc' },
      name: { by: sql`lower(${apiTokens.name})`, dir: 'asc' },
      lastUsed: { by: sql`coalesce(${apiTokens.lastUsedAt}, '-infinity'::timestamptz)`, dir: 'desc' },
      expires: { by: apiTokens.expiresAt, dir: 'asc' },
    },
    apiTokens.id,
  );
  return pageWithUser(db, query, { table: apiTokens, userId: apiTokens.createdBy, where, order }, (row, creator) => listItem(row, creator, now));
}

/**
 * `DELETE /api/admin/tokens/{id}`: revokes the token at once (the next request that sends it is
 * 401 `token_revoked`, in every process: nothing caches it) and audits `api_token.revoke`; a token
 * revoked already stays as it was (no second audit row). 404 for an unknown id.
 */
export async function revokeApiToken(db: Db, clock: Clock, id: number, actor: { id: number; ip: string }): Promise<ApiTokenListItem> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
      .returning();
    if (revoked) {
      await audit(tx, {
        actorId: actor.id,
        via: 'api',
        action: 'api_token.revoke',
        targetType: 'api_token',
        targetId: id,
        before: auditSummary(revoked),
        ip: actor.ip,
      });
    }
  });
  const [found] = await db
    .select({ row: apiTokens, creator: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName } })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .where(eq(apiTokens.id, id))
    .limit(1);
  if (!found) throw new ApiError(404, 'not_found', 'No such token');
  return listItem(found.row, found.creator?.id ? found.creator : null, now);
}

/** What a request's token turned out to be: usable (its row), or why not. */
export type ApiTokenLookup = { kind: 'ok'; token: ApiToken } | { kind: 'unknown' | 'expired' | 'revoked' };

/** The row of a well-formed token, by the SHA-256 of it (one read of a unique index), and whether it may be used at `now`. */
export async function lookUpApiToken(db: Db, clock: Clock, token: string): Promise<ApiTokenLookup> {
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, sha256Hex(token)))
    .limit(1);
  if (!row) return { kind: 'unknown' };
  const status = apiTokenStatus(row, clock.now());
  return status === 'active' ? { kind: 'ok', token: row } : { kind: status };
}

/**
 * Records that a token was used, from where: at most once a minute per token, whatever the number
 * of requests or processes (the row read says when it was last written, and the update holds only
 * while the stored time is still a minute old).
 */
export async function noteApiTokenUse(db: Db, clock: Clock, token: Pick<ApiToken, 'id' | 'lastUsedAt'>, ip: string): Promise<void> {
  const now = clock.now();
  const due = new Date(now.getTime() - LAST_USED_EVERY_MS);
  if (token.lastUsedAt && token.lastUsedAt.getTime() > due.getTime()) return;
  await db
    .update(apiTokens)
    .set({ lastUsedAt: now, lastUsedIp: ip })
    .where(and(eq(apiTokens.id, token.id), or(isNull(apiTokens.lastUsedAt), lte(apiTokens.lastUsedAt, due))));
}
