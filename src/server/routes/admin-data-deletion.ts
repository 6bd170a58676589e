import { Hono, type Context } from 'hono';
import { dataDeletionListQuerySchema } from '../../shared/schemas/admin.ts';
import { dataDeletionUpdateSchema } from '../../shared/schemas/data-deletion.ts';
import type { AppEnv } from '../context.ts';
import { adminOnly, check, clientIp, jsonBody, pathId, query, signedInUser } from '../http.ts';
import { closeRequest, listRequests, requestView } from '../services/data-deletion.ts';

const requestIdOf = (c: Context<AppEnv>) => pathId(c, 'id', 'request');
/** A malformed id is 404 before the body is read. */
const requestIdChecked = async (c: Context<AppEnv>) => requestIdOf(c);

/**
 * Data-deletion requests for admins. Completing one only records that the data was deleted (by
 * the admin workflow, outside this call) and tells the person; it deletes nothing itself.
 */
export const adminDataDeletionRoutes = new Hono<AppEnv>()
  .use('*', adminOnly)

  .get('/', query(dataDeletionListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(await listRequests(c.get('db'), query), 200);
  })

  .patch('/:id', check(requestIdChecked), jsonBody(dataDeletionUpdateSchema), async (c) => {
    const admin = signedInUser(c.get('user'));
    const id = requestIdOf(c);
    const { status } = c.req.valid('json');
    const updated = await closeRequest(c.get('db'), c.get('deps'), id, status, { actorId: admin.id, ip: clientIp(c) });
    return c.json({ request: requestView(updated) }, 200);
  });
