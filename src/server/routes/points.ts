import { Hono } from 'hono';
import { pointsAdjustSchema, pointsHistoryQuerySchema } from '../../shared/schemas/points.ts';
import type { AppEnv } from '../context.ts';
import { adminOnly, check, clientIp, jsonBody, notFound, pathId, perRequest, query, recentAuth, signedIn, signedInUser } from '../http.ts';
import { adjustPointsAudited, adminPointsEntryView, pointsSummary } from '../services/points.ts';
import { findUserById } from '../services/users.ts';

/**
 * Points (mounted at `/api`, so each call names its whole path): the participant's balance and
 * ledger, and admins' adjustments. Rules: `services/points.ts`.
 */
/** The user of the path, checked to exist (404) before the body is read. */
const userIdOf = perRequest(async (c) => {
  const userId = pathId(c, 'id', 'user');
  if (!(await findUserById(c.get('db'), userId))) throw notFound('user');
  return userId;
});

export const pointsRoutes = new Hono<AppEnv>()
  /** Balance (= available, held points taken off), available, pending, held, and a page of the ledger, newest first. */
  .get('/account/points', signedIn, query(pointsHistoryQuerySchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const query = c.req.valid('query');
    return c.json(await pointsSummary(c.get('db'), user.id, query), 200);
  })

  /**
   * `{ points, reason, reference? }` (admins; moderators 403): 201 the new entry; the same
   * reference again answers 200 with the first entry (nothing is credited twice); 404 for an
   * unknown user, checked before the body; 409 `insufficient_points` when negative points would
   * take the participant's available points below zero, unless `allowNegative: true` (this call
   * is admins' only, so only an admin can say so). Audited `points.adjust` (new entries only), in
   * the same transaction. Needs a recent sign-in (`recentAuth`).
   */
  .post('/admin/users/:id/points', adminOnly, recentAuth, check(userIdOf), jsonBody(pointsAdjustSchema), async (c) => {
    const actor = signedInUser(c.get('user'));
    const userId = await userIdOf(c);
    const { db, deps } = c.var;
    const input = c.req.valid('json');
    const result = await adjustPointsAudited(
      db,
      deps.clock,
      { userId, points: input.points, reason: input.reason, reference: input.reference, actorId: actor.id, allowNegative: input.allowNegative },
      { ip: clientIp(c) },
    );
    return c.json(adminPointsEntryView(result.entry), result.created ? 201 : 200);
  });
