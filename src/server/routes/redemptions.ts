import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { idempotencyKeySchema, redemptionCreateSchema, redemptionListQuerySchema } from '../../shared/schemas/redemptions.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { enforceRateLimits, jsonBody, pathId, query, signedIn, signedInUser, validationError } from '../http.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { cancelRedemption, createRedemption, getRedemption, listRedemptions } from '../services/redemptions.ts';

/**
 * A participant's rewards requests (issue 30; mounted at `/api/redemptions`). Rules:
 * `services/redemptions.ts`. Participants only: staff have no points to spend (403), and see
 * requests in the fulfilment queue. Another participant's request is 404.
 */
const participantsOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (signedInUser(c.get('user')).role !== 'participant') throw new ApiError(403, 'forbidden', 'Rewards are for participants');
  await next();
});

/** The retry key: the `Idempotency-Key` header, else the body's `key`; one of them is required. */
function idempotencyKey(header: string | undefined, bodyKey: string | undefined): string {
  if (header === undefined) {
    if (bodyKey === undefined)
      throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { key: ['Send an Idempotency-Key header'] } });
    return bodyKey;
  }
  const parsed = idempotencyKeySchema.safeParse(header);
  if (!parsed.success) throw validationError({ issues: parsed.error.issues.map((issue) => ({ ...issue, path: ['key'] })) });
  return parsed.data;
}

export const redemptionRoutes = new Hono<AppEnv>()
  .use(signedIn, participantsOnly)

  /** Newest first (the list contract; `q` searches the reward's title). */
  .get('/', query(redemptionListQuerySchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { db, deps } = c.var;
    return c.json(await listRedemptions(db, deps.config, user.id, c.req.valid('query')), 200);
  })

  /**
   * `{ rewardId, value }` + `Idempotency-Key` (or `key`): 201 the new request, its points held;
   * the same key again: 200 the first one, whatever the body. 404 unknown or inactive reward;
   * 400 a value it does not offer; 409 `not_available_here`, `out_of_stock`, `below_minimum`,
   * `open_request_exists`, `tax_form_required`, `insufficient_points` (checked in that order).
   */
  .post('/', jsonBody(redemptionCreateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const body = c.req.valid('json');
    const key = idempotencyKey(c.req.header('idempotency-key'), body.key);
    await enforceRateLimits(c, [[`redemptions:user:${user.id}`, RATE_LIMITS.redemptionsPerUser]]);
    const { db, deps } = c.var;
    const { redemption, created } = await createRedemption(db, deps, { userId: user.id, rewardId: body.rewardId, value: body.value, key });
    return c.json(redemption, created ? 201 : 200);
  })

  .get('/:id', async (c) => {
    const user = signedInUser(c.get('user'));
    const { db, deps } = c.var;
    return c.json(await getRedemption(db, deps.config, user.id, pathId(c, 'id', 'redemption')), 200);
  })

  /** Only while `requested` (409 `not_cancellable` after): the points and the stock come back. */
  .post('/:id/cancel', async (c) => {
    const user = signedInUser(c.get('user'));
    const { db, deps } = c.var;
    return c.json(await cancelRedemption(db, deps, user.id, pathId(c, 'id', 'redemption')), 200);
  });
