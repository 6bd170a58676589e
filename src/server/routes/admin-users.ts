import { asc, count, eq, ilike, or } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { ELEVATED_ROLES } from '../../shared/roles.ts';
import { pointsAdjustSchema } from '../../shared/schemas/points.ts';
import type { AppEnv } from '../context.ts';
import { users } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { clientIp, readJson, readQuery } from '../http.ts';
import { requireUser } from '../middleware/session.ts';
import { audit } from '../services/audit.ts';
import { adjustPoints, adminPointsEntryView } from '../services/points.ts';
import { publicUser } from '../services/users.ts';
import { pathId } from './admin-projects.ts';
import { signedInUser } from './params.ts';

const listQuery = z.object({
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(10),
});

/** Escapes LIKE wildcards so a search is taken literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * The admin area's users: the list (moderator and admin) and points adjustments (admin only:
 * moderators get 403).
 */
export const adminUserRoutes = new Hono<AppEnv>()
  .use('*', requireUser(ELEVATED_ROLES))
  .get('/', async (c) => {
    const { search, page, perPage } = readQuery(c, listQuery);
    const pattern = search ? `%${likeLiteral(search)}%` : null;
    const where = pattern ? or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern)) : undefined;
    const [rows, [total]] = await Promise.all([
      c.var.db
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(users.id))
        .limit(perPage)
        .offset((page - 1) * perPage),
      c.var.db.select({ value: count() }).from(users).where(where),
    ]);
    c.header('Cache-Control', 'no-store');
    return c.json({ users: rows.map(publicUser), total: total?.value ?? 0, page, perPage });
  })

  /**
   * `POST /api/admin/users/{id}/points` `{ points, reason, reference? }`: 201 the new entry; the
   * same reference again answers 200 with the first entry (nothing is credited twice); 404 for an
   * unknown user. Audited `points.adjust` (new entries only), in the same transaction.
   */
  .post('/:id/points', requireUser(['admin']), async (c) => {
    const actor = signedInUser(c.var.user);
    const userId = pathId(c, 'id', 'user');
    const { db, deps } = c.var;
    const [target] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    if (!target) throw new ApiError(404, 'not_found', 'No such user');
    const input = await readJson(c, pointsAdjustSchema);
    const ip = clientIp(c);
    const result = await db.transaction(async (tx) => {
      const done = await adjustPoints(tx, deps.clock, { userId, points: input.points, reason: input.reason, reference: input.reference, actorId: actor.id });
      if (done.created) {
        await audit(tx, {
          actorId: actor.id,
          via: 'api',
          action: 'points.adjust',
          targetType: 'user',
          targetId: userId,
          after: { entryId: done.entry.id, points: done.entry.points, reason: input.reason, reference: done.entry.reference },
          ip,
        });
      }
      return done;
    });
    c.header('Cache-Control', 'no-store');
    return c.json(adminPointsEntryView(result.entry), result.created ? 201 : 200);
  });
