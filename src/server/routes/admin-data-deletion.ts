import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { MESSAGES } from '../../shared/messages.ts';
import { adminListQuerySchema, idParamSchema } from '../../shared/schemas/admin.ts';
import { DATA_DELETION_STATUSES, dataDeletionUpdateSchema } from '../../shared/schemas/data-deletion.ts';
import type { AppEnv } from '../context.ts';
import { dataDeletionRequests } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { clientIp, readJson, readQuery } from '../http.ts';
import { dataDeletionCompletedNotice } from '../mail/templates.ts';
import { requireUser } from '../middleware/session.ts';
import { audit } from '../services/audit.ts';
import { canMoveTo, findRequest, listRequests, requestView } from '../services/data-deletion.ts';
import { readParams, signedInUser } from './params.ts';

const listQuery = adminListQuerySchema.extend({
  status: z.enum(DATA_DELETION_STATUSES, { error: MESSAGES.invalidEnumValue }).optional(),
});

/**
 * Data-deletion requests for admins. Completing one only records that the data was deleted (by
 * the admin workflow, outside this call) and tells the person; it deletes nothing itself.
 */
export const adminDataDeletionRoutes = new Hono<AppEnv>()
  .use('*', requireUser(['admin']))
  .use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  })

  .get('/', async (c) => {
    const query = readQuery(c, listQuery);
    const { requests, total } = await listRequests(c.var.db, query);
    return c.json({ requests, total, page: query.page, perPage: query.perPage }, 200);
  })

  .patch('/:id', async (c) => {
    const admin = signedInUser(c.var.user);
    const { id } = readParams(c, idParamSchema);
    const { status } = await readJson(c, dataDeletionUpdateSchema);
    const { db, deps } = c.var;
    const before = await findRequest(db, id);
    if (!before) throw new ApiError(404, 'not_found', 'No such request');
    if (!canMoveTo(before.status, status)) {
      const why = status === 'completed' ? 'Only a confirmed request can be completed' : 'This request is already closed';
      throw new ApiError(409, 'invalid_status', `${why} (it is ${before.status})`);
    }
    const now = deps.clock.now();
    const [updated] = await db
      .update(dataDeletionRequests)
      .set({ status, handledAt: now, handledBy: admin.id })
      .where(and(eq(dataDeletionRequests.id, id), eq(dataDeletionRequests.status, before.status)))
      .returning();
    if (!updated) throw new ApiError(409, 'invalid_status', 'The request changed meanwhile; reload it');
    await audit(db, {
      actorId: admin.id,
      via: 'api',
      action: `data_deletion.${status === 'completed' ? 'complete' : 'cancel'}`,
      targetType: 'data_deletion_request',
      targetId: id,
      before: { status: before.status },
      after: { status },
      ip: clientIp(c),
    });
    if (status === 'completed') {
      await deps.jobs.mail(dataDeletionCompletedNotice({ to: updated.email, supportUrl: `${deps.config.publicUrl}/contact` }));
    }
    return c.json({ request: requestView(updated) }, 200);
  });
