import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { MESSAGES } from '../../shared/messages.ts';
import { contactMessageListQuerySchema } from '../../shared/schemas/admin.ts';
import type { AppEnv } from '../context.ts';
import { check, clientIp, jsonBody, pathId, query, signedInUser, staffOnly } from '../http.ts';
import { listContactMessages, setHandled } from '../services/contact-messages.ts';

const handledSchema = z.strictObject({ handled: z.boolean({ error: MESSAGES.required }) });

const messageIdOf = (c: Context<AppEnv>) => pathId(c, 'id', 'message');
/** A malformed id is 404 before the body is read. */
const messageIdChecked = async (c: Context<AppEnv>) => messageIdOf(c);

/** Contact-form messages for moderators and admins: newest first, searchable; mark one handled. */
export const adminContactMessageRoutes = new Hono<AppEnv>()
  .use('*', staffOnly)

  .get('/', query(contactMessageListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(await listContactMessages(c.get('db'), query), 200);
  })

  .patch('/:id', check(messageIdChecked), jsonBody(handledSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const id = messageIdOf(c);
    const { handled } = c.req.valid('json');
    const message = await setHandled(c.get('db'), c.get('deps').clock, id, handled, { actorId: user.id, ip: clientIp(c) });
    return c.json({ message }, 200);
  });
