import { Hono, type Context } from 'hono';
import { entryCreateSchema, entrySaveSchema, entrySubmitSchema } from '../../shared/schemas/mission-entries.ts';
import type { AppEnv } from '../context.ts';
import type { Mission } from '../db/schema/index.ts';
import { check, jsonBody, notFound, pathId, perRequest, signedIn, signedInUser } from '../http.ts';
import { createEntry, deleteEntry, participantMission, saveEntry, submitEntry } from '../services/mission-entries.ts';
import { findVisibleMission, type Visible } from '../services/participation.ts';

/** The mission of the path, when the signed-in user may see it; 404 otherwise (before any body is read). */
const visibleMission = perRequest(async (c): Promise<Visible<Mission>> => {
  const user = signedInUser(c.get('user'));
  const visible = await findVisibleMission(c.get('db'), user.id, pathId(c, 'id', 'mission'));
  if (!visible) throw notFound('mission');
  return visible;
});

const entryIdOf = (c: Context<AppEnv>) => pathId(c, 'entryId', 'entry');
/** The mission, then the entry id, of the path: 404 before any body is read. */
const entryPath = async (c: Context<AppEnv>) => {
  await visibleMission(c);
  entryIdOf(c);
};

/**
 * Missions as participants take them: the mission with their entries, and entries made (draft),
 * autosaved, deleted (drafts) and submitted. 404 unless the user is a member of the mission's
 * live (or closed) project and the mission is not a draft; someone else's entry is 404 too.
 * Rules: `services/mission-entries.ts`.
 */
export const missionRoutes = new Hono<AppEnv>()
  .use('*', signedIn)

  .get('/:id', async (c) => {
    const visible = await visibleMission(c);
    const user = signedInUser(c.get('user'));
    return c.json(await participantMission(c.get('db'), c.get('deps').clock, visible, user.id, user.preferences.timeZone, user.preferences.language), 200);
  })

  .post('/:id/entries', check(visibleMission), jsonBody(entryCreateSchema), async (c) => {
    const visible = await visibleMission(c);
    const input = c.req.valid('json');
    const result = await createEntry(c.get('db'), c.get('deps').clock, visible, signedInUser(c.get('user')).id, input);
    if (result.kind === 'refused') {
      const { code, message, nextEntryAt } = result;
      return c.json({ error: nextEntryAt ? { code, message, nextEntryAt } : { code, message } }, 409);
    }
    return c.json({ id: result.id, status: result.status }, 201);
  })

  .put('/:id/entries/:entryId', check(entryPath), jsonBody(entrySaveSchema), async (c) => {
    const visible = await visibleMission(c);
    const entryId = entryIdOf(c);
    const input = c.req.valid('json');
    return c.json(await saveEntry(c.get('db'), c.get('deps').clock, visible, signedInUser(c.get('user')).id, entryId, input), 200);
  })

  .delete('/:id/entries/:entryId', async (c) => {
    const visible = await visibleMission(c);
    await deleteEntry(c.get('db'), visible, signedInUser(c.get('user')).id, entryIdOf(c));
    return c.body(null, 204);
  })

  .post('/:id/entries/:entryId/submit', check(entryPath), jsonBody(entrySubmitSchema), async (c) => {
    const visible = await visibleMission(c);
    const entryId = entryIdOf(c);
    const input = c.req.valid('json');
    return c.json(await submitEntry(c.get('db'), c.get('deps').clock, visible, signedInUser(c.get('user')).id, entryId, input), 200);
  });
