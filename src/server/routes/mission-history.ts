import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { pathId, signedIn, signedInUser } from '../http.ts';
import { missionHistory, missionHistoryList } from '../services/mission-history.ts';

/** The participant's mission history (`/api/account/mission-history`). Rules: `services/mission-history.ts`. */
export const missionHistoryRoutes = new Hono<AppEnv>()
  .use('*', signedIn)

  /** The missions the user has entries in. */
  .get('/', async (c) => {
    const user = signedInUser(c.get('user'));
    return c.json({ items: await missionHistoryList(c.get('db'), user.id, user.preferences.language) }, 200);
  })

  /** The user's entries in one mission; 404 when they have none or cannot see it. */
  .get('/:missionId', async (c) => {
    const user = signedInUser(c.get('user'));
    return c.json(await missionHistory(c.get('db'), user.id, pathId(c, 'missionId', 'mission'), user.preferences.language), 200);
  });
