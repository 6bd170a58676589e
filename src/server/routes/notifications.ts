import { Hono } from 'hono';
import { notificationsReadSchema } from '../../shared/schemas/notifications.ts';
import type { AppEnv } from '../context.ts';
import { jsonBody, query, requestLanguage, signedIn, signedInUser } from '../http.ts';
import { SOURCE_LANGUAGE } from '../../shared/languages.ts';
import { listNotifications, markNotificationsRead, notificationsQuerySchema } from '../services/notifications.ts';

/** The header's notifications (`/api/account/notifications`, any signed-in user). Rules: `services/notifications.ts`. */
export const notificationRoutes = new Hono<AppEnv>()
  .use('*', signedIn)

  /** A page, newest first (`?page=&pageSize=`, 20 by default), and the unread count. */
  .get('/', query(notificationsQuerySchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const query = c.req.valid('query');
    return c.json(await listNotifications(c.get('db'), user.id, query, requestLanguage(c) ?? SOURCE_LANGUAGE), 200);
  })

  /** Marks the given notifications read (`{ ids }`; another user's are ignored), or all of them (`{}`); answers the unread count. */
  .post('/read', jsonBody(notificationsReadSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { ids } = c.req.valid('json');
    return c.json({ unread: await markNotificationsRead(c.get('db'), c.get('deps').clock, user.id, ids) }, 200);
  });
