import { Hono } from 'hono';
import { z } from 'zod';
import { MESSAGES } from '../../shared/messages.ts';
import { contactMessageListQuerySchema, idParamSchema } from '../../shared/schemas/admin.ts';
import type { AppEnv } from '../context.ts';
import { clientIp, readJson, readParams, readQuery, signedInUser, staffOnly } from '../http.ts';
import { listContactMessages, setHandled } from '../services/contact-messages.ts';

const handledSchema = z.strictObject({ handled: z.boolean({ error: MESSAGES.required }) });

/** Contact-form messages for moderators and admins: newest first, searchable; mark one handled. */
export const adminContactMessageRoutes = new Hono<AppEnv>()
  .use('*', staffOnly)

  .get('/', async (c) => {
    const query = readQuery(c, contactMessageListQuerySchema);
    return c.json(await listContactMessages(c.var.db, query), 200);
  })

  .patch('/:id', async (c) => {
    const user = signedInUser(c.var.user);
    const { id } = readParams(c, idParamSchema);
    const { handled } = await readJson(c, handledSchema);
    const message = await setHandled(c.var.db, c.var.deps.clock, id, handled, { actorId: user.id, ip: clientIp(c) });
    return c.json({ message }, 200);
  });
