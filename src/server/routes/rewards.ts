import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { signedIn, signedInUser } from '../http.ts';
import { rewardCatalogue } from '../services/rewards.ts';

/**
 * The rewards a participant may choose (issue 30 §3; docs/api.md "Rewards"): the active catalogue
 * with each reward's availability for the caller (their address's country, stock, a rate for the
 * currency), their balance and the pricing settings. Any signed-in user, like the other
 * participant calls (`GET /api/account/points`): staff see it as a participant would, with their
 * own balance; requesting a reward is the participant's alone (`POST /api/redemptions`).
 */
export const rewardRoutes = new Hono<AppEnv>().get('/', signedIn, async (c) => {
  const user = signedInUser(c.get('user'));
  return c.json(await rewardCatalogue(c.get('db'), user.id), 200);
});
