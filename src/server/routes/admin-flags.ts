import { Hono } from 'hono';
import { z } from 'zod';
import { flagKeySchema, flagUpdateSchema } from '../../shared/schemas/flags.ts';
import type { AppEnv } from '../context.ts';
import type { FeatureFlag } from '../db/schema/index.ts';
import { adminOnly, clientIp, jsonBody, params, signedInUser } from '../http.ts';
import { audit } from '../services/audit.ts';
import { getFlag, listFlags, setFlag, unsetFlag } from '../services/flags.ts';
import { forgetCachedFlags, isPublicFlag } from '../services/public-flags.ts';

const keyParams = z.object({ key: flagKeySchema });

const flagView = (flag: FeatureFlag) => ({
  key: flag.key,
  value: flag.value,
  public: isPublicFlag(flag.key),
  updatedAt: flag.updatedAt.toISOString(),
  updatedBy: flag.updatedBy,
});

/**
 * Feature flags for admins: list, set, remove. `maintenance` is one of them: PUT it to `true` to
 * send every page to /maintenance, DELETE it to bring the site back. Every change is audited.
 */
export const adminFlagRoutes = new Hono<AppEnv>()
  .use('*', adminOnly)

  .get('/', async (c) => {
    const flags = await listFlags(c.get('db'));
    return c.json({ flags: flags.map(flagView) }, 200);
  })

  .put('/:key', params(keyParams), jsonBody(flagUpdateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { key } = c.req.valid('param');
    const { value } = c.req.valid('json');
    const { db } = c.var;
    const before = await getFlag(db, key);
    const flag = await setFlag(db, key, value, user.id);
    forgetCachedFlags(db);
    await audit(db, {
      actorId: user.id,
      via: 'api',
      action: 'flag.set',
      targetType: 'flag',
      targetId: key,
      before: before ?? null,
      after: value,
      ip: clientIp(c),
    });
    return c.json({ flag: flagView(flag) }, 200);
  })

  .delete('/:key', params(keyParams), async (c) => {
    const user = signedInUser(c.get('user'));
    const { key } = c.req.valid('param');
    const { db } = c.var;
    const before = await getFlag(db, key);
    const removed = await unsetFlag(db, key);
    forgetCachedFlags(db);
    if (removed)
      await audit(db, { actorId: user.id, via: 'api', action: 'flag.unset', targetType: 'flag', targetId: key, before: before ?? null, ip: clientIp(c) });
    return c.json({ ok: true, removed } as const, 200);
  });
