import { Hono } from 'hono';
import { featureFlagQuerySchema } from '../../shared/schemas/flags.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { noStore, query } from '../http.ts';
import { isPublicFlag, readFlagCached } from '../services/public-flags.ts';

/**
 * `GET /api/feature-flags?feature=banner` (docs/product.md §4, §7): the flag's JSON value as the body,
 * `null` when unset. Only the public flags (banner, maintenance) are readable here; others are 404.
 */
export const featureFlagRoutes = new Hono<AppEnv>().get('/', query(featureFlagQuerySchema), async (c) => {
  noStore(c);
  const { feature } = c.req.valid('query');
  if (!isPublicFlag(feature)) throw new ApiError(404, 'not_found', 'No such feature flag');
  const value = await readFlagCached(c.get('db'), c.get('deps').clock, feature);
  return c.json(value ?? null, 200);
});
