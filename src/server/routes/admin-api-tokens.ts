import { Hono } from 'hono';
import { apiTokenCreateSchema, apiTokenListQuerySchema } from '../../shared/schemas/api-tokens.ts';
import type { AppEnv } from '../context.ts';
import { adminOnly, clientIp, jsonBody, pathId, query, recentAuth, signedInUser } from '../http.ts';
import { createApiToken, listApiTokens, revokeApiToken } from '../services/api-tokens.ts';

/**
 * API tokens (issue 32 §2; docs/api.md "API tokens and /api/v1"): admins only, with a session (a
 * bearer token is refused on these calls before they run: middleware/api-token.ts). Making one
 * needs a recent sign-in (`recentAuth`): whoever holds it reads personal data. Mounted at `/`,
 * each call names its whole path.
 */
export const adminApiTokenRoutes = new Hono<AppEnv>()
  /** The list contract: every token with its first characters, scopes, project, who made it, when it was last used, its status. */
  .get('/admin/tokens', adminOnly, query(apiTokenListQuerySchema), async (c) => {
    const { db, deps } = c.var;
    return c.json(await listApiTokens(db, deps.clock, c.req.valid('query')), 200);
  })

  /** `{ name, scopes, projectId?, expiresInDays? }` → 201 with the token, shown this once; audited `api_token.create`. */
  .post('/admin/tokens', adminOnly, recentAuth, jsonBody(apiTokenCreateSchema), async (c) => {
    const { db, deps } = c.var;
    const actor = signedInUser(c.get('user'));
    return c.json(await createApiToken(db, deps.clock, c.req.valid('json'), { id: actor.id, ip: clientIp(c) }), 201);
  })

  /** Revokes the token at once (its next request is 401 `token_revoked`); 200 with its list item; audited `api_token.revoke`. */
  .delete('/admin/tokens/:id', adminOnly, async (c) => {
    const { db, deps } = c.var;
    const actor = signedInUser(c.get('user'));
    const id = pathId(c, 'id', 'token');
    return c.json(await revokeApiToken(db, deps.clock, id, { id: actor.id, ip: clientIp(c) }), 200);
  });
